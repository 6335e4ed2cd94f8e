/**
 * The open-data formats' renderers (src/builder/formats/) on a tiny indicator:
 * releases and coverage, determinism (the XLSX under two system clocks), the
 * plan's files. The real readers read the real data in
 * test/integration/formats.test.ts.
 */
import JSZip from "jszip";
import ExcelJS from "exceljs";
import { afterEach, describe, expect, it, vi } from "vitest";
import { buildIndicator, type BuiltIndicator } from "../../src/builder/dataset.js";
import { MAX_ENTRIES, renderIndicatorFeed, renderServiceFeed, tagUri } from "../../src/builder/formats/atom.js";
import { dateMeaning, periodEnd, releaseOf, releases, temporalCoverage, timeSpan } from "../../src/builder/formats/facts.js";
import { NEUTRAL_DISPLAY } from "../../src/core/indicator/display.js";
import { renderParquet } from "../../src/builder/formats/parquet.js";
import { planFormats } from "../../src/builder/formats/plan.js";
import { renderXlsx } from "../../src/builder/formats/xlsx.js";
import { parseSiteConfig } from "../../src/builder/site-config.js";
import { both, indicatorMeta } from "../meta.js";

const config = parseSiteConfig(
  JSON.stringify({ name: "Open Series UY", baseUrl: "https://example.test:8443/", attributionText: "Data: Open Series UY" }),
  "site.config.json",
);
const VERSION = 1_700_000_000;

function indicator(points: readonly [date: string, series: string, value: string][]): BuiltIndicator {
  const meta = indicatorMeta({
    title: both("Tiny <wages> & co"),
    notes: [both("A note.")],
    facets: [{ name: "provider", title: both("Provider"), values: ["P1", "P2"].map((v) => ({ value: v, label: both(v) })) }],
    series: [
      { id: "a", title: both("A"), facets: { provider: "P1" } },
      { id: "b", title: both("B"), facets: { provider: "P2" } },
    ],
  });
  const rows = points.map(([date, series, value], i) => ({ date, series, value, source: "https://example.test/s", note: "", file: "x.csv", line: i + 2 }));
  return buildIndicator({ meta, folder: "data/tiny", files: [], rows }, "", "https://example.test/series/tiny/");
}

const tiny = indicator([
  ["2024-01-01", "a", "10"],
  ["2024-01-01", "b", "12.50"],
  ["2024-07-01", "a", "11"],
  ["2023-07-01", "b", "9"],
]);

afterEach(() => {
  vi.useRealTimers();
});

describe("facts", () => {
  it("finds the releases newest first, with the points of each date, and the time span", () => {
    expect(releases(tiny)).toEqual([
      { date: "2024-07-01", points: 1 },
      { date: "2024-01-01", points: 2 },
      { date: "2023-07-01", points: 1 },
    ]);
    expect(temporalCoverage(tiny)).toEqual({ start: "2023-07-01", end: "2024-07-01" });
    expect(temporalCoverage(indicator([]))).toBeNull();
  });
});

describe("Atom feeds", () => {
  it("builds tag: ids from the base URL's host name (no port), fixed and unique per release", () => {
    expect(tagUri(config, "tiny/2024-01-01")).toBe("tag:example.test,2026-11-23:tiny/2024-01-01");
    const feed = renderIndicatorFeed(config, tiny, VERSION);
    expect(feed.match(/<id>tag:example\.test,2026-11-23:tiny\/\d{4}-\d\d-\d\d<\/id>/g)).toHaveLength(3);
    expect(feed).toContain("<title>Tiny &lt;wages&gt; &amp; co — Open Series UY</title>");
    // The feed's updated is its newest entry's, whatever the data version.
    expect(feed).toMatch(/^<updated>2024-07-01T00:00:00Z<\/updated>$/m);
    expect(renderIndicatorFeed(config, tiny, VERSION + 1)).toBe(feed);
  });

  it("holds the newest releases only, at most MAX_ENTRIES", () => {
    const days = Array.from({ length: MAX_ENTRIES + 5 }, (_, i) => new Date(Date.UTC(2000, 0, 1 + i)).toISOString().slice(0, 10));
    const feed = renderIndicatorFeed(config, indicator(days.map((d) => [d, "a", "1"])), VERSION);
    const updated = [...feed.matchAll(/<entry>\n<id>[^<]+<\/id>\n<title>[^<]+<\/title>\n<updated>([^<]+)<\/updated>/g)].map((m) => m[1]);
    expect(updated).toEqual(days.slice(5).reverse().map((d) => `${d}T00:00:00Z`));
  });

  it("dates a feed without entries at the data version (RFC 4287 requires an updated)", () => {
    const feed = renderServiceFeed(config, [indicator([])], new Map([["tiny", VERSION]]));
    expect(feed).toContain("<updated>2023-11-14T22:13:20Z</updated>");
    expect(feed).not.toContain("<entry>");
  });
});

