/**
 * The real data's catalog and every metadata document validate against the real
 * build's OpenAPI description (its `Catalog`, `Metadata`, `Facet` and `Schedule`,
 * closed: test/unit/document-schemas.test.ts shows an extra field refused). The
 * golden fixture declares no schedule; the real data's indicators do, so `Schedule`'s
 * object is exercised here (the links of an indicator in parts:
 * test/integration/download-parts.test.ts).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, inject, it } from "vitest";
import { responseValidator, staticDocuments } from "../schemas.js";

const out = inject("realDist");
const doc = JSON.parse(readFileSync(join(out, "api/v1/openapi.json"), "utf8")) as object;
const documents = staticDocuments(out);

describe("the real build's catalog and metadata documents", () => {
  it("validate against the real build's OpenAPI description", () => {
    for (const { file, route, body } of documents) {
      const validate = responseValidator(doc, route, 200);
      expect(validate(body), `${file}: ${JSON.stringify(validate.errors)}`).toBe(true);
    }
  });

  it("include every indicator's metadata document, and declared schedules, so that `Schedule`'s object is exercised", () => {
    const metadata = documents.filter((d) => d.file.endsWith("/metadata.json")).map((d) => d.body as { schedule: { published: unknown } | null });
    const catalog = documents[0]?.body as { indicators: unknown[] };
    expect(metadata).toHaveLength(catalog.indicators.length);
    expect(metadata.some((m) => m.schedule !== null && m.schedule.published !== null)).toBe(true);
  });
});
