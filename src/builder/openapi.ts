/**
 * `api/v1/openapi.json`: an OpenAPI 3.1 description of the API, generated from the
 * indicators the build publishes so the list of ids can never drift from the data.
 * The path items of the function's routes come from their table (src/api/routes.ts);
 * those of the static files Pages serves, and the answers' schemas, are here.
 */
import { partPath } from "../core/indicator/distributions.js";
import { RHYTHMS } from "../core/time/coverage.js";
import type { BuiltIndicator } from "./dataset.js";
import type { SiteConfig } from "../core/indicator/config.js";
import { LICENSE } from "../core/answer/contract.js";
import { FORMATS } from "../core/indicator/model.js";
import { CATALOG_PATH, csvPath, metadataPath, seriesFilePath } from "../core/file/paths.js";
import { prebuiltPagePath } from "../core/file/manifest.js";
import type { Manifest } from "../core/file/manifest.js";
import { closedObject } from "../core/answer/schema.js";
import { pointFields } from "../core/file/answers.js";
import { pageSchema, provenanceFields } from "../core/answer/render.js";
import { STATUS_PATH, freshnessFields, statusIndicatorFields } from "./freshness.js";
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
const scheduleSchemas = {
  Schedule: {
    type: ["object", "null"],
    description: "When values are due, as indicator.json declares it (`schedule`); null: not declared (each next value is due one rhythm after its predecessor).",
    required: ["dates", "published"],
    properties: {
      dates: {
        description: "`daily`, `irregular` (no date is due), or the months (1–12) and day of the month values are dated.",
        oneOf: [
          { type: "string", enum: ["daily", "irregular"] },
          { type: "object", required: ["months", "day"], properties: { months: { type: "array", items: { type: "integer", minimum: 1, maximum: 12 } }, day: { type: "integer", minimum: 1, maximum: 31 } } },
        ],
      },
      published: {
        type: ["object", "null"],
        description: "A value dated in a month comes out `monthsAfter` months later on `day`; null: on its date.",
        properties: { monthsAfter: { type: "integer" }, day: { type: "integer" } },
      },
    },
  },
};

/** `Freshness` and `status.json`, from the fields src/builder/freshness.ts declares. */
function freshnessSchemas() {
  return {
    Freshness: closedObject(freshnessFields()),
    Status: closedObject({ indicators: { schema: { type: "array", items: closedObject(statusIndicatorFields()) } } }),
  };
}

/** An indicator's metadata document, with the bilingual texts and the facets it shares with the catalog. */
const metadataSchemas = {
  Localized: {
    type: "object",
    description: "A text in every language of the service: Spanish (es) and English (en).",
    required: ["es", "en"],
    properties: { es: { type: "string" }, en: { type: "string" } },
    additionalProperties: false,
  },
  Facet: {
    type: "object",
    required: ["name", "title", "values", "labels"],
    properties: {
      name: { type: "string" },
      title: { $ref: "#/components/schemas/Localized" },
      values: { type: "array", items: { type: "string" }, description: "The values, in display order (language-neutral keys)." },
      labels: { type: "array", items: { $ref: "#/components/schemas/Localized" }, description: "labels[i] is the label of values[i]." },
    },
  },
  Metadata: {
    type: "object",
    required: ["id", "title", "unit", "license", "source", "facets", "series"],
    properties: {
      id: { type: "string" },
      title: { $ref: "#/components/schemas/Localized" },
      description: { $ref: "#/components/schemas/Localized" },
      unit: { type: "string" },
      units: {
        type: "object",
        description: "What the numbers of each `units` mode are (and of `real` and `per` answers), in both languages.",
        additionalProperties: { $ref: "#/components/schemas/Localized" },
      },
      rhythm: { type: "string", enum: [...RHYTHMS] },
      stepwise: { type: "boolean", description: "True when a value holds until the next one (a tariff, a legal minimum)." },
      license: { type: "string" },
      source: { type: "object", properties: { name: { $ref: "#/components/schemas/Localized" }, url: { type: "string" } } },
      notes: { type: "array", items: { $ref: "#/components/schemas/Localized" } },
      schedule: { $ref: "#/components/schemas/Schedule" },
      freshness: { $ref: "#/components/schemas/Freshness" },
      facets: { type: "array", items: { $ref: "#/components/schemas/Facet" } },
      series: {
        type: "array",
        items: {
          type: "object",
          required: ["id", "title", "facets"],
          properties: {
            id: { type: "string" },
            title: { $ref: "#/components/schemas/Localized" },
            facets: { type: "array", items: { type: ["integer", "null"] } },
            next_due: { type: "string", format: "date", description: "When its next value is due; absent, with `overdue`, when none is expected (irregular, no points, or left out of later publications)." },
            overdue: { type: "boolean", description: "True when `next_due` is on or before the last check and the value is not in the data." },
          },
        },
      },
    },
  },
};

/** The catalog (`CATALOG_PATH`). */
const catalogSchema = {
  type: "object",
  required: ["name", "license", "indicators"],
  properties: {
    name: { type: "string" },
    license: { type: "string" },
    openapi: { type: "string" },
    indicators: {
      type: "array",
      items: {
        type: "object",
        required: ["id", "title", "unit", "series", "links"],
        properties: {
          id: { type: "string" },
          title: { $ref: "#/components/schemas/Localized" },
          facets: { type: "array", items: { $ref: "#/components/schemas/Facet" } },
          unit: { type: "string" },
          last_updated: { type: ["string", "null"], format: "date" },
          schedule: { $ref: "#/components/schemas/Schedule" },
          freshness: { $ref: "#/components/schemas/Freshness" },
          links: { type: "object", additionalProperties: { type: "string" } },
          series: {
            type: "array",
            items: {
              type: "object",
              required: ["id", "title", "facets"],
              properties: {
                id: { type: "string" },
                title: { $ref: "#/components/schemas/Localized" },
                facets: { type: "object", additionalProperties: { type: "string" } },
              },
            },
          },
        },
      },
    },
  },
};

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
        ...metadataSchemas,
        ...scheduleSchemas,
        ...freshnessSchemas(),
        Changes: changesSchema(),
        Adjustment: adjustSchema(),
        Search: searchSchema(),
        Catalog: catalogSchema,
        Error: errorSchema(),
      },
    },
  };
  return JSON.stringify(doc);
}
