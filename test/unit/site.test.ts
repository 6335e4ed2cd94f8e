import { describe, expect, it } from "vitest";
import { buildIndicator, type BuiltIndicator } from "../../src/builder/dataset.js";
import { parseSiteConfig } from "../../src/builder/site-config.js";
import { escapeHtml, html, raw } from "../../src/core/text/html.js";
import type { Lang } from "../../src/core/text/i18n.js";
import type { IndicatorMeta } from "../../src/source/metadata.js";
import { Formatter, displayDecimals } from "../../src/site/client/format.js";
import { magnitudeGroups, renderView, seriesParameter, valueOnDate, type ViewIndicator, type ViewSeries } from "../../src/site/client/series-view.js";
import { renderEmbedPage, renderHome, renderIndicatorPage } from "../../src/site/site.js";
import { siteIndicator, viewIndicator } from "../../src/builder/site-model.js";
import { renderViewGroup, viewGroupFiles, viewGroups } from "../../src/builder/view-data.js";
import { groupWith, joinedGroup, type ViewGroupFile } from "../../src/site/client/group-files.js";
import { viewDataPath } from "../../src/core/file/paths.js";
import { NEUTRAL_DISPLAY, type Display } from "../../src/core/indicator/display.js";
import { MESSAGES } from "../../src/site/client/messages/index.js";
import { both, indicatorMeta } from "../meta.js";

/** What the health insurance prices declare: effective dates, a 0 that means "no charge". */
const PRICES: Display = { ...NEUTRAL_DISPLAY, date: "effective", zero: { es: "sin costo", en: "no charge" } };

const config = parseSiteConfig(
  JSON.stringify({ name: "Open Series UY", baseUrl: "https://example.test/", attributionText: "Data: Open Series UY" }),
  "site.config.json",
);
const EVIL = `<script>alert("x")</script>`;
/** The data version of the tests' indicators: 2026-11-23 (Unix seconds). */
const VERSION = Date.UTC(2026, 10, 23) / 1000;
const LANGS: Lang[] = ["es", "en"];
/** `Intl` separates "$" and the number with a no-break space: compare with plain spaces. */
const sp = (text: string) => text.replace(/[\u00a0\u202f]/g, " ");

interface TestSeries {
  id: string;
  title: string;
  facets?: Record<string, string>;
  points: [date: string, value: string, note?: string][];
}

function indicator(meta: Partial<IndicatorMeta>, series: TestSeries[]): BuiltIndicator {
  const full = indicatorMeta({
    id: "evil",
    title: both(`Title ${EVIL}`),
    description: both(`Description ${EVIL}`),
    rhythm: "monthly",
    source: { name: both(`Source ${EVIL}`), url: "https://example.test/?a=1&b=2" },
    notes: [both(`Note ${EVIL}`)],
    series: series.map((s) => ({ id: s.id, title: both(s.title), facets: s.facets ?? {} })),
    ...meta,
  });
  const rows = series.flatMap((s) =>
    s.points.map(([date, value, note], i) => ({ date, series: s.id, value, source: "https://example.test/s", note: note ?? "", file: "x.csv", line: i + 2 })),
  );
  return buildIndicator({ meta: full, folder: "data/evil", files: [], rows }, "", "https://example.test/series/evil/");
}

const plain: TestSeries[] = [
  { id: "a", title: `Series ${EVIL}`, points: [["2024-02-01", "1250.5", `a note ${EVIL}</script>`], ["2024-01-01", "1200"]] },
  { id: "b", title: "Hourly", points: [["2024-02-01", "7.25"]] },
];

/** Three providers × two items, as the health insurance prices are faceted. */
function faceted(): BuiltIndicator {
  const series: TestSeries[] = [];
  for (const provider of ["P1", "P2", "P3"]) {
    for (const item of ["consult", "ticket"]) {
      const p = provider === "P2" ? ["150", "200"] : provider === "P3" ? ["0", "0"] : ["100", "120"];
      series.push({ id: `${provider.toLowerCase()}.${item}`, title: `${provider} ${item}`, facets: { provider, item }, points: [["2023-01-01", p[0] as string], ["2024-01-01", p[1] as string]] });
    }
  }
  return indicator(
    {
      rhythm: "irregular",
      stepwise: true,
      display: PRICES,
      facets: [
        { name: "provider", title: { es: "Mutualista", en: "Provider" }, values: ["P1", "P2", "P3"].map((v) => ({ value: v, label: both(v) })) },
        {
          name: "item",
          title: { es: "Prestación", en: "Item" },
          values: [
            { value: "consult", label: { es: "Orden de consulta", en: "Consultation order" } },
            { value: "ticket", label: { es: "Ticket", en: "Ticket" } },
          ],
        },
      ],
      view: { compare: "provider", default: { provider: "P2", item: "ticket" }, ratios: [] },
    },
    series,
  );
}

