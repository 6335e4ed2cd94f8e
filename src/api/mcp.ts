/**
 * `POST /mcp`: a Model Context Protocol server for AI assistants over the
 * Streamable HTTP transport, stateless (no session id) and answering JSON
 * (MCP specification 2025-11-25, "Transports" and "Lifecycle"). Its tools call the
 * API itself (the same answers, 400 details and bounds), so every result carries
 * the exact API URL that reproduces it and the attribution.
 *
 * - `search_series`: /api/v1/search;
 * - `get_metadata`: an indicator's metadata, summarised (its sub-series listed up to a bound);
 * - `get_values`: /api/v1/{indicator} with the questions about time, by default the
 *   newest 24 values per sub-series, at most `MCP_MAX_VALUES` in all (saying when it cut),
 *   each value with its note, source and kind of source (`provenance=true`): a model
 *   that quotes one value quotes what is known of it.
 *
 * JSON-RPC is answered here rather than by the SDK's server, whose zod and ajv
 * made 700 KB of the function's 793 KB bundle, loaded at every cold start; the
 * tools and their input schemas (JSON Schema, made from the parameters'
 * declarations, src/core/answer/parameters.ts) are made once per isolate and data
 * version. The SDK's own client reads this server in the tests (test/e2e/mcp.test.ts).
 */
import { AGGREGATIONS, FREQUENCIES, UNITS } from "../core/answer/contract.js";
import type { Manifest } from "../core/file/manifest.js";
import { DEFAULT_QUERY, type PageQuery } from "../core/indicator/model.js";
import { DECLARATIONS, isInvalid, shortParams, type JsonSchema } from "../core/answer/parameters.js";
import { SEARCH_PATH, endpointPath, metadataPath } from "../core/file/paths.js";
import { NO_SEPARATORS, withQuery, type QueryParams } from "../core/text/url.js";

/** Values per sub-series `get_values` asks for when not told, and most values one result holds. */
export const MCP_DEFAULT_LIMIT = 24;
export const MCP_MAX_VALUES = 500;
/** Sub-series `get_metadata` lists; the rest are found with `search_series`. */
const METADATA_MAX_SERIES = 60;

/** The protocol versions this server speaks, newest first (the SDK client's list, 1.32). */
export const PROTOCOL_VERSIONS = ["2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05", "2024-10-07"] as const;
const SERVER_INFO = { name: "open-series-uy", version: "1" };

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

type ToolResult = { content: { type: "text"; text: string }[]; isError?: boolean };
type Args = Readonly<Record<string, unknown>>;

interface Tool {
  readonly name: string;
  readonly description: string;
  readonly inputSchema: { type: "object"; properties: Record<string, JsonSchema>; required: string[]; additionalProperties: false };
  readonly run: (args: Args, call: ApiCall, site: McpSite) => Promise<ToolResult>;
}

