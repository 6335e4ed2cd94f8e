/**
 * `_routes.json` (src/build/pages-config.ts): which paths the function answers. The
 * rules are checked with wrangler's own matcher, the one `wrangler pages dev` runs in
 * front of the function (`templates/pages-dev-util.ts`), not with a copy of it.
 * `_headers`: its rules as written; what wrangler serves with them, route by route,
 * is test/e2e/security-headers.test.ts's.
 */
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { headersFile, routesJson } from "../../src/build/pages-config.js";
import { hashSource, pagePolicy } from "../../src/build/page-policy.js";
import { CSP_HEADER, DATA_POLICY, SECURITY_HEADERS } from "../../src/core/contract.js";
import { LANGS } from "../../src/core/i18n.js";
import { embedPagePath, seriesPagePath } from "../../src/core/paths.js";
import { ROOT, treeDigest } from "../helpers.js";

type Matcher = (pathname: string, rule: string) => boolean;
let isRoutingRuleMatch: Matcher;
beforeAll(async () => {
  const util = (await import(join(ROOT, "node_modules/wrangler/templates/pages-dev-util.ts"))) as { isRoutingRuleMatch: Matcher };
  isRoutingRuleMatch = util.isRoutingRuleMatch;
});

interface Routes {
  version: number;
  include: string[];
  exclude: string[];
}

/** Where Pages sends `pathname`: excludes first, as wrangler's pages-dev-pipeline.ts does. */
function target(routes: Routes, pathname: string): "asset" | "function" {
  if (routes.exclude.some((rule) => isRoutingRuleMatch(pathname, rule))) return "asset";
  return routes.include.some((rule) => isRoutingRuleMatch(pathname, rule)) ? "function" : "asset";
}

/** Every file the golden build writes: one of each kind the build publishes. */
const GOLDEN = [...treeDigest(join(ROOT, "test/fixtures/golden/expected")).keys()];
const ID = "domestic-worker-wages";

