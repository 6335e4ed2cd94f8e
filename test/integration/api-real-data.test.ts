/**
 * The real data, built in process, answered by the handler workerd runs (`Api`)
 * called in Node: 200 seeded random windows per indicator against the independent
 * reference, every prebuilt page equal to the computed answer for its query, and
 * a property over arbitrary query strings. test/e2e/api.test.ts proves over HTTP
 * that workerd gives the same answers.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import fg from "fast-glob";
import { beforeAll, describe, expect, inject, it } from "vitest";
import type { Assets } from "../../src/api/data-store.js";
import { Api } from "../../src/api/handler.js";
import { parse } from "csv-parse/sync";
import {
  HIGH,
  IDS,
  arbitraryQueryString,
  etagFor,
  expectError,
  expectPage,
  expectPageOrBadRequest,
  expectSame,
  fetched,
  randomSelections,
  randomWindows,
  refs,
  useOutput,
} from "../api-checks.js";
import { declaredSeries, declaredSourceKind } from "../indicators.js";
import { expectedCsv, expectedCsvText, refCanonicalUrl, refMatches, type RefIndicator } from "../reference.js";
import { computedOnly, folderAssets } from "../../scripts/lib/folder-assets.js";

let out: string;
let prebuilt: (path: string) => Promise<Response>;
let computed: (path: string) => Promise<Response>;

/**
 * The API query whose answer a page's download file holds: the whole CSV files and the
 * prebuilt page of limit 5000 for every sub-series, else the file the build named after
 * the `series` parameter (src/builder/page-downloads.ts: a pattern's `*` as `_`).
 */
function downloadQuery(id: string, link: string): string {
  const file = link.slice(`/api/v1/${id}/`.length);
  const whole: Record<string, string> = { "data.csv": "limit=5000&format=csv", "data.es.csv": "limit=5000&format=csv&dialect=es", "limit-5000/offset-0.json": "limit=5000" };
  if (whole[file] !== undefined) return whole[file];
  const [, name, ext] = /^downloads\/([^/]+?)(\.es\.csv|\.csv|\.json)$/.exec(file) ?? [];
  expect(name, link).toBeDefined();
  const series = `series=${(name as string).replaceAll("_", "*")}&limit=5000`;
  return ext === ".json" ? series : `${series}&format=csv${ext === ".es.csv" ? "&dialect=es" : ""}`;
}

function handler(assets: Assets): (path: string) => Promise<Response> {
  const api = new Api();
  return (path) => api.fetch(new Request(`http://api.test${path}`), { ASSETS: assets, ...HIGH });
}

beforeAll(() => {
  // The shared build of the real data (test/real-build.ts); the change report (git) is build-real.test.ts's.
  out = inject("realDist");
  useOutput(out);
  prebuilt = handler(folderAssets(out));
  computed = handler(computedOnly(folderAssets(out)));
});

