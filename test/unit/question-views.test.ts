/** The page's questions about time as they render (src/site/client/question-views.ts), without a browser. */
import { describe, expect, it } from "vitest";
import { NEUTRAL_DISPLAY } from "../../src/core/indicator/display.js";
import { modeAnswer, modeQuestion, questionContext, sinceAnswer, type QuestionsConfig } from "../../src/site/client/question-views.js";
import { deflatorOf } from "../../src/site/client/questions.js";
import type { ViewIndicator, ViewSeries } from "../../src/site/client/series-view.js";

const series = (id: string, title: string, points: [string, string][]): ViewSeries => ({
  id,
  title: { es: title, en: title },
  facets: {},
  dates: points.map(([date]) => date),
  values: points.map(([, value]) => value),
  notes: {},
});

const indicatorOf = (config: QuestionsConfig, one: ViewSeries): ViewIndicator => ({
  id: config.indicator,
  title: { es: "t", en: "t" },
  unit: config.unit,
  rhythm: config.rhythm,
  stepwise: config.stepwise,
  display: config.display,
  facets: [],
  compare: null,
  defaults: {},
  series: [one],
  version: config.version,
  look: { check: null, changed: config.version },
});

const NO_TIME = { deflator: null, ratios: [] };
/** A wage that holds until the next, semiannual: 100 from January 2024, 110 from July, 120 from January 2025. */
const WAGES: QuestionsConfig = { lang: "en", indicator: "tiny-wages", unit: "UYU", rhythm: "semiannual", stepwise: true, version: "2025-06-30", display: NEUTRAL_DISPLAY, baseUrl: "https://example.test", time: NO_TIME };
const wage = (title: string) =>
  series("monthly", title, [
    ["2025-01-01", "120"],
    ["2024-07-01", "110"],
    ["2024-01-01", "100"],
  ]);

/** A monthly index rising by 1 a month from 100 in January 2024 to 114 in March 2025, the deflator's newest month. */
const index = series(
  "general",
  "Index",
  Array.from({ length: 15 }, (_, i): [string, string] => [`${String(2024 + Math.floor(i / 12))}-${String((i % 12) + 1).padStart(2, "0")}-01`, String(100 + i)]).reverse(),
);
const WITH_INDEX: QuestionsConfig = {
  ...WAGES,
  time: { deflator: { indicator: "tiny-index", series: "general", path: "/x.json", rhythm: "monthly", stepwise: false, version: WAGES.version, title: { es: "Índice", en: "Index" }, newest: "2025-03-01" }, ratios: [] },
};