describe("HTML escaping", () => {
  it("escapes every interpolated value unless it is marked raw", () => {
    expect(html`<p title="${'"q"'}">${EVIL}</p>`.html).toBe(`<p title="&quot;q&quot;">${escapeHtml(EVIL)}</p>`);
    expect(html`<div>${raw("<b>ok</b>")}${[EVIL, 1]}</div>`.html).toBe(`<div><b>ok</b>&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;1</div>`);
  });

  it("never lets a title, note or label with <script> into any page of either language as markup", () => {
    const built = indicator({}, plain);
    for (const lang of LANGS) {
      for (const page of [renderIndicatorPage(config, siteIndicator(config, built, VERSION), lang), renderHome(config, [siteIndicator(config, built, VERSION)], lang), renderEmbedPage(config, siteIndicator(config, built, VERSION), lang)]) {
        expect(page).not.toContain(EVIL);
        expect(page).not.toContain("<script>alert");
        // The only script elements are the page's own.
        const scripts = page.match(/<script[^>]*>/g) ?? [];
        const own = ['<script src="/assets/series-page.js" defer>', '<script type="application/json" id="series-config">', '<script type="application/ld+json">'];
        expect(scripts.every((s) => own.includes(s))).toBe(true);
      }
      expect(renderIndicatorPage(config, siteIndicator(config, built, VERSION), lang)).toContain("Title &lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;");
      expect(renderIndicatorPage(config, siteIndicator(config, built, VERSION), lang)).toContain('href="https://example.test/?a=1&amp;b=2"');
    }
  });

  it("keeps the embedded page configuration (with the indicator's title) from closing its script element; the points' notes go to the group file", () => {
    const built = indicator({}, plain);
    const page = renderIndicatorPage(config, siteIndicator(config, built, VERSION), "es");
    const json = /<script type="application\/json" id="series-config">(.*?)<\/script>/s.exec(page)?.[1] ?? "";
    expect(json).not.toContain("<");
    expect((JSON.parse(json) as { title: unknown }).title).toEqual(both(`Title ${EVIL}`));
    const view = viewIndicator(built, VERSION);
    const [[key, series]] = [...viewGroups(view)] as [[string, ViewSeries[]]];
    expect(key).toBe("all");
    const file = JSON.parse(new TextDecoder().decode(renderViewGroup(view, series))) as { series: ViewSeries[] };
    expect(file.series.find((s) => s.id === "a")?.notes).toEqual({ "2024-02-01": both(`a note ${EVIL}</script>`) });
  });

  it("writes a group of more points than a file may hold in parts of whole sub-series, which the page script reads back as the one group", async () => {
    const view = viewIndicator(indicator({}, plain), VERSION);
    const [[key, series]] = [...viewGroups(view)] as [[string, ViewSeries[]]];
    const whole = JSON.parse(new TextDecoder().decode(renderViewGroup(view, series))) as ViewGroupFile;
    const counts = series.map((s) => s.dates.length);
    expect(viewGroupFiles(view, key, series).map((f) => f.path)).toEqual([viewDataPath(view.id, key)]);
    // At most the largest sub-series' points a part: several parts, each of whole sub-series.
    const most = Math.max(...counts);
    const files = viewGroupFiles(view, key, series, most);
    expect(files.length).toBeGreaterThan(2);
    const served = new Map(files.map((f) => [f.path, JSON.parse(new TextDecoder().decode(f.render())) as ViewGroupFile]));
    const top = served.get(viewDataPath(view.id, key)) as ViewGroupFile;
    expect(top.series).toEqual([]);
    expect(top.parts?.map((p) => p.path)).toEqual(files.slice(1).map((f) => f.path));
    for (const part of top.parts ?? []) {
      const held = served.get(part.path)?.series ?? [];
      expect(held.map((s) => s.id)).toEqual(part.ids);
      expect(held.reduce((n, s) => n + s.dates.length, 0)).toBeLessThanOrEqual(most);
    }
    const ids = series.map((s) => s.id);
    const reader = () => {
      const fetched: string[] = [];
      return { fetched, read: (url: string) => (fetched.push(url), Promise.resolve(served.get(url))) };
    };
    // Drawing the group: every part, read back as the one group (and every id).
    const all = reader();
    expect(await groupWith(top, undefined, all.read)).toEqual({ ...whole, ids });
    expect(all.fetched).toEqual(top.parts?.map((p) => p.path));
    // A question about one sub-series: the part holding it alone, still with every id of the group.
    const last = ids.at(-1) as string;
    const one = reader();
    const some = await groupWith(top, [last], one.read);
    expect(some.series.map((s) => s.id)).toEqual([last]);
    expect(some.ids).toEqual(ids);
    expect(one.fetched).toEqual(top.parts?.filter((p) => p.ids.includes(last)).map((p) => p.path));
    // What was read before stays, in the group's order.
    const first = await groupWith(top, [ids[0] as string], reader().read);
    expect(joinedGroup(some, first).series.map((s) => s.id)).toEqual(ids);
    // A file without parts is the group as it is, nothing fetched.
    expect(await groupWith(whole, [last], () => Promise.reject(new Error("fetched")))).toBe(whole);
  });

  it("names the asked sub-series in the answer's API address against every id, also when only some of the group was read", () => {
    const three = ["x.k", "y.k", "z.k"].map((id) => ({ id, title: id, points: [["2024-01-01", "1"]] as [string, string][] }));
    const view = viewIndicator(indicator({}, three), VERSION);
    const partial: ViewIndicator = { ...view, series: view.series.filter((s) => s.id !== "z.k") };
    const parameter = (v: ViewIndicator) => {
      const [, href = "", text = ""] = /<a href="([^"]+)"><code>([^<]+)<\/code>/.exec(valueOnDate({ lang: "en", indicator: v, selection: {}, baseUrl: "https://example.test" }, ["x.k", "y.k"], "2024-02-01").html) ?? [];
      // The link is a path on the site serving the page; its text, the whole address to copy.
      expect(text).toBe(`https://example.test${href}`);
      return new URL(href.replace(/&amp;/g, "&"), "https://example.test").searchParams.get("series");
    };
    // Against the loaded sub-series alone, `*.k` would name z.k too.
    expect(parameter(partial)).toBe("*.k");
    expect(parameter({ ...partial, ids: view.series.map((s) => s.id) })).toBe("x.k,y.k");
    expect(parameter(view)).toBe("x.k,y.k");
  });

  it("keeps the schema.org Dataset (JSON-LD) from closing its script element, in the page's language", () => {
    const title = { es: `</script><script>alert(1)</script><!-- es`, en: `</script><!-- en` };
    for (const lang of LANGS) {
      const page = renderIndicatorPage(config, siteIndicator(config, indicator({ title }, plain), VERSION), lang);
      const json = /<script type="application\/ld\+json">(.*?)<\/script>/s.exec(page)?.[1] ?? "";
      expect(json).not.toContain("<");
      const dataset = JSON.parse(json) as { "@type": string; name: string; inLanguage: string; url: string; distribution: { contentUrl: string }[] };
      expect(dataset).toMatchObject({ "@type": "Dataset", name: title[lang], inLanguage: lang, url: `https://example.test${lang === "es" ? "" : "/en"}/series/evil/` });
      expect(dataset.distribution.map((d) => d.contentUrl)).toContain("https://example.test/api/v1/evil/data.parquet");
    }
  });
});