describe("data.xlsx", () => {
  it("is byte-identical under two system clocks; the data version reaches the document properties and the zip entries", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(new Date("2001-02-03T04:05:06Z"));
    const ours1 = await renderXlsx(config, tiny, VERSION);
    vi.setSystemTime(new Date("2031-06-07T08:09:10Z"));
    const ours2 = await renderXlsx(config, tiny, VERSION);
    vi.useRealTimers();
    expect(Buffer.from(ours2).equals(Buffer.from(ours1))).toBe(true);
    const later = await JSZip.loadAsync(await renderXlsx(config, tiny, VERSION + 86_400));
    const core = await later.file("docProps/core.xml")?.async("string");
    expect(core).toContain("<dcterms:modified xsi:type=\"dcterms:W3CDTF\">2023-11-15T22:13:20Z</dcterms:modified>");
    expect(Object.values(later.files).map((f) => f.date.toISOString())).toEqual(Object.values(later.files).map(() => "2023-11-15T22:13:20.000Z"));
  });

  it("goes on in further data sheets past the rows a sheet can hold", async () => {
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(Buffer.from(await renderXlsx(config, tiny, VERSION, 3)) as unknown as ExcelJS.Buffer);
    expect(workbook.worksheets.map((s) => [s.name, s.rowCount])).toEqual([
      ["data", 4],
      ["data 2", 2],
      ["metadata", 18],
    ]);
    expect(workbook.getWorksheet("data 2")?.getRow(2).values).toEqual([undefined, new Date("2023-07-01T00:00:00Z"), "b", 9, "https://example.test/s", undefined, "P2"]);
  });
  it("carries any text as written: markup characters, spaces at the ends, a literal _x0041_, a control character; tiny and huge numbers", async () => {
    const meta = indicatorMeta({ series: [{ id: "a", title: both("A"), facets: {} }] });
    const notes = [" starts & ends with a space ", "<b>\"quoted\"</b>", "literal _x0041_ stays", "bell \u0007 here", "dos\r\nlines"];
    const values = ["0.0000001", "123456789012345678901234", "-2.5e-10"];
    const rows = notes.map((note, i) => ({ date: `2024-0${i + 1}-01`, series: "a", value: values[i % values.length] ?? "1", source: "", note, file: "x.csv", line: i + 2 }));
    const odd = buildIndicator({ meta, folder: "data/odd", files: [], rows }, "", "https://example.test/series/odd/");
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(Buffer.from(await renderXlsx(config, odd, VERSION)) as unknown as ExcelJS.Buffer);
    const sheet = workbook.getWorksheet("data");
    const read = [2, 3, 4, 5, 6].map((r) => [sheet?.getRow(r).getCell(5).value, sheet?.getRow(r).getCell(3).value]);
    expect(read).toEqual([...notes].reverse().map((note, i) => [note, Number(values[(notes.length - 1 - i) % values.length])]));
  });
});

