/**
 * The output placed within Cloudflare Pages' limits (src/builder/host-plan.ts): the
 * head's rules fit `_routes.json` and `_headers`, the tail's files move to R2 least
 * needed first, exactly as many as the budget needs, and the head gives up
 * indicators only when the tail's files are not enough.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { build } from "../../src/builder/build.js";
import { nodeBuildEffects } from "../../src/builder/effects.js";
import { ROOT, tempDir } from "../files.js";
import { planHost, r2Tier, rankIndicators, type HostedFile } from "../../src/builder/host-plan.js";
import { FIXED_HEADER_RULES, headersFile, routesJson } from "../../src/builder/pages-config.js";

/** An indicator's files as the build plans them: pages, downloads, copies, its site pages and internal files. */
function indicatorFiles(id: string): HostedFile[] {
  const api = ["index.json", "metadata.json", "data.csv", "data.es.csv", "data.xlsx", "data.parquet", "feed.atom", "limit-10/offset-0.json", "limit-10/offset-10.json", "series/a.json", "series/a.csv"];
  return [...api.map((f) => `api/v1/${id}/${f}`), `series/${id}/index.html`, `_data/${id}.api.bin`].map((path) => ({ path, indicator: id }));
}

const SITE: HostedFile[] = ["index.html", "api/v1/index.json", "api/v1/openapi.json", "_data/manifest.json"].map((path) => ({ path }));
const ids = (n: number) => Array.from({ length: n }, (_, i) => `i${String(i).padStart(3, "0")}`);
const input = (n: number, maxFiles: number, sameDate = true) => ({
  files: [...ids(n).flatMap(indicatorFiles), ...SITE],
  ranked: ids(n),
  lastModified: new Map(ids(n).map((id, i) => [id, sameDate ? "d" : `d${i}`])),
  maxFiles,
  extraFiles: 2,
});

describe("planHost", () => {
  it("keeps every indicator in the head when their rules and files fit", () => {
    const host = planHost(input(3, 1000));
    expect([...host.head]).toEqual(ids(3));
    expect(host.tail).toEqual([]);
    expect(host.r2.size).toBe(0);
    expect(host.pagesFiles).toBe(3 * 13 + SITE.length + 2);
  });

  it("takes into the head what _routes.json's 100 rules leave room for (5 extensions an indicator), the rest is the tail", () => {
    const host = planHost(input(40, 100_000));
    // 100 − 2 includes − 2 site-wide files = 96 rules: 19 indicators of 5.
    expect(host.head.size).toBe(19);
    expect(host.tail).toEqual(ids(40).slice(19));
    const routes = JSON.parse(routesJson(host.excludes, new Set(host.tail))) as { include: string[]; exclude: string[] };
    expect(routes.include.length + routes.exclude.length).toBeLessThanOrEqual(100);
  });

  it("counts a Last-Modified rule per head indicator when the dates differ, within _headers' 100", () => {
    const many = { ...input(200, 100_000, false), files: [...ids(200).map((id) => ({ path: `api/v1/${id}/index.json`, indicator: id })), ...SITE] };
    const host = planHost(many);
    expect(host.head.size).toBe(100 - FIXED_HEADER_RULES);
    expect(() => headersFile(many.lastModified, { scripts: [], styles: [] }, host.head)).not.toThrow();
  });

  it("moves exactly the files over the budget to R2: the tail's other pages first, of the least needed indicator first", () => {
    const all = input(40, 100_000);
    const fitting = planHost(all).pagesFiles;
    const host = planHost({ ...all, maxFiles: fitting - 3 });
    expect(host.r2.size).toBe(3);
    expect([...host.r2]).toEqual(["api/v1/i039/limit-10/offset-0.json", "api/v1/i039/limit-10/offset-10.json", "api/v1/i038/limit-10/offset-0.json"]);
    expect(host.pagesFiles).toBe(fitting - 3);
  });

  it("gives up head indicators, the last first, when the tail's files are not enough; never an HTML page or a /_data/ file", () => {
    const host = planHost(input(3, 20));
    expect(host.head.size).toBeLessThan(3);
    expect(host.pagesFiles).toBeLessThanOrEqual(20);
    for (const path of host.r2) expect(path).toMatch(/^api\/v1\/i00\d\//);
  });

  it("stops the build when even an empty head and every movable file in R2 are not enough", () => {
    expect(() => planHost(input(3, 10))).toThrow(/the output would hold \d+ files on Pages, over the budget of 10, even with every file the function can serve \(33\) in R2: .*--limits.*--max-files/);
  });
});

describe("the order files move to R2", () => {
  it("is other pages, sub-series copies, downloads, then the default answer, the CSV and the metadata", () => {
    const order = ["limit-10/offset-0.json", "series/a.csv", "data.xlsx", "data.es.csv", "feed.atom", "index.json", "data.csv", "data-2020.csv", "metadata.json"].map(r2Tier);
    expect(order).toEqual([0, 1, 2, 2, 2, 3, 3, 3, 3]);
  });

  it("ranks indicators by points, most first, then by id", () => {
    expect(rankIndicators([{ id: "b", points: 5 }, { id: "a", points: 5 }, { id: "c", points: 9 }])).toEqual(["c", "a", "b"]);
  });
});

describe("a build over a Pages limit", () => {
  it("stops before writing anything: a _redirects in public/ over Cloudflare's 100 dynamic rules", async () => {
    const out = join(await tempDir(), "dist");
    const redirects = Array.from({ length: 101 }, (_, i) => `/old/${i}/* /new/:splat 301`).join("\n");
    const effects = await nodeBuildEffects(ROOT, { info: () => undefined, warn: () => undefined });
    const publicFiles = () => Promise.resolve(new Map([["_redirects", new TextEncoder().encode(redirects)]]));
    const options = { data: "test/fixtures/golden/data", out, configFile: "site.config.json", limits: [2], maxFiles: 20_000, history: false };
    await expect(build(options, { ...effects, publicFiles, bundleClient: () => Promise.resolve({ page: new Uint8Array(0), early: "" }) })).rejects.toThrow(/_redirects holds 101 dynamic rules, over Cloudflare's 100/);
    expect(existsSync(out)).toBe(false);
  });
});
