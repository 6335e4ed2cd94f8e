/**
 * `api/v1/openapi.json`: an OpenAPI 3.1 description of the API, generated from the
 * indicators the build publishes so the list of ids can never drift from the data.
 */
import { partPath } from "../core/indicator/distributions.js";
import { RHYTHMS } from "../core/time/coverage.js";
import type { BuiltIndicator } from "./dataset.js";
import { ApiError, asApiError, badRequest, errorBody, methodNotAllowed, tooManyRequests, unknownIndicator } from "../api/api-error.js";
import { parseQuery } from "../api/query.js";
import type { SiteConfig } from "../core/indicator/config.js";
import {
  ALLOWED_METHODS,
  API_BASE,
  CACHE_CONTROL,
  DERIVED_DIGITS,
  EXPOSED_HEADERS,
  LICENSE,
  MAX_DERIVED_POINTS,
  MAX_DERIVED_VALUES,
  RATE_LIMIT,
} from "../core/answer/contract.js";
import { DEFAULT_QUERY, FORMATS, type PageQuery } from "../core/indicator/model.js";
import { selectPage } from "../core/answer/page.js";
import { CATALOG_PATH, SEARCH_PATH, csvPath, metadataPath, seriesFilePath } from "../core/file/paths.js";
import { wholeView } from "../core/file/answer-index.js";
import { renderAnswer } from "../core/answer/render.js";
import { prebuiltPagePath } from "../core/file/manifest.js";
import { DECLARATIONS, isInvalid, openApiParameters, readDeclared } from "../core/answer/parameters.js";
import { ADJUST_DECLARATIONS, ADJUST_PATH } from "../core/time/adjust.js";
import { CHANGES_DECLARATIONS } from "../core/history/changes.js";
import type { Manifest } from "../core/file/manifest.js";
import { closedObject } from "../core/answer/schema.js";
import { pointFields } from "../core/file/answers.js";
import { pageSchema, provenanceFields } from "../core/answer/render.js";
import { STATUS_PATH, freshnessFields, statusIndicatorFields } from "./freshness.js";
import { changesSchema } from "../api/changes.js";
import { adjustSchema } from "../api/adjust.js";
import { searchParameters, searchSchema } from "../api/search.js";
import { errorSchema } from "../api/api-error.js";

/** How a question about time is answered, stated once for the endpoint's description (docs/time.md). */
const TIME_QUESTIONS =
  "Questions about time (`at`, `frequency`, `aggregation`, `per`, `real`, `units`, `base`) apply in a fixed order: select sub-series → frequency → per → real → units → " +
  "window (from/to on the derived points' dates, or at) → limit/offset per sub-series. A point covers the days from its date until the earliest of the next point of its sub-series, " +
  "the date its next point was due by the indicator's rhythm (for an irregular one, the indicator's next publication) and the end of the data version; a day covered by no point has no value. " +
  `A derived value is rounded once to ${DERIVED_DIGITS} significant digits; derived answers are computed on request (never prebuilt), their CSV \`source\` and \`note\` are empty, ` +
  `and a question computing more than ${MAX_DERIVED_VALUES} values or writing more than ${MAX_DERIVED_POINTS} points is a 400 saying how to narrow it.`;

const header = (description: string, schema: object = { type: "string" }) => ({ description, schema });

/** The 400 the API sends for `?limit=0`, made by the real query parser. */
function badRequestExample(): ApiError {
  try {
    parseQuery(new URLSearchParams("limit=0"));
  } catch (error) {
    if (error instanceof ApiError) return error;
  }
  throw new Error("the query parser accepted limit=0");
}

/** An error response whose example is the body the API sends for `error`. */
const errorResponse = (description: string, error: ApiError) => ({
  description,
  headers: {
    "Cache-Control": header(`Always \`${CACHE_CONTROL.error}\`: an error is never cached.`),
    "Access-Control-Allow-Origin": header("`*`."),
  },
  content: {
    "application/json": {
      schema: { $ref: "#/components/schemas/Error" },
      example: JSON.parse(errorBody(error.code, error.detail)) as unknown,
    },
  },
});