describe("the handler in Node on the real data", () => {
  it.each(IDS)("%s: 200 random windows and pages equal the reference, prebuilt or computed", async (id) => {
    for (const { path, query } of randomWindows(id, 200)) {
      expectPage(await fetched(await prebuilt(path)), id, query);
      expectPage(await fetched(await computed(path)), id, query);
    }
  });

  it("answers every prebuilt query with the prebuilt file's bytes, and computes the same bytes", async () => {
    let compared = 0;
    for (const id of IDS) {
      const files = fg.sync(`api/v1/${id}/limit-*/offset-*.json`, { cwd: out });
      expect(files.length).toBeGreaterThanOrEqual(7);
      for (const file of [...files, `api/v1/${id}/index.json`]) {
        const [, limit, offset] = /limit-(\d+)\/offset-(\d+)/.exec(file) ?? [null, "500", "0"];
        const bytes = readFileSync(join(out, file));
        const path = `/api/v1/${id}?limit=${limit}&offset=${offset}`;
        const [served, made] = [await fetched(await prebuilt(path)), await fetched(await computed(path))];
        expect(served.bytes.equals(bytes), `${path} served`).toBe(true);
        expect(made.bytes.equals(bytes), `${path} computed`).toBe(true);
        const etag = etagFor([id], `/api/v1/${id}?limit=${limit}&offset=${offset}`);
        expect(served.headers.get("etag")).toBe(etag);
        expect(made.headers.get("etag")).toBe(etag);
        compared++;
      }
    }
    expect(compared).toBeGreaterThanOrEqual(16);
  });

  it.each(IDS)("%s: 150 random selections (ids, patterns, lists) with windows, as JSON and as CSV, equal the reference", async (id) => {
    for (const { path, query } of randomSelections(id, 150)) {
      const json = await fetched(await computed(path));
      expectPage(json, id, query);
      const csv = await fetched(await computed(`${path}&format=csv`));
      expect(csv.status).toBe(200);
      expect(csv.headers.get("content-type")).toBe("text/csv; charset=utf-8");
      expect(csv.headers.get("etag")).toBe(etagFor([id], refCanonicalUrl(id, { ...query, format: "csv" })));
      const expected = expectedCsv(refs.get(id) as RefIndicator, query);
      // The text RFC 4180 writes for the reference's rows (no parse: most answers are equal); when it
      // differs, the rows a CSV library reads, for a readable diff. expectPage above showed the JSON
      // answer has the reference's points in the same order.
      if (csv.text !== expectedCsvText(expected.rows)) expectSame(parse<Record<string, string>>(csv.text, { columns: true }), expected.rows);
      expect(csv.headers.get("x-total-count")).toBe(String(expected.total));
      const link = csv.headers.get("link") ?? "";
      if (expected.next !== null) expect(link).toContain(`<${expected.next}>; rel="next"`);
      expect(link).toContain(`</api/v1/${id}/metadata.json>; rel="describedby"`);
      expect(link).toContain(`<https://open-series-uy.pages.dev/series/${id}/?utm_source=api&utm_medium=attribution&utm_campaign=backlinks>; rel="cite-as"`);
    }
  });

  it("answers a selection the same whatever the order and repetition of its items", async () => {
    const a = await fetched(await computed("/api/v1/health-insurance-prices?series=casmu.*,*.fonasa&limit=2"));
    const b = await fetched(await computed("/api/v1/health-insurance-prices?series=*.fonasa,casmu.*,casmu.*&limit=2"));
    expect(b.bytes.equals(a.bytes)).toBe(true);
    expect(b.headers.get("etag")).toBe(a.headers.get("etag"));
  });

  it.each([
    ["series=nope", 'series: "nope" matches no sub-series of health-insurance-prices; they are listed at /api/v1/health-insurance-prices/metadata.json'],
    ["series=casmu.*,zzz.*", 'series: "zzz.*" matches no sub-series of health-insurance-prices; they are listed at /api/v1/health-insurance-prices/metadata.json'],
    ["series=casmu", 'series: "casmu" matches no sub-series of health-insurance-prices; they are listed at /api/v1/health-insurance-prices/metadata.json'],
  ])("%s is a 400 naming the item", async (qs, detail) => {
    expect(expectError(await fetched(await computed(`/api/v1/health-insurance-prices?${qs}`)), 400, "bad_request").detail).toBe(detail);
  });

  it("answers every point as CSV with exactly the bytes of data.csv", async () => {
    for (const id of IDS) {
      const csv = await fetched(await computed(`/api/v1/${id}?format=csv&limit=5000`));
      expect(csv.bytes.equals(readFileSync(join(out, `api/v1/${id}/data.csv`)))).toBe(true);
    }
  });

  it.each(IDS)("%s: every download link of its pages is a static file, the API's answer to the whole history of what it names, the CPI's 1,069 months included", async (id) => {
    const ref = refs.get(id) as RefIndicator;
    for (const page of [`series/${id}/index.html`, `en/series/${id}/index.html`]) {
      const html = readFileSync(join(out, page), "utf8");
      const list = /<ul class="downloads">([\s\S]*?)<\/ul>/.exec(html)?.[1] ?? "";
      const links = [...list.matchAll(/<a href="([^"]+)"/g)].map((m) => (m[1] as string).replaceAll("&amp;", "&"));
      // CSV, the spreadsheet CSV and JSON of each choice (the chosen sub-series, its comparison, every sub-series).
      expect(links.length, page).toBeGreaterThanOrEqual(3);
      for (const link of links) {
        // A path to a file of the output (a static server answers it), and the query whose answer it holds, byte for byte.
        expect(link, page).toMatch(/^\/api\/v1\/[^?]+\.(csv|json)$/);
        const query = downloadQuery(id, link);
        const bytes = readFileSync(join(out, link));
        const api = await fetched(await computed(`/api/v1/${id}?${query}`));
        expect(api.bytes.equals(bytes), `${page}: ${link} is ?${query}`).toBe(true);
        const series = new URLSearchParams(query).get("series")?.split(",") ?? null;
        const expected = ref.points.filter((p) => series === null || series.some((pattern) => refMatches(pattern, p.series))).length;
        const rows = link.endsWith(".csv") ? api.text.split(/\r?\n/).filter((line) => line !== "").length - 1 : (JSON.parse(api.text) as { data: unknown[] }).data.length;
        expect(rows, `${page}: ${link}`).toBe(expected);
      }
      if (id === "consumer-price-index") {
        // Every month since July 1937 (1,069 in data/), where the API's default limit stops at the newest 500.
        const csv = readFileSync(join(out, links.find((link) => link.endsWith("/data.csv")) as string), "utf8");
        expect(csv.trimEnd().split("\n").length - 1).toBe(ref.points.length);
        expect(ref.points.length).toBeGreaterThan(1000);
      }
    }
  });

  it("writes each sub-series' default answer as static files, byte-identical to the computed answers", async () => {
    let compared = 0;
    for (const id of IDS) {
      for (const file of fg.sync(`api/v1/${id}/series/*.{json,csv}`, { cwd: out })) {
        const [, series, format] = /series\/(.+)\.(json|csv)$/.exec(file) as RegExpExecArray;
        const answer = await fetched(await computed(`/api/v1/${id}?series=${series}${format === "csv" ? "&format=csv" : ""}`));
        expect(answer.bytes.equals(readFileSync(join(out, file))), file).toBe(true);
        compared++;
      }
    }
    // A JSON and a CSV file per sub-series with points: in the real data, every
    // sub-series its indicator.json declares (1,554 + 6 + 1 + 1 + 1 + 1 in data set version 4).
    const subSeries = IDS.reduce((n, id) => n + new Set((refs.get(id) as RefIndicator).points.map((p) => p.series)).size, 0);
    const declared = IDS.reduce((n, id) => n + declaredSeries(id).length, 0);
    expect(subSeries).toBe(declared);
    expect(compared).toBe(2 * subSeries);
  });

  it("publishes a metadata document per indicator, consistent with the data and smaller than the catalog", () => {
    const catalog = JSON.parse(readFileSync(join(out, "api/v1/index.json"), "utf8")) as {
      indicators: { id: string; unit: string; series: { id: string; title: { es: string; en: string }; facets: Record<string, string> }[] }[];
    };
    for (const entry of catalog.indicators) {
      const path = join(out, `api/v1/${entry.id}/metadata.json`);
      const doc = JSON.parse(readFileSync(path, "utf8")) as {
        id: string;
        unit: string;
        license: string;
        source: { url: string };
        facets: { name: string; values: string[] }[];
        source_kinds: { kind: string; points: number; series: number[] }[];
        series: { id: string; title: { es: string; en: string }; facets: (number | null)[] }[];
      };
      expect([doc.id, doc.unit, doc.license]).toEqual([entry.id, entry.unit, "CC-BY-4.0"]);
      expect(doc.source.url).toMatch(/^https:\/\//);
      expect(doc.series.map((s) => s.id)).toEqual(entry.series.map((s) => s.id));
      doc.series.forEach((s, i) => {
        const expected = entry.series[i] as (typeof entry.series)[number];
        expect(s.title).toEqual(expected.title);
        const facets = Object.fromEntries(doc.facets.map((f, k) => [f.name, f.values[s.facets[k] as number]]));
        expect(facets).toEqual(expected.facets);
      });
      // Every id of the data is there, so every item a client builds from it matches.
      const ids = new Set((refs.get(entry.id) as RefIndicator).points.map((p) => p.series));
      for (const sid of ids) expect(doc.series.some((s) => s.id === sid)).toBe(true);
      // The kinds of the sources, counted again from the CSV files and the declarations: per sub-series and overall, every point of a kind.
      const kindOf = declaredSourceKind(entry.id);
      const recount = new Map<string, Map<string, number>>();
      for (const p of (refs.get(entry.id) as RefIndicator).points) {
        let counts = recount.get(p.series);
        if (counts === undefined) recount.set(p.series, (counts = new Map<string, number>()));
        counts.set(kindOf(p.source), (counts.get(kindOf(p.source)) ?? 0) + 1);
      }
      const kinds = doc.source_kinds.map((k) => k.kind);
      expect(kinds).not.toContain("unclassified");
      doc.series.forEach((s, j) => {
        const counted = recount.get(s.id) ?? new Map<string, number>();
        expect(Object.fromEntries(doc.source_kinds.map((k) => [k.kind, k.series[j]]).filter(([, n]) => n !== 0)), `${entry.id} ${s.id}`).toEqual(Object.fromEntries(counted));
      });
      expect(doc.source_kinds.reduce((n, k) => n + k.points, 0)).toBe((refs.get(entry.id) as RefIndicator).points.length);
    }
    const size = (p: string) => readFileSync(join(out, p)).length;
    // Two thirds at most: both carry every label in Spanish and English; the catalog adds every indicator and the counts.
    expect(size("api/v1/health-insurance-prices/metadata.json")).toBeLessThan((size("api/v1/index.json") * 2) / 3);
  });

  it.each(IDS)("%s: provenance=true adds each point's note, source and kind of source to the same items, prebuilt or computed; without it the bytes are as before", async (id) => {
    const ref = refs.get(id) as RefIndicator;
    const kindOf = declaredSourceKind(id);
    const byKey = new Map(ref.points.map((p) => [`${p.series} ${p.date}`, p]));
    for (const { path } of [{ path: `/api/v1/${id}` }, ...randomWindows(id, 8)]) {
      const plain = await fetched(await prebuilt(path));
      if (plain.status !== 200 || path.includes("format=csv")) continue;
      const withIt = `${path}${path.includes("?") ? "&" : "?"}provenance=true`;
      const a = await fetched(await prebuilt(withIt));
      expect(a.bytes.equals((await fetched(await computed(withIt))).bytes)).toBe(true);
      if (a.status === 400) {
        // Over the points an answer with provenance may hold (8,000, as a derived answer): refused, saying how to narrow it.
        expect(JSON.parse(a.text)).toMatchObject({ error: { detail: expect.stringMatching(/^provenance: this answer would hold [\d,]+ points, over the 8,000/) as unknown } });
        expect((JSON.parse(plain.text) as { data: unknown[] }).data.length).toBeGreaterThan(8000);
        continue;
      }
      const body = JSON.parse(a.text) as { data: { date: string; series: string; value: number; note: string | null; source: string | null; source_kind: string | null }[]; meta: { next: string | null } };
      const before = JSON.parse(plain.text) as { data: unknown[]; meta: { next: string | null } };
      // The same meta; the next page asks for provenance too.
      expect(body.meta).toEqual({ ...before.meta, next: before.meta.next === null ? null : `${before.meta.next}&provenance=true` });
      expect(body.data.map(({ date, series, value }) => ({ date, series, value }))).toEqual(before.data);
      const expected = body.data.map(({ series, date }) => {
        const point = byKey.get(`${series} ${date}`) as RefIndicator["points"][number];
        return [point.note === "" ? null : point.note, point.source === "" ? null : point.source, point.source === "" ? null : kindOf(point.source)];
      });
      expect(body.data.map((item) => [item.note, item.source, item.source_kind])).toEqual(expected);
    }
  });

  it("provenance=true: the domestic wages' value in force on 15 March 2025 comes with its own note; a derived value has none; CSV refuses it", async () => {
    const at = await fetched(await computed("/api/v1/domestic-worker-wages?series=hourly&at=2025-03-15&provenance=true"));
    const [item] = (JSON.parse(at.text) as { data: { date: string; value: number; note: string; source_kind: string }[] }).data;
    expect([item?.date, item?.value, item?.source_kind]).toEqual(["2025-01-01", 154.67, "press"]);
    expect(item?.note).toContain("no source at hand states that it applies from 1 January 2025");
    const derived = await fetched(await computed("/api/v1/domestic-worker-wages?series=hourly&units=change&limit=2&provenance=true"));
    expect((JSON.parse(derived.text) as { data: unknown[] }).data).toEqual([
      expect.objectContaining({ note: null, source: null, source_kind: null }),
      expect.objectContaining({ note: null, source: null, source_kind: null }),
    ]);
    expectError(await fetched(await computed("/api/v1/domestic-worker-wages?provenance=true&format=csv")), 400, "bad_request");
    expectError(await fetched(await computed("/api/v1/domestic-worker-wages?provenance=yes")), 400, "bad_request");
  });

  it("provenance=true with as_of: every published version of the domestic wages gives the value of 15 March 2025 with its note, source and kind", async () => {
    const manifest = JSON.parse(readFileSync(join(out, "_data/manifest.json"), "utf8")) as { indicators: Record<string, { history: { days: string[] } }> };
    const days = manifest.indicators["domestic-worker-wages"]?.history.days ?? [];
    expect(days.length).toBeGreaterThan(0);
    const today = (JSON.parse((await fetched(await computed("/api/v1/domestic-worker-wages?series=hourly&at=2025-03-15&provenance=true"))).text) as { data: unknown[] }).data;
    for (const day of days) {
      const past = JSON.parse((await fetched(await computed(`/api/v1/domestic-worker-wages?series=hourly&at=2025-03-15&provenance=true&as_of=${day}`))).text) as { data: unknown[]; meta: { as_of: string } };
      expect(past.meta.as_of, day).toBe(day);
      // The point has not changed since the first version: the same item, with its note, source and kind.
      expect(past.data, day).toEqual(today);
    }
  });

  it("never answers arbitrary query strings with anything but 200 or a well-formed 400 (property, 300 runs)", async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...IDS), arbitraryQueryString, async (id, qs) => {
        expectPageOrBadRequest(await fetched(await computed(`/api/v1/${id}?${qs}`)), id, qs);
      }),
      { numRuns: 300, seed: 20261123 },
    );
  });
});
