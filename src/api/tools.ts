/**
 * The MCP server's tools (src/api/mcp.ts serves them): each calls the API itself
 * (the same answers, 400 details and bounds), so every result carries the exact
 * API URL that reproduces it and the attribution. A route declares its tool
 * (src/api/routes.ts); `get_metadata` reads a static file, the metadata document.
 *
 * - `search_series`: /api/v1/search;
 * - `get_metadata`: an indicator's metadata, summarised (its sub-series listed up to a bound);
 * - `get_values`: /api/v1/{indicator} with the questions about time, by default the
 *   newest 24 values per sub-series, at most `MCP_MAX_VALUES` in all (saying when it cut),
 *   each value with its note, source and kind of source (`provenance=true`): a model
 *   that quotes one value quotes what is known of it.
 *
 * Their input schemas are JSON Schema, made from the parameters' declarations
 * (src/core/answer/parameters.ts).
 */
import { AGGREGATIONS, FREQUENCIES, UNITS } from "../core/answer/contract.js";
import { DEFAULT_QUERY, type PageQuery } from "../core/indicator/model.js";
import { DECLARATIONS, isInvalid, shortParams, type JsonSchema } from "../core/answer/parameters.js";
import { SEARCH_PATH, endpointPath, metadataPath } from "../core/file/paths.js";
import { NO_SEPARATORS, withQuery, type QueryParams } from "../core/text/url.js";

/** Values per sub-series `get_values` asks for when not told, and most values one result holds. */
export const MCP_DEFAULT_LIMIT = 24;
export const MCP_MAX_VALUES = 500;
/** Sub-series `get_metadata` lists; the rest are found with `search_series`. */
const METADATA_MAX_SERIES = 60;

/** An API answer to a relative URL, from the same handler (no second count against the usage limit). */
export type ApiCall = (path: string) => Promise<Response>;

/**
 * Where the tools' texts point: `origin`, the site answering this request (its
 * "API URL" reproduces the answer there, a mirror's or a local server's as much as
 * the public one's), and from the site config the public base URL and the
 * attribution phrase the credit names.
 */
export interface McpSite {
  readonly origin: string;
  readonly baseUrl: string;
  readonly attribution: string;
}

/** A tool's answer: text for the model, `isError` when its arguments were at fault. */
export type ToolResult = { content: { type: "text"; text: string }[]; isError?: boolean };
/** A tool's arguments, by name. */
export type Args = Readonly<Record<string, unknown>>;

/** A tool: its name, what it does and takes (for the model), and how it answers. */
export interface Tool {
  readonly name: string;
  readonly description: string;
  readonly inputSchema: { type: "object"; properties: Record<string, JsonSchema>; required: string[]; additionalProperties: false };
  readonly run: (args: Args, call: ApiCall, site: McpSite) => Promise<ToolResult>;
}

/** A tool's answer: the data as JSON text, then how to reproduce and credit it. */
export function result(site: McpSite, path: string, data: unknown, note?: string): ToolResult {
  const lines = [JSON.stringify(data), `API URL: ${site.origin}${path}`];
  if (note !== undefined) lines.push(note);
  lines.push(`Credit: ${site.attribution} (CC BY 4.0), ${site.baseUrl}`);
  return { content: [{ type: "text", text: lines.join("\n") }] };
}

/** A selected sub-series' reason for having no value (`meta.missing`, src/core/answer/page.ts `MissingGroup`). */
interface Missing {
  readonly reason: string;
  readonly last: string | null;
  readonly due: string | null;
  readonly series: readonly string[];
}

/** What `meta.checked` and `meta.missing` say, in words: never "0 values" without why. */
export function freshnessNotes(meta: { readonly checked?: string | null; readonly data_changed?: string; readonly missing?: readonly Missing[] }): string[] {
  const notes: string[] = [];
  if (meta.data_changed !== undefined) {
    const look = meta.checked === null || meta.checked === undefined ? `no check of the publisher is recorded; the data last changed on ${meta.data_changed}` : `the publisher was last checked on ${meta.checked}`;
    notes.push(`The day asked is after the last look at the data (${look}): a value shown is the one in force then, whose successor was not due yet.`);
  }
  for (const m of meta.missing ?? []) {
    const which = m.series.length > 5 ? `${m.series.slice(0, 5).join(", ")} and ${m.series.length - 5} more` : m.series.join(", ");
    const why =
      m.reason === "before_first" ? "the day is before its first value"
      : m.reason === "overdue" ? `the value after the one of ${m.last ?? "?"} was due on ${m.due ?? "?"} and is not in the data (overdue)`
      : m.reason === "ended" ? `its last value is the one of ${m.last ?? "?"}; the indicator's publications since ${m.due ?? "?"} leave it out (ended)`
      : `the value after the one of ${m.last ?? "?"} is due ${m.due === null ? "at a date not set" : `on ${m.due}`}, after the last look at the data: not known yet`;
    notes.push(`No value for ${which}: ${why}.`);
  }
  return notes;
}

