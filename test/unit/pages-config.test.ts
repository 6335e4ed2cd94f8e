/**
 * `_routes.json` (src/build/pages-config.ts): which paths the function answers. The
 * rules are checked with wrangler's own matcher, the one `wrangler pages dev` runs in
 * front of the function (`templates/pages-dev-util.ts`), not with a copy of it.
 */
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { routesJson } from "../../src/build/pages-config.js";
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
