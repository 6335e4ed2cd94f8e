import { describe, expect, it } from "vitest";
import { buildIndicator, type BuiltIndicator } from "../../src/build/dataset.js";
import { parseSiteConfig } from "../../src/build/site-config.js";
import { barChartSvg, lineChartSvg, niceStep } from "../../src/site/chart.js";
import { escapeHtml, html, raw } from "../../src/core/html.js";
import type { IndicatorMeta } from "../../src/source/metadata.js";
import { magnitudeGroups, renderView, type ViewSeries } from "../../src/site/series-view.js";
import { renderHome, renderIndicatorPage } from "../../src/site/site.js";

const config = parseSiteConfig(
  JSON.stringify({ name: "Open Series UY", baseUrl: "https://example.test/", attributionText: "Data: Open Series UY" }),
  "site.config.json",
);
const EVIL = `<script>alert("x")</script>`;

function indicator(meta: Partial<IndicatorMeta>, series: ViewSeries[]): BuiltIndicator {
  const full: IndicatorMeta = {
    id: "evil",
    title: `Title ${EVIL}`,
    description: `Description ${EVIL}`,
    unit: "UYU",
    rhythm: "monthly",
    license: "CC-BY-4.0",
    source: { name: `Source ${EVIL}`, url: "https://example.test/?a=1&b=2" },
    notes: [`Note ${EVIL}`],
    series: series.map((s) => ({ id: s.id, title: s.title, facets: s.facets })),
    ...meta,
  };
  const rows = series.flatMap((s) => s.dates.map((date, i) => ({ date, series: s.id, value: s.values[i] as string, source: "", note: "", file: "x.csv", line: i + 2 })));
  return buildIndicator({ meta: full, folder: "data/evil", files: [], rows }, "", "https://example.test/series/evil/");
}

const plain: ViewSeries[] = [
  { id: "a", title: `Series ${EVIL}`, facets: {}, dates: ["2024-02-01", "2024-01-01"], values: ["1250.5", "1200"] },
  { id: "b", title: "Hourly", facets: {}, dates: ["2024-02-01"], values: ["7.25"] },
];

describe("HTML escaping", () => {
  it("escapes every interpolated value unless it is marked raw", () => {
    expect(html`<p title="${'"q"'}">${EVIL}</p>`.html).toBe(`<p title="&quot;q&quot;">${escapeHtml(EVIL)}</p>`);
    expect(html`<div>${raw("<b>ok</b>")}${[EVIL, 1]}</div>`.html).toBe(`<div><b>ok</b>&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;1</div>`);
  });

  it("never lets a title with <script> into an indicator page or the home page as markup", () => {
    const built = indicator({}, plain);
    for (const page of [renderIndicatorPage(config, built), renderHome(config, [built])]) {
      expect(page).not.toContain(EVIL);
      expect(page).not.toContain("<script>alert");
      // The only script elements are the page's own.
      const scripts = page.match(/<script[^>]*>/g) ?? [];
      const own = ['<script src="/assets/series-page.js" defer>', '<script type="application/json" id="series-config">', '<script type="application/ld+json">'];
      expect(scripts.every((s) => own.includes(s))).toBe(true);
    }
    expect(renderIndicatorPage(config, built)).toContain("Title &lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;");
    expect(renderIndicatorPage(config, built)).toContain('href="https://example.test/?a=1&amp;b=2"');
  });

  it("keeps the embedded page configuration from closing its script element", () => {
    const page = renderIndicatorPage(config, indicator({ title: `</script><script>alert(1)</script>` }, plain));
    const json = /<script type="application\/json" id="series-config">(.*?)<\/script>/s.exec(page)?.[1] ?? "";
    expect((JSON.parse(json) as { title: string }).title).toBe("</script><script>alert(1)</script>");
  });

  it("keeps the schema.org Dataset (JSON-LD) from closing its script element: every < is \\u003c", () => {
    const title = `</script><script>alert(1)</script><!--`;
    const page = renderIndicatorPage(config, indicator({ title }, plain));
    const json = /<script type="application\/ld\+json">(.*?)<\/script>/s.exec(page)?.[1] ?? "";
    expect(json).not.toContain("<");
    const dataset = JSON.parse(json) as { "@type": string; name: string; distribution: { contentUrl: string }[] };
    expect(dataset["@type"]).toBe("Dataset");
    expect(dataset.name).toBe(title);
    expect(dataset.distribution.map((d) => d.contentUrl)).toContain("https://example.test/api/v1/evil/data.parquet");
  });
});

