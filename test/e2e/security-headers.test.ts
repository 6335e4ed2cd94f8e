/**
 * The security headers, route by route, as `wrangler pages dev` serves them: the
 * static files get them from `_headers`, the function's answers set them itself,
 * from one declaration (src/core/answer/contract.ts `SECURITY_HEADERS`, `DATA_POLICY`).
 * Every page carries the pages' policy its own inline code implies, the embed
 * pages the same without `frame-ancestors` and `X-Frame-Options`; every other
 * answer, static or computed, success, error or 304, the data policy. Each
 * response holds exactly one policy: Pages joins one header's values from several
 * rules with commas, which a browser reads as several policies.
 */
import { describe, expect, inject, it } from "vitest";
import { CSP_HEADER, DATA_POLICY, SECURITY_HEADERS } from "../../src/core/answer/contract.js";
import { folderPolicies, sitePages } from "../helpers.js";

const { urls, mainDir } = inject("system");
const base = urls.main;
const PAGES = sitePages(mainDir);
const POLICIES = folderPolicies(mainDir);
const ID = "consumer-price-index";

/** The security headers and exactly `policy`; without `X-Frame-Options` on a page other sites may frame. */
function expectSecured(response: Response, policy: string, where: string, framed = false): void {
  for (const [name, value] of Object.entries(SECURITY_HEADERS)) {
    expect(response.headers.get(name), `${where}: ${name}`).toBe(framed && name === "X-Frame-Options" ? null : value);
  }
  expect(response.headers.get(CSP_HEADER), where).toBe(policy);
}

/** Fetches `path` (body read, so the connection is free) and checks its status. */
async function answer(path: string, status: number, init?: RequestInit): Promise<Response> {
  const response = await fetch(`${base}${path}`, { redirect: "manual", ...init });
  await response.arrayBuffer();
  expect(response.status, `${init?.method ?? "GET"} ${path}`).toBe(status);
  return response;
}

describe("security headers through wrangler pages dev", () => {
  it("gives every page the pages' policy, its inline code allowed by hash; the embed pages without frame-ancestors or X-Frame-Options", async () => {
    // Home and 404 in both languages' folders, each indicator's page and embed page in Spanish and English.
    expect(PAGES.length).toBe(3 + 4 * (PAGES.filter((p) => p.path.startsWith("/series/") && !p.path.endsWith("/embed/")).length));
    expect(POLICIES.page).toMatch(/script-src 'self' 'sha256-[A-Za-z0-9+/]{43}='; style-src 'self' 'sha256-[A-Za-z0-9+/]{43}=';.*; frame-ancestors 'none'$/);
    for (const { path } of PAGES) {
      const embed = path.endsWith("/embed/");
      const response = await answer(path, path === "/no-such-page" ? 404 : 200);
      expectSecured(response, embed ? POLICIES.embed : POLICIES.page, path, embed);
    }
  });

  it("gives the site's other files (script, icon, feed, sitemap) the same headers as the pages", async () => {
    for (const path of ["/assets/series-page.js", "/favicon.svg", "/feed.atom", "/sitemap.xml", "/robots.txt", "/llms.txt"]) expectSecured(await answer(path, 200), POLICIES.page, path);
  });

  it("gives the static API files and the data files the data policy: JSON, CSV, OpenAPI, JSON-LD, Atom, a 304", async () => {
    const statics = ["/api/v1/index.json", "/api/v1/openapi.json", "/api/v1/catalog.jsonld", `/api/v1/${ID}/data.csv`, `/api/v1/${ID}/metadata.json`, `/api/v1/${ID}/feed.atom`, "/_data/manifest.json"];
    for (const path of statics) expectSecured(await answer(path, 200), DATA_POLICY, path);
    const etag = (await answer("/api/v1/index.json", 200)).headers.get("etag") ?? "";
    expectSecured(await answer("/api/v1/index.json", 304, { headers: { "If-None-Match": etag } }), DATA_POLICY, "static 304");
  });

  it("gives the function's answers the same: computed JSON and CSV, search, adjust, changes, 304, 400, 404, 405, a preflight", async () => {
    const computed = await answer(`/api/v1/${ID}?from=2020`, 200);
    expectSecured(computed, DATA_POLICY, "computed JSON");
    expectSecured(await answer(`/api/v1/${ID}?from=2020`, 304, { headers: { "If-None-Match": computed.headers.get("etag") ?? "" } }), DATA_POLICY, "computed 304");
    const cases: [string, number, RequestInit?][] = [
      [`/api/v1/${ID}?from=2020&format=csv`, 200],
      ["/api/v1/search?q=ipc", 200],
      ["/api/v1/adjust?amount=1000&from=2020-01-01&to=2025-01-01&by=consumer-price-index:general", 200],
      [`/api/v1/${ID}/changes?since=2020-01-01`, 200],
      [`/api/v1/${ID}?limit=0`, 400],
      ["/api/v1/no-such-indicator", 404],
      [`/api/v1/${ID}`, 405, { method: "DELETE" }],
      [`/api/v1/${ID}`, 204, { method: "OPTIONS", headers: { Origin: "https://elsewhere.example", "Access-Control-Request-Method": "GET" } }],
    ];
    for (const [path, status, init] of cases) expectSecured(await answer(path, status, init), DATA_POLICY, `${init?.method ?? "GET"} ${path}`);
  });

  it("gives the MCP endpoint's answers the same", async () => {
    const initialize = { jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "headers-test", version: "1" } } };
    const headers = { "Content-Type": "application/json", Accept: "application/json, text/event-stream" };
    expectSecured(await answer("/mcp", 200, { method: "POST", headers, body: JSON.stringify(initialize) }), DATA_POLICY, "POST /mcp");
    expectSecured(await answer("/mcp", 405), DATA_POLICY, "GET /mcp");
  });
});
