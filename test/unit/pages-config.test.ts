/**
 * `_routes.json` (src/builder/pages-config.ts): which paths the function answers. The
 * rules are checked with wrangler's own matcher, the one `wrangler pages dev` runs in
 * front of the function (`templates/pages-dev-util.ts`), not with a copy of it.
 * `_headers`: its rules as written; what wrangler serves with them, route by route,
 * is test/e2e/security-headers.test.ts's.
 */
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { checkRedirects, excludeRules, headersFile, routesJson } from "../../src/builder/pages-config.js";
import { hashSource, pagePolicy } from "../../src/builder/page-policy.js";
import { CSP_HEADER, DATA_POLICY, SECURITY_HEADERS } from "../../src/core/answer/contract.js";
import { LANGS } from "../../src/core/text/i18n.js";
import { embedPagePath, seriesPagePath } from "../../src/core/file/paths.js";
import { ROOT, treeDigest } from "../files.js";

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
  const files = ["index.html", "_data/x.bin", "_data/manifest.json", "feed.atom", "api/v1/index.json", `api/v1/${ID}/data.csv`, `api/v1/${ID}/limit-10/offset-0.json`, "api/v1/catalog.jsonld"];

  it("excludes each site-wide file by name and an indicator's files one rule per extension, sorted, and nothing else", () => {
    expect(JSON.parse(routesJson(excludeRules(files)))).toEqual({
      version: 1,
      include: ["/api/*", "/mcp"],
      exclude: ["/api/v1/catalog.jsonld", `/api/v1/${ID}/*.csv`, `/api/v1/${ID}/*.json`, "/api/v1/index.json"],
    });
    expect(routesJson(excludeRules(files)).endsWith("}\n")).toBe(true);
  });

  it("leaves a tail indicator's files to the function: no rule for them", () => {
    const routes = JSON.parse(routesJson(excludeRules(files), new Set([ID]))) as Routes;
    expect(routes.exclude).toEqual(["/api/v1/catalog.jsonld", "/api/v1/index.json"]);
    expect(target(routes, `/api/v1/${ID}/data.csv`)).toBe("function");
    expect(target(routes, `/api/v1/${ID}/limit-10/offset-0.json`)).toBe("function");
  });

  it("refuses a file under /api/v1/ without an extension: no rule would keep it off the function", () => {
    expect(() => excludeRules(["api/v1/index.json", `api/v1/${ID}/LICENSE`])).toThrow(/LICENSE: a static file under \/api\/v1\/ needs an extension/);
    expect(() => excludeRules([`api/v1/${ID}/data.`])).toThrow(/needs an extension/);
  });

  it("refuses more rules than Cloudflare's limit of 100, and a rule over 100 characters", () => {
    expect(() => routesJson(excludeRules(Array.from({ length: 99 }, (_, i) => `api/v1/f.x${i}`)))).toThrow(/101 rules, over Cloudflare's 100/);
    expect(() => routesJson(excludeRules([`api/v1/${"x".repeat(90)}/data.csv`]))).toThrow(/is 104 characters, over Cloudflare's 100/);
  });

  describe("on every file the golden build writes", () => {
    const routes = JSON.parse(routesJson(excludeRules(GOLDEN))) as Routes;
    const published = GOLDEN.filter((f) => f.startsWith("api/v1/")).map((f) => `/${f}`);

    it("covers every kind: catalog, OpenAPI, pages, CSV, Parquet, Excel, Atom, JSON-LD", () => {
      const own = ["atom", "csv", "json", "parquet", "xlsx"].map((ext) => `/api/v1/tiny-wages/*.${ext}`);
      expect(routes.exclude).toEqual(["/api/v1/catalog.jsonld", "/api/v1/index.json", "/api/v1/openapi.json", "/api/v1/status.json", ...own].sort());
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

    it("still sends a file name plus a slash, or an indicator's file plus a path ending in a published extension, to the asset server", () => {
      // Pages' rules can't avoid it: a rule not ending in `*` also matches with a final
      // slash, and `*` matches slashes. Cloudflare's asset server answers 404 there;
      // wrangler's local one answers 502 (Node's ENOTDIR, test/reliability/hostile.test.ts).
      expect(target(routes, "/api/v1/index.json/")).toBe("asset");
      expect(target(routes, "/api/v1/tiny-wages/data.csv/x.csv")).toBe("asset");
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

  it("holds six fixed rules and one per head indicator of its own date, within Cloudflare's limits of 100 rules and 2,000 characters a line", () => {
    expect(text.match(/^\//gm)).toHaveLength(6 + lastModified.size);
    const many = new Map(Array.from({ length: 95 }, (_, i) => [`x${i}`, `Tue, ${String(i).padStart(2, "0")} Nov 2023 22:13:20 GMT`]));
    expect(() => headersFile(many, code)).toThrow(/101 rules, over Cloudflare's 100/);
    const hashes = { scripts: Array.from({ length: 40 }, (_, i) => hashSource(String(i))), styles: [] };
    expect(() => headersFile(lastModified, hashes)).toThrow(/line over Cloudflare's 2000 characters: +Content-Security-Policy: default-src/);
  });

  const dates = new Map([
    ["a", "Mon, 01 Jan 2024 00:00:00 GMT"],
    ["b", "Tue, 02 Jan 2024 00:00:00 GMT"],
  ]);
  const generated = (text: string) => text.slice(text.indexOf("# Generated"));

  it("dates every indicator's files with one rule when they share a date (a deploy's SOURCE_DATE_EPOCH)", () => {
    const text = headersFile(new Map([...dates].map(([id]) => [id, "Mon, 01 Jan 2024 00:00:00 GMT"])), code, new Set());
    expect(generated(text)).toBe("# Generated by the build: data version of each indicator.\n/api/v1/:indicator/*\n  Last-Modified: Mon, 01 Jan 2024 00:00:00 GMT\n");
  });

  it("else dates the head's files one rule each, and leaves the tail's to the function", () => {
    expect(generated(headersFile(dates, code, new Set(["b"])))).toBe("# Generated by the build: data version of each indicator.\n/api/v1/b/*\n  Last-Modified: Tue, 02 Jan 2024 00:00:00 GMT\n");
  });

  it("refuses more rules than Cloudflare's 100, counting the fixed ones from the code", () => {
    const many = new Map(Array.from({ length: 100 }, (_, i) => [`i${i}`, `date ${i}`]));
    expect(() => headersFile(many, code)).toThrow(/_headers would hold \d+ rules, over Cloudflare's 100/);
  });
});

describe("checkRedirects (the build writes no _redirects; one in public/ is checked)", () => {
  const lines = (n: number, rule: (i: number) => string) => Array.from({ length: n }, (_, i) => rule(i)).join("\n");

  it("takes 2,000 static and 100 dynamic rules, comments and blank lines aside", () => {
    expect(() => checkRedirects(`# a comment\n\n${lines(2000, (i) => `/old${i} /new${i} 301`)}\n${lines(100, (i) => `/d${i}/* /n/:splat 301`)}`)).not.toThrow();
  });

  it("refuses 2,001 static rules or 101 dynamic ones, naming the limit and the count", () => {
    expect(() => checkRedirects(lines(2001, (i) => `/old${i} /new${i}`))).toThrow(/2001 static rules, over Cloudflare's 2000/);
    expect(() => checkRedirects(lines(101, (i) => `/p/:id${i} /q`))).toThrow(/101 dynamic rules, over Cloudflare's 100/);
  });
});
