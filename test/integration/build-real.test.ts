/**
 * The real data set built by the real CLI: every prebuilt page of every indicator of data/
 * against the independent reference, the files of docs/DESIGN.md §4, determinism.
 */
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { parse } from "csv-parse/sync";
import { beforeAll, describe, expect, inject, it } from "vitest";
import { ANSWER_CODE_VERSION } from "../../src/core/answer/contract.js";
import { answerShards } from "../api-checks.js";
import { expectedResponse, rawValues, readIndicator, type RefIndicator } from "../reference.js";
import { ROOT, runCli, tempDir, treeDigest, type CliResult } from "../helpers.js";
import { INDICATOR_IDS } from "../indicators.js";
import { EPOCH, LAST_MODIFIED } from "../epoch.js";

const SITE = "https://open-series-uy.pages.dev";
const PHRASE = "Data: Open Series UY";
const IDS = INDICATOR_IDS;

let outA: string;
let outB: string;
let outC: string;
let buildA: CliResult;
const refs = new Map<string, RefIndicator>(IDS.map((id) => [id, readIndicator(join(ROOT, "data", id))]));

beforeAll(async () => {
  const dir = await tempDir();
  [outA, outC] = ["a", "c"].map((n) => join(dir, n)) as [string, string];
  // B: the shared default build (test/real-build.ts), made by another call of the same CLI.
  outB = inject("realDist");
  const results = await Promise.all([
    runCli(["build", "--out", outA], { SOURCE_DATE_EPOCH: EPOCH }),
    // The change report is checked on A; B and C are compared with it, byte for byte.
    runCli(["build", "--out", outC, "--no-base"], { SOURCE_DATE_EPOCH: "1800000000" }),
  ]);
  for (const r of results) expect(r.stderr, r.stderr).not.toMatch(/error/i);
  buildA = results[0]!;
});

const read = (path: string) => readFileSync(join(outA, path), "utf8");