describe("languages and sharing", () => {
  const built = indicator({ title: { es: "Salario mínimo", en: "Minimum wage" } }, plain);
  const head = (page: string) => page.slice(0, page.indexOf("</head>"));

  it.each([
    ["es", "/series/evil/", "es_UY"],
    ["en", "/en/series/evil/", "en_US"],
  ] as const)("names its language (%s), its canonical URL without utm_ parameters and both translations", (lang, path, locale) => {
    const page = renderIndicatorPage(config, siteIndicator(config, built, VERSION), lang);
    expect(page).toContain(`<html lang="${lang}">`);
    expect(head(page)).toContain(`<link rel="canonical" href="https://example.test${path}">`);
    expect(head(page)).toContain('<link rel="alternate" hreflang="es" href="https://example.test/series/evil/">');
    expect(head(page)).toContain('<link rel="alternate" hreflang="en" href="https://example.test/en/series/evil/">');
    expect(head(page)).toContain('<link rel="alternate" hreflang="x-default" href="https://example.test/series/evil/">');
    expect(head(page)).toContain(`<meta property="og:locale" content="${locale}">`);
    expect(head(page)).toContain(`<meta property="og:url" content="https://example.test${path}">`);
    expect(head(page)).toContain(`<meta property="og:title" content="${lang === "es" ? "Salario mínimo" : "Minimum wage"} — Open Series UY">`);
    expect(head(page)).toContain('<meta name="twitter:card" content="summary_large_image">');
    expect(head(page)).not.toContain("utm_");
    // The visible switch leads to the other language.
    const other = lang === "es" ? 'href="/en/series/evil/" hreflang="en" lang="en">English</a>' : 'href="/series/evil/" hreflang="es" lang="es">Español</a>';
    expect(page).toContain(other);
  });

  it("lets search engines skip the embed page, whose links leave the frame", () => {
    const page = renderEmbedPage(config, siteIndicator(config, built, VERSION), "es");
    expect(head(page)).toContain('<meta name="robots" content="noindex">');
    expect(head(page)).toContain('<base target="_blank">');
    expect(page).toContain('href="https://example.test/series/evil/?utm_source=api&amp;utm_medium=attribution&amp;utm_campaign=backlinks"');
    // The title leads to the page on the site serving the frame (a mirror's, or the public one).
    expect(page).toContain('<h1 class="embed-title"><a href="/series/evil/">');
  });

  it("names the public address only where that is the link's job; texts to copy name it for the page script to rewrite", () => {
    const page = renderIndicatorPage(config, siteIndicator(config, built, VERSION), "en");
    // The fixture's source is on the same host: its link is the publisher's, not the site's.
    const source = '<a href="https://example.test/?a=1&amp;b=2">';
    const named = [...page.matchAll(/<(\w+)([^>]*)="https:\/\/example\.test[^"]*"[^>]*>/g)].filter((m) => m[0] !== source).map((m) => m[0].replace(/"https:\/\/example\.test[^"]*"/g, '"…"'));
    expect(new Set(named)).toEqual(
      new Set([
        '<link rel="canonical" href="…">',
        ...["es", "en", "x-default"].map((l) => `<link rel="alternate" hreflang="${l}" href="…">`),
        '<meta property="og:url" content="…">',
        '<meta property="og:image" content="…">',
        '<meta name="twitter:image" content="…">',
        '<a rel="cite-as" href="…">',
      ]),
    );
    expect(page).toContain('<pre><code id="embed-code" data-address>&lt;iframe src=&quot;https://example.test/en/series/evil/embed/&quot;');
    expect(page).toContain('<pre><code id="api-url" data-address>https://example.test/api/v1/evil?limit=5000</code></pre>');
    const home = renderHome(config, [siteIndicator(config, built, VERSION)], "es");
    expect(home).toContain("<pre><code data-address>curl 'https://example.test/api/v1/evil?limit=1'</code></pre>");
    expect(home).not.toContain("data-base-url");
  });
});

