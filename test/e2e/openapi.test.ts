/**
 * The OpenAPI description: valid OpenAPI 3.1 by a real validator, and the live
 * responses of the end-to-end server (200, 304, 400, 404, 405, 429) match it.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { createConfig, lintFromString } from "@redocly/openapi-core";
import { Validator } from "@seriousme/openapi-schema-validator";
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormatsModule from "ajv-formats";
import { describe, expect, inject, it } from "vitest";
import { INDICATOR_IDS } from "../indicators.js";

// ajv-formats is CommonJS: under ESM its function may sit on `.default`.
const addFormats = (addFormatsModule as unknown as { default?: typeof addFormatsModule }).default ?? addFormatsModule;

interface OpenApiResponse {
  headers?: Record<string, unknown>;
  content?: Record<string, { schema: object }>;
}
interface OpenApiDoc {
  paths: Record<string, Record<string, { responses: Record<string, OpenApiResponse> }>>;
  components: { schemas: Record<string, object> };
}

const system = inject("system");
const doc = JSON.parse(readFileSync(join(system.mainDir, "api/v1/openapi.json"), "utf8")) as OpenApiDoc;
/** The server with a limit of 20 requests per 20 s, so that a 429 is reached; this file's own client address. */
const server = { url: system.urls.load };
const CLIENT = { "CF-Connecting-IP": "203.0.113.77" };