describe("question views", () => {
  it("says the change since a day from the value covering it, with the API address that gives it", () => {
    const ctx = questionContext(WAGES);
    const answer = sinceAnswer(ctx, indicatorOf(WAGES, wage("Monthly")), ["monthly"], "2024-03-15", null).html;
    expect(answer).toContain('<li data-series="monthly">Monthly: from $100.00 to $120: <data value="20">+20%</data> in current pesos</li>');
    // A link on the site serving the page; its text, the whole address on the page's origin, to copy.
    const [, href = "", text = ""] = /<a href="([^"]+)"><code>([^<]+)<\/code>/.exec(answer) ?? [];
    expect(href).toMatch(/^\/api\/v1\/tiny-wages\?/);
    expect(text).toBe(`https://example.test${href}`);
    const url = new URL(href.replace(/&amp;/g, "&"), "https://example.test");
    expect(Object.fromEntries(url.searchParams)).toMatchObject({ series: "monthly", units: "index", base: "2024-03-15", limit: "1" });
    // Before the first point nothing covers the day: no number is made up.
    expect(sinceAnswer(ctx, indicatorOf(WAGES, wage("Monthly")), ["monthly"], "2023-06-01", null).html).toContain("<li>Monthly: no value covers that day in this data</li>");
  });

  it("says the change since a day in real terms from that day's month to the index's latest, month by month", () => {
    const answer = sinceAnswer(questionContext(WITH_INDEX), indicatorOf(WITH_INDEX, wage("Monthly")), ["monthly"], "2024-03-15", deflatorOf(index, "2025-03")).html;
    // March 2024's 100 is 100 × 114/102 in pesos of March 2025; March 2025's 120 is 120: +7.4 %. (Deflating each step
    // once, by its first month, would compare January 2024's 114 with January 2025's 120 × 114/112: +7.1 %.)
    expect(answer).toContain('<data value="7.3684211" class="real">+7.4%</data> in real terms (pesos of March 2025)');
    const urls = [...answer.matchAll(/<a href="([^"]+)">/g)].map((m) => Object.fromEntries(new URL((m[1] as string).replace(/&amp;/g, "&"), "https://example.test").searchParams));
    expect(urls[1]).toEqual({ series: "monthly", frequency: "month", real: "2025-03", units: "index", base: "2024-03-15", limit: "1" });
  });

  it("escapes the data's words in an answer", () => {
    const answer = sinceAnswer(questionContext(WAGES), indicatorOf(WAGES, wage('<script>alert("x")</script>')), ["monthly"], "2024-03-15", null).html;
    expect(answer).not.toContain("<script>");
    expect(answer).toContain("&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;: from");
  });

  it("reads each chart mode's numbers in its own terms", () => {
    const ctx = questionContext(WAGES);
    expect(modeQuestion(ctx, "percent_change_a_year_ago", "", null).reading.text(3.14159)).toBe("+3.1%");
    expect(modeQuestion(ctx, "index", "2024-01-01", null)).toMatchObject({ question: { units: "index", base: "2024-01-01" }, reading: { axis: "100 = January 1, 2024" } });
    expect(modeQuestion(ctx, "level", "", null).reading.text(31178)).toBe("$31,178.00");
    // `real` without a deflator is the level.
    expect(modeQuestion(ctx, "real", "", null).question).toEqual({});
  });

  it("draws a stepwise value in real terms month by month: each month its value in force × the index's last month / that month's", () => {
    const config = WITH_INDEX;
    const ctx = questionContext(config);
    const asked = modeQuestion(ctx, "real", "", null);
    expect(asked.question).toEqual({ real: "2025-03", frequency: "month" });
    // A value of a period (not stepwise) is already one per month: asked as it is.
    expect(modeQuestion(questionContext({ ...config, stepwise: false }), "real", "", null).question).toEqual({ real: "2025-03" });
    const indicator = indicatorOf(config, wage("Monthly"));
    const shown = modeAnswer(ctx, { indicator, selection: {}, ids: ["monthly"], label: "in pesos of March 2025" }, asked, deflatorOf(index, "2025-03"));
    const wide = /<svg [^>]*data-layout="wide".*?<\/svg>/s.exec(shown.charts.html)?.[0] ?? "";
    const markers = [...wide.matchAll(/data-date="([^"]+)" data-date-text="([^"]+)" data-value-text="([^"]+)"/g)].map((m) => [m[1], m[2], m[3]]);
    // 100 in January 2024 is 114 in pesos of March 2025; the same 100 in June is 114 × 100/105; July's 110 × 114/106.
    expect(markers.slice(0, 7)).toEqual([
      ["2024-01-01", "January 2024", "$114.00"],
      ["2024-02-01", "February 2024", "$112.87"],
      ["2024-03-01", "March 2024", "$111.76"],
      ["2024-04-01", "April 2024", "$110.68"],
      ["2024-05-01", "May 2024", "$109.62"],
      ["2024-06-01", "June 2024", "$108.57"],
      ["2024-07-01", "July 2024", "$118.30"],
    ]);
    expect(markers.at(-1)).toEqual(["2025-03-01", "March 2025", "$120.00"]);
    expect(markers).toHaveLength(15);
    // The newest month ends with its month: its step stops at April 2025, short of the plot's right edge.
    const d = /<path class="series-line"[^>]* d="([^"]+)"/.exec(wide)?.[1] ?? "";
    const ends = [...d.matchAll(/H([\d.]+)/g)].map((m) => Number(m[1]));
    expect(Math.max(...ends)).toBeLessThan(720 - 16);
    expect(shown.charts.html).toContain("Month by month: each month, the value in force that month brought to pesos of March 2025 by that month&#39;s index.");
    expect(shown.answer.html).toContain("Monthly: latest <data value=\"120\">$120.00</data> (Mar 2025)");
    expect(shown.answer.html).toContain("?series=monthly&amp;frequency=month&amp;real=2025-03&amp;limit=1");
  });

  it("folds the table of a chart's values under it, its newest 240 dates, in its tooltips' texts", () => {
    // 300 months of a periodic index, 1 to 300.
    const long = series("general", "Index", Array.from({ length: 300 }, (_, i): [string, string] => [`${String(2000 + Math.floor(i / 12))}-${String((i % 12) + 1).padStart(2, "0")}-01`, String(i + 1)]).reverse());
    const config: QuestionsConfig = { ...WAGES, unit: "index", rhythm: "monthly", stepwise: false, version: "2025-01-01" };
    const ctx = questionContext(config);
    const asked = modeQuestion(ctx, "index", "2000-01-01", null);
    const html = modeAnswer(ctx, { indicator: indicatorOf(config, long), selection: {}, ids: ["general"], label: "as an index" }, asked, null).charts.html;
    const rows = [...html.matchAll(/<tr><td class="date"><time datetime="([^"]+)">[^<]*<\/time><\/td><td class="num"><data value="([^"]+)">([^<]*)<\/data>/g)];
    expect(rows).toHaveLength(240);
    expect(rows[0]?.slice(1)).toEqual(["2024-12-01", "30000", asked.reading.text(30000)]);
    expect(html).toContain('<summary>Show this chart&#39;s values</summary>');
    expect(html).toContain("The newest 240 of 300 dates.");
  });

  it("reads the indicator's own changes with the decimals it declares (display.changeDecimals)", () => {
    const ctx = questionContext({ ...WAGES, display: { ...NEUTRAL_DISPLAY, changeDecimals: 2 } });
    expect(modeQuestion(ctx, "percent_change_a_year_ago", "", null).reading.text(4.26987)).toBe("+4.27%");
    expect(modeQuestion(ctx, "percent_change", "", null).reading.text(5)).toBe("+5.00%");
  });
});