describe("formatting by the platform", () => {
  it.each([
    ["es", "31178", "$ 31.178"],
    ["en", "31178", "$31,178"],
    ["es", "159.05", "$ 159,05"],
    ["en", "159.05", "$159.05"],
    ["es", "154.67", "$ 154,67"],
    ["es", "27626.3", "$ 27.626,30"],
    ["en", "709.991622980185", "$709.99"],
  ] as const)("%s: %s is %s", (lang, text, shown) => {
    expect(sp(new Formatter(lang, "UYU").value(text))).toBe(shown);
  });

  it("formats dates, changes and percentages per locale", () => {
    const es = new Formatter("es", "UYU");
    const en = new Formatter("en", "UYU");
    expect(es.date("2026-01-01")).toBe("1 de enero de 2026");
    expect(en.date("2026-01-01")).toBe("January 1, 2026");
    expect(sp(es.change("30232", "31178"))).toBe("+$ 946");
    expect(en.change("159.05", "164")).toBe("+$4.95");
    expect(sp(es.percent("30232", "31178") ?? "")).toBe("+3,1%");
    expect(es.percent("0", "10")).toBeNull();
    expect(new Formatter("es", "index").value("101.5")).toBe("101,5");
  });

  it("shows a value with the decimals its indicator declares (display.decimals: the UI's four), and its changes at them", () => {
    const es = new Formatter("es", "UYU", null, null, 4);
    const en = new Formatter("en", "UYU", null, null, 4);
    expect(sp(es.value("6.6378"))).toBe("$ 6,6378");
    expect(sp(es.value("2.728"))).toBe("$ 2,7280");
    expect(en.value("6.6378")).toBe("$6.6378");
    // A day's change is a ten-thousandth: shown, and its percentage with two significant digits, never "0 %".
    expect(sp(es.change("6.6377", "6.6378"))).toBe("+$ 0,0001");
    expect(sp(es.percent("6.6377", "6.6378") ?? "")).toBe("+0,0015%");
    expect(es.unchanged("6.6377", "6.6378")).toBe(false);
    // Without the declaration the same change rounds to the cents: nothing to show.
    const cents = new Formatter("es", "UYU");
    expect(sp(cents.value("6.6378"))).toBe("$ 6,64");
    expect(cents.unchanged("6.6377", "6.6378")).toBe(true);
  });

  it("writes a negative number with the minus sign (U+2212), not a hyphen, in both languages", () => {
    const es = new Formatter("es", "UYU");
    const en = new Formatter("en", "UYU");
    expect(sp(es.change("31178", "30232"))).toBe("\u2212$ 946");
    expect(en.change("164", "159.05")).toBe("\u2212$4.95");
    expect(sp(es.percent("100", "95.2") ?? "")).toBe("\u22124,8%");
    expect(en.percent("100", "95.2")).toBe("\u22124.8%");
    expect(new Formatter("es", "index").value("-1.5")).toBe("\u22121,5");
    expect(sp(es.computedPercent(-4.8, 1))).toBe("\u22124,8%");
    for (const text of [es.change("2", "1"), es.percent("2", "1"), en.number(-40000), es.computed(-3.25, 2, "UYU")]) expect(text).not.toContain("-");
  });

  it.each([
    ["31178", true, 0],
    ["27626.3", true, 2],
    ["27626.3", false, 1],
    ["154.67", true, 2],
    ["709.991622980185", false, 2],
  ] as const)("shows %s with the decimals its source gives (money %s): %d", (text, money, decimals) => {
    expect(displayDecimals(text, money)).toBe(decimals);
  });
});

