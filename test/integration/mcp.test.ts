/**
 * The MCP server at `/mcp`, answered by the handler in Node (the same code workerd
 * runs) and read by the MCP SDK's own client, its fetch handed to the handler:
 * the protocol as the SDK speaks it, tool input schemas made from the parameters'
 * declarations, argument faults as tool errors. test/e2e/mcp.test.ts does the same
 * through `wrangler pages dev` against the real data.
 */
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Api } from "../../src/api/handler.js";
import { DECLARATIONS } from "../../src/core/answer/parameters.js";
import { folderAssets } from "../../scripts/lib/folder-assets.js";
import { runCli, tempDir } from "../helpers.js";

let client: Client;
let post: (body: unknown, headers?: Record<string, string>) => Promise<Response>;

beforeAll(async () => {
  const out = join(await tempDir(), "dist");
  const r = await runCli(["build", "--data", "test/fixtures/golden/data", "--out", out, "--limits", "2", "--no-base"], { SOURCE_DATE_EPOCH: "1700000000" });
  expect(r.code, r.stderr).toBe(0);
  const api = new Api();
  const env = { ASSETS: folderAssets(out), RATE_LIMIT_REQUESTS: "1000000" };
  const fetchFn = (input: string | URL | Request, init?: RequestInit) => api.fetch(new Request(input, init), env);
  post = (body, headers = {}) =>
    fetchFn("http://api.test/mcp", { method: "POST", headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...headers }, body: typeof body === "string" ? body : JSON.stringify(body) });
  client = new Client({ name: "open-series-uy-unit", version: "1" });
  await client.connect(new StreamableHTTPClientTransport(new URL("http://api.test/mcp"), { fetch: fetchFn }));
});

afterAll(async () => {
  await client.close();
});

