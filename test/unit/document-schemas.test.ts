/**
 * The catalog's and the metadata document's schemas in OpenAPI (`Catalog`,
 * `Metadata`, `Facet`, `Schedule`), made from the fields src/builder/catalog.ts,
 * src/builder/metadata-doc.ts and src/builder/freshness.ts declare, describe what
 * the build writes and nothing more: the golden build's catalog and metadata
 * documents (test/fixtures/golden/expected, whose openapi.json the golden test keeps
 * equal to the generated one) validate against the document, a field it does not
 * declare is refused, and the declarations name the fields in the order written.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { catalogFields, catalogIndicatorFields, catalogLinkFields, catalogSeriesFields, facetFields } from "../../src/builder/catalog.js";
import { metadataFields, metadataLinkFields, metadataSeriesFields, sourceKindFields } from "../../src/builder/metadata-doc.js";
import type { FieldDeclarations } from "../../src/core/answer/schema.js";
import { ROOT } from "../files.js";
import { responseValidator, staticDocuments } from "../schemas.js";

const BUILD = join(ROOT, "test/fixtures/golden/expected");
const doc = JSON.parse(readFileSync(join(BUILD, "api/v1/openapi.json"), "utf8")) as object;
const documents = staticDocuments(BUILD);

type Json = Record<string, unknown>;
const CATALOG = "/api/v1/index.json";
const METADATA = "/api/v1/{indicator}/metadata.json";
const catalog = documents.find((d) => d.route === CATALOG)?.body as Json & { indicators: (Json & { links: Json; series: Json[] })[] };
const metadata = documents.find((d) => d.route === METADATA)?.body as Json & { links: Json; source_kinds: Json[]; series: Json[] };

/** `list` with its item `i` given an extra field. */
const withExtra = (list: readonly Json[], i = 0) => list.map((item, k) => (k === i ? { ...item, extra: 1 } : item));

describe("the catalog's and the metadata documents' schemas", () => {
  it("the golden build has a catalog and a metadata document per indicator", () => {
    expect(documents.map((d) => d.file)).toEqual(["api/v1/index.json", "api/v1/tiny-wages/metadata.json"]);
  });

  it.each(documents.map((d) => [d.file, d] as const))("%s validates against its GET's schema", (_, { route, body }) => {
    const validate = responseValidator(doc, route, 200);
    expect(validate(body), JSON.stringify(validate.errors)).toBe(true);
  });

  it("refuses a field the document does not declare: in the catalog, an indicator, its links, a facet, a sub-series", () => {
    const validate = responseValidator(doc, CATALOG, 200);
    const indicator = catalog.indicators[0] as (typeof catalog.indicators)[number];
    const mutated = [
      { ...catalog, extra: 1 },
      { ...catalog, indicators: withExtra(catalog.indicators) },
      { ...catalog, indicators: [{ ...indicator, links: { ...indicator.links, extra: "/x" } }] },
      { ...catalog, indicators: [{ ...indicator, facets: withExtra(indicator.facets as Json[]) }] },
      { ...catalog, indicators: [{ ...indicator, series: withExtra(indicator.series, 1) }] },
    ];
    expect(validate(catalog)).toBe(true);
    for (const body of mutated) expect(validate(body), JSON.stringify(body).slice(0, 80)).toBe(false);
  });

  it("refuses a field the document does not declare: in a metadata document, its links, a source kind, a sub-series, its units", () => {
    const validate = responseValidator(doc, METADATA, 200);
    const mutated = [
      { ...metadata, extra: 1 },
      { ...metadata, links: { ...metadata.links, extra: "/x" } },
      { ...metadata, source_kinds: withExtra(metadata.source_kinds) },
      { ...metadata, series: withExtra(metadata.series) },
      { ...metadata, series: withExtra(metadata.series, 1) },
      { ...metadata, units: { ...(metadata.units as Json), extra: { es: "x", en: "x" } } },
    ];
    expect(validate(metadata)).toBe(true);
    for (const body of mutated) expect(validate(body)).toBe(false);
    // A field always written, missing, is refused too; `next_due` and `overdue` are written only when a next value is expected.
    const withoutPoints: Json = { ...metadata };
    delete withoutPoints.points;
    expect(validate(withoutPoints)).toBe(false);
    const withoutDue = metadata.series.map((s) => Object.fromEntries(Object.entries(s).filter(([name]) => name !== "next_due" && name !== "overdue")));
    expect(validate({ ...metadata, series: withoutDue })).toBe(true);
  });

  it("declares the fields in the order the build writes them", () => {
    /** The declared names `object` has, in declaration order (an optional field may be absent). */
    const declared = (fields: FieldDeclarations, object: object) => Object.keys(fields).filter((name) => name in object);
    const indicator = catalog.indicators[0] as (typeof catalog.indicators)[number];
    const written: [FieldDeclarations, object][] = [
      [catalogFields(), catalog],
      [catalogIndicatorFields(), indicator],
      [catalogLinkFields(), indicator.links],
      [facetFields(), (indicator.facets as Json[])[0] as Json],
      ...indicator.series.map((s): [FieldDeclarations, object] => [catalogSeriesFields(), s]),
      [metadataFields(), metadata],
      [metadataLinkFields(), metadata.links],
      ...metadata.source_kinds.map((k): [FieldDeclarations, object] => [sourceKindFields(), k]),
      ...metadata.series.map((s): [FieldDeclarations, object] => [metadataSeriesFields(), s]),
    ];
    for (const [fields, object] of written) expect(Object.keys(object)).toEqual(declared(fields, object));
  });
});