describe("series view", () => {
  it("groups sub-series of very different magnitude into separate charts", () => {
    const s = (id: string, value: string): ViewSeries => ({ id, title: both(id), facets: {}, dates: ["2024-01-01"], values: [value], notes: {} });
    expect(magnitudeGroups([s("monthly", "31178"), s("hourly", "164"), s("monthly-old", "2775")]).map((g) => g.map((x) => x.id))).toEqual([
      ["monthly", "monthly-old"],
      ["hourly"],
    ]);
  });

  it("names a selection with the narrowest `series` parameter that means exactly it", () => {
    const all = ["a.x.fonasa", "b.x.fonasa", "a.x.no-fonasa", "b.x.no-fonasa", "a.y.fonasa"];
    expect(seriesParameter(["a.x.fonasa"], all)).toBe("a.x.fonasa");
    expect(seriesParameter(["a.x.fonasa", "b.x.fonasa"], all)).toBe("*.x.fonasa");
    expect(seriesParameter(["a.x.no-fonasa", "b.x.no-fonasa"], all)).toBe("*.x.no-fonasa");
    // A suffix that would also match others falls back to the list.
    expect(seriesParameter(["a.x.fonasa", "a.y.fonasa"], all)).toBe("a.x.fonasa,a.y.fonasa");
    expect(seriesParameter([], all)).toBeNull();
  });

  it("opens a compared indicator on the declared default: its card, one line per provider, the chosen one pinned", () => {
    const view = viewIndicator(faceted(), VERSION);
    expect(view.defaults).toEqual({ provider: "P2", item: "ticket" });
    const rendered = renderView({ lang: "es", indicator: view, selection: view.defaults, baseUrl: "https://example.test" });
    const es = { ...rendered, card: { html: sp(rendered.card.html) }, compare: { html: sp(rendered.compare.html) } };
    expect(es.shown).toEqual(["p1.ticket", "p2.ticket", "p3.ticket"]);
    expect(es.chosen).toBe("p2.ticket");
    expect(es.card.html).toContain('<data value="200">$ 200</data>');
    expect(es.card.html).toContain("Vigente desde el 1 de enero de 2024");
    expect(es.card.html).toContain("+$ 50 (+33,3%)");
    // P3 charges nothing: cheaper; P1 120 < 200: P2 is third of three.
    expect(es.card.html).toContain("Puesto 3 de 3");
    expect(es.charts.html.match(/stroke-width="3"/g)?.length).toBe(2); // the chosen line, in each layout
    expect(es.compare.html.indexOf('data-series="p2.ticket"')).toBeLessThan(es.compare.html.indexOf('data-series="p3.ticket"'));
    expect(es.compare.html).toContain('<tr class="pinned" data-series="p2.ticket">');
    expect(es.compare.html).toContain("sin costo");
    // The data table holds the chosen sub-series only.
    expect(es.table.html.match(/<tr/g)?.length).toBe(3);
    expect(es.downloads.html).toContain('href="/api/v1/evil?series=p2.ticket&amp;limit=5000&amp;format=csv"');
    expect(es.downloads.html).toContain('href="/api/v1/evil?series=*.ticket&amp;limit=5000&amp;format=csv"');
    expect(es.choices.map((c) => c.series)).toEqual(["p2.ticket", "*.ticket", null]);
    const en = renderView({ lang: "en", indicator: view, selection: { provider: "P1", item: "consult" }, baseUrl: "https://example.test" });
    expect(sp(en.card.html)).toContain('<data value="120">$120</data>');
    expect(en.card.html).toContain("In force since January 1, 2024");
    expect(en.card.html).toContain("Consultation order");
  });

  it("shows each sub-series in force on a card, a zero as no charge, and a point's note in the page's language", () => {
    const built = indicator({ stepwise: true, display: PRICES, noteTranslations: { es: { "free since February": "gratis desde febrero" } } }, [
      { id: "a", title: "A", points: [["2024-02-01", "0", "free since February"], ["2024-01-01", "10"]] },
      { id: "old", title: "Old", points: [["2020-01-01", "5"]] },
    ]);
    const view = renderView({ lang: "en", indicator: viewIndicator(built, VERSION), selection: {}, baseUrl: "https://example.test" });
    expect(view.card.html.match(/<article class="card/g)).toHaveLength(1);
    expect(view.card.html).toContain('<data value="0">no charge</data>');
    expect(view.card.html).toContain("free since February");
    // Notes are bilingual data (`noteTranslations`): each page shows its own language's.
    expect(view.table.html).toContain("Note: free since February");
    const es = renderView({ lang: "es", indicator: viewIndicator(built, VERSION), selection: {}, baseUrl: "https://example.test" });
    expect(es.table.html).toContain("Nota: gratis desde febrero");
    expect(es.card.html).toContain("gratis desde febrero");
    expect(es.card.html).not.toContain("free since February");
    expect(view.charts.html).toContain('class="point zero');
  });

  it("shows a note without a translation as written, marked with its language, on the other language's page only", () => {
    const built = indicator({ stepwise: true, display: PRICES, noteTranslations: { es: { "free since February": "gratis desde febrero" } } }, [
      { id: "a", title: "A", points: [["2024-02-01", "0", "free since February"], ["2024-01-01", "10", "not yet translated"]] },
    ]);
    const view = viewIndicator(built, VERSION);
    expect(view.series[0]?.untranslated).toEqual({ "2024-01-01": ["es"] });
    const es = renderView({ lang: "es", indicator: view, selection: {}, baseUrl: "https://example.test" });
    expect(es.table.html).toContain('Nota: <span lang="en">not yet translated</span>');
    expect(es.table.html).toContain("Nota: gratis desde febrero");
    // The card's note on the change against that point, folded under it.
    expect(es.card.html).toContain('<span lang="en">not yet translated</span></details>');
    // The chart's point carries the language for its tooltip.
    expect(es.charts.html).toMatch(/data-note="not yet translated" data-note-lang="en"/);
    expect(es.charts.html).not.toMatch(/data-note="gratis desde febrero" data-note-lang/);
    const en = renderView({ lang: "en", indicator: view, selection: {}, baseUrl: "https://example.test" });
    expect(en.table.html).toContain("Note: not yet translated");
    expect(en.table.html + en.card.html + en.charts.html).not.toMatch(/lang="|data-note-lang/);
    // The group file the page script loads carries the same.
    const group = JSON.parse(new TextDecoder().decode(renderViewGroup(view, view.series))) as { series: ViewSeries[] };
    expect(group.series[0]?.untranslated).toEqual({ "2024-01-01": ["es"] });
  });

  it("gives each row of the data table its change on the value covering the same day a year earlier, marked when that one has a note", () => {
    const months = Array.from({ length: 14 }, (_, i) => new Date(Date.UTC(2024, i, 1)).toISOString().slice(0, 10)).reverse();
    const points = months.map((date, i): [string, string, string?] => [date, String(200 - i * 5), date === "2024-02-01" ? "odd" : undefined]);
    const built = indicator({ stepwise: false, unit: "index", noteTranslations: { es: { odd: "raro" } } }, [{ id: "a", title: "A", points: points.map((p) => p.filter((x) => x !== undefined) as [string, string, string?]) }]);
    const view = renderView({ lang: "en", indicator: viewIndicator(built, VERSION), selection: {}, baseUrl: "https://example.test" });
    const cells = [...view.table.html.matchAll(/<tr[^>]*><td class="date"><time datetime="([^"]+)">.*?<td class="num">([^<]*(?:<sup class="note-mark">\*<\/sup>)?)<\/td><\/tr>/g)].map((m) => [m[1], m[2]]);
    // 2025-02 (200) on 2024-02 (140, noted): +42.9 %, marked; 2025-01 (195) on 2024-01 (135): +44.4 %; 2024 rows: nothing a year before.
    expect(cells.find(([d]) => d === "2025-02-01")?.[1]).toBe('+42.9%<sup class="note-mark">*</sup>');
    expect(cells.find(([d]) => d === "2025-01-01")?.[1]).toBe("+44.4%");
    expect(cells.find(([d]) => d === "2024-12-01")?.[1]).toBe("—");
  });

  it("draws lines of one chart in dashes as well as colours, the legend showing each line as drawn, so that lines that run together stay apart", () => {
    const together: TestSeries[] = [
      { id: "interior", title: "Interior", points: [["2005-01-01", "100"], ["2004-01-01", "90"]] },
      { id: "montevideo", title: "Montevideo", points: [["2005-01-01", "100"], ["2004-01-01", "91"]] },
    ];
    const view = renderView({ lang: "es", indicator: viewIndicator(indicator({ rhythm: "annual" }, together), VERSION), selection: {}, baseUrl: "https://example.test" });
    const line = (id: string) => new RegExp(`<path class="series-line" data-series="${id}"[^>]*>`).exec(view.charts.html)?.[0] ?? "";
    expect(line("interior")).not.toContain("stroke-dasharray");
    const dash = /stroke-dasharray="([^"]+)"/.exec(line("montevideo"))?.[1];
    expect(dash).toBeDefined();
    expect(line("montevideo")).not.toContain(`stroke="${/stroke="([^"]+)"/.exec(line("interior"))?.[1] ?? ""}"`);
    // The legend's sample of the second line has its colour and its dash.
    const legend = /<ul class="legend">(.*?)<\/ul>/s.exec(view.charts.html)?.[1] ?? "";
    expect(legend).toMatch(new RegExp(`stroke-dasharray="${dash ?? "-"}"/></svg>Montevideo</li>`));
  });

  it("reads a 0 as a 0 and a date as a date when the indicator declares nothing else", () => {
    const built = indicator({ stepwise: false, unit: "index" }, [{ id: "a", title: "A", points: [["2024-02-01", "0"], ["2024-01-01", "-1.5"]] }]);
    for (const lang of LANGS) {
      const view = renderView({ lang, indicator: viewIndicator(built, VERSION), selection: {}, baseUrl: "https://example.test" });
      expect(view.card.html).toContain('<data value="0">0</data>');
      expect(view.card.html).not.toMatch(/no charge|sin costo|Vigente|In force/);
      expect(view.card.html).toContain(lang === "es" ? "Dato del 1 de febrero de 2024" : "Dated February 1, 2024");
      expect(view.charts.html).not.toContain("point zero");
      // The line goes through the zero: one sub-path.
      expect(/class="series-line" data-series="a" d="([^"]+)"/.exec(view.charts.html)?.[1]?.split("M")).toHaveLength(2);
    }
  });

  it("reads a period-dated index as the month it refers to, with its monthly and yearly changes", () => {
    const months = Array.from({ length: 14 }, (_, i) => new Date(Date.UTC(2025, 5 + i, 1)).toISOString().slice(0, 10)).reverse();
    const built = indicator(
      { stepwise: false, unit: "index", rhythm: "monthly", display: { ...NEUTRAL_DISPLAY, date: "period", unit: { es: "índice (base 2022 = 100)", en: "index (2022 = 100)" }, scale: "log" } },
      [{ id: "general", title: "General", points: months.map((d, i) => [d, String(120 - i * 0.5 + 0.00343852)] as [string, string]) }],
    );
    const es = renderView({ lang: "es", indicator: viewIndicator(built, VERSION), selection: {}, baseUrl: "https://example.test" });
    expect(es.card.html).toContain("Dato de julio de 2026");
    expect(es.card.html).toContain('<data value="120.00343852">120,00</data>');
    // 120 / 119.5: +0.42 % on the previous month; 120 / 114: +5.3 % on a year earlier.
    expect(sp(es.card.html)).toContain("+0,50 (+0,42%) respecto al valor anterior (119,50, jun. 2026)");
    expect(sp(es.card.html)).toContain("+6,00 (+5,3%) respecto a un año antes (114,00, jul. 2025)");
    expect(es.table.html).toContain('<time datetime="2026-07-01">jul. 2026</time>');
    expect(es.charts.html).toContain("índice (base 2022 = 100)");
    const en = renderView({ lang: "en", indicator: viewIndicator(built, VERSION), selection: {}, baseUrl: "https://example.test" });
    expect(en.card.html).toContain("Refers to July 2026");
  });

  it("shows changes with the decimals the indicator declares (display.changeDecimals), on the card and in the table", () => {
    const months = Array.from({ length: 14 }, (_, i) => new Date(Date.UTC(2025, 5 + i, 1)).toISOString().slice(0, 10)).reverse();
    const points = months.map((d, i) => [d, String(120 - i * 0.5 + 0.00343852)] as [string, string]);
    const view = (changeDecimals: number | null, lang: Lang) => {
      const display: Display = { ...NEUTRAL_DISPLAY, date: "period", changeDecimals };
      const built = indicator({ stepwise: false, unit: "index", rhythm: "monthly", display }, [{ id: "general", title: "General", points }]);
      const v = renderView({ lang, indicator: viewIndicator(built, VERSION), selection: {}, baseUrl: "https://example.test" });
      return { card: sp(v.card.html), table: sp(v.table.html) };
    };
    // 120 / 114 on a year earlier: +5.26 %, as INE publishes its variations; +0.42 % on the month.
    const es = view(2, "es");
    expect(es.card).toContain("+6,00 (+5,26%) respecto a un año antes");
    expect(es.card).toContain("+0,50 (+0,42%) respecto al valor anterior");
    expect(es.table).toMatch(/<time datetime="2026-07-01">jul\. 2026<\/time>.*?<td class="num">\+5,26%<\/td><\/tr>/);
    expect(view(2, "en").card).toContain("+6.00 (+5.26%) on a year earlier");
    // Fixed decimals: a whole change keeps them; none declared, one (two under 1 %) as before.
    expect(new Formatter("es", "index", null, 2).changeRatio(0.05)).toBe("+5,00%");
    expect(new Formatter("es", "index", null, 0).changeRatio(0.0427)).toBe("+4%");
    const neutral = view(null, "es");
    expect(neutral.card).toContain("+6,00 (+5,3%) respecto a un año antes");
    expect(neutral.table).toMatch(/<td class="num">\+5,3%<\/td><\/tr>/);
  });
});