/** An indicator's freshness in words, from its metadata document's `freshness` (src/builder/freshness.ts). */
function metadataFreshnessNote(
  freshness: { checked?: string | null; check?: { by: string; read: string; outcome: string } | null; data_changed?: string; next_due?: string | null; overdue_since?: string | null } | undefined,
): string | undefined {
  if (freshness?.data_changed === undefined) return undefined;
  const next = freshness.overdue_since ? `its next value is overdue since ${freshness.overdue_since}` : freshness.next_due ? `its next value is due on ${freshness.next_due}` : "no date is set for its next value";
  const { check } = freshness;
  const look =
    check === null || check === undefined || freshness.checked === null || freshness.checked === undefined
      ? `No check of the publisher is recorded; the data last changed on ${freshness.data_changed}`
      : `Publisher last checked on ${freshness.checked} by ${check.by === "update" ? "the unattended update" : "a person"}, reading ${check.read} (${check.outcome === "new-data" ? "new data found" : "nothing new"})`;
  return `${look}; ${next}.`;
}

/** A bad argument: the API's own 400 detail, as a tool error. */
export async function failure(site: McpSite, path: string, response: Response): Promise<ToolResult> {
  const body = (await response.json()) as { error?: { detail?: string } };
  return toolError(`${body.error?.detail ?? `status ${response.status}`}\nAPI URL: ${site.origin}${path}`);
}

/** A tool's error: text the model can read and correct. */
export const toolError = (text: string): ToolResult => ({ content: [{ type: "text", text }], isError: true });

/** The parameters `get_values` takes, with their schemas: the declarations MCP takes, in their order. */
function valueArguments(): Record<string, JsonSchema> {
  const properties: Record<string, JsonSchema> = {};
  for (const p of DECLARATIONS) {
    if (p.mcp === false) continue;
    properties[p.name] = p.mcp === true ? { ...p.schema, description: p.description.en } : p.mcp;
  }
  return properties;
}

/** A tool's `indicator` argument: one of the published ids. */
function indicatorArgument(ids: readonly string[]): JsonSchema {
  return { type: "string", enum: ids, description: `The indicator id: one of ${ids.join(", ")}.` };
}

/** A tool's input schema: these arguments, `required` among them, no other. */
const argumentsOf = (properties: Record<string, JsonSchema>, required: string[]) => ({ type: "object" as const, properties, required, additionalProperties: false as const });

/** `search_series`: /api/v1/search, the 10 best matches. */
export function searchTool(ids: readonly string[]): Tool {
  return {
    name: "search_series",
    description:
      `Find sub-series of Uruguayan statistical indicators (${ids.join(", ")}) by words in Spanish or English, accents and case aside ` +
      '("casmu gineco", "salario minimo", "ipc"). Returns up to 10 matches, each with its indicator, sub-series id, titles, facets and newest value: ' +
      "use the ids with get_values.",
    inputSchema: argumentsOf({ query: { type: "string", minLength: 1, maxLength: 200, description: "The words to find." }, indicator: indicatorArgument(ids) }, ["query"]),
    async run(args, call, site) {
      const only = args.indicator as string | undefined;
      const path = withQuery(SEARCH_PATH, [["q", args.query as string], ...(only === undefined ? [] : [["indicator", only] as const]), ["limit", "10"]], NO_SEPARATORS);
      const response = await call(path);
      if (!response.ok) return failure(site, path, response);
      const body = (await response.json()) as { data: unknown[]; meta: { total: number } };
      return result(site, path, body.data, `${body.meta.total} matches in all${body.meta.total > 10 ? " (the 10 best shown)" : ""}.`);
    },
  };
}

