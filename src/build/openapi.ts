/**
 * `api/v1/openapi.json`: an OpenAPI 3.1 description of the API, generated from the
 * indicators the build publishes so the list of ids can never drift from the data.
 */
import type { BuiltIndicator } from "./catalog.js";
import type { SiteConfig } from "../core/config.js";
import { DEFAULT_LIMIT, MAX_LIMIT } from "../core/model.js";
import { selectPage } from "../core/page.js";
import { EXPOSED_HEADERS } from "./pages-config.js";
import { MAX_OFFSET } from "../api/query.js";
import { renderPage } from "../core/render.js";

const dateParam = (name: string, edge: string) => ({
  name,
  in: "query",
  required: false,
  description: `ISO 8601 date (YYYY-MM-DD, YYYY-MM or YYYY; a reduced precision means the ${edge} day of that month or year). The window [from, to] is inclusive.`,
  schema: { type: "string", pattern: "^\\d{4}(-\\d{2}(-\\d{2})?)?$" },
});

const header = (description: string, schema: object = { type: "string" }) => ({ description, schema });

const errorResponse = (description: string, code: string, detail: string) => ({
  description,
  headers: {
    "Cache-Control": header("Always `no-store`: an error is never cached."),
    "Access-Control-Allow-Origin": header("`*`."),
  },
  content: {
    "application/json": {
      schema: { $ref: "#/components/schemas/Error" },
      example: { error: { code, message: description, detail } },
    },
  },
});

