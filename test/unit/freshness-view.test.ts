/**
 * The page's answer to "what applied on …?" about a day after the last check, and
 * the cards' next value due or overdue (src/site/client/series-view.ts), without a
 * browser: a wage adjusted 1 January and 1 July, checked on 23 November 2026.
 */
import { describe, expect, it } from "vitest";
import { NEUTRAL_DISPLAY } from "../../src/core/indicator/display.js";
import type { Schedule } from "../../src/core/time/schedule.js";
import { renderView, valueOnDate, type ViewIndicator } from "../../src/site/client/series-view.js";
import { MESSAGES } from "../../src/site/client/messages/index.js";
import { freshnessSentence } from "../../src/site/site.js";

const HALF_YEARS: Schedule = { dates: { months: [1, 7], day: 1 }, published: null };
const IRREGULAR: Schedule = { dates: "irregular", published: null };

/** An indicator of one stepwise sub-series with `points` (newest first), its points last changed on 2026-11-23 and no check recorded (or `look`). */
function wages(points: [string, string][], schedule: Schedule, rhythm = "semiannual", look: ViewIndicator["look"] = { check: null, changed: "2026-11-23" }): ViewIndicator {
  return {
    id: "wages",
    title: { es: "Salarios", en: "Wages" },
    unit: "UYU",
    rhythm,
    stepwise: true,
    display: { ...NEUTRAL_DISPLAY, date: "effective" },
    facets: [],
    compare: null,
    defaults: {},
    series: [{ id: "monthly", title: { es: "Mensual", en: "Monthly" }, facets: {}, dates: points.map(([d]) => d), values: points.map(([, v]) => v), notes: {} }],
    version: look.check !== null && look.check.day > look.changed ? look.check.day : look.changed,
    look,
    schedule,
  };
}

const ask = (indicator: ViewIndicator, date: string, lang: "es" | "en" = "es") => valueOnDate({ lang, indicator, selection: {}, baseUrl: "https://example.test" }, ["monthly"], date).html;
const card = (indicator: ViewIndicator, lang: "es" | "en" = "es") => renderView({ lang, indicator, selection: {}, baseUrl: "https://example.test" }).card.html;

describe("a day after the last check on the page", () => {
  it("answers the value in force at the check, and says so, while no successor is due", () => {
    const current = wages([["2026-07-01", "25383"], ["2026-01-01", "24572"]], HALF_YEARS, "annual");
    const answer = ask(current, "2026-12-15");
    expect(answer).toContain('<data value="25383">');
    // No check recorded: the page never says the data were checked, and says when they last changed.
    expect(answer).toContain("vigente según lo último que se sabe: sin comprobación registrada; datos modificados por última vez el 23 de noviembre de 2026");
    expect(answer).not.toContain("comprobad");
    expect(ask(current, "2026-12-15", "en")).toContain("in force as far as is known: no check recorded; data last changed on November 23, 2026");
    // Due 1 January 2027, after the last look: not known yet, and the page says when it is expected.
    expect(ask(current, "2027-01-02")).toContain("todavía sin valor: el siguiente al de 1 de julio de 2026 se espera el 1 de enero de 2027 (sin comprobación registrada; datos modificados por última vez el 23 de noviembre de 2026)");
    // A day up to the last look answers as before, without those words.
    expect(ask(current, "2026-11-20")).not.toContain("sin comprobación");
    expect(card(current)).toContain("(sin comprobación registrada; datos modificados por última vez el 23 de noviembre de 2026).");
    expect(card(current)).toContain("Próximo dato esperado: 1 de enero de 2027.");
  });

  it("names a recorded check, who made it, and bounds the answers by it when it is later than the data", () => {
    const checked = wages([["2026-07-01", "25383"], ["2026-01-01", "24572"]], HALF_YEARS, "annual", { check: { day: "2026-11-27", by: "person" }, changed: "2026-10-06" });
    expect(card(checked)).toContain("(fuente consultada el 27 de noviembre de 2026 por una persona del proyecto).");
    expect(card(checked, "en")).toContain("(source consulted on November 27, 2026 by a person of the project).");
    expect(ask(checked, "2026-11-26")).not.toContain("fuente consultada");
    expect(ask(checked, "2026-11-28")).toContain("vigente según lo último que se sabe: fuente consultada el 27 de noviembre de 2026 por una persona del proyecto");
    const robot = wages([["2026-07-01", "25383"]], HALF_YEARS, "annual", { check: { day: "2026-11-28", by: "update" }, changed: "2026-10-06" });
    expect(card(robot)).toContain("fuente consultada el 28 de noviembre de 2026 por la actualización automática");
  });

  it("answers nothing once a successor is overdue, with what was due and since when", () => {
    const late = wages([["2026-01-01", "24572"], ["2025-07-01", "23604"]], HALF_YEARS);
    for (const date of ["2026-11-24", "2027-01-02", "2027-06-11"]) {
      const answer = ask(late, date);
      expect(answer).not.toContain("<data");
      expect(answer).toContain("sin valor: el siguiente al de 1 de enero de 2026 se esperaba el 1 de julio de 2026 y no está en estos datos (atrasado; sin comprobación registrada; datos modificados por última vez el 23 de noviembre de 2026)");
    }
    expect(card(late)).toContain('<strong class="overdue">Atrasado desde el 1 de julio de 2026.</strong>');
    expect(card(late, "en")).toContain("Overdue since July 1, 2026.");
  });

  it("answers irregular prices long after the check: no successor is ever due", () => {
    const prices = wages([["2026-01-01", "188"], ["2025-01-01", "180"]], IRREGULAR, "irregular");
    expect(ask(prices, "2027-06-11")).toContain('<data value="188">');
    expect(card(prices)).not.toContain("Próximo dato esperado");
    expect(card(prices)).not.toContain("Atrasado");
  });
});