/** `get_metadata`: an indicator's metadata document (a static file), its sub-series listed up to `METADATA_MAX_SERIES`. */
export function metadataTool(ids: readonly string[]): Tool {
  return {
    name: "get_metadata",
    description:
      `What an indicator (${ids.join(", ")}) is: title, description, unit, rhythm, whether a value holds until the next (stepwise), source, notes, facets, ` +
      "when its source was last checked and its next value is due (freshness), " +
      `and its sub-series (up to ${METADATA_MAX_SERIES}; find others with search_series). Read it before get_values.`,
    inputSchema: argumentsOf({ indicator: indicatorArgument(ids) }, ["indicator"]),
    async run(args, call, site) {
      const path = metadataPath(args.indicator as string);
      const response = await call(path);
      if (!response.ok) return failure(site, path, response);
      const doc = (await response.json()) as Record<string, unknown> & { series: unknown[] };
      const { series, ...rest } = doc;
      const summary = { ...rest, series_count: series.length, series: series.slice(0, METADATA_MAX_SERIES) };
      const notes = [metadataFreshnessNote(doc.freshness as Parameters<typeof metadataFreshnessNote>[0]), series.length > METADATA_MAX_SERIES ? `${series.length - METADATA_MAX_SERIES} more sub-series not listed: use search_series.` : undefined];
      const note = notes.filter((n) => n !== undefined).join(" ");
      return result(site, path, summary, note === "" ? undefined : note);
    },
  };
}

/** `get_values`: /api/v1/{indicator} with the questions about time, each value with its provenance. */
export function valuesTool(ids: readonly string[]): Tool {
  return {
    name: "get_values",
    description:
      `Values of an indicator's sub-series (indicators: ${ids.join(", ")}), newest first, with the API's meanings: at (the value in force on a day), from/to (a window), ` +
      `frequency (${Object.keys(FREQUENCIES).join(", ")}) with aggregation (${AGGREGATIONS.join(", ")}), units (${UNITS.join(", ")}; index needs base), ` +
      "real (YYYY-MM: in pesos of that month, deflated by the CPI), per (<indicator>:<sub-series>: a ratio). " +
      `By default the newest ${MCP_DEFAULT_LIMIT} values per sub-series; at most ${MCP_MAX_VALUES} values in all (the result says when it cut). ` +
      "Each value comes with its note (null, or what is doubtful about it: quote it with the value), its source address and the kind of that source " +
      "(official, official-republication, republication, press, reference, computed; null for a derived value).",
    inputSchema: argumentsOf({ indicator: indicatorArgument(ids), ...valueArguments() }, ["indicator", "series"]),
    async run(args, call, site) {
      const path = withQuery(endpointPath(args.indicator as string), questionParams(valueParams(args)));
      const response = await call(path);
      if (!response.ok) return failure(site, path, response);
      const body = (await response.json()) as { data: unknown[]; meta: Record<string, unknown> & { total: number; has_more: boolean } };
      const cut = body.data.length > MCP_MAX_VALUES;
      const data = cut ? body.data.slice(0, MCP_MAX_VALUES) : body.data;
      const notes = [`${data.length} values shown of ${body.meta.total} in the window.`];
      if (cut) notes.push(`Cut at ${MCP_MAX_VALUES} values: ask for fewer sub-series or a smaller limit.`);
      else if (body.meta.has_more) notes.push("More values exist: raise limit or narrow with from/to.");
      notes.push(...freshnessNotes(body.meta as Parameters<typeof freshnessNotes>[0]));
      return result(site, path, { data, meta: body.meta }, notes.join(" "));
    },
  };
}

/** `get_values`' arguments as the API's parameter texts (the API parses them and names one in a 400), with its default limit and provenance. */
function valueParams(args: Args): URLSearchParams {
  const params = new URLSearchParams();
  for (const p of DECLARATIONS) {
    const value = args[p.name];
    if (value !== undefined) params.set(p.name, Array.isArray(value) ? value.join(",") : typeof value === "string" ? value : JSON.stringify(value));
  }
  if (!params.has("limit")) params.set("limit", String(MCP_DEFAULT_LIMIT));
  params.set("provenance", "true");
  return params;
}

/**
 * The query parameters of the arguments, in the declarations' order and without
 * those at their default, as the pages write them when they parse (so the cited
 * URL is the API's own form), or as given when one does not (the API's 400 then names it).
 */
function questionParams(params: URLSearchParams): QueryParams {
  const query: Record<string, unknown> = { ...DEFAULT_QUERY };
  for (const p of DECLARATIONS) {
    const text = params.get(p.name);
    if (text === null) continue;
    const value = p.parse(text);
    if (isInvalid(value)) return params;
    query[p.name] = value;
  }
  return shortParams(query as unknown as PageQuery);
}
