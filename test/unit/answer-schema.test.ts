/**
 * The published answer schemas (src/core/answer/schema.ts and each answer's field
 * declarations) describe what the function writes, and nothing more: the handler's
 * answers over the golden build (test/fixtures/golden/expected, whose openapi.json
 * the golden test keeps equal to the generated one) validate against the document,
 * and an answer with a field the document does not declare is refused.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { Api } from "../../src/api/handler.js";
import { closedObject, orNull } from "../../src/core/answer/schema.js";
import { folderAssets } from "../../scripts/lib/folder-assets.js";
import { ROOT } from "../files.js";
import { responseValidator } from "../schemas.js";

const BUILD = join(ROOT, "test/fixtures/golden/expected");
const doc = JSON.parse(readFileSync(join(BUILD, "api/v1/openapi.json"), "utf8")) as object;

/** A validator of the answer `status` of the operation at `route`. */
const validatorOf = (route: string, status: number) => responseValidator(doc, route, status);

const api = new Api();
const env = { ASSETS: folderAssets(BUILD), RATE_LIMIT_REQUESTS: "1000000" };
const answer = async (path: string) => {
  const response = await api.fetch(new Request(`http://api.test${path}`), env, Date.parse("2025-01-01"));
  return { status: response.status, body: JSON.parse(await response.text()) as Record<string, unknown> };
};

const DATA = "/api/v1/{indicator}";

describe("the answer schemas", () => {
  it.each([
    ["/api/v1/tiny-wages", 200],
    ["/api/v1/tiny-wages?limit=1&series=monthly&from=2024", 200],
    ["/api/v1/tiny-wages?provenance=true", 200],
    ["/api/v1/tiny-wages?provenance=true&frequency=year", 200],
    ["/api/v1/tiny-wages?at=2024-03-01", 200],
    ["/api/v1/tiny-wages?at=2030-01-01", 200],
    ["/api/v1/tiny-wages?at=2000-01-01", 200],
    ["/api/v1/tiny-wages?units=percent_change&series=monthly", 200],
    ["/api/v1/tiny-wages?units=index&base=2024-01-01", 200],
    ["/api/v1/tiny-wages?limit=0", 400],
    ["/api/v1/no-such-indicator", 404],
  ])("%s (%i) validates against the data endpoint's schema", async (path, status) => {
    const { status: got, body } = await answer(path);
    expect(got).toBe(status);
    const validate = validatorOf(DATA, status);
    expect(validate(body), JSON.stringify(validate.errors)).toBe(true);
  });

  it("a search answer validates against /search's schema", async () => {
    const { status, body } = await answer("/api/v1/search?q=wages");
    expect(status).toBe(200);
    const validate = validatorOf("/api/v1/search", 200);
    expect(validate(body), JSON.stringify(validate.errors)).toBe(true);
  });

  it("refuses an answer with a field the document does not declare: in meta, in a point, in a point with provenance, in the error object", async () => {
    const validate = validatorOf(DATA, 200);
    const plain = (await answer("/api/v1/tiny-wages")).body as { data: Record<string, unknown>[]; meta: Record<string, unknown> };
    const withProvenance = (await answer("/api/v1/tiny-wages?provenance=true")).body as typeof plain;
    expect(validate(plain)).toBe(true);
    expect(validate({ ...plain, meta: { ...plain.meta, extra: 1 } })).toBe(false);
    expect(validate({ ...plain, data: [{ ...plain.data[0], extra: 1 }, ...plain.data.slice(1)] })).toBe(false);
    expect(validate({ ...withProvenance, data: [{ ...withProvenance.data[0], extra: 1 }] })).toBe(false);
    // A point with provenance carries all three fields: one missing is refused too.
    const partial = { ...withProvenance.data[0] };
    delete partial.source_kind;
    expect(validate({ ...withProvenance, data: [partial] })).toBe(false);
    const error = (await answer("/api/v1/tiny-wages?limit=0")).body as { error: Record<string, unknown> };
    const validateError = validatorOf(DATA, 400);
    expect(validateError(error)).toBe(true);
    expect(validateError({ error: { ...error.error, stack: "at x" } })).toBe(false);
    expect(validateError({ ...error, extra: 1 })).toBe(false);
  });
});

describe("closedObject", () => {
  it("requires the fields always written, names the others, and allows no other", () => {
    expect(closedObject({ a: { schema: { type: "string" } }, b: { schema: { type: "integer" }, optional: true } })).toEqual({
      type: "object",
      required: ["a"],
      properties: { a: { type: "string" }, b: { type: "integer" } },
      additionalProperties: false,
    });
  });

  it("orNull widens a type and an enum to take null, once", () => {
    expect(orNull({ type: "string", enum: ["x"] })).toEqual({ type: ["string", "null"], enum: ["x", null] });
    expect(orNull(orNull({ type: "integer" }))).toEqual({ type: ["integer", "null"] });
  });
});