describe("the MCP server, read by the SDK's client", () => {
  it("initializes at the client's protocol version and lists three tools", async () => {
    expect(client.getServerVersion()).toEqual({ name: "open-series-uy", version: "1" });
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(["search_series", "get_metadata", "get_values"]);
  });

  it("get_values takes the declared parameters MCP takes, with their schemas", async () => {
    const { tools } = await client.listTools();
    const schema = tools.find((t) => t.name === "get_values")?.inputSchema as { properties: Record<string, { type?: string }>; required: string[] };
    const declared = DECLARATIONS.filter((p) => p.mcp !== false).map((p) => p.name);
    expect(Object.keys(schema.properties)).toEqual(["indicator", ...declared]);
    expect(schema.required).toEqual(["indicator", "series"]);
    expect(schema.properties.series?.type).toBe("array");
  });

  it("cites the canonical URL of the answer it gives on the site answering it, and credits the public one", async () => {
    const result = (await client.callTool({ name: "get_values", arguments: { indicator: "tiny-wages", series: ["monthly"], from: "2000" } })) as { content: { text: string }[] };
    const text = result.content[0]?.text ?? "";
    expect(text).toMatch(/^API URL: http:\/\/api\.test\/api\/v1\/tiny-wages\?from=2000-01-01&series=monthly&limit=24&provenance=true$/m);
    expect(text).toMatch(/^Credit: Data: Open Series UY \(CC BY 4\.0\), https:\/\/open-series-uy\.pages\.dev$/m);
  });

  it("get_values gives each value with its date, note, source and kind of source; a derived value has none of its own", async () => {
    const read = async (args: Record<string, unknown>) => {
      const result = (await client.callTool({ name: "get_values", arguments: { indicator: "tiny-wages", ...args } })) as { content: { text: string }[] };
      return (JSON.parse((result.content[0]?.text ?? "").split("\n")[0] as string) as { data: unknown[] }).data;
    };
    expect(await read({ series: ["monthly"], at: "2024-07-01" })).toEqual([
      { date: "2024-07-01", series: "monthly", value: 27985, note: "agreed in June, applied in July", source: "https://example.test/2024-07", source_kind: "press" },
    ]);
    expect(await read({ series: ["hourly"], at: "2024-01-01" })).toEqual([{ date: "2024-01-01", series: "hourly", value: 145.34, note: null, source: "https://example.test/2024-01", source_kind: "official" }]);
    expect(await read({ series: ["hourly"], units: "change", limit: 1 })).toEqual([{ date: "2024-01-01", series: "hourly", value: 100.44, note: null, source: null, source_kind: null }]);
  });

  it("says why a value after the last check is shown, and why none is: never 0 values without a reason", async () => {
    const text = async (at: string) =>
      ((await client.callTool({ name: "get_values", arguments: { indicator: "tiny-wages", series: ["monthly"], at } })) as { content: { text: string }[] }).content[0]?.text ?? "";
    // The fixture's version is 2023-11-14; its July 2024 value was published ahead, its successor due 2025-01-01 (semiannual).
    const held = await text("2024-12-01");
    expect(held).toContain('"value":27985');
    expect(held).toContain("after the last look at the data (no check of the publisher is recorded; the data last changed on 2023-11-14): a value shown is the one in force then");
    const none = await text("2030-01-01");
    expect(none).toContain("0 values shown of 0 in the window.");
    expect(none).toContain("No value for monthly: the value after the one of 2024-07-01 is due on 2025-01-01, after the last look at the data: not known yet.");
    const metadata = ((await client.callTool({ name: "get_metadata", arguments: { indicator: "tiny-wages" } })) as { content: { text: string }[] }).content[0]?.text ?? "";
    // The freshness says what meta.missing says: no schedule is declared, so the rhythm dates the successor.
    expect(metadata).toContain("No check of the publisher is recorded; the data last changed on 2023-11-14; its next value is due on 2025-01-01.");
  });

  it("answers arguments that do not fit, and an unknown tool, with tool errors the model can read", async () => {
    const wrong = (await client.callTool({ name: "get_values", arguments: { indicator: "tiny-wages", series: "monthly" } })) as { isError?: boolean; content: { text: string }[] };
    expect(wrong.isError).toBe(true);
    expect(wrong.content[0]?.text).toContain("series: expected an array");
    const unknown = (await client.callTool({ name: "nope", arguments: {} })) as { isError?: boolean; content: { text: string }[] };
    expect(unknown.isError).toBe(true);
    const bad = (await client.callTool({ name: "get_values", arguments: { indicator: "tiny-wages", series: ["monthly"], units: "index" } })) as { isError?: boolean; content: { text: string }[] };
    expect(bad.content[0]?.text).toContain("base: required with units=index");
  });

  it("speaks the transport's faults as the specification says: 406, 415, 400, 202", async () => {
    expect((await post({ jsonrpc: "2.0", id: 1, method: "ping" }, { accept: "application/json" })).status).toBe(406);
    expect((await post({ jsonrpc: "2.0", id: 1, method: "ping" }, { "content-type": "text/plain" })).status).toBe(415);
    expect((await post("{not json")).status).toBe(400);
    expect((await post({ jsonrpc: "1.0", id: 1, method: "ping" })).status).toBe(400);
    expect((await post({ jsonrpc: "2.0", id: 1, method: "ping" }, { "mcp-protocol-version": "1999-01-01" })).status).toBe(400);
    expect((await post({ jsonrpc: "2.0", method: "notifications/initialized" })).status).toBe(202);
    const unknown = (await (await post({ jsonrpc: "2.0", id: 7, method: "no/such" })).json()) as { error: { code: number } };
    expect(unknown.error.code).toBe(-32601);
    const batch = (await (await post([{ jsonrpc: "2.0", id: 1, method: "ping" }, { jsonrpc: "2.0", method: "notifications/initialized" }])).json()) as unknown[];
    expect(batch).toEqual([{ result: {}, jsonrpc: "2.0", id: 1 }]);
  });
});
