/** The page's questions about time as they render (src/site/client/question-views.ts), without a browser. */
import { describe, expect, it } from "vitest";
import { NEUTRAL_DISPLAY } from "../../src/core/display.js";
import { modeQuestion, questionContext, sinceAnswer, type QuestionsConfig } from "../../src/site/client/question-views.js";
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

describe("question views", () => {
  it("says the change since a day from the value covering it, with the API address that gives it", () => {
    const ctx = questionContext(WAGES);
    const answer = sinceAnswer(ctx, indicatorOf(WAGES, wage("Monthly")), ["monthly"], "2024-03-15", null).html;
    expect(answer).toContain('<li data-series="monthly">Monthly: from $100.00 to $120: <data value="20">+20%</data> in current pesos</li>');
    const url = new URL(/<a href="([^"]+)">/.exec(answer)?.[1]?.replace(/&amp;/g, "&") ?? "");
    expect(Object.fromEntries(url.searchParams)).toMatchObject({ series: "monthly", units: "index", base: "2024-03-15", limit: "1" });
    // Before the first point nothing covers the day: no number is made up.
    expect(sinceAnswer(ctx, indicatorOf(WAGES, wage("Monthly")), ["monthly"], "2023-06-01", null).html).toContain("<li>Monthly: no value covers that day in this data</li>");
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

  it("reads the indicator's own changes with the decimals it declares (display.changeDecimals)", () => {
    const ctx = questionContext({ ...WAGES, display: { ...NEUTRAL_DISPLAY, changeDecimals: 2 } });
    expect(modeQuestion(ctx, "percent_change_a_year_ago", "", null).reading.text(4.26987)).toBe("+4.27%");
    expect(modeQuestion(ctx, "percent_change", "", null).reading.text(5)).toBe("+5.00%");
  });
});