describe("what the pages say of their dates, counts and changes", () => {
  const days = (n: number, from: string, values: (i: number) => string): [string, string][] =>
    Array.from({ length: n }, (_, i) => [new Date(Date.parse(`${from}T00:00:00Z`) - i * 86_400_000).toISOString().slice(0, 10), values(i)]);

  it("shows a daily unit at its four decimals on the card, in the table and in the tooltips, and a repeated value as no change", () => {
    const display: Display = { ...NEUTRAL_DISPLAY, decimals: 4 };
    const built = indicator({ stepwise: false, unit: "UYU", rhythm: "daily", display }, [{ id: "ui", title: "UI", points: days(400, "2026-09-05", (i) => (i === 0 ? "6.6378" : (6.6377 - (i - 1) * 0.0007).toFixed(4))) }]);
    const es = renderView({ lang: "es", indicator: viewIndicator(built, VERSION), selection: {}, baseUrl: "https://example.test" });
    expect(sp(es.card.html)).toContain("$ 6,6378");
    expect(sp(es.card.html)).toContain("+$ 0,0001 (+0,0015%) respecto al valor anterior ($ 6,6377, 4 set. 2026)");
    expect(sp(es.table.html)).toContain("$ 6,6377");
    expect(sp(es.charts.html)).toContain("$ 6,6378");
    const same = indicator({ stepwise: false, unit: "UYU", rhythm: "daily", display }, [{ id: "ui", title: "UI", points: days(3, "2026-09-05", () => "6.6378") }]);
    for (const lang of LANGS) {
      const card = sp(renderView({ lang, indicator: viewIndicator(same, VERSION), selection: {}, baseUrl: "https://example.test" }).card.html);
      expect(card).toContain(lang === "es" ? "sin cambios respecto al valor anterior" : "no change on the previous value");
      expect(card).not.toMatch(/\$ ?0[,.]0000|\(0 ?%\)/);
    }
  });

  it("names the missing next day with its article, in Uruguay's spelling: «El dato del 6 de setiembre»", () => {
    const built = indicator({ stepwise: false, unit: "UYU", rhythm: "daily", schedule: { dates: "daily", published: null } }, [{ id: "ui", title: "UI", points: days(3, "2026-09-05", () => "6.6378") }]);
    const card = renderView({ lang: "es", indicator: viewIndicator(built, VERSION), selection: {}, baseUrl: "https://example.test" }).card.html;
    expect(card).toContain("Dato del 5 de setiembre de 2026.");
    expect(card).toContain("El dato del 6 de setiembre de 2026 todavía no está");
  });

  it("says what its newest date is: the period of a value, or since when it is in force, never «publication»; one sub-series is «1 subserie»", () => {
    const monthly = indicator({ id: "index", unit: "index", display: { ...NEUTRAL_DISPLAY, date: "period" } }, [{ id: "g", title: "G", points: [["2026-07-01", "118.2"], ["2026-06-01", "118.1"]] }]);
    const effective = indicator({ id: "wage", stepwise: true, rhythm: "semiannual", display: { ...NEUTRAL_DISPLAY, date: "effective" } }, plain);
    const sites = [siteIndicator(config, monthly, VERSION), siteIndicator(config, effective, VERSION)];
    const home = renderHome(config, sites, "es");
    expect(home).toContain("Último dato: julio de 2026 · 1 subserie · mensual");
    expect(home).toContain("Último valor: vigente desde el 1 de febrero de 2024 · 2 subseries · semestral");
    expect(home).not.toContain("Última publicación");
    expect(renderHome(config, sites, "en")).toContain("Latest data point: July 2026 · 1 sub-series · monthly");
    const page = renderIndicatorPage(config, sites[0] as ReturnType<typeof siteIndicator>, "es");
    expect(page).toContain('<dt>Último dato</dt><dd id="latest-point">julio de 2026</dd>');
    expect(renderIndicatorPage(config, sites[1] as ReturnType<typeof siteIndicator>, "es")).toContain('<dt>Último valor</dt><dd id="latest-point">vigente desde el 1 de febrero de 2024</dd>');
  });

  it("counts search results in the singular when there is one", () => {
    expect(MESSAGES.es.searchCount(1, 1)).toBe("1 serie encontrada.");
    expect(MESSAGES.es.searchCount(3, 3)).toBe("3 series encontradas.");
    expect(MESSAGES.en.searchCount(1, 1)).toBe("1 series found.");
  });
});