describe("routesJson", () => {
  it("excludes one extension per kind of file under /api/v1/, sorted, and nothing else", () => {
    const files = ["index.html", "_data/x.bin", "_data/manifest.json", "feed.atom", "api/v1/index.json", `api/v1/${ID}/data.csv`, `api/v1/${ID}/limit-10/offset-0.json`, "api/v1/catalog.jsonld"];
    expect(JSON.parse(routesJson(files))).toEqual({ version: 1, include: ["/api/*", "/mcp"], exclude: ["/api/v1/*.csv", "/api/v1/*.json", "/api/v1/*.jsonld"] });
    expect(routesJson(files).endsWith("}\n")).toBe(true);
  });

  it("refuses a file under /api/v1/ without an extension: no rule would keep it off the function", () => {
    expect(() => routesJson(["api/v1/index.json", `api/v1/${ID}/LICENSE`])).toThrow(/LICENSE: a static file under \/api\/v1\/ needs an extension/);
    expect(() => routesJson([`api/v1/${ID}/data.`])).toThrow(/needs an extension/);
  });

  it("refuses more rules than Cloudflare's limit of 100", () => {
    const files = Array.from({ length: 99 }, (_, i) => `api/v1/f.x${i}`);
    expect(() => routesJson(files)).toThrow(/101 rules, over Cloudflare's 100/);
  });

  describe("on every file the golden build writes", () => {
    const routes = JSON.parse(routesJson(GOLDEN)) as Routes;
    const published = GOLDEN.filter((f) => f.startsWith("api/v1/")).map((f) => `/${f}`);

    it("covers every kind: catalog, OpenAPI, pages, CSV, Parquet, Excel, Atom, JSON-LD", () => {
      expect(routes.exclude).toEqual(["/api/v1/*.atom", "/api/v1/*.csv", "/api/v1/*.json", "/api/v1/*.jsonld", "/api/v1/*.parquet", "/api/v1/*.xlsx"]);
    });

    it("leaves every static file to the CDN, without a function call", () => {
      expect(published.length).toBeGreaterThan(10);
      for (const path of published) expect(target(routes, path), path).toBe("asset");
    });

    it("sends the endpoint and any path that continues after a file name to the function", () => {
      const endpoints = [`/api/v1/${ID}`, `/api/v1/${ID}/`, "/api/v1", "/api/v1/", "/api/v2/x.json"];
      for (const path of endpoints) expect(target(routes, path), path).toBe("function");
      for (const path of published) {
        for (const suffix of ["/x", "%2f", "%2fx", "/x/y", ".bak", "/index.html"]) expect(target(routes, path + suffix), path + suffix).toBe("function");
      }
    });

    it("still sends a file name plus a slash, or plus a path ending in a published extension, to the asset server", () => {
      // Pages' rules can't avoid it: a rule not ending in `*` also matches with a final
      // slash, and `*` matches slashes. Cloudflare's asset server answers 404 there;
      // wrangler's local one answers 502 (Node's ENOTDIR, test/reliability/hostile.test.ts).
      expect(target(routes, "/api/v1/index.json/")).toBe("asset");
      expect(target(routes, "/api/v1/index.json/x.csv")).toBe("asset");
    });
  });
});

describe("headersFile", () => {
  const code = { scripts: [hashSource("early()")], styles: [hashSource("body{}")] };
  const lastModified = new Map([[ID, "Tue, 14 Nov 2023 22:13:20 GMT"]]);
  const text = headersFile(lastModified, code);
  /** The rule of `path`: its lines after the path, up to the blank line. */
  const ruleOf = (path: string) => new RegExp(`^${path.replace(/[*]/g, "\\*")}\n((?:  .+\n)+)`, "m").exec(text)?.[1] ?? "";

  it("gives every file the security headers and the pages' policy with the pages' hashes (the 404 page is served at any path)", () => {
    expect(ruleOf("/*")).toBe(`${Object.entries({ ...SECURITY_HEADERS, [CSP_HEADER]: pagePolicy(code) }).map(([n, v]) => `  ${n}: ${v}\n`).join("")}`);
    expect(pagePolicy(code)).toContain(`script-src 'self' ${hashSource("early()")}; style-src 'self' ${hashSource("body{}")};`);
  });

  it("replaces the pages' policy with the data policy on the static API files and the data files: detached first, so one policy is served", () => {
    for (const path of ["/api/*", "/_data/*"]) expect(ruleOf(path), path).toMatch(new RegExp(`^  ! ${CSP_HEADER}\n  ${CSP_HEADER}: ${DATA_POLICY}\n`));
  });

  it("lets any site frame the embed pages of every language, with one rule: the policy without frame-ancestors, no X-Frame-Options", () => {
    expect(ruleOf("/*/embed/")).toBe(`  ! ${CSP_HEADER}\n  ! X-Frame-Options\n  ${CSP_HEADER}: ${pagePolicy(code, true)}\n`);
    // Pages reads `*` as any characters, slashes included: the rule is every path ending in embed/, which only the embed pages do.
    for (const lang of LANGS) {
      expect(embedPagePath(ID, lang)).toMatch(/^\/.+\/embed\/$/);
      expect(seriesPagePath(ID, lang)).not.toMatch(/\/embed\/$/);
    }
  });

  it("holds six fixed rules and one per indicator, within Cloudflare's limits of 100 rules and 2,000 characters a line", () => {
    expect(text.match(/^\//gm)).toHaveLength(6 + lastModified.size);
    const many = new Map(Array.from({ length: 95 }, (_, i) => [`x${i}`, "Tue, 14 Nov 2023 22:13:20 GMT"]));
    expect(() => headersFile(many, code)).toThrow(/101 rules, over Cloudflare's 100/);
    const hashes = { scripts: Array.from({ length: 40 }, (_, i) => hashSource(String(i))), styles: [] };
    expect(() => headersFile(lastModified, hashes)).toThrow(/line over Cloudflare's 2000 characters: +Content-Security-Policy: default-src/);
  });
});
