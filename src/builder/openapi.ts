/**
 * `api/v1/openapi.json`: an OpenAPI 3.1 description of the API, generated from the
 * indicators the build publishes so the list of ids can never drift from the data.
 * The path items of the function's routes come from their table (src/api/routes.ts);
 * those of the static files Pages serves, and the answers' schemas, are here.
 */
import { partPath } from "../core/indicator/distributions.js";
import type { BuiltIndicator } from "./dataset.js";
import type { SiteConfig } from "../core/indicator/config.js";
import { LICENSE } from "../core/answer/contract.js";
import { FORMATS } from "../core/indicator/model.js";
import { CATALOG_PATH, csvPath, metadataPath, seriesFilePath } from "../core/file/paths.js";
import { prebuiltPagePath } from "../core/file/manifest.js";
import type { Manifest } from "../core/file/manifest.js";
import { LOCALIZED, closedObject } from "../core/answer/schema.js";
import { pointFields } from "../core/file/answers.js";
import { pageSchema, provenanceFields } from "../core/answer/render.js";
import { STATUS_PATH, freshnessFields, scheduleFields, statusIndicatorFields } from "./freshness.js";
import { catalogFields, facetFields } from "./catalog.js";
import { metadataFields } from "./metadata-doc.js";
import { changesSchema } from "../api/changes.js";
import { adjustSchema } from "../api/adjust.js";
import { searchSchema } from "../api/search.js";
import { errorSchema } from "../api/api-error.js";
import { indicatorParameter } from "../api/operation.js";
import { ROUTES } from "../api/routes.js";
import type { DocContext, PathItem } from "../api/route.js";

/** The `{indicator}` path parameter of the static files: one of the published ids. */
type IndicatorParam = ReturnType<typeof indicatorParameter>;

/**
 * What the build tells the routes' descriptions (src/api/route.ts `DocContext`):
 * the published ids, the sub-series that adjust, the first indicator's answers
 * for the examples, and, for llms.txt, the examples made from the data.
 */
export function docContext(
  indicators: readonly BuiltIndicator[],
  adjusters: Manifest["adjusters"],
  examples: Pick<DocContext, "parameterExamples" | "searchWords"> = { parameterExamples: {}, searchWords: undefined },
): DocContext {
  return { ids: indicators.map((i) => i.source.meta.id), adjusters, sample: indicators[0]?.answers, ...examples };
}

/** The path items of the function's routes that descriptions list (src/api/routes.ts), in the table's order. */
function routeItems(context: DocContext): Record<string, PathItem> {
  return Object.fromEntries(ROUTES.flatMap((route) => (route.describe === undefined ? [] : [[route.path, route.describe(context)] as const])));
}

/** The static files of the API: the catalog and, per indicator, its CSV, prebuilt pages, metadata document and sub-series files. */
/**
 * `data.csv`, and for the indicators whose files are in parts (src/builder/download-parts.ts)
 * their parts' CSV files: only when some indicator is.
 */
function csvItems(indicators: readonly BuiltIndicator[]) {
  const ids = (inParts: boolean) => indicators.filter((i) => (i.parts !== undefined) === inParts).map((i) => i.source.meta.id);
  const [whole, split] = [ids(false), ids(true)];
  const notFound = { description: "No such indicator or part (the site's 404 page)." };
  return {
    ...(whole.length === 0
      ? {}
      : {
          [csvPath("{indicator}")]: {
            get: {
              operationId: "getCsv",
              summary: "Every point of an indicator as CSV: date,series,value,source,note, newest first (static file)",
              parameters: [indicatorParameter(whole)],
              responses: {
                "200": { description: "The CSV file.", content: { "text/csv": { schema: { type: "string" } } } },
                "404": { description: "No such indicator (the site's 404 page)." },
              },
            },
          },
        }),
    ...(split.length === 0
      ? {}
      : {
          [partPath(csvPath("{indicator}"), { name: "{part}", from: 0, to: 0, first: "", last: "" })]: {
            get: {
              operationId: "getCsvPart",
              summary: "The points of one year, or of one part of a year, of an indicator too large for one CSV file (static file); its parts are listed in its metadata document (`links.parts`)",
              parameters: [
                indicatorParameter(split),
                { name: "part", in: "path", required: true, description: "A year (`2024`) or a year's numbered part (`2024-part-2`, part 1 the oldest days).", schema: { type: "string", pattern: "^[0-9]{4}(-part-[1-9][0-9]*)?$" } },
              ],
              responses: { "200": { description: "The CSV file of the part.", content: { "text/csv": { schema: { type: "string" } } } }, "404": notFound },
            },
          },
        }),
  };
}