/** A tool's answer: the data as JSON text, then how to reproduce and credit it. */
function result(site: McpSite, path: string, data: unknown, note?: string): ToolResult {
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
async function failure(site: McpSite, path: string, response: Response): Promise<ToolResult> {
  const body = (await response.json()) as { error?: { detail?: string } };
  return toolError(`${body.error?.detail ?? `status ${response.status}`}\nAPI URL: ${site.origin}${path}`);
}

const toolError = (text: string): ToolResult => ({ content: [{ type: "text", text }], isError: true });

/**
 * Why `value` does not fit `schema` (the JSON Schema keywords the tools use), or
 * `null` when it does. The API checks the values' meaning; this their shape.
 */
export function schemaFault(name: string, value: unknown, schema: JsonSchema): string | null {
  const s = schema as { type?: string; enum?: readonly unknown[]; pattern?: string; minimum?: number; maximum?: number; minLength?: number; maxLength?: number; minItems?: number; maxItems?: number; items?: JsonSchema };
  if (s.type === "string" && typeof value !== "string") return `${name}: expected a string`;
  if (s.type === "integer" && !Number.isInteger(value)) return `${name}: expected an integer`;
  if (s.type === "array" && !Array.isArray(value)) return `${name}: expected an array`;
  if (s.enum !== undefined && !s.enum.includes(value)) return `${name}: expected one of ${s.enum.join(", ")}`;
  if (typeof value === "string") {
    if (s.pattern !== undefined && !new RegExp(s.pattern).test(value)) return `${name}: expected text matching ${s.pattern}`;
    if (value.length < (s.minLength ?? 0) || value.length > (s.maxLength ?? Infinity)) return `${name}: expected ${s.minLength ?? 0} to ${s.maxLength ?? "any number of"} characters`;
  }
  if (typeof value === "number" && (value < (s.minimum ?? -Infinity) || value > (s.maximum ?? Infinity))) return `${name}: expected a number from ${s.minimum ?? "-∞"} to ${s.maximum ?? "∞"}`;
  if (Array.isArray(value)) {
    if (value.length < (s.minItems ?? 0) || value.length > (s.maxItems ?? Infinity)) return `${name}: expected ${s.minItems ?? 0} to ${s.maxItems ?? "any number of"} items`;
    for (const item of value) {
      const fault = s.items === undefined ? null : schemaFault(`${name}[]`, item, s.items);
      if (fault !== null) return fault;
    }
  }
  return null;
}

/** The arguments' shape checked against a tool's input schema: the first fault, or `null`. */
function argumentsFault(tool: Tool, args: unknown): string | null {
  if (typeof args !== "object" || args === null || Array.isArray(args)) return "arguments: expected an object";
  const { properties, required } = tool.inputSchema;
  for (const name of Object.keys(args)) if (!Object.hasOwn(properties, name)) return `${name}: unknown argument; the accepted ones are ${Object.keys(properties).join(", ")}`;
  for (const name of required) if (!Object.hasOwn(args, name)) return `${name}: required`;
  for (const [name, value] of Object.entries(args)) {
    const fault = schemaFault(name, value, properties[name] as JsonSchema);
    if (fault !== null) return fault;
  }
  return null;
}

/** The parameters `get_values` takes, with their schemas: the declarations MCP takes, in their order. */
function valueArguments(): Record<string, JsonSchema> {
  const properties: Record<string, JsonSchema> = {};
  for (const p of DECLARATIONS) {
    if (p.mcp === false) continue;
    properties[p.name] = p.mcp === true ? { ...p.schema, description: p.description.en } : p.mcp;
  }
  return properties;
}

/** The tools for the indicators of `manifest`. */
function tools(manifest: Manifest): readonly Tool[] {
  const ids = Object.keys(manifest.indicators);
  const indicator = { type: "string", enum: ids, description: `The indicator id: one of ${ids.join(", ")}.` };
  const object = (properties: Record<string, JsonSchema>, required: string[]) => ({ type: "object" as const, properties, required, additionalProperties: false as const });
  return [
    {
      name: "search_series",
      description:
        `Find sub-series of Uruguayan statistical indicators (${ids.join(", ")}) by words in Spanish or English, accents and case aside ` +
        '("casmu gineco", "salario minimo", "ipc"). Returns up to 10 matches, each with its indicator, sub-series id, titles, facets and newest value: ' +
        "use the ids with get_values.",
      inputSchema: object({ query: { type: "string", minLength: 1, maxLength: 200, description: "The words to find." }, indicator }, ["query"]),
      async run(args, call, site) {
        const only = args.indicator as string | undefined;
        const path = withQuery(SEARCH_PATH, [["q", args.query as string], ...(only === undefined ? [] : [["indicator", only] as const]), ["limit", "10"]], NO_SEPARATORS);
        const response = await call(path);
        if (!response.ok) return failure(site, path, response);
        const body = (await response.json()) as { data: unknown[]; meta: { total: number } };
        return result(site, path, body.data, `${body.meta.total} matches in all${body.meta.total > 10 ? " (the 10 best shown)" : ""}.`);
      },
    },
    {
      name: "get_metadata",
      description:
        `What an indicator (${ids.join(", ")}) is: title, description, unit, rhythm, whether a value holds until the next (stepwise), source, notes, facets, ` +
          "when its source was last checked and its next value is due (freshness), " +
        `and its sub-series (up to ${METADATA_MAX_SERIES}; find others with search_series). Read it before get_values.`,
      inputSchema: object({ indicator }, ["indicator"]),
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
    },
    {
      name: "get_values",
      description:
        `Values of an indicator's sub-series (indicators: ${ids.join(", ")}), newest first, with the API's meanings: at (the value in force on a day), from/to (a window), ` +
        `frequency (${Object.keys(FREQUENCIES).join(", ")}) with aggregation (${AGGREGATIONS.join(", ")}), units (${UNITS.join(", ")}; index needs base), ` +
        "real (YYYY-MM: in pesos of that month, deflated by the CPI), per (<indicator>:<sub-series>: a ratio). " +
        `By default the newest ${MCP_DEFAULT_LIMIT} values per sub-series; at most ${MCP_MAX_VALUES} values in all (the result says when it cut). ` +
        "Each value comes with its note (null, or what is doubtful about it: quote it with the value), its source address and the kind of that source " +
        "(official, official-republication, republication, press, reference, computed; null for a derived value).",
      inputSchema: object({ indicator, ...valueArguments() }, ["indicator", "series"]),
      async run(args, call, site) {
        // Each argument as the API's parameter text; the API parses it (and names it in a 400).
        const params = new URLSearchParams();
        for (const p of DECLARATIONS) {
          const value = args[p.name];
          if (value !== undefined) params.set(p.name, Array.isArray(value) ? value.join(",") : typeof value === "string" ? value : JSON.stringify(value));
        }
        if (!params.has("limit")) params.set("limit", String(MCP_DEFAULT_LIMIT));
        params.set("provenance", "true");
        const path = withQuery(endpointPath(args.indicator as string), questionParams(params));
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
    },
  ];
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

/** The tools of each data version this isolate has seen (its manifest object). */
const toolsOf = new WeakMap<Manifest, readonly Tool[]>();

/** A JSON-RPC 2.0 error object's response body. */
const rpcError = (id: string | number, code: number, message: string) => ({ jsonrpc: "2.0", id, error: { code, message } });

/** An HTTP answer that is a JSON-RPC error, for faults of the transport itself. */
const transportError = (status: number, code: number, message: string) => Response.json({ jsonrpc: "2.0", error: { code, message }, id: null }, { status });

interface Message {
  readonly jsonrpc?: unknown;
  readonly id?: string | number;
  readonly method?: unknown;
  readonly params?: unknown;
}

/** Whether `message` is a JSON-RPC 2.0 request, notification or response. */
function isMessage(message: unknown): message is Message {
  if (typeof message !== "object" || message === null || Array.isArray(message)) return false;
  const m = message as Message;
  const id = m.id === undefined || typeof m.id === "string" || typeof m.id === "number";
  return m.jsonrpc === "2.0" && id && (typeof m.method === "string" || "result" in m || "error" in m);
}

/** Answers one JSON-RPC message: `null` for a notification or a response, which get none. */
async function answer(message: Message, list: readonly Tool[], call: ApiCall, site: McpSite): Promise<unknown> {
  const { id, method } = message;
  if (id === undefined || method === undefined) return null;
  const params = (typeof message.params === "object" && message.params !== null ? message.params : {}) as Record<string, unknown>;
  // Key order as the SDK's server writes it, so that answers compare byte for byte with earlier releases.
  const ok = (value: unknown) => ({ result: value, jsonrpc: "2.0", id });
  switch (method) {
    case "initialize": {
      const asked = params.protocolVersion;
      const protocolVersion = PROTOCOL_VERSIONS.find((v) => v === asked) ?? PROTOCOL_VERSIONS[0];
      // listChanged false: a stateless server never notifies (the list changes only with a deployment).
      return ok({ protocolVersion, capabilities: { tools: { listChanged: false } }, serverInfo: SERVER_INFO });
    }
    case "ping":
      return ok({});
    case "tools/list":
      return ok({ tools: list.map(({ name, description, inputSchema }) => ({ name, description, inputSchema })) });
    case "tools/call": {
      // An unknown tool or arguments that do not fit are a tool error the model can read and correct (Tools: "Error Handling").
      const tool = list.find((t) => t.name === params.name);
      if (tool === undefined) return ok(toolError(`MCP error -32602: Tool ${typeof params.name === "string" ? params.name : JSON.stringify(params.name)} not found`));
      const args = params.arguments ?? {};
      const fault = argumentsFault(tool, args);
      return ok(fault === null ? await tool.run(args as Args, call, site) : toolError(`MCP error -32602: Input validation error: Invalid arguments for tool ${tool.name}: ${fault}`));
    }
    default:
      return rpcError(id, -32601, "Method not found");
  }
}

/** Whether a `Content-Type` is JSON (its media type, parameters aside). */
const isJson = (type: string | null) => type?.split(";")[0]?.trim().toLowerCase() === "application/json";

/** Answers one MCP request (JSON-RPC over Streamable HTTP, stateless, JSON responses). */
export async function serveMcp(request: Request, manifest: Manifest, call: ApiCall, site: McpSite): Promise<Response> {
  const accept = request.headers.get("accept") ?? "";
  if (!accept.includes("application/json") || !accept.includes("text/event-stream")) {
    return transportError(406, -32000, "Not Acceptable: Client must accept both application/json and text/event-stream");
  }
  if (!isJson(request.headers.get("content-type"))) return transportError(415, -32000, "Unsupported Media Type: Content-Type must be application/json");
  const version = request.headers.get("mcp-protocol-version");
  if (version !== null && !(PROTOCOL_VERSIONS as readonly string[]).includes(version)) {
    return transportError(400, -32000, `Bad Request: Unsupported protocol version: ${version} (supported versions: ${PROTOCOL_VERSIONS.join(", ")})`);
  }
  let body: unknown;
  try {
    body = JSON.parse(await request.text());
  } catch {
    return transportError(400, -32700, "Parse error: Invalid JSON");
  }
  let list = toolsOf.get(manifest);
  if (list === undefined) toolsOf.set(manifest, (list = tools(manifest)));
  const messages: unknown[] = Array.isArray(body) ? body : [body];
  if (messages.length === 0 || !messages.every(isMessage)) return transportError(400, -32700, "Parse error: Invalid JSON-RPC message");
  const answers = (await Promise.all(messages.map((m) => answer(m, list, call, site)))).filter((a) => a !== null);
  // Only notifications or responses: 202 Accepted with no body (Transports: "Sending Messages to the Server").
  if (answers.length === 0) return new Response(null, { status: 202 });
  return Response.json(Array.isArray(body) ? answers : answers[0]);
}

