/**
 * The parts of an OpenAPI operation (OpenAPI 3.1 §4.8.10) that the routes' path
 * items share (src/api/routes.ts): the headers of a success, the error answers
 * with the body the API sends, the `{indicator}` path parameter, and the data
 * endpoint's responses with its examples, made by the real renderer.
 */
import { ApiError, asApiError, errorBody, methodNotAllowed, tooManyRequests, unknownIndicator } from "./api-error.js";
import { parseQuery } from "./query.js";
import { ALLOWED_METHODS, CACHE_CONTROL, EXPOSED_HEADERS, RATE_LIMIT } from "../core/answer/contract.js";
import { DEFAULT_QUERY, type PageQuery } from "../core/indicator/model.js";
import { selectPage } from "../core/answer/page.js";
import { wholeView } from "../core/file/answer-index.js";
import { renderAnswer } from "../core/answer/render.js";
import type { AnswerData } from "../core/file/answers.js";
import { DECLARATIONS, openApiParameters } from "../core/answer/parameters.js";

/** A response header: what it says, and its schema (a string unless told). */
export const header = (description: string, schema: object = { type: "string" }) => ({ description, schema });

/** The 400 the API sends for `?limit=0`, made by the real query parser. */
export function badRequestExample(): ApiError {
  try {
    parseQuery(new URLSearchParams("limit=0"));
  } catch (error) {
    if (error instanceof ApiError) return error;
  }
  throw new Error("the query parser accepted limit=0");
}

/** An error response whose example is the body the API sends for `error`. */
export const errorAnswer = (description: string, error: ApiError) => ({
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

/** The success headers of the endpoints (200 and 304). */
export const successHeaders = {
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

/** The answer to a conditional request whose copy is current. */
export const notModified = { description: "Not modified (If-None-Match or If-Modified-Since).", headers: successHeaders };

/** The data endpoint's query parameters, from their declarations (src/core/answer/parameters.ts), in the canonical order. */
export function queryParameters() {
  return openApiParameters(DECLARATIONS);
}

/** The examples of a 200: `sample`'s one-point page as JSON and as CSV, made by the real renderer (none without a sample). */
export function pageExamples(sample: AnswerData | undefined): { json: unknown; csv: string | undefined } {
  const body = (query: PageQuery) => (sample === undefined ? undefined : new TextDecoder().decode(renderAnswer(wholeView(sample), selectPage(sample.series, query))));
  const json = body({ ...DEFAULT_QUERY, limit: 1 });
  return { json: json === undefined ? undefined : (JSON.parse(json) as unknown), csv: body({ ...DEFAULT_QUERY, limit: 1, format: "csv" }) };
}

/** The data endpoint's responses: a page (with `examples`), 304, and each error with the body the API sends. */
export function endpointResponses(examples: { json: unknown; csv: string | undefined }) {
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
    "304": notModified,
    "400": errorAnswer("Bad request parameters.", badRequestExample()),
    "404": errorAnswer("Unknown indicator.", unknownIndicator("gdp")),
    "405": {
      ...errorAnswer("Method not allowed.", methodNotAllowed("POST")),
      headers: { Allow: header(`\`${ALLOWED_METHODS.join(", ")}\`.`), "Cache-Control": header(`\`${CACHE_CONTROL.error}\`.`) },
    },
    "429": {
      ...errorAnswer("Usage limit exceeded.", tooManyRequests(RATE_LIMIT.defaults.limit, RATE_LIMIT.defaults.windowSeconds, 42)),
      headers: {
        "Retry-After": header("Whole seconds until a request is allowed again.", { type: "integer", minimum: 1 }),
        "Cache-Control": header(`\`${CACHE_CONTROL.error}\`.`),
        RateLimit: header("IETF RateLimit header: `r=0`."),
        "RateLimit-Policy": header("IETF RateLimit-Policy header."),
      },
    },
    "500": errorAnswer("Internal error.", asApiError(new Error("example"))),
  };
}

/** The `{indicator}` path parameter: one of the published ids. */
export const indicatorParameter = (ids: readonly string[]) => ({ name: "indicator", in: "path", required: true, schema: { type: "string", enum: ids } });
