/**
 * `POST /mcp`: a Model Context Protocol server for AI assistants over the
 * Streamable HTTP transport, stateless (no session id) and answering JSON
 * (MCP specification 2025-11-25, "Transports" and "Lifecycle"). Its tools
 * (src/api/tools.ts) call the API itself, so every result carries the exact API URL
 * that reproduces it and the attribution; a route declares its tool
 * (src/api/routes.ts), and `get_metadata` reads the metadata document, a static file.
 *
 * JSON-RPC is answered here rather than by the SDK's server, whose zod and ajv
 * made 700 KB of the function's 793 KB bundle, loaded at every cold start; the
 * tools and their input schemas (JSON Schema, made from the parameters'
 * declarations, src/core/answer/parameters.ts) are made once per isolate and data
 * version. The SDK's own client reads this server in the tests (test/e2e/mcp.test.ts).
 */
import type { Manifest } from "../core/file/manifest.js";
import type { JsonSchema } from "../core/answer/parameters.js";
import { ROUTES } from "./routes.js";
import { metadataTool, toolError, type ApiCall, type Args, type McpSite, type Tool } from "./tools.js";

export type { ApiCall, McpSite } from "./tools.js";

/** The protocol versions this server speaks, newest first (the SDK client's list, 1.32). */
export const PROTOCOL_VERSIONS = ["2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05", "2024-10-07"] as const;
const SERVER_INFO = { name: "open-series-uy", version: "1" };

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

/** `get_metadata`'s place among the tools: after `search_series`, before `get_values` (the order a model works in). */
const METADATA_TOOL_PLACE = 2;

/** The tools for the indicators `ids`: the routes' (src/api/routes.ts) and `get_metadata`, each at its place (llms.txt names them too). */
export function mcpTools(ids: readonly string[]): readonly Tool[] {
  const placed = ROUTES.flatMap((r) => (r.mcp === undefined ? [] : [{ place: r.mcp.place, tool: r.mcp.tool(ids) }]));
  placed.push({ place: METADATA_TOOL_PLACE, tool: metadataTool(ids) });
  return placed.sort((a, b) => a.place - b.place).map((p) => p.tool);
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
  if (list === undefined) toolsOf.set(manifest, (list = mcpTools(Object.keys(manifest.indicators))));
  const messages: unknown[] = Array.isArray(body) ? body : [body];
  if (messages.length === 0 || !messages.every(isMessage)) return transportError(400, -32700, "Parse error: Invalid JSON-RPC message");
  const answers = (await Promise.all(messages.map((m) => answer(m, list, call, site)))).filter((a) => a !== null);
  // Only notifications or responses: 202 Accepted with no body (Transports: "Sending Messages to the Server").
  if (answers.length === 0) return new Response(null, { status: 202 });
  return Response.json(Array.isArray(body) ? answers : answers[0]);
}

