/**
 * The MCP server at `/mcp` through `wrangler pages dev`, driven by the MCP SDK's
 * own client (`Client` with `StreamableHTTPClientTransport`): initialize, the tool
 * list, each tool, a bad argument; every tool's answer equals the API's answer at
 * the URL it cites. And a bare JSON-RPC post without any session id works.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";

const server = inject("system").urls.main;
let client: Client;

beforeAll(async () => {
  client = new Client({ name: "open-series-uy-test", version: "1" });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${server}/mcp`)));
});

afterAll(async () => {
  await client.close();
});

/** A tool's text: the data (JSON, first line) and the API URL it cites: on the server that answered (the local one). */
async function called(name: string, args: Record<string, unknown>) {
  const result = (await client.callTool({ name, arguments: args })) as { content: { type: string; text: string }[]; isError?: boolean };
  const text = result.content[0]?.text ?? "";
  const apiUrl = /^API URL: (\S+)$/m.exec(text)?.[1] ?? "";
  return { result, text, data: result.isError === true ? null : (JSON.parse(text.split("\n")[0] as string) as unknown), apiUrl, local: apiUrl };
}

describe("the MCP server, through the SDK's own client", () => {
  it("lists its three tools, naming the valid indicator ids", async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(["get_metadata", "get_values", "search_series"]);
    for (const tool of tools) expect(tool.description).toContain("domestic-worker-wages");
  });

  it("search_series: CASMU's gynaecology consultation first, the API's answer, with the URL and the credit", async () => {
    const { text, data, local } = await called("search_series", { query: "casmu gineco" });
    expect(local.startsWith(`${server}/api/v1/search?`), local).toBe(true);
    expect((data as { series: string }[])[0]?.series).toBe("casmu.consult-gynaecology.fonasa");
    const api = (await (await fetch(local)).json()) as { data: unknown[] };
    expect(data).toEqual(api.data);
    expect(text).toMatch(/Credit: Data: Open Series UY \(CC BY 4\.0\)/);
  });

  it("get_metadata: the indicator's description and its sub-series", async () => {
    const { data, local } = await called("get_metadata", { indicator: "domestic-worker-wages" });
    const doc = (await (await fetch(local)).json()) as { id: string; series: unknown[] };
    expect(data).toMatchObject({ id: doc.id, series_count: doc.series.length, series: doc.series });
  });

  it("get_values: the value in force on a day, and a question about time, equal to the API's answers", async () => {
    const atDay = await called("get_values", { indicator: "domestic-worker-wages", series: ["monthly"], at: "2025-03-15" });
    // With the point's own note, its source and the kind of that source (provenance=true): the wages' doubtful start date travels with the value.
    const atDayApi = (await (await fetch(atDay.local)).json()) as { data: unknown[] };
    expect((atDay.data as { data: unknown[] }).data).toEqual(atDayApi.data);
    expect((atDay.data as { data: unknown[] }).data).toEqual([
      expect.objectContaining({ date: "2025-01-01", series: "monthly", value: 29400, note: expect.stringContaining("no source at hand states that it applies from 1 January 2025") as unknown, source_kind: "press" }),
    ]);
    const yoy = await called("get_values", { indicator: "consumer-price-index", series: ["general"], units: "percent_change_a_year_ago", from: "2025" });
    const api = (await (await fetch(yoy.local)).json()) as { data: unknown[]; meta: unknown };
    expect(yoy.data).toEqual({ data: api.data, meta: api.meta });
    // By default the newest 24 values per sub-series.
    const plain = await called("get_values", { indicator: "consumer-price-index", series: ["general"] });
    expect((plain.data as { data: unknown[] }).data).toHaveLength(24);
    expect(plain.text).toContain("More values exist");
  });

  it("answers a bad argument with a tool error carrying the API's detail, not a 500", async () => {
    const { result, text } = await called("get_values", { indicator: "domestic-worker-wages", series: ["monthly"], units: "index" });
    expect(result.isError).toBe(true);
    expect(text).toContain("base: required with units=index (the date whose value is 100)");
  });

  it("needs no session: a bare JSON-RPC post is answered, with the API's CORS and usage-limit headers", async () => {
    const r = await fetch(`${server}/mcp`, {
      method: "POST",
      headers: { "Content-Type": "application/json", Accept: "application/json, text/event-stream" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list", params: {} }),
    });
    expect(r.status).toBe(200);
    expect(r.headers.get("mcp-session-id")).toBeNull();
    expect(r.headers.get("access-control-allow-origin")).toBe("*");
    expect(r.headers.get("ratelimit")).toMatch(/^"default";r=\d+;t=\d+$/);
    expect(((await r.json()) as { result: { tools: unknown[] } }).result.tools).toHaveLength(3);
    expect((await fetch(`${server}/mcp`)).status).toBe(405);
  });
});

describe("/api/v1/search through wrangler pages dev", () => {
  it("finds CASMU's gynaecology consultation first, accent- and case-blind, with the API's headers", async () => {
    const [a, b] = await Promise.all([fetch(`${server}/api/v1/search?q=CASMU%20gineco`), fetch(`${server}/api/v1/search?q=casmu%20ginec%C3%B3`)]);
    expect([a.status, b.status]).toEqual([200, 200]);
    expect(a.headers.get("cache-control")).toBe("public, max-age=900");
    expect(a.headers.get("etag")).toBe(b.headers.get("etag"));
    const [bodyA, bodyB] = [await a.text(), await b.text()];
    expect(bodyA).toBe(bodyB);
    expect((JSON.parse(bodyA) as { data: { series: string }[] }).data[0]?.series).toBe("casmu.consult-gynaecology.fonasa");
    const bad = await fetch(`${server}/api/v1/search?q=x&nope=1`);
    expect(bad.status).toBe(400);
  });
});