/** Renders the OpenAPI document (compact, deterministic JSON). */
export function renderOpenApi(config: SiteConfig, indicators: readonly BuiltIndicator[], limits: readonly number[]): string {
  const ids = indicators.map((i) => i.source.meta.id);
  const first = indicators[0];
  const example =
    first === undefined ? undefined : (JSON.parse(renderPage(selectPage(first.dataset, { from: null, to: null, limit: 1, offset: 0 }))) as unknown);
  const indicatorParam = { name: "indicator", in: "path", required: true, schema: { type: "string", enum: ids } };
  const successHeaders = {
    "Cache-Control": header("`public, max-age=900`."),
    ETag: header("Strong validator of the body."),
    "Last-Modified": header("The indicator's data version time."),
    Link: header('`<next page URL>; rel="next"` (RFC 8288) when `meta.has_more`.'),
    "Access-Control-Allow-Origin": header("`*`."),
    "Access-Control-Expose-Headers": header(`Lists ${EXPOSED_HEADERS.join(", ")}.`),
    RateLimit: header("IETF RateLimit header: remaining quota and reset time."),
    "RateLimit-Policy": header("IETF RateLimit-Policy header: the usage limit."),
  };
  const doc = {
    openapi: "3.1.0",
    info: {
      title: `${config.name} API`,
      version: "1",
      description:
        "Uruguayan statistical indicators as time series. `limit` and `offset` apply to each sub-series separately; points are ordered by date descending, then sub-series ascending.",
      license: { name: "CC BY 4.0 (data)", identifier: "CC-BY-4.0" },
    },
    servers: [{ url: config.baseUrl }],
    paths: {
      "/api/v1/{indicator}": {
        get: {
          operationId: "getSeries",
          summary: "Points of an indicator's sub-series, newest first",
          parameters: [
            indicatorParam,
            dateParam("from", "first"),
            dateParam("to", "last"),
            {
              name: "limit",
              in: "query",
              required: false,
              description: "Points per sub-series, counted from the newest.",
              schema: { type: "integer", minimum: 1, maximum: MAX_LIMIT, default: DEFAULT_LIMIT },
            },
            {
              name: "offset",
              in: "query",
              required: false,
              description: "Points skipped per sub-series, from the newest end.",
              schema: { type: "integer", minimum: 0, maximum: MAX_OFFSET, default: 0 },
            },
          ],
          responses: {
            "200": {
              description: "A page of points.",
              headers: successHeaders,
              content: {
                "application/json": {
                  schema: { $ref: "#/components/schemas/Page" },
                  ...(example === undefined ? {} : { example }),
                },
              },
            },
            "304": { description: "Not modified (If-None-Match or If-Modified-Since).", headers: successHeaders },
            "400": errorResponse("Bad request parameters.", "bad_request", 'limit: expected an integer from 1 to 5000, got "0"'),
            "404": errorResponse("Unknown indicator.", "not_found", 'indicator: there is no indicator "gdp"; the list is at /api/v1/index.json'),
            "405": {
              ...errorResponse("Method not allowed.", "method_not_allowed", 'method: "POST" is not allowed; use GET, HEAD, OPTIONS'),
              headers: { Allow: header("`GET, HEAD, OPTIONS`."), "Cache-Control": header("`no-store`.") },
            },
            "429": {
              ...errorResponse("Usage limit exceeded.", "too_many_requests", "rate: over the limit of 300 requests per 60 s for this address; retry in 42 s"),
              headers: {
                "Retry-After": header("Whole seconds until a request is allowed again.", { type: "integer", minimum: 1 }),
                "Cache-Control": header("`no-store`."),
                RateLimit: header("IETF RateLimit header: `r=0`."),
                "RateLimit-Policy": header("IETF RateLimit-Policy header."),
              },
            },
            "500": errorResponse("Internal error.", "internal_error", "an unexpected error occurred; it has been logged"),
          },
        },
        options: {
          operationId: "preflight",
          summary: "CORS preflight",
          parameters: [indicatorParam],
          responses: { "204": { description: "Any origin may GET and HEAD with any request headers." } },
        },
      },
      "/api/v1/index.json": {
        get: {
          operationId: "getCatalog",
          summary: "The catalog: indicators, sub-series with titles and facets, sources and links (static file)",
          responses: { "200": { description: "The catalog.", content: { "application/json": { schema: { $ref: "#/components/schemas/Catalog" } } } } },
        },
      },
      "/api/v1/{indicator}/data.csv": {
        get: {
          operationId: "getCsv",
          summary: "Every point of an indicator as CSV: date,series,value,source,note, newest first (static file)",
          parameters: [indicatorParam],
          responses: { "200": { description: "The CSV file.", content: { "text/csv": { schema: { type: "string" } } } } },
        },
      },
      "/api/v1/{indicator}/limit-{limit}/offset-{offset}.json": {
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
    },
    components: {
      schemas: {
        Point: {
          type: "object",
          required: ["date", "series", "value"],
          additionalProperties: false,
          properties: {
            date: { type: "string", format: "date" },
            series: { type: "string" },
            value: { type: "number" },
          },
        },
        Page: {
          type: "object",
          required: ["data", "meta"],
          properties: {
            data: { type: "array", items: { $ref: "#/components/schemas/Point" } },
            meta: {
              type: "object",
              required: [
                "indicator", "unit", "total", "limit", "offset", "from", "to",
                "has_more", "next", "last_updated", "license", "attribution",
              ],
              properties: {
                indicator: { type: "string" },
                unit: { type: "string" },
                total: { type: "integer", minimum: 0 },
                limit: { type: "integer" },
                offset: { type: "integer" },
                from: { type: ["string", "null"], format: "date" },
                to: { type: ["string", "null"], format: "date" },
                has_more: { type: "boolean" },
                next: { type: ["string", "null"] },
                last_updated: { type: ["string", "null"], format: "date" },
                license: { type: "string" },
                attribution: { type: "string" },
              },
            },
          },
        },
        Catalog: {
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
                  title: { type: "string" },
                  unit: { type: "string" },
                  last_updated: { type: ["string", "null"], format: "date" },
                  links: { type: "object", additionalProperties: { type: "string" } },
                  series: {
                    type: "array",
                    items: {
                      type: "object",
                      required: ["id", "title", "facets"],
                      properties: { id: { type: "string" }, title: { type: "string" }, facets: { type: "object", additionalProperties: { type: "string" } } },
                    },
                  },
                },
              },
            },
          },
        },
        Error: {
          type: "object",
          required: ["error"],
          properties: {
            error: {
              type: "object",
              required: ["code", "message", "detail"],
              properties: {
                code: {
                  type: "string",
                  enum: ["bad_request", "not_found", "method_not_allowed", "too_many_requests", "internal_error"],
                },
                message: { type: "string" },
                detail: { type: "string" },
              },
            },
          },
        },
      },
    },
  };
  return JSON.stringify(doc);
}