/** The success headers of the endpoint (200 and 304). */
const successHeaders = {
  "Cache-Control": header(`\`${CACHE_CONTROL.success}\`.`),
  ETag: header("Strong validator of the body."),
  "Last-Modified": header("The indicator's data version time."),
  Link: header(
    'RFC 8288: `<next page URL>; rel="next"` when `meta.has_more`, and always `<metadata document>; rel="describedby"`; for CSV also `<attribution link>; rel="cite-as"` (RFC 8574).',
  ),
  "X-Total-Count": header("CSV answers only: `meta.total`, the points in the window before `limit`/`offset`.", { type: "integer", minimum: 0 }),
  "Access-Control-Allow-Origin": header("`*`."),
  "Access-Control-Expose-Headers": header(`Lists ${EXPOSED_HEADERS.join(", ")}.`),
  RateLimit: header("IETF RateLimit header: remaining quota and reset time."),
  "RateLimit-Policy": header("IETF RateLimit-Policy header: the usage limit."),
};

/** The endpoint's query parameters, from their declarations (src/core/answer/parameters.ts), in the canonical order. */
export function queryParameters() {
  return openApiParameters(DECLARATIONS);
}

/** The examples of a 200: the first indicator's one-point page as JSON and as CSV, made by the real renderer (none without indicators). */
function pageExamples(first: BuiltIndicator | undefined): { json: unknown; csv: string | undefined } {
  const body = (query: PageQuery) => (first === undefined ? undefined : new TextDecoder().decode(renderAnswer(wholeView(first.answers), selectPage(first.answers.series, query))));
  const json = body({ ...DEFAULT_QUERY, limit: 1 });
  return { json: json === undefined ? undefined : (JSON.parse(json) as unknown), csv: body({ ...DEFAULT_QUERY, limit: 1, format: "csv" }) };
}

/** The endpoint's responses: a page (with `examples`), 304, and each error with the body the API sends. */
function endpointResponses(examples: { json: unknown; csv: string | undefined }) {
  const { json: example, csv: exampleCsv } = examples;
  return {
    "200": {
      description: "A page of points.",
      headers: successHeaders,
      content: {
        "application/json": {
          schema: { $ref: "#/components/schemas/Page" },
          ...(example === undefined ? {} : { example }),
        },
        "text/csv": { schema: { type: "string" }, ...(exampleCsv === undefined ? {} : { example: exampleCsv }) },
      },
    },
    "304": { description: "Not modified (If-None-Match or If-Modified-Since).", headers: successHeaders },
    "400": errorResponse("Bad request parameters.", badRequestExample()),
    "404": errorResponse("Unknown indicator.", unknownIndicator("gdp")),
    "405": {
      ...errorResponse("Method not allowed.", methodNotAllowed("POST")),
      headers: { Allow: header(`\`${ALLOWED_METHODS.join(", ")}\`.`), "Cache-Control": header(`\`${CACHE_CONTROL.error}\`.`) },
    },
    "429": {
      ...errorResponse("Usage limit exceeded.", tooManyRequests(RATE_LIMIT.defaults.limit, RATE_LIMIT.defaults.windowSeconds, 42)),
      headers: {
        "Retry-After": header("Whole seconds until a request is allowed again.", { type: "integer", minimum: 1 }),
        "Cache-Control": header(`\`${CACHE_CONTROL.error}\`.`),
        RateLimit: header("IETF RateLimit header: `r=0`."),
        "RateLimit-Policy": header("IETF RateLimit-Policy header."),
      },
    },
    "500": errorResponse("Internal error.", asApiError(new Error("example"))),
  };
}

/** The `{indicator}` path parameter: one of the published ids. */
const indicatorParameter = (ids: readonly string[]) => ({ name: "indicator", in: "path", required: true, schema: { type: "string", enum: ids } });
type IndicatorParam = ReturnType<typeof indicatorParameter>;

/** The endpoint, `/api/v1/{indicator}`: GET (and HEAD) and the CORS preflight. */
function endpointItem(indicatorParam: IndicatorParam, first: BuiltIndicator | undefined) {
  return {
    get: {
      operationId: "getSeries",
      summary: "Points of an indicator's sub-series, newest first, or the answer to a question about time",
      description: TIME_QUESTIONS,
      parameters: [indicatorParam, ...queryParameters()],
      responses: endpointResponses(pageExamples(first)),
    },
  };
}