function staticFileItems(indicatorParam: IndicatorParam, limits: readonly number[], indicators: readonly BuiltIndicator[]) {
  return {
    [CATALOG_PATH]: {
      get: {
        operationId: "getCatalog",
        summary: "The catalog: indicators, sub-series with titles and facets, sources and links (static file)",
        responses: { "200": { description: "The catalog.", content: { "application/json": { schema: { $ref: "#/components/schemas/Catalog" } } } } },
      },
    },
    [STATUS_PATH]: {
      get: {
        operationId: "getStatus",
        summary: "Every indicator's freshness (static file): newest point, last check, next value due, whether it is overdue and since when",
        responses: { "200": { description: "The status document.", content: { "application/json": { schema: { $ref: "#/components/schemas/Status" } } } } },
      },
    },
    ...csvItems(indicators),
    [prebuiltPagePath("{indicator}", "{limit}", "{offset}")]: {
      get: {
        operationId: "getPrebuiltPage",
        summary: "A prebuilt page (static file): the same bytes as `/api/v1/{indicator}?limit={limit}&offset={offset}`",
        parameters: [
          indicatorParam,
          { name: "limit", in: "path", required: true, schema: { type: "integer", enum: [...limits] } },
          { name: "offset", in: "path", required: true, description: "A multiple of limit that holds points.", schema: { type: "integer", minimum: 0 } },
        ],
        responses: {
          "200": { description: "A page of points.", content: { "application/json": { schema: { $ref: "#/components/schemas/Page" } } } },
          "404": { description: "No such prebuilt page (the site's 404 page)." },
        },
      },
    },
    [metadataPath("{indicator}")]: {
      get: {
        operationId: "getMetadata",
        summary:
          "The indicator's metadata document (static file): unit, source, licence, notes, its facets with their values, and every sub-series with its title and facets (indices into the facet values). Linked from every answer (`meta.metadata`, `Link: rel=\"describedby\"`).",
        parameters: [indicatorParam],
        responses: {
          "200": { description: "The metadata document.", content: { "application/json": { schema: { $ref: "#/components/schemas/Metadata" } } } },
          "404": { description: "No such indicator (the site's 404 page)." },
        },
      },
    },
    [seriesFilePath("{indicator}", "{series}", "json").replace(/\.json$/, ".{format}")]: {
      get: {
        operationId: "getSeriesFile",
        summary: "One sub-series' default answer (static file, for mirrors): the same bytes as `/api/v1/{indicator}?series={series}` (`.json`) or `…&format=csv` (`.csv`).",
        parameters: [
          indicatorParam,
          { name: "series", in: "path", required: true, description: "A sub-series id.", schema: { type: "string" } },
          { name: "format", in: "path", required: true, schema: { type: "string", enum: [...FORMATS] } },
        ],
        responses: {
          "200": {
            description: "The answer.",
            content: { "application/json": { schema: { $ref: "#/components/schemas/Page" } }, "text/csv": { schema: { type: "string" } } },
          },
          "404": { description: "No such sub-series (the site's 404 page)." },
        },
      },
    },
  };
}

/** A page of points: `data` and `meta` (docs/DESIGN.md §2), from the fields the renderer declares (src/core/answer/render.ts, src/core/file/answers.ts). */
function pageSchemas() {
  return {
    Point: closedObject(pointFields()),
    ProvenancePoint: closedObject({ ...pointFields(), ...provenanceFields() }, "A point with `provenance=true`."),
    Page: pageSchema({ $ref: "#/components/schemas/Point" }, { $ref: "#/components/schemas/ProvenancePoint" }),
  };
}

/** When an indicator's values are due and whether one is overdue (src/builder/freshness.ts): the metadata document, the catalog, status.json. */
function scheduleSchemas() {
  return {
    Schedule: {
      ...closedObject(scheduleFields(), "When values are due, as indicator.json declares it (`schedule`); null: not declared (each next value is due one rhythm after its predecessor)."),
      type: ["object", "null"],
    },
  };
}

/** `Freshness` and `status.json`, from the fields src/builder/freshness.ts declares. */
function freshnessSchemas() {
  return {
    Freshness: closedObject(freshnessFields()),
    Status: closedObject({ indicators: { schema: { type: "array", items: closedObject(statusIndicatorFields()) } } }),
  };
}

/**
 * An indicator's metadata document, with the bilingual texts and the facets it shares with the catalog,
 * from the fields src/builder/metadata-doc.ts and src/builder/catalog.ts declare.
 */
function metadataSchemas() {
  return {
    Localized: { ...LOCALIZED, description: "A text in every language of the service: Spanish (es) and English (en)." },
    Facet: closedObject(facetFields()),
    Metadata: closedObject(metadataFields()),
  };
}

/** Renders the OpenAPI document (compact, deterministic JSON). */
export function renderOpenApi(config: SiteConfig, indicators: readonly BuiltIndicator[], limits: readonly number[], adjusters: Manifest["adjusters"]): string {
  const indicatorParam = indicatorParameter(indicators.map((i) => i.source.meta.id));
  const doc = {
    openapi: "3.1.0",
    info: {
      title: `${config.name} API`,
      version: "1",
      description:
        "Uruguayan statistical indicators as time series. `limit` and `offset` apply to each sub-series separately; points are ordered by date descending, then sub-series ascending. Any origin may call the API (CORS): a preflight `OPTIONS` is answered 204.",
      license: { name: "CC BY 4.0 (data)", identifier: LICENSE },
    },
    // First the site serving this document (OpenAPI 3.1 §4.8.5: a relative URL is relative to where the document
    // is served, and "/" is the default without servers): a mirror's description names the mirror. Then the public one.
    servers: [
      { url: "/", description: "The site serving this description" },
      { url: config.baseUrl, description: "The public service" },
    ],
    // A public API: no operation needs credentials (OpenAPI 3.1 §4.8.10: an empty list means none).
    security: [],
    paths: {
      ...routeItems(docContext(indicators, adjusters)),
      ...staticFileItems(indicatorParam, limits, indicators),
    },
    components: {
      schemas: {
        ...pageSchemas(),
        ...metadataSchemas(),
        ...scheduleSchemas(),
        ...freshnessSchemas(),
        Changes: changesSchema(),
        Adjustment: adjustSchema(),
        Search: searchSchema(),
        Catalog: closedObject(catalogFields()),
        Error: errorSchema(),
      },
    },
  };
  return JSON.stringify(doc);
}