describe("series view of large indicators", () => {
  const daily = (id: string, n: number, skip = -1): ViewSeries => {
    const dates: string[] = [];
    for (let i = n - 1; i >= 0; i--) if (i !== skip) dates.push(new Date(Date.UTC(2020, 0, 1 + i)).toISOString().slice(0, 10));
    return { id, title: both(id), facets: {}, dates, values: dates.map((_, i) => String(100 + i)), notes: {} };
  };
  const view = (series: ViewSeries[]) =>
    renderView({
      lang: "en",
      indicator: { id: "big", title: both("Big"), unit: "UYU", rhythm: "daily", stepwise: true, display: NEUTRAL_DISPLAY, facets: [], compare: null, defaults: {}, series, version: "2026-11-23", look: { check: null, changed: "2026-11-23" } },
      selection: {},
      baseUrl: "https://example.test",
    });

  it("thins a long line, draws no markers, and still lists the gaps of every point", () => {
    // Five lines of 240 drawn points (1,200): over MAX_MARKED_POINTS.
    const v = view([daily("long", 2_000, 700), ...["b", "c", "d", "e"].map((id) => daily(id, 2_000))]);
    const d = /class="series-line" data-series="long" d="([^"]+)"/.exec(v.charts.html)?.[1] ?? "";
    expect(d.split("M")).toHaveLength(2); // one sub-path: thinned points are not gaps
    expect(v.charts.html).not.toContain('<circle class="point');
    expect(v.charts.html).toContain("1 period without data");
    expect(v.charts.html.length).toBeLessThan(400_000);
  });

  it("links every download to the whole history: limit=5000 on each API link, the static whole files past that; the texts to copy are whole addresses", () => {
    const hrefs = (html: string) => [...html.matchAll(/<a href="([^"]+)"/g)].map((m) => (m[1] as string).replaceAll("&amp;", "&"));
    const codes = (html: string): Record<string, string> => Object.fromEntries([...html.matchAll(/<code id="([^"]+)" data-address>([^<]*)<\/code>/g)].map((m) => [m[1] as string, (m[2] as string).replaceAll("&amp;", "&").replaceAll("&quot;", '"')]));
    // 600 points: more than the API's default limit (500), which would stop the download at the newest 500.
    const fits = view([daily("long", 600)]).downloads.html;
    expect(hrefs(fits)).toEqual(["/api/v1/big?limit=5000&format=csv", "/api/v1/big?limit=5000&format=csv&dialect=es", "/api/v1/big?limit=5000"]);
    const code = codes(fits);
    expect(code["api-url"]).toBe("https://example.test/api/v1/big?limit=5000");
    expect(code["sheet-url"]).toBe("https://example.test/api/v1/big?limit=5000&format=csv&dialect=es");
    expect(code["sheet-formula"]).toBe('=IMPORTDATA("https://example.test/api/v1/big?limit=5000&format=csv&dialect=es"; ";"; "es_UY")');
    for (const key of ["snippet-curl", "snippet-python", "snippet-r"]) expect(code[key]).toContain("https://example.test/api/v1/big?limit=5000&format=csv");
    expect(code["snippet-js"]).toContain("https://example.test/api/v1/big?limit=5000");
    // 5,001 points: more than one answer holds; the CSV links are the whole files, the JSON pages (meta.next).
    const over = view([daily("longer", 5_001), daily("short", 3)]).downloads.html;
    expect(hrefs(over)).toEqual(["/api/v1/big/data.csv", "/api/v1/big/data.es.csv", "/api/v1/big?limit=5000"]);
    expect(codes(over)["sheet-url"]).toBe("https://example.test/api/v1/big/data.es.csv");
  });

  it("links a compared selection's downloads by the points of the sub-series each one holds", () => {
    const view = viewIndicator(faceted(), VERSION);
    // The script has loaded one group; the build says how long the longest sub-series of all is.
    const over = renderView({ lang: "en", indicator: { ...view, longest: 5_001 }, selection: view.defaults, baseUrl: "https://example.test" }).downloads.html;
    expect(over).toContain('<a href="/api/v1/evil?series=p2.ticket&amp;limit=5000&amp;format=csv" download>');
    expect(over).toContain('<a href="/api/v1/evil?series=*.ticket&amp;limit=5000&amp;format=csv" download>');
    expect(over).toContain('<a href="/api/v1/evil/data.csv" download>');
  });

  it("links the static files the build names for a download, the API's address where it names none; the texts stay the API's", () => {
    const view = viewIndicator(faceted(), VERSION);
    const files = (series: string | null) => (series === "p2.ticket" ? { csv: "/files/p2.csv", json: "/files/p2.json" } : undefined);
    const html = renderView({ lang: "en", indicator: view, selection: view.defaults, baseUrl: "https://example.test", files }).downloads.html;
    expect(html).toContain('<a href="/files/p2.csv" download>CSV</a> · <a href="/api/v1/evil?series=p2.ticket&amp;limit=5000&amp;format=csv&amp;dialect=es" download>');
    expect(html).toContain('<a href="/files/p2.json">JSON</a>');
    expect(html).toContain('<a href="/api/v1/evil?series=*.ticket&amp;limit=5000&amp;format=csv" download>');
    expect(html).toContain('<code id="api-url" data-address>https://example.test/api/v1/evil?series=p2.ticket&amp;limit=5000</code>');
  });

  it("draws at most MAX_LINES sub-series, shows at most MAX_CARDS cards, and says so", () => {
    const v = view(Array.from({ length: 100 }, (_, i) => daily(`s${String(i).padStart(3, "0")}`, 3)));
    expect(v.shown).toHaveLength(40);
    expect(v.card.html.match(/<article class="card/g)).toHaveLength(6);
    expect(v.card.html).toContain("The first 6 of 100 sub-series");
    expect(v.charts.html).toContain("The first 40 of 100 sub-series");
  });
});