describe("charts", () => {
  it.each([
    [1000, 5, 200],
    [31178, 5, 10000],
    [164, 5, 50],
    [7, 5, 2],
    [0, 5, 1],
  ])("niceStep(%d, %d) = %d", (span, count, step) => {
    expect(niceStep(span, count)).toBe(step);
  });

  it("draws one path per series, a dot for a single point, and a text alternative", () => {
    const svg = lineChartSvg({
      series: [
        { id: "a", label: "A", points: [{ date: "2020-01-01", value: 1 }, { date: "2021-01-01", value: 3 }] },
        { id: "b<", label: "B", points: [{ date: "2020-06-01", value: 2 }] },
      ],
      unit: "UYU",
      title: "T <1>",
      description: "D",
      idPrefix: "c",
    });
    expect(svg.match(/<path class="series-line"/g)).toHaveLength(2);
    expect(svg).toContain('data-series="b&lt;"');
    expect(svg.match(/<circle /g)).toHaveLength(1);
    expect(svg).toContain('role="img" aria-labelledby="c-title c-desc"');
    expect(svg).toContain("<title id=\"c-title\">T &lt;1&gt;</title>");
    expect(svg).toContain(">2020</text>");
  });

  it("says so when a selection has no data", () => {
    expect(lineChartSvg({ series: [], unit: "UYU", title: "t", description: "d", idPrefix: "e" })).toContain("No data for this selection");
  });

  it("orders bars largest first and rounds their labels to the unit", () => {
    const svg = barChartSvg({ bars: [{ label: "small", value: 10.4 }, { label: "big", value: 1234.56, highlight: true }], title: "t", description: "d", idPrefix: "b" });
    expect(svg.indexOf(">big<")).toBeLessThan(svg.indexOf(">small<"));
    expect(svg).toContain(">1,235<");
    expect(svg).toContain('class="bar highlight"');
  });
});

describe("series view", () => {
  it("groups sub-series of very different magnitude into separate charts", () => {
    const groups = magnitudeGroups([
      { id: "monthly", title: "m", facets: {}, dates: ["2024-01-01"], values: ["31178"] },
      { id: "hourly", title: "h", facets: {}, dates: ["2024-01-01"], values: ["164"] },
      { id: "monthly-old", title: "mo", facets: {}, dates: ["2006-01-01"], values: ["2775"] },
    ]);
    expect(groups.map((g) => g.map((s) => s.id))).toEqual([["monthly", "monthly-old"], ["hourly"]]);
  });

  it("shows, for faceted sub-series, one line per value of the primary facet with the chosen one highlighted", () => {
    const series: ViewSeries[] = [];
    for (const provider of ["P1", "P2", "P3"]) {
      for (const item of ["consult", "ticket"]) {
        series.push({ id: `${provider}.${item}`.toLowerCase(), title: `${provider} ${item}`, facets: { provider, item }, dates: ["2024-01-01"], values: [provider === "P2" ? "200" : "100"] });
      }
    }
    const view = renderView({ indicator: "x", title: "X", unit: "UYU", series, selection: { provider: "P2", item: "ticket" } });
    expect(view.shown).toEqual(["p1.ticket", "p2.ticket", "p3.ticket"]);
    expect(view.charts.html).toContain('data-series="p2.ticket" d="');
    expect(view.charts.html.match(/stroke-width="3"/g)).toHaveLength(1);
    expect(view.charts.html).toContain('<g class="bar highlight">');
  });
});