/** `/api/v1/{indicator}/changes`: the points added, revised and removed since a day (src/core/history/changes.ts). */
function changesItem(indicatorParam: IndicatorParam) {
  const query = readDeclared({}, CHANGES_DECLARATIONS);
  return {
    get: {
      operationId: "getChanges",
      summary: "The points of an indicator added, revised and removed since the end of a day, newest change first",
      description:
        "The difference between the version published at the end of `since` (what `as_of` answers for that day) and the current one: " +
        "each point added (`value`), revised (`value` and `previous`) or removed (`previous`), with `changed`, the last day its value or presence changed. " +
        "Values are the source's texts, as in the data answers. Paged with `limit` and `offset` over the whole list; `series` narrows it to some sub-series. " +
        "A `since` before the indicator's first version lists every point published since, added, and `meta.since_before_first` names that version's day.",
      parameters: [indicatorParam, ...openApiParameters(CHANGES_DECLARATIONS)],
      responses: {
        "200": {
          description: "A page of changes: JSON, or CSV with the columns date,series,change,value,previous,changed.",
          headers: successHeaders,
          content: { "application/json": { schema: { $ref: "#/components/schemas/Changes" } }, "text/csv": { schema: { type: "string" } } },
        },
        "304": { description: "Not modified (If-None-Match or If-Modified-Since).", headers: successHeaders },
        "400": errorResponse(
          "Bad request parameters, each naming its parameter (since missing, not a day or after today; a series item that matches no sub-series; the changes of more sub-series than one request may read).",
          badRequest(isInvalid(query) ? query.invalid : ""),
        ),
        "404": errorResponse("Unknown indicator.", unknownIndicator("gdp")),
      },
    },
  };
}

/** The 400 the API sends for an adjustment without an amount, made by the real parser. */
function adjustBadRequest(): ApiError {
  const query = readDeclared({}, ADJUST_DECLARATIONS);
  if (!isInvalid(query)) throw new Error("the adjust parser accepted no parameters");
  return badRequest(query.invalid);
}

/** `/api/v1/adjust`: an amount carried between two dates by an index or unit the indicators declare (docs/api.md "Adjusting an amount"). */
function adjustItem(adjusters: Manifest["adjusters"]) {
  return {
    get: {
      operationId: "adjustAmount",
      summary: "An amount of money carried from one date to another by an index or a unit of account",
      description:
        `adjusted = amount × the value of \`by\` covering \`to\` / its value covering \`from\`; \`factor\` is that ratio; \`in_units\`, for a unit of account, the amount ÷ its value on \`from\`. ` +
        `Either date may be any day up to today in Montevideo (UTC−3): a stepwise value answers with the value in force that day, as \`at\` does; a date past \`by\`'s newest value gets that value, and \`meta.used\` says so and why (\`overdue\` or \`pending\`). ` +
        `Derived numbers are rounded once to ${DERIVED_DIGITS} significant digits. The sub-series that adjust: ${adjusters.map((a) => `\`${a.indicator}:${a.series}\``).join(", ") || "none"}.`,
      parameters: openApiParameters(ADJUST_DECLARATIONS),
      responses: {
        "200": {
          description: "The adjustment: JSON, or CSV (a header line and one line of the same fields).",
          headers: successHeaders,
          content: {
            "application/json": { schema: { $ref: "#/components/schemas/Adjustment" } },
            "text/csv": { schema: { type: "string" } },
          },
        },
        "304": { description: "Not modified (If-None-Match or If-Modified-Since).", headers: successHeaders },
        "400": errorResponse("Bad request parameters: each names its parameter (an amount that is not a number ≥ 0, a date after today or before the first value, a sub-series that does not adjust).", adjustBadRequest()),
      },
    },
  };
}

/** `/api/v1/search`: sub-series by the words people type (docs/api.md "Search"). */
function searchItem() {
  return {
    get: {
      operationId: "searchSeries",
      summary: "Sub-series of every indicator found by words, accents and case aside",
      description:
        "Every word of q must begin a word of the sub-series' title or facet labels (Spanish or English), its id, or its indicator's title. Ranked by where the words matched (the sub-series' own labels before the indicator's title). `meta.facets` counts each facet value among all the matches.",
      parameters: searchParameters(),
      responses: {
        "200": {
          description: "The matches: indicator, series, title and indicator_title in both languages, facets (name, value, label), newest (date, value) and the API URL of each; meta with q (folded), total, has_more, next and facet counts.",
          headers: successHeaders,
          content: {
            "application/json": { schema: { $ref: "#/components/schemas/Search" } },
          },
        },
        "304": { description: "Not modified (If-None-Match or If-Modified-Since).", headers: successHeaders },
        "400": errorResponse("Bad request parameters.", badRequestExample()),
      },
    },
  };
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
      [`${API_BASE}/{indicator}`]: endpointItem(indicatorParam, indicators[0]),
      [SEARCH_PATH]: searchItem(),
      [ADJUST_PATH]: adjustItem(adjusters),
      [`${API_BASE}/{indicator}/changes`]: changesItem(indicatorParam),
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