describe("openapi.json", () => {
  it("is a valid OpenAPI 3.1 document", async () => {
    const validator = new Validator();
    const result = await validator.validate(doc as unknown as Parameters<Validator["validate"]>[0]);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(validator.version).toBe("3.1");
  });

  it("passes Redocly's recommended lint, but for the catalog's and the status document's GET, static files that have no 4XX to declare", async () => {
    const source = readFileSync(join(system.mainDir, "api/v1/openapi.json"), "utf8");
    const problems = await lintFromString({ source, absoluteRef: "openapi.json", config: await createConfig({ extends: ["recommended"] }) });
    const found = problems.map((p) => `${p.severity} ${p.ruleId} ${p.location[0]?.pointer ?? ""}`);
    expect(found).toEqual(["warn operation-4xx-response #/paths/~1api~1v1~1index.json/get/responses", "warn operation-4xx-response #/paths/~1api~1v1~1status.json/get/responses"]);
  });

  it("describes the live responses of the server: 200, 304, 400, 404, 405 and 429", async () => {
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats(ajv);
    ajv.addSchema({ ...doc, $id: "openapi.json" });
    const operation = doc.paths["/api/v1/{indicator}"]?.get;
    expect(operation).toBeDefined();

    const check = async (path: string, init: RequestInit = {}, method = "get") => {
      const response = await fetch(server.url + path, { ...init, headers: { ...CLIENT, ...(init.headers as Record<string, string> | undefined) } });
      const text = await response.text();
      const op = method === "get" ? operation : doc.paths["/api/v1/{indicator}"]?.[method];
      const spec = op?.responses[String(response.status)];
      expect(spec, `${response.status} for ${path} is documented`).toBeDefined();
      for (const name of Object.keys(spec?.headers ?? {})) {
        if (name === "Content-Type" || name === "X-Total-Count") continue; // conditional headers (X-Total-Count: CSV only)
        expect(response.headers.has(name), `${response.status} ${path}: ${name}`).toBe(true);
      }
      const schema = spec?.content?.["application/json"]?.schema as { $ref?: string } | undefined;
      if (response.status === 304 || schema === undefined) {
        expect(text).toBe("");
      } else {
        const validate = ajv.getSchema(`openapi.json${schema.$ref}`);
        expect(validate, schema.$ref).toBeDefined();
        const valid = validate?.(JSON.parse(text));
        expect(valid, JSON.stringify(validate?.errors)).toBe(true);
      }
      return response;
    };

    const ok = await check("/api/v1/domestic-worker-wages?from=2020&limit=3");
    await check("/api/v1/health-insurance-prices?limit=10&offset=10");
    await check("/api/v1/domestic-worker-wages?from=2020&limit=3", { headers: { "If-None-Match": ok.headers.get("ETag") ?? "" } });
    await check("/api/v1/domestic-worker-wages?limit=0");
    // After the last look (the tests' data version, 2026-11-20; no check recorded): meta.checked null and
    // meta.data_changed, with meta.missing: the regional series ended, and, once July 2026's successor is due
    // (1 January 2027, after the last look), the others pending.
    for (const day of ["2026-11-21", "2027-06-08"]) {
      await check(`/api/v1/domestic-worker-wages?at=${day}`);
      const after = (await (await fetch(`${server.url}/api/v1/domestic-worker-wages?at=${day}`, { headers: CLIENT })).json()) as { meta: { checked?: string | null; data_changed?: string; missing?: { reason: string }[] } };
      expect(after.meta.checked, day).toBeNull();
      expect(after.meta.data_changed, day).toBe("2026-11-20");
      expect(after.meta.missing?.map((m) => m.reason), day).toEqual(day === "2026-11-21" ? ["ended"] : ["pending", "ended"]);
    }
    await check("/api/v1/no-such-indicator");
    await check("/api/v1/domestic-worker-wages", { method: "POST" });
    let status = 0;
    for (let i = 0; i < 30 && status !== 429; i++) status = (await check("/api/v1/domestic-worker-wages?limit=1")).status;
    expect(status).toBe(429);

    // The example in the document is a real response.
    const example = (operation?.responses["200"]?.content?.["application/json"] as { example?: unknown } | undefined)?.example;
    const validate = ajv.getSchema("openapi.json#/components/schemas/Page");
    expect(validate?.(example)).toBe(true);
  });

  it("describes the live answers of the changes and of as_of: 200 and 400", async () => {
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats(ajv);
    ajv.addSchema({ ...doc, $id: "openapi.json" });
    // Another client address than the 429 check's, which uses up its own.
    const client = { "CF-Connecting-IP": "203.0.113.78" };
    const today = new Date().toISOString().slice(0, 10);
    const cases: [string, string, number][] = [
      [`/api/v1/domestic-worker-wages/changes?since=${today}&limit=2`, "Changes", 200],
      [`/api/v1/domestic-worker-wages/changes?since=${today}&format=csv`, "", 200],
      ["/api/v1/domestic-worker-wages/changes", "Error", 400],
      [`/api/v1/domestic-worker-wages?as_of=${today}&limit=1`, "Page", 200],
      ["/api/v1/domestic-worker-wages?as_of=1999-01-01", "Error", 400],
    ];
    for (const [path, name, status] of cases) {
      const response = await fetch(server.url + path, { headers: client });
      expect(response.status, path).toBe(status);
      const operation = doc.paths[path.includes("/changes") ? "/api/v1/{indicator}/changes" : "/api/v1/{indicator}"]?.get;
      expect(operation?.responses[String(status)], `${status} for ${path} is documented`).toBeDefined();
      const text = await response.text();
      if (name === "") continue;
      const validate = ajv.getSchema(`openapi.json#/components/schemas/${name}`);
      expect(validate?.(JSON.parse(text)), `${path}: ${JSON.stringify(validate?.errors)}`).toBe(true);
    }
    // The adjustment's answer: its meta (the unit, units_of, rhythm, stepwise, used, checked, data_changed) as declared,
    // for an index and a unit of account, a date with its own value and one past the newest (meta.used's reason).
    const adjust = ajv.compile({ $ref: "openapi.json#/paths/~1api~1v1~1adjust/get/responses/200/content/application~1json/schema" });
    for (const path of ["/api/v1/adjust?amount=1000&from=2019-01-15&to=2026-07-01&by=consumer-price-index:general", "/api/v1/adjust?amount=1000&from=2019-01-15&to=2026-11-20&by=unidad-indexada:ui"]) {
      const response = await fetch(server.url + path, { headers: client });
      expect(response.status, path).toBe(200);
      expect(adjust(await response.json()), `${path}: ${JSON.stringify(adjust.errors)}`).toBe(true);
    }
  });

  it("describes the catalog and the metadata documents the server publishes, labels in both languages", async () => {
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats(ajv);
    ajv.addSchema({ ...doc, $id: "openapi.json" });
    const documents: [string, string][] = [
      ["/api/v1/index.json", "Catalog"],
      ["/api/v1/domestic-worker-wages/metadata.json", "Metadata"],
      ["/api/v1/health-insurance-prices/metadata.json", "Metadata"],
      ["/api/v1/status.json", "Status"],
    ];
    for (const [path, name] of documents) {
      const body = (await (await fetch(server.url + path, { headers: CLIENT })).json()) as unknown;
      const validate = ajv.getSchema(`openapi.json#/components/schemas/${name}`);
      expect(validate?.(body), `${path}: ${JSON.stringify(validate?.errors)}`).toBe(true);
    }
  });

  it("lists exactly the indicators the build published", () => {
    const get = doc.paths["/api/v1/{indicator}"]?.get as unknown as { parameters: { name: string; schema: { enum?: string[] } }[] };
    expect(get.parameters.find((p) => p.name === "indicator")?.schema.enum).toEqual(INDICATOR_IDS);
  });
});
