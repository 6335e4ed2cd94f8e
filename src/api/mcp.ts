/**
 * `POST /mcp`: a Model Context Protocol server for AI assistants, with the
 * official TypeScript SDK's web-standard Streamable HTTP transport, stateless (no
 * session id: a server and a transport per request) and answering JSON. Its
 * tools call the API itself (the same answers, 400 details and bounds), so every
 * result carries the exact API URL that reproduces it and the attribution.
 *
 * - `search_series`: /api/v1/search;
 * - `get_metadata`: an indicator's metadata, summarised (its sub-series listed up to a bound);
 * - `get_values`: /api/v1/{indicator} with the questions about time, by default the
 *   newest 24 values per sub-series, at most `MCP_MAX_VALUES` in all (saying when it cut).
 */
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { z } from "zod";
import { AGGREGATIONS, FREQUENCIES, UNITS } from "../core/contract.js";
import type { Manifest } from "../core/manifest.js";
import { SEARCH_PATH, endpointPath, metadataPath } from "../core/paths.js";

/** Values per sub-series `get_values` asks for when not told, and most values one result holds. */
export const MCP_DEFAULT_LIMIT = 24;
export const MCP_MAX_VALUES = 500;
/** Sub-series `get_metadata` lists; the rest are found with `search_series`. */
const METADATA_MAX_SERIES = 60;

/** An API answer to a relative URL, from the same handler (no second count against the usage limit). */
export type ApiCall = (path: string) => Promise<Response>;

/** What the site config contributes: the public base URL and the attribution phrase. */
export interface McpSite {
  readonly baseUrl: string;
  readonly attribution: string;
}

type ToolResult = { content: { type: "text"; text: string }[]; isError?: boolean };

/** A tool's answer: the data as JSON text, then how to reproduce and credit it. */
function result(site: McpSite, path: string, data: unknown, note?: string): ToolResult {
  const lines = [JSON.stringify(data), `API URL: ${site.baseUrl}${path}`];
  if (note !== undefined) lines.push(note);
  lines.push(`Credit: ${site.attribution} (CC BY 4.0), ${site.baseUrl}`);
  return { content: [{ type: "text", text: lines.join("\n") }] };
}

/** A bad argument: the API's own 400 detail, as a tool error. */
async function failure(site: McpSite, path: string, response: Response): Promise<ToolResult> {
  const body = (await response.json()) as { error?: { detail?: string } };
  return { content: [{ type: "text", text: `${body.error?.detail ?? `status ${response.status}`}\nAPI URL: ${site.baseUrl}${path}` }], isError: true };
}