describe("the sentence the cards' 'why' leads to (#freshness)", () => {
  const sentence = (indicator: ViewIndicator, newest: string, lang: "es" | "en" = "es") => String(freshnessSentence(indicator, newest, MESSAGES[lang], lang));

  it("names the next value by what its date means, when it is due, where the data end and the last look", () => {
    // A monthly index published by the 5th of the next month: its periods are months.
    const cpi: ViewIndicator = { ...wages([["2026-07-01", "118.2"]], { dates: { months: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12], day: 1 }, published: { monthsAfter: 1, day: 5 } }, "monthly"), display: { ...NEUTRAL_DISPLAY, date: "period" } };
    expect(sentence(cpi, "2026-07-01")).toContain(
      "El dato de agosto de 2026 debía publicarse hacia el 5 de setiembre de 2026, según el calendario de la fuente; estos datos llegan hasta julio de 2026 (sin comprobación registrada; datos modificados por última vez el 23 de noviembre de 2026).",
    );
    expect(sentence(cpi, "2026-07-01", "en")).toContain("The value for August 2026 was due around September 5, 2026 by the source&#39;s schedule; this data ends at July 2026 (no check recorded;");
    const daily: ViewIndicator = { ...wages([["2026-09-05", "6.6378"]], { dates: "daily", published: null }, "daily"), display: { ...NEUTRAL_DISPLAY, date: "date" } };
    expect(sentence(daily, "2026-09-05")).toContain("El dato del 6 de setiembre de 2026 debía publicarse hacia el 6 de setiembre de 2026, según el calendario de la fuente; estos datos llegan hasta el 5 de setiembre de 2026");
    const current = wages([["2026-07-01", "25383"]], HALF_YEARS, "semiannual", { check: { day: "2026-11-27", by: "update" }, changed: "2026-10-06" });
    expect(sentence(current, "2026-07-01")).toContain(
      "El valor que rija desde el 1 de enero de 2027 se espera hacia el 1 de enero de 2027, según el calendario de la fuente; el último de estos datos rige desde el 1 de julio de 2026 (fuente consultada el 27 de noviembre de 2026 por la actualización automática).",
    );
    expect(sentence(wages([["2026-01-01", "188"]], IRREGULAR, "irregular"), "2026-01-01")).toBe("");
  });
});
