/**
 * The page's chart in real terms (src/site/client/question-views.ts) on the real
 * data, against the API: the health insurance page's default view asked "in pesos
 * of the CPI's latest month", exactly as the page script asks it (its settings and
 * group files as the build wrote them, the deflator's group file), drawn month by
 * month; every point of the chart, its tooltip texts and the table under it equal
 * the handler's answer to the address the page shows beside it, with `limit` for
 * every month. A step deflated once (the flat 197.48 of January 2019 drawn until
 * August) would differ from July 2019 on.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, inject, it } from "vitest";
import { Api } from "../../src/api/handler.js";
import { viewDataPath } from "../../src/core/file/paths.js";
import { modeAnswer, modeQuestion, questionContext, type QuestionsConfig } from "../../src/site/client/question-views.js";
import { answer, deflatorOf } from "../../src/site/client/questions.js";
import type { ViewGroupFile } from "../../src/site/client/group-files.js";
import { groupKey, renderView, type Selection, type ViewFacet, type ViewIndicator, type ViewSeries } from "../../src/site/client/series-view.js";
import { folderAssets } from "../../scripts/lib/folder-assets.js";
import { HIGH, fetched } from "../api-checks.js";

/** The page's settings as the page script reads them (site.ts `pageConfig`). */
interface PageConfig extends QuestionsConfig {
  readonly title: ViewIndicator["title"];
  readonly facets: ViewFacet[];
  readonly compare: string | null;
  readonly defaults: Selection;
  readonly publications: string[];
  readonly longest: number;
  readonly look: ViewIndicator["look"];
}

let out: string;
let api: (path: string) => Promise<{ data: { date: string; series: string; value: number }[] }>;

beforeAll(() => {
  out = inject("realDist");
  const handler = new Api();
  const env = { ASSETS: folderAssets(out), ...HIGH };
  api = async (path) => {
    const got = await fetched(await handler.fetch(new Request(`http://api.test${path}`), env));
    expect(got.status, path).toBe(200);
    return JSON.parse(got.bytes.toString("utf8")) as { data: { date: string; series: string; value: number }[] };
  };
});

const unescape = (text: string) => text.replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&amp;/g, "&");

/** The page's settings, its default view's indicator (the group file of the default selection), and the deflator's sub-series, as the build wrote them. */
function page(lang: "es" | "en"): { config: PageConfig; indicator: ViewIndicator; cpi: ViewSeries } {
  const html = readFileSync(join(out, lang === "es" ? "" : "en", "series/health-insurance-prices/index.html"), "utf8");
  const config = JSON.parse(/<script type="application\/json" id="series-config">(.*?)<\/script>/s.exec(html)?.[1] ?? "") as PageConfig;
  const file = (path: string) => JSON.parse(readFileSync(join(out, path), "utf8")) as ViewGroupFile;
  const group = file(viewDataPath(config.indicator, groupKey(config, config.defaults)));
  const indicator: ViewIndicator = { ...config, id: config.indicator, series: group.series };
  const ref = config.time.deflator;
  if (ref === null) throw new Error("the page offers no real terms");
  const cpi = file(ref.path).series.find((s) => s.id === ref.series) as ViewSeries;
  return { config, indicator, cpi };
}

describe("the page's chart in real terms on the real data", () => {
  it.each(["es", "en"] as const)("%s: the chart month by month, its tooltips and its table say the API's numbers for the address beside it", async (lang) => {
    const { config, indicator, cpi } = page(lang);
    const ctx = questionContext(config);
    const selection = config.defaults;
    const ids = renderView({ lang, indicator, selection, baseUrl: config.baseUrl }).carded;
    expect(ids).toEqual(["casmu.consult-general-medicine.fonasa"]);
    const asked = modeQuestion(ctx, "real", "", null);
    const deflator = deflatorOf(cpi, ctx.deflatorMonth as string);
    const shown = modeAnswer(ctx, { indicator, selection, ids, label: "real" }, asked, deflator);

    // The address the page gives beside the chart asks month by month; with every month, it is the chart.
    // A path on the site serving the page; its text, the whole address to copy.
    const [, href = "", text = ""] = /<a href="([^"]+)"><code>([^<]+)<\/code>/.exec(shown.answer.html) ?? [];
    const address = unescape(href);
    expect(address).toBe("/api/v1/health-insurance-prices?series=casmu.consult-general-medicine.fonasa&frequency=month&real=2026-07&limit=1");
    expect(unescape(text)).toBe(`${config.baseUrl}${address}`);
    const months = (await api(address.replace("limit=1", "limit=5000"))).data;
    expect(months.length).toBeGreaterThan(100);

    // The chart's model: the same values, to the API's rounding.
    const [model] = answer(indicator.series, ctx.rule, ids, asked.question, deflator);
    expect(model?.points.map((p) => ({ date: p.date, value: Number(p.value.toPrecision(8)) }))).toEqual(months.map((p) => ({ date: p.date, value: p.value })));

    // Drawn: one marker per month in each layout, its tooltip text the API's value as the page writes it.
    const expected = months.map((p) => ({ date: p.date, text: asked.reading.text(p.value) })).reverse();
    for (const layout of ["wide", "narrow"]) {
      const svg = new RegExp(`<svg [^>]*data-layout="${layout}"[^>]*>.*?</svg>`, "s").exec(shown.charts.html)?.[0] ?? "";
      const markers = [...svg.matchAll(/<circle class="point[^"]*"[^>]*data-date="([^"]+)"[^>]*data-value-text="([^"]+)"/g)].map((m) => ({ date: m[1], text: unescape(m[2] as string) }));
      expect(markers, layout).toEqual(expected);
    }
    // The table under it: the newest months, each the API's value.
    const rows = [...shown.charts.html.matchAll(/<tr><td class="date"><time datetime="([^"]+)">[^<]*<\/time><\/td><td class="num"><data value="([^"]+)">([^<]*)<\/data>/g)];
    expect(rows.length).toBe(Math.min(240, months.length));
    expect(rows.map((m) => ({ date: m[1], value: Number(m[2]), text: unescape(m[3] as string) }))).toEqual(months.slice(0, rows.length).map((p) => ({ date: p.date, value: p.value, text: asked.reading.text(p.value) })));

    // The issue's figure: January 2019's 197.48 is 190.22 in July 2019 in pesos of July 2026, not the same step drawn flat.
    const july2019 = months.find((p) => p.date === "2019-07-01");
    expect(july2019?.value).toBe(190.2231);
    expect(months.find((p) => p.date === "2019-01-01")?.value).toBe(197.47606);
    expect(expected.find((p) => p.date === "2019-07-01")?.text.replace(/\s/gu, " ")).toBe(lang === "es" ? "$ 190,22" : "$190.22");
    // Said in words under the chart and in its text alternative.
    expect(shown.charts.html).toContain(lang === "es" ? "Mes a mes:" : "Month by month:");
  });
});
