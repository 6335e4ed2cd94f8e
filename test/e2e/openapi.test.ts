/**
 * The OpenAPI description: valid OpenAPI 3.1 by a real validator, and the live
 * responses of the end-to-end server (200, 304, 400, 404, 405, 429) match it:
 * every kind of answer, over seeded random combinations of the parameters the
 * served document declares, validated against the document the server serves.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { Validator } from "@seriousme/openapi-schema-validator";
import fc from "fast-check";
import { beforeAll, describe, expect, inject, it } from "vitest";
import { INDICATOR_IDS, declaredSeries } from "../indicators.js";
import { openApiAjv, responseValidator } from "../schemas.js";

/**
 * Redocly's lint, the two functions this file calls, loaded by name: an `import` brought
 * 278 declaration files (99,000 lines) into the type-check, and checking the one call
 * below took 4 of its 13 s (tsc --generateTrace): about 21 → 15 s for `npm run typecheck`.
 */
interface Redocly {
  readonly createConfig: (config: { extends: string[] }) => Promise<object>;
  readonly lintFromString: (input: { source: string; absoluteRef: string; config: object }) => Promise<{ severity: string; ruleId: string; location: { pointer?: string }[] }[]>;
}
const REDOCLY: string = "@redocly/openapi-core";

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
    const { createConfig, lintFromString } = (await import(REDOCLY)) as Redocly;
    const problems = await lintFromString({ source, absoluteRef: "openapi.json", config: await createConfig({ extends: ["recommended"] }) });
    const found = problems.map((p) => `${p.severity} ${p.ruleId} ${p.location[0]?.pointer ?? ""}`);
    expect(found).toEqual(["warn operation-4xx-response #/paths/~1api~1v1~1index.json/get/responses", "warn operation-4xx-response #/paths/~1api~1v1~1status.json/get/responses"]);
  });

  it("describes the live responses of the server: 200, 304, 400, 404, 405 and 429", async () => {
    const ajv = openApiAjv(doc);
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
    const ajv = openApiAjv(doc);
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
    const ajv = openApiAjv(doc);
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

/** `values[i]` for a fast-check index. */
const pick = <T>(values: readonly T[]) => fc.constantFrom(...values);

describe("every kind of answer, validated against the served openapi.json", () => {
  const main = system.urls.main;
  const client = { "CF-Connecting-IP": "203.0.113.79" };
  const today = new Date().toISOString().slice(0, 10);
  let served: OpenApiDoc & { paths: Record<string, Record<string, { parameters?: { name: string; in: string }[] }>> };
  /** Answers validated, per kind (a kind of answer, or a parameter present in a 200). */
  const counts = new Map<string, number>();
  const count = (kind: string) => counts.set(kind, (counts.get(kind) ?? 0) + 1);
  /** Answers sent and checked against the document, every kind. */
  let answers = 0;

  beforeAll(async () => {
    const response = await fetch(`${main}/api/v1/openapi.json`, { headers: client });
    expect(response.status).toBe(200);
    served = (await response.json()) as typeof served;
  });

  /**
   * Sends `path` to `server`, finds its status among `route`'s responses in the served
   * document and validates the body: JSON against its schema, CSV and 304 by their
   * content. Returns the status and the parsed JSON (or null).
   */
  async function validated(route: string, path: string, init: RequestInit = {}, server = main, method = "get") {
    const response = await fetch(server + path, { ...init, headers: { ...client, ...(init.headers as Record<string, string> | undefined) } });
    const text = await response.text();
    answers++;
    const operation = (served.paths[route])?.[method];
    const spec = operation?.responses[String(response.status)];
    expect(spec, `${response.status} for ${path} is declared under ${route}`).toBeDefined();
    if (response.status === 304) {
      expect(text).toBe("");
      count("304");
      return { status: 304, body: null };
    }
    const type = response.headers.get("Content-Type") ?? "";
    if (type.startsWith("text/csv")) {
      expect(spec?.content?.["text/csv"], `${path}: CSV is declared`).toBeDefined();
      count(`${route} csv`);
      return { status: response.status, body: null };
    }
    const body = JSON.parse(text) as Record<string, unknown>;
    const validate = responseValidator(served, route, response.status, method);
    expect(validate(body), `${path}: ${JSON.stringify(validate.errors)}`).toBe(true);
    count(response.status === 200 ? route : String(response.status));
    return { status: response.status, body };
  }

  /** The texts tried for each parameter of the data endpoint: valid ones, and a few that are not. */
  const VALUES: Record<string, readonly string[]> = {
    from: ["2019", "2023-06", "2024-01-15", "2030", "2020-13"],
    to: ["2020", "2025-06", "2026-11-20", "1990-01-01"],
    at: ["2024-03-01", "2026-11-21", "2027-06-08", "1990", "x"],
    series: ["*", "monthly", "monthly,hourly", "*.fonasa", "no-such", "a,,b"],
    frequency: ["month", "quarter", "semester", "year", "week"],
    aggregation: ["mean", "end", "min", "max", "sum"],
    per: ["consumer-price-index:general", "unidad-indexada:ui", "bpc:bpc", "nope"],
    real: ["2024-01", "2019-06", "2024"],
    units: ["level", "change", "percent_change", "change_a_year_ago", "percent_change_a_year_ago", "index", "bad"],
    base: ["2020-01-01", "2023", "x"],
    as_of: [today, "2026-11-25", "1999-01-01", "2099-01-01"],
    limit: ["1", "3", "500", "0"],
    offset: ["0", "2", "100", "-1"],
    format: ["json", "csv", "xml"],
    dialect: ["rfc4180", "es", "fr"],
    provenance: ["true", "false", "yes"],
  };
  /** Questions that reach every kind of answer whatever the random draw: each parameter answered 200 at least once. */
  const SURE = [
    "/api/v1/domestic-worker-wages?provenance=true&limit=2",
    "/api/v1/domestic-worker-wages?provenance=true&frequency=year&series=monthly",
    "/api/v1/domestic-worker-wages?at=2027-06-08",
    "/api/v1/domestic-worker-wages?at=2024-03-01&series=monthly",
    "/api/v1/domestic-worker-wages?frequency=year&aggregation=end&series=monthly&from=2015&to=2023",
    "/api/v1/domestic-worker-wages?units=index&base=2020-01-01&series=monthly",
    "/api/v1/domestic-worker-wages?per=consumer-price-index:general&series=monthly&limit=3",
    "/api/v1/domestic-worker-wages?real=2024-01&series=monthly&limit=3",
    `/api/v1/domestic-worker-wages?as_of=${today}&limit=1`,
    "/api/v1/domestic-worker-wages?limit=2&offset=2",
    "/api/v1/domestic-worker-wages?format=csv&dialect=es&limit=1",
  ];

  it("the data endpoint: seeded random combinations of its declared parameters, each answer (200 JSON and CSV, 400, 404) valid", async () => {
    const route = "/api/v1/{indicator}";
    const declared = (served.paths[route]?.get?.parameters ?? []).filter((p) => p.in === "query").map((p) => p.name);
    // A parameter the document declares and this test never tries fails here.
    expect(declared.filter((name) => VALUES[name] === undefined)).toEqual([]);
    const question = fc.record({
      indicator: pick([...INDICATOR_IDS, "no-such-indicator"]),
      names: fc.subarray(declared, { maxLength: 3 }),
      choice: fc.array(fc.nat(), { minLength: declared.length, maxLength: declared.length }),
    });
    const paths = fc.sample(question, { seed: 38, numRuns: 160 }).map(({ indicator, names, choice }) => {
      const query = names.map((name) => {
        const values = VALUES[name] as readonly string[];
        const value = name === "series" && indicator !== "no-such-indicator" ? [...values, ...declaredSeries(indicator).slice(0, 2)] : values;
        return `${name}=${encodeURIComponent(value[(choice[declared.indexOf(name)] as number) % value.length] as string)}`;
      });
      return `/api/v1/${indicator}${query.length === 0 ? "" : `?${query.join("&")}`}`;
    });
    for (const path of [...SURE, ...paths]) {
      const { status, body } = await validated(route, path);
      if (status !== 200) continue;
      const query = new URL(path, main).searchParams;
      for (const name of query.keys()) count(`  ${name}=`);
      const meta = (body as { meta?: Record<string, unknown> } | null)?.meta;
      if (meta !== undefined && "checked" in meta) count("  at past the last check (meta.checked)");
      if (meta !== undefined && "missing" in meta) count("  meta.missing");
    }
    for (const name of declared) expect(counts.get(`  ${name}=`) ?? 0, `${name} answered 200`).toBeGreaterThan(0);
    expect(counts.get("  at past the last check (meta.checked)") ?? 0).toBeGreaterThan(0);
    expect(counts.get("400") ?? 0).toBeGreaterThan(10);
  });

  it("/changes, /adjust and /search: seeded random questions, each answer valid", async () => {
    const some = (values: Record<string, readonly string[]>, seed: number, runs: number) =>
      fc.sample(fc.record(Object.fromEntries(Object.entries(values).map(([name, texts]) => [name, fc.option(pick(texts), { nil: undefined })]))), { seed, numRuns: runs }).map((query) =>
        Object.entries(query)
          .filter(([, value]) => value !== undefined)
          .map(([name, value]) => `${name}=${encodeURIComponent(value as string)}`)
          .join("&"),
      );
    for (const q of some({ since: [today, "2026-11-01", "1999-01-01", "2020-02-30"], series: ["monthly", "*", "h*,m*"], limit: ["1", "5", "0"], offset: ["0", "3"], format: ["json", "csv"] }, 38, 30)) {
      await validated("/api/v1/{indicator}/changes", `/api/v1/domestic-worker-wages/changes?${q}`);
    }
    const adjust = { amount: ["1000", "0", "12.5", "-1"], from: ["2019-01-15", "2023", "1900-01-01"], to: ["2026-07-01", today, "2099-01-01"], by: ["consumer-price-index:general", "unidad-indexada:ui", "bpc:bpc", "domestic-worker-wages:monthly"], format: ["json", "csv"] };
    for (const q of some(adjust, 38, 30)) await validated("/api/v1/adjust", `/api/v1/adjust?${q}`);
    for (const q of some({ q: ["salario", "casmu gineco", "ui", "", "x".repeat(201)], indicator: ["health-insurance-prices", "nope"], facet: ["regime:fonasa", "x"], limit: ["1", "5", "200"], offset: ["0", "2"] }, 38, 30)) {
      await validated("/api/v1/search", `/api/v1/search?${q}`);
    }
    for (const route of ["/api/v1/{indicator}/changes", "/api/v1/adjust", "/api/v1/search"]) expect(counts.get(route) ?? 0, route).toBeGreaterThan(0);
  });

  it("status.json, the catalog, a metadata document, 304, 404, 405 and 429, each valid", async () => {
    await validated("/api/v1/status.json", "/api/v1/status.json");
    await validated("/api/v1/index.json", "/api/v1/index.json");
    await validated("/api/v1/{indicator}/metadata.json", "/api/v1/health-insurance-prices/metadata.json");
    const first = await fetch(`${main}/api/v1/domestic-worker-wages?limit=1`, { headers: client });
    await validated("/api/v1/{indicator}", "/api/v1/domestic-worker-wages?limit=1", { headers: { "If-None-Match": first.headers.get("ETag") ?? "" } });
    await validated("/api/v1/{indicator}", "/api/v1/no-such-indicator");
    await validated("/api/v1/{indicator}", "/api/v1/domestic-worker-wages", { method: "POST" });
    // The load server's limit (20 requests per 20 s) with this file's third client address.
    let status = 0;
    for (let i = 0; i < 30 && status !== 429; i++) status = (await validated("/api/v1/{indicator}", "/api/v1/bpc?limit=1", {}, system.urls.load)).status;
    expect(status).toBe(429);
    for (const kind of ["/api/v1/status.json", "/api/v1/index.json", "/api/v1/{indicator}/metadata.json", "304", "404", "405", "429"]) expect(counts.get(kind) ?? 0, kind).toBeGreaterThan(0);
  });

  it("refuses a mutated answer: an extra field in meta, an extra field in a point", async () => {
    const validate = responseValidator(served, "/api/v1/{indicator}", 200);
    const answer = (await (await fetch(`${main}/api/v1/domestic-worker-wages?provenance=true&limit=1`, { headers: client })).json()) as { data: Record<string, unknown>[]; meta: Record<string, unknown> };
    expect(validate(answer)).toBe(true);
    const mutated = [
      { ...answer, meta: { ...answer.meta, extra: true } },
      { ...answer, data: answer.data.map((point) => ({ ...point, extra: true })) },
    ];
    for (const body of mutated) {
      expect(validate(body)).toBe(false);
      count("mutated, refused");
    }
  });

  it("prints the answers validated per kind", () => {
    const lines = [...counts].map(([kind, n]) => `${String(n).padStart(5)}  ${kind}`);
    console.log(`${answers} answers validated against the served openapi.json; per kind (indented: the 200s with that parameter or field):\n${lines.join("\n")}`);
    expect(counts.get("mutated, refused")).toBe(2);
    expect(answers).toBeGreaterThan(250);
  });
});
