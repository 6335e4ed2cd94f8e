/**
 * The function's routes, each declared once (src/api/route.ts `Route`): its path,
 * its code, its OpenAPI path item (parameters from their declarations, answers
 * with the schemas and examples), its llms.txt section and its MCP tool. In the
 * order OpenAPI and docs/api.md's endpoint table list them; the router tries the
 * fixed paths first (src/api/route.ts `router`). The static files (the
 * catalog, status.json, metadata documents, CSV and prebuilt pages) are no route:
 * Pages serves them, and src/builder/openapi.ts describes them.
 */
import { unknownIndicator, badRequest, type ApiError } from "./api-error.js";
import { serveIndicator } from "./endpoint.js";
import { serveSearch, searchParameters } from "./search.js";
import { serveAdjust } from "./adjust.js";
import { serveChanges } from "./changes.js";
import { serveFile } from "./files.js";
import { badRequestExample, endpointResponses, errorAnswer, indicatorParameter, notModified, pageExamples, queryParameters, successHeaders } from "./operation.js";
import { type DocContext, type Route } from "./route.js";
import { searchTool, valuesTool } from "./tools.js";
import { DERIVED_DIGITS, MAX_DERIVED_POINTS, MAX_DERIVED_VALUES, SEARCH_LIMIT } from "../core/answer/contract.js";
import { isInvalid, openApiParameters, readDeclared, type Declared } from "../core/answer/parameters.js";
import { FILE_ROUTE } from "../core/file/hosted.js";
import { ENDPOINT_ROUTE, SEARCH_PATH, endpointPath } from "../core/file/paths.js";
import { CHANGES_DECLARATIONS, changesPath } from "../core/history/changes.js";
import { NO_SEPARATORS, withQuery } from "../core/text/url.js";
import { ADJUST_DECLARATIONS, ADJUST_PATH } from "../core/time/adjust.js";

/** How a question about time is answered, stated once for the endpoint's description (docs/time.md). */
const TIME_QUESTIONS =
  "Questions about time (`at`, `frequency`, `aggregation`, `per`, `real`, `units`, `base`) apply in a fixed order: select sub-series → frequency → per → real → units → " +
  "window (from/to on the derived points' dates, or at) → limit/offset per sub-series. A point covers the days from its date until the earliest of the next point of its sub-series, " +
  "the date its next point was due by the indicator's rhythm (for an irregular one, the indicator's next publication) and the end of the data version; a day covered by no point has no value. " +
  `A derived value is rounded once to ${DERIVED_DIGITS} significant digits; derived answers are computed on request (never prebuilt), their CSV \`source\` and \`note\` are empty, ` +
  `and a question computing more than ${MAX_DERIVED_VALUES} values or writing more than ${MAX_DERIVED_POINTS} points is a 400 saying how to narrow it.`;

/** The sub-series that adjust, as the descriptions list them. */
const adjustersText = (context: DocContext) => context.adjusters.map((a) => `\`${a.indicator}:${a.series}\``).join(", ") || "none";

/** The 400 a route's parser sends when no parameter is given (a required one missing), made by the real parser. */
function noParametersError<Q>(declarations: readonly Declared<Q>[]): ApiError {
  const query = readDeclared({}, declarations);
  if (!isInvalid(query)) throw new Error("the parser accepted no parameters");
  return badRequest(query.invalid);
}

/** `/api/v1/{indicator}`: the points of an indicator, or the answer to a question about time. */
const INDICATOR: Route = {
  path: endpointPath("{indicator}"),
  pattern: ENDPOINT_ROUTE,
  serve: ({ request, assets, store, now }, [indicator]) => serveIndicator(request, indicator as string, assets, store, now),
  describe: (context) => ({
    get: {
      operationId: "getSeries",
      summary: "Points of an indicator's sub-series, newest first, or the answer to a question about time",
      description: TIME_QUESTIONS,
      parameters: [indicatorParameter(context.ids), ...queryParameters()],
      responses: endpointResponses(pageExamples(context.sample)),
    },
  }),
  llms: {
    place: 1,
    lines: (context) => [
      "## Parameters",
      "",
      "All optional; any other is a 400.",
      "",
      ...queryParameters().map((p) => {
        const example = context.parameterExamples[p.name];
        return `- \`${p.name}\`: ${p.description}${example === undefined ? "" : ` Example: ${example}`}`;
      }),
    ],
  },
  mcp: { place: 3, tool: valuesTool },
};

/** `/api/v1/search`: sub-series by the words people type (docs/api.md "Search"). */
const SEARCH: Route = {
  path: SEARCH_PATH,
  serve: ({ request, assets, store }) => store.manifest(assets, new URL(request.url)).then((manifest) => serveSearch(request, assets, store, manifest)),
  describe: () => ({
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
        "304": notModified,
        "400": errorAnswer("Bad request parameters.", badRequestExample()),
      },
    },
  }),
  llms: {
    place: 3,
    lines: ({ searchWords }) => [
      "## Search",
      "",
      `- ${SEARCH_PATH}?q=…: sub-series of every indicator by the words people type, in Spanish or English, accents and case aside; every word must begin a word of the sub-series' labels or its indicator's title. Parameters q, indicator, facet (name:value,…), limit (≤ ${SEARCH_LIMIT.max}), offset; each result names its indicator, sub-series id, titles, facets, newest point and API URL.${searchWords === undefined ? "" : ` Example: ${withQuery(SEARCH_PATH, [["q", searchWords]], NO_SEPARATORS)}`}`,
    ],
  },
  mcp: { place: 1, tool: searchTool },
};