describe("npm run build on the real data", () => {
  it("exits 0 and prints a summary table", () => {
    expect(buildA.code).toBe(0);
    expect(buildA.stdout).toMatch(/^indicator\s+sub-series\s+points\s+files\s+bytes$/m);
    for (const id of IDS) {
      const ref = refs.get(id) as RefIndicator;
      expect(buildA.stdout).toMatch(new RegExp(`^${id}\\s+${new Set(ref.points.map((p) => p.series)).size}\\s+${ref.points.length}\\s`, "m"));
    }
    expect(buildA.stdout).toMatch(/^health-insurance-prices\s+1554\s+24274\s/m);
    expect(buildA.stdout).toMatch(/^consumer-price-index\s+1\s+1069\s/m);
  });

  it("writes every file of the output layout", () => {
    const files = new Set(treeDigest(outA).keys());
    const required = ["index.html", "api/v1/index.json", "api/v1/openapi.json", "_headers", "_routes.json", "_data/manifest.json"];
    for (const id of IDS) {
      required.push(`series/${id}/index.html`, `api/v1/${id}/index.json`, `api/v1/${id}/data.csv`);
      // The page script's data: the groups of the view (one for an indicator without a compared facet).
      expect([...files].filter((f) => f.startsWith(`_data/${id}/view/`)).length, id).toBeGreaterThan(0);
      for (const limit of [10, 50, 100, 500, 1000, 5000]) required.push(`api/v1/${id}/limit-${limit}/offset-0.json`);
    }
    for (const path of required) expect(files, path).toContain(path);
  });

  it.each(IDS)("%s: every prebuilt page equals the reference, values as written", (id) => {
    const ref = refs.get(id) as RefIndicator;
    const perSeries = new Map<string, number>();
    for (const p of ref.points) perSeries.set(p.series, (perSeries.get(p.series) ?? 0) + 1);
    const longest = Math.max(...perSeries.values());
    let checked = 0;
    for (const limit of [10, 50, 100, 500, 1000, 5000]) {
      const expectedOffsets: number[] = [];
      for (let o = 0; o < longest; o += limit) expectedOffsets.push(o);
      const written = treeDigest(join(outA, "api/v1", id, `limit-${limit}`));
      expect([...written.keys()].sort()).toEqual(expectedOffsets.map((o) => `offset-${o}.json`).sort());
      for (const offset of expectedOffsets) {
        const body = read(`api/v1/${id}/limit-${limit}/offset-${offset}.json`);
        const expected = expectedResponse(ref, { limit, offset }, SITE, PHRASE);
        expect(JSON.parse(body)).toEqual(expected);
        // The exact source text of each value, in order (e.g. 44.90 stays 44.90).
        const key = (p: { date: string; series: string }) => `${p.series}@${p.date}`;
        const rawByKey = new Map(ref.points.map((p) => [key(p), p.raw]));
        expect(rawValues(body)).toEqual(expected.data.map((p) => rawByKey.get(key(p))));
        checked++;
      }
    }
    expect(read(`api/v1/${id}/index.json`)).toBe(read(`api/v1/${id}/limit-500/offset-0.json`));
    expect(checked).toBeGreaterThanOrEqual(7);
  });

  it.each(IDS)("%s: data.csv holds every point with its source", (id) => {
    const ref = refs.get(id) as RefIndicator;
    const rows = parse<Record<string, string>>(read(`api/v1/${id}/data.csv`), { columns: true });
    expect(Object.keys(rows[0] ?? {})).toEqual(["date", "series", "value", "source", "note"]);
    const key = (p: { date?: string; series?: string; value?: string; raw?: string }) => `${p.series}@${p.date}=${p.value ?? p.raw}`;
    expect(rows.map(key).sort()).toEqual(ref.points.map(key).sort());
    expect(rows.every((r) => (r.source ?? "").startsWith("http"))).toBe(true);
    const dates = rows.map((r) => r.date as string);
    expect(dates).toEqual([...dates].sort().reverse());
  });

  it("writes a catalog of every indicator with their sub-series and links", () => {
    const catalog = JSON.parse(read("api/v1/index.json")) as {
      indicators: { id: string; points: number; series: { id: string; facets: Record<string, string> }[]; links: Record<string, string> }[];
    };
    expect(catalog.indicators.map((i) => i.id)).toEqual(IDS);
    const hip = catalog.indicators.find((i) => i.id === "health-insurance-prices");
    expect(hip?.series).toHaveLength(1554);
    expect(hip?.points).toBe(24274);
    expect(Object.keys(hip?.series[0]?.facets ?? {}).sort()).toEqual(["item", "provider", "regime"]);
    expect(hip?.links).toEqual({
      endpoint: "/api/v1/health-insurance-prices",
      page: "/series/health-insurance-prices/",
      page_en: "/en/series/health-insurance-prices/",
      json: "/api/v1/health-insurance-prices/index.json",
      csv: "/api/v1/health-insurance-prices/data.csv",
      parquet: "/api/v1/health-insurance-prices/data.parquet",
      xlsx: "/api/v1/health-insurance-prices/data.xlsx",
      datapackage: "/api/v1/health-insurance-prices/datapackage.json",
      feed: "/api/v1/health-insurance-prices/feed.atom",
    });
  });

  it("writes the manifest with each indicator's data tag, data version and prebuilt pages, and the deflator of each unit", () => {
    const manifest = JSON.parse(read("_data/manifest.json")) as {
      indicators: Record<string, { lastModified: string; answers: string; tag: string; pages: Record<string, number[]>; index: number; longest: number }>;
      deflators: Record<string, { indicator: string; series: string }>;
    };
    for (const id of IDS) {
      const entry = manifest.indicators[id];
      expect(entry?.lastModified).toBe(LAST_MODIFIED);
      // The data tag of every ETag: SHA-256 of the answers' code version and the answer shards, in order.
      const tag = createHash("sha256").update(Buffer.concat([Buffer.from(`${ANSWER_CODE_VERSION}\n`), ...answerShards(outA, id)])).digest().subarray(0, 16).toString("base64url");
      expect(entry?.tag).toBe(tag);
      // Each limit's page sizes, offsets 0, L, 2L, … below the longest sub-series: the files' sizes.
      for (const [limit, sizes] of Object.entries(entry?.pages ?? {})) {
        expect(sizes.length).toBe(Math.ceil((entry?.longest ?? 0) / Number(limit)));
        sizes.forEach((bytes, k) => expect(readFileSync(join(outA, `api/v1/${id}/limit-${limit}/offset-${k * Number(limit)}.json`)).length).toBe(bytes));
      }
      expect(entry?.index).toBe(readFileSync(join(outA, `api/v1/${id}/index.json`)).length);
    }
    // Declared in data/consumer-price-index/indicator.json ("deflates").
    expect(manifest.deflators).toEqual({ UYU: { indicator: "consumer-price-index", series: "general" } });
  });

  it("configures Cloudflare Pages: routes and static headers", () => {
    // Every indicator in the head (src/builder/host-plan.ts): its files one rule per extension, the site-wide files by name.
    const own = IDS.flatMap((id) => ["atom", "csv", "json", "parquet", "xlsx"].map((ext) => `/api/v1/${id}/*.${ext}`));
    const siteWide = ["catalog.jsonld", "index.json", "openapi.json", "status.json"].map((name) => `/api/v1/${name}`);
    expect(JSON.parse(read("_routes.json"))).toEqual({ version: 1, include: ["/api/*", "/mcp"], exclude: [...siteWide, ...own].sort() });
    const headers = read("_headers");
    expect(headers).toMatch(/^\/api\/\*\n(  .+\n)*  Cache-Control: public, max-age=900$/m);
    expect(headers).toMatch(/^\/api\/\*\n(  .+\n)*  Access-Control-Allow-Origin: \*$/m);
    // One data version (SOURCE_DATE_EPOCH): one rule dates every indicator's files.
    expect(headers).toContain(`/api/v1/:indicator/*\n  Last-Modified: ${LAST_MODIFIED}\n`);
  });

  it.each(IDS)("%s: each page's og:image is a file of the output, a PNG of 1200×630 (the preview image)", (id) => {
    for (const [lang, page] of [["es", `series/${id}/index.html`], ["en", `en/series/${id}/index.html`]] as const) {
      const html = read(page);
      const url = /<meta property="og:image" content="([^"]+)">/.exec(html)?.[1];
      expect(url, page).toBe(`${SITE}${lang === "es" ? "" : "/en"}/series/${id}/preview.png`);
      expect(html).toContain(`<meta name="twitter:image" content="${url}">`);
      expect(html).toContain('<meta property="og:image:width" content="1200">');
      expect(html).toContain('<meta property="og:image:height" content="630">');
      // The PNG signature, then IHDR's width and height (PNG §5.2, §11.2.2).
      const png = readFileSync(join(outA, (url as string).slice(SITE.length)));
      expect(png.subarray(0, 8).equals(Buffer.from([137, 80, 78, 71, 13, 10, 26, 10])), page).toBe(true);
      expect(png.subarray(12, 16).toString("latin1")).toBe("IHDR");
      expect([png.readUInt32BE(16), png.readUInt32BE(20)], page).toEqual([1200, 630]);
      // A picture, not an empty canvas: a blank PNG of this size compresses to about 4 KB.
      expect(png.length, page).toBeGreaterThan(20_000);
    }
  });

  it("is deterministic: the same data and SOURCE_DATE_EPOCH give identical trees", () => {
    const a = treeDigest(outA);
    expect(a.size).toBeGreaterThan(20);
    expect(treeDigest(outB)).toEqual(a);
  });

  it("changes only the data version files when SOURCE_DATE_EPOCH changes", () => {
    const a = treeDigest(outA);
    const c = treeDigest(outC);
    expect([...c.keys()]).toEqual([...a.keys()]);
    const differing = [...a.keys()].filter((k) => a.get(k) !== c.get(k));
    // The data version is also the XLSX files' dates, the Data Packages' `created` and the DCAT `dct:modified`.
    const formats = IDS.flatMap((id) => [`api/v1/${id}/data.xlsx`, `api/v1/${id}/datapackage.json`]);
    // And the indicator pages say how current the data are (the cards' "datos modificados por última vez el …",
    // the citation); their preview images draw the card's standing, which the version bounds.
    const pages = IDS.flatMap((id) => ["", "en/"].flatMap((lang) => [`${lang}series/${id}/index.html`, `${lang}series/${id}/embed/index.html`]));
    for (const page of pages) expect(differing, page).toContain(page);
    const others = differing.filter((k) => !pages.includes(k) && !/^(en\/)?series\/[^/]+\/preview\.png$/.test(k));
    // (The home pages keep their bytes: the calculator's date fields run to today, the browser's day, not to
    // the data version.) Every surface of freshness gives `data_changed`, the day the points last changed,
    // which a build bounds by its version, unable to know of changes after it (src/builder/freshness.ts: the
    // metadata documents, the catalog, status.json, llms.txt).
    const freshness = ["api/v1/index.json", "api/v1/status.json", "llms.txt", ...IDS.map((id) => `api/v1/${id}/metadata.json`)];
    // The answer files carry that day too (`changed`, which an `at` answer after the last look gives as
    // meta.data_changed), as do the files derived from them (the history, the `at` tiles): an indicator whose
    // points last changed after the earlier version has a different `data_changed` in the two builds, and its
    // answer and derived files change with it; those of any other indicator keep their bytes. The indicators
    // are read from each build's status.json (with the real data's history, every indicator whose points a
    // commit after 2026-11-20 changed).
    const dataChanged = (out: string) =>
      new Map((JSON.parse(readFileSync(join(out, "api/v1/status.json"), "utf8")) as { indicators: { id: string; data_changed: string | null }[] }).indicators.map((i) => [i.id, i.data_changed]));
    const [changedA, changedC] = [dataChanged(outA), dataChanged(outC)];
    const moved = IDS.filter((id) => changedA.get(id) !== changedC.get(id));
    const answers = [...a.keys()].filter((k) => moved.some((id) => k === `_data/${id}.api.bin` || k === `_data/${id}.history.bin` || new RegExp(`^_data/${id}/(answers|history|at)/\\d+\\.bin$`).test(k)));
    for (const id of moved) expect(answers, id).toContain(`_data/${id}.api.bin`);
    // And the mirrors' manifest.json, which gives the data version and the other files' hashes.
    expect(others.sort()).toEqual(["_data/manifest.json", "_headers", "api/v1/catalog.jsonld", "manifest.json", ...formats, ...freshness, ...answers].sort());
  });
});