describe("data.parquet", () => {
  it("is a Parquet file (PAR1 at both ends), the same bytes every time, also without points", () => {
    const bytes = renderParquet(tiny);
    const magic = (b: Uint8Array) => [new TextDecoder().decode(b.subarray(0, 4)), new TextDecoder().decode(b.subarray(-4))];
    expect(magic(bytes)).toEqual(["PAR1", "PAR1"]);
    expect(Buffer.from(renderParquet(tiny)).equals(Buffer.from(bytes))).toBe(true);
    expect(magic(renderParquet(indicator([])))).toEqual(["PAR1", "PAR1"]);
  });
});

describe("planFormats", () => {
  const input = (publicFiles: Map<string, Uint8Array>) => ({
    config,
    indicators: [tiny],
    limits: [10],
    versions: new Map([["tiny", VERSION]]),
    publicFiles,
    scripts: { page: new Uint8Array(), early: "" },
    seriesFiles: false,
  });

  it("plans each indicator's files and the service's", () => {
    expect(planFormats(input(new Map())).map((f) => [f.path, f.indicator ?? null])).toEqual([
      ["api/v1/tiny/data.parquet", "tiny"],
      ["api/v1/tiny/data.xlsx", "tiny"],
      ["api/v1/tiny/datapackage.json", "tiny"],
      ["api/v1/tiny/feed.atom", "tiny"],
      ["api/v1/catalog.jsonld", null],
      ["feed.atom", null],
      ["sitemap.xml", null],
      ["robots.txt", null],
      ["llms.txt", null],
    ]);
  });

  it("refuses a robots.txt in public/, which the build writes itself", () => {
    expect(() => planFormats(input(new Map([["robots.txt", new Uint8Array()]])))).toThrow(/public\/robots\.txt: the build writes robots\.txt itself/);
  });
});

describe("what a point's date means, in the formats", () => {
  const meta = (date: "date" | "effective" | "period", rhythm: "monthly" | "quarterly" | "annual" | "irregular") =>
    indicatorMeta({ rhythm, display: { ...NEUTRAL_DISPLAY, date }, series: [] });

  it("words a release by the meaning of its date, and dates a period's entry the day after the period ends", () => {
    expect(releaseOf(meta("effective", "irregular"), "2026-01-01")).toEqual({ phrase: "taking effect on 2026-01-01", updated: "2026-01-01T00:00:00Z" });
    expect(releaseOf(meta("date", "irregular"), "2026-01-01")).toEqual({ phrase: "dated 2026-01-01", updated: "2026-01-01T00:00:00Z" });
    expect(releaseOf(meta("period", "monthly"), "2026-07-01")).toEqual({ phrase: "for the month 2026-07-01/2026-07-31", updated: "2026-08-01T00:00:00Z" });
    expect(releaseOf(meta("period", "quarterly"), "2024-10-01")).toEqual({ phrase: "for the quarter 2024-10-01/2024-12-31", updated: "2025-01-01T00:00:00Z" });
    expect(periodEnd(meta("period", "annual"), "2024-01-01")).toBe("2024-12-31");
    expect(periodEnd(meta("effective", "annual"), "2024-01-01")).toBe("2024-01-01");
  });

  it("describes the date column and ends the time span with the newest period", () => {
    expect(dateMeaning(meta("effective", "irregular"))).toMatch(/^The day the value takes effect/);
    expect(dateMeaning(meta("period", "monthly"))).toMatch(/^The first day of the month the value refers to/);
    expect(dateMeaning(meta("date", "monthly"))).toMatch(/^The date of the value/);
    const plain = [{ id: "a", dates: ["2026-07-01", "2026-06-01"], values: ["2", "1"] }];
    expect(timeSpan({ plain, source: { meta: meta("period", "monthly"), folder: "", files: [], rows: [] } })).toEqual({ start: "2026-06-01", end: "2026-07-31" });
    expect(timeSpan({ plain, source: { meta: meta("date", "monthly"), folder: "", files: [], rows: [] } })).toEqual({ start: "2026-06-01", end: "2026-07-01" });
  });
});