/** `/api/v1/adjust`: an amount carried between two dates by an index or unit the indicators declare (docs/api.md "Adjusting an amount"). */
const ADJUST: Route = {
  path: ADJUST_PATH,
  serve: ({ request, assets, store, now }) => store.manifest(assets, new URL(request.url)).then((manifest) => serveAdjust(request, assets, store, manifest, now)),
  describe: (context) => ({
    get: {
      operationId: "adjustAmount",
      summary: "An amount of money carried from one date to another by an index or a unit of account",
      description:
        `adjusted = amount × the value of \`by\` covering \`to\` / its value covering \`from\`; \`factor\` is that ratio; \`in_units\`, for a unit of account, the amount ÷ its value on \`from\`. ` +
        `Either date may be any day up to today in Montevideo (UTC−3): a stepwise value answers with the value in force that day, as \`at\` does; a date past \`by\`'s newest value gets that value, and \`meta.used\` says so and why (\`overdue\` or \`pending\`). ` +
        `Derived numbers are rounded once to ${DERIVED_DIGITS} significant digits. The sub-series that adjust: ${adjustersText(context)}.`,
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
        "304": notModified,
        "400": errorAnswer(
          "Bad request parameters: each names its parameter (an amount that is not a number ≥ 0, a date after today or before the first value, a sub-series that does not adjust).",
          noParametersError(ADJUST_DECLARATIONS),
        ),
      },
    },
  }),
  llms: {
    place: 2,
    lines: (context) => [
      "## Adjusting an amount",
      "",
      `- ${ADJUST_PATH}?amount=…&from=YYYY-MM-DD&to=YYYY-MM-DD&by=<indicator>:<sub-series>: an amount of money carried from one date to another, × the value covering \`to\` / the value covering \`from\` (factor and adjusted, both values with their dates, the days they cover and sources). ` +
        "Either date may be any day up to today in Montevideo (UTC−3); past the newest value the newest is used, and `meta.used` gives, for each end, the date of the value used and why the date has none of its own (`overdue` or `pending`, with the day the next value is due): quote it with the number. " +
        `The sub-series that adjust: ${adjustersText(context)}.`,
    ],
  },
};

/** `/api/v1/{indicator}/changes`: the points added, revised and removed since a day (src/core/history/changes.ts). */
const CHANGES: Route = {
  path: changesPath("{indicator}"),
  serve: ({ request, assets, store, now }, [indicator]) => serveChanges(request, indicator as string, assets, store, now),
  describe: (context) => ({
    get: {
      operationId: "getChanges",
      summary: "The points of an indicator added, revised and removed since the end of a day, newest change first",
      description:
        "The difference between the version published at the end of `since` (what `as_of` answers for that day) and the current one: " +
        "each point added (`value`), revised (`value` and `previous`) or removed (`previous`), with `changed`, the last day its value or presence changed. " +
        "Values are the source's texts, as in the data answers. Paged with `limit` and `offset` over the whole list; `series` narrows it to some sub-series. " +
        "A `since` before the indicator's first version lists every point published since, added, and `meta.since_before_first` names that version's day.",
      parameters: [indicatorParameter(context.ids), ...openApiParameters(CHANGES_DECLARATIONS)],
      responses: {
        "200": {
          description: "A page of changes: JSON, or CSV with the columns date,series,change,value,previous,changed.",
          headers: successHeaders,
          content: { "application/json": { schema: { $ref: "#/components/schemas/Changes" } }, "text/csv": { schema: { type: "string" } } },
        },
        "304": notModified,
        "400": errorAnswer(
          "Bad request parameters, each naming its parameter (since missing, not a day or after today; a series item that matches no sub-series; the changes of more sub-series than one request may read).",
          noParametersError(CHANGES_DECLARATIONS),
        ),
        "404": errorAnswer("Unknown indicator.", unknownIndicator("gdp")),
      },
    },
  }),
};

/**
 * A file below an indicator's endpoint (`/api/v1/{indicator}/…`) of a tail indicator,
 * which the function serves in place of Pages (src/api/files.ts): described as the
 * static file it is, so no description lists this route.
 */
const HOSTED_FILE: Route = {
  path: `${endpointPath("{indicator}")}/…`,
  pattern: FILE_ROUTE,
  serve: ({ request, staticAssets, bucket, store }) => serveFile(request, staticAssets, bucket, store),
};

/** Every route of the function, in the order OpenAPI and docs/api.md list them. */
export const ROUTES: readonly Route[] = [INDICATOR, SEARCH, ADJUST, CHANGES, HOSTED_FILE];