/** The MCP server of one request. */
function server(manifest: Manifest, call: ApiCall, site: McpSite): McpServer {
  const ids = Object.keys(manifest.indicators);
  const indicator = z.enum(ids as [string, ...string[]]).describe(`The indicator id: one of ${ids.join(", ")}.`);
  const mcp = new McpServer({ name: "open-series-uy", version: "1" });

  mcp.registerTool(
    "search_series",
    {
      description:
        `Find sub-series of Uruguayan statistical indicators (${ids.join(", ")}) by words in Spanish or English, accents and case aside ` +
        '("casmu gineco", "salario minimo", "ipc"). Returns up to 10 matches, each with its indicator, sub-series id, titles, facets and newest value: ' +
        "use the ids with get_values.",
      inputSchema: { query: z.string().min(1).max(200).describe("The words to find."), indicator: indicator.optional() },
    },
    async ({ query, indicator: only }) => {
      const path = `${SEARCH_PATH}?q=${encodeURIComponent(query)}${only === undefined ? "" : `&indicator=${only}`}&limit=10`;
      const response = await call(path);
      if (!response.ok) return failure(site, path, response);
      const body = (await response.json()) as { data: unknown[]; meta: { total: number } };
      return result(site, path, body.data, `${body.meta.total} matches in all${body.meta.total > 10 ? " (the 10 best shown)" : ""}.`);
    },
  );

  mcp.registerTool(
    "get_metadata",
    {
      description:
        `What an indicator (${ids.join(", ")}) is: title, description, unit, rhythm, whether a value holds until the next (stepwise), source, notes, facets, ` +
        `and its sub-series (up to ${METADATA_MAX_SERIES}; find others with search_series). Read it before get_values.`,
      inputSchema: { indicator },
    },
    async ({ indicator: id }) => {
      const path = metadataPath(id);
      const response = await call(path);
      if (!response.ok) return failure(site, path, response);
      const doc = (await response.json()) as Record<string, unknown> & { series: unknown[] };
      const { series, ...rest } = doc;
      const summary = { ...rest, series_count: series.length, series: series.slice(0, METADATA_MAX_SERIES) };
      return result(site, path, summary, series.length > METADATA_MAX_SERIES ? `${series.length - METADATA_MAX_SERIES} more sub-series not listed: use search_series.` : undefined);
    },
  );

  const date = z.string().describe("A date: YYYY-MM-DD, YYYY-MM or YYYY.");
  mcp.registerTool(
    "get_values",
    {
      description:
        `Values of an indicator's sub-series (indicators: ${ids.join(", ")}), newest first, with the API's meanings: at (the value in force on a day), from/to (a window), ` +
        `frequency (${Object.keys(FREQUENCIES).join(", ")}) with aggregation (${AGGREGATIONS.join(", ")}), units (${UNITS.join(", ")}; index needs base), ` +
        "real (YYYY-MM: in pesos of that month, deflated by the CPI), per (<indicator>:<sub-series>: a ratio). " +
        `By default the newest ${MCP_DEFAULT_LIMIT} values per sub-series; at most ${MCP_MAX_VALUES} values in all (the result says when it cut).`,
      inputSchema: {
        indicator,
        series: z.array(z.string()).min(1).max(100).describe("Sub-series ids or patterns with * (from search_series or get_metadata)."),
        at: date.optional(),
        from: date.optional(),
        to: date.optional(),
        frequency: z.enum(Object.keys(FREQUENCIES) as [string, ...string[]]).optional(),
        aggregation: z.enum(AGGREGATIONS).optional(),
        units: z.enum(UNITS).optional(),
        base: date.optional(),
        real: z.string().optional().describe("YYYY-MM"),
        per: z.string().optional().describe("<indicator>:<sub-series id>"),
        limit: z.number().int().min(1).max(5000).optional(),
      },
    },
    async (args) => {
      const params = new URLSearchParams();
      params.set("series", args.series.join(","));
      for (const name of ["at", "from", "to", "frequency", "aggregation", "per", "real", "units", "base"] as const) {
        const value = args[name];
        if (value !== undefined) params.set(name, value);
      }
      params.set("limit", String(args.limit ?? MCP_DEFAULT_LIMIT));
      const path = `${endpointPath(args.indicator)}?${params.toString().replaceAll("%2C", ",").replaceAll("%3A", ":").replaceAll("%2A", "*")}`;
      const response = await call(path);
      if (!response.ok) return failure(site, path, response);
      const body = (await response.json()) as { data: unknown[]; meta: Record<string, unknown> & { total: number; has_more: boolean } };
      const cut = body.data.length > MCP_MAX_VALUES;
      const data = cut ? body.data.slice(0, MCP_MAX_VALUES) : body.data;
      const notes = [`${data.length} values shown of ${body.meta.total} in the window.`];
      if (cut) notes.push(`Cut at ${MCP_MAX_VALUES} values: ask for fewer sub-series or a smaller limit.`);
      else if (body.meta.has_more) notes.push("More values exist: raise limit or narrow with from/to.");
      return result(site, path, { data, meta: body.meta }, notes.join(" "));
    },
  );
  return mcp;
}

/** Answers one MCP request (JSON-RPC over Streamable HTTP, stateless, JSON responses). */
export async function serveMcp(request: Request, manifest: Manifest, call: ApiCall, site: McpSite): Promise<Response> {
  const mcp = server(manifest, call, site);
  const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  await mcp.connect(transport);
  try {
    return await transport.handleRequest(request);
  } finally {
    await mcp.close();
  }
}
