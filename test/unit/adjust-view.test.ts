/**
 * The calculator's answer and faults as the page writes them (src/site/client/adjust-view.ts),
 * in both languages: the date of each value used, the reason when it is not the date's own,
 * a stepwise value in force after the last check, every fault in the page's language (never
 * the API's English detail), and the calculator's today.
 */
import { describe, expect, it } from "vitest";
import { adjustAnswerView, adjustFaultText, calculatorToday, type AdjustAnswer } from "../../src/site/client/adjust-view.js";
import { Formatter } from "../../src/site/client/format.js";
import { MESSAGES } from "../../src/site/client/messages/index.js";

/** The text of a fragment of HTML (tags dropped, entities of the escaper undone). */
const text = (markup: string) => markup.replace(/<[^>]+>/g, "").replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&amp;/g, "&");

const end = (date: string, point: string, value: number, to: string) => ({ date, point, value, covers: { from: point, to } });

/** The UI's answer on 2026-11-28: the newest value is of 2026-09-05, the next was due on 2026-09-06. */
const overdue: AdjustAnswer = {
  data: { amount: 25000, from: end("2020-01-15", "2020-01-15", 4.3, "2020-01-15"), to: end("2026-11-28", "2026-09-05", 6.6, "2026-09-05"), factor: 1.5348837, adjusted: 38372.093, in_units: 5813.9535 },
  meta: { units_of: { es: "UI", en: "UI" }, used: { from: { date: "2020-01-15", reason: null, due: null }, to: { date: "2026-09-05", reason: "overdue", due: "2026-09-06" } }, checked: "2026-11-20", data_changed: "2026-11-20" },
};

/** A monthly index's answer whose next month is not due yet. */
const pending: AdjustAnswer = {
  data: { amount: 100, from: end("2024-01-20", "2024-01-01", 100, "2024-01-31"), to: end("2024-07-20", "2024-06-01", 105, "2024-06-30"), factor: 1.05, adjusted: 105, in_units: null },
  meta: { units_of: null, used: { from: { date: "2024-01-01", reason: null, due: null }, to: { date: "2024-06-01", reason: "pending", due: "2024-08-05" } }, checked: "2024-07-10", data_changed: "2024-07-01" },
};

/** A stepwise value in force on a day after the last check. */
const inForce: AdjustAnswer = {
  data: { amount: 1000, from: end("2025-03-01", "2025-01-01", 6576, "2025-12-31"), to: end("2026-11-28", "2026-01-01", 6864, "2026-11-20"), factor: 1.0437956, adjusted: 1043.7956, in_units: 0.15206813 },
  meta: { units_of: { es: "BPC", en: "BPC" }, used: { from: { date: "2025-01-01", reason: null, due: null }, to: { date: "2026-01-01", reason: null, due: null } }, checked: null, data_changed: "2026-11-20" },
};

describe("the calculator's answer", () => {
  it("says which value it used for a date with none of its own, and why: overdue", () => {
    const es = text(adjustAnswerView("es", MESSAGES.es, "Unidad indexada", overdue, "/api/v1/adjust?x").html);
    expect(es).toContain("Para el 28 de noviembre de 2026 no hay un valor propio: se usó el valor más reciente (5 de setiembre de 2026). El siguiente debía publicarse el 6 de setiembre de 2026 y todavía no está en los datos.");
    const en = text(adjustAnswerView("en", MESSAGES.en, "Indexed unit", overdue, "/api/v1/adjust?x").html);
    expect(en).toContain("November 28, 2026 has no value of its own: the newest value was used (September 5, 2026). The next one was due on September 6, 2026 and is not in the data yet.");
    // The date asked that has its own value says nothing of the kind.
    expect(es.match(/no hay un valor propio/g)).toHaveLength(1);
  });

  it("says when a value not yet due comes out, naming a monthly value by its month", () => {
    const es = text(adjustAnswerView("es", MESSAGES.es, "Índice", pending, "/api/v1/adjust?x").html);
    expect(es).toContain("Para el 20 de julio de 2024 no hay un valor propio: se usó el valor más reciente (junio de 2024). El siguiente se publica el 5 de agosto de 2024.");
    const en = text(adjustAnswerView("en", MESSAGES.en, "Index", pending, "/api/v1/adjust?x").html);
    expect(en).toContain("The next one comes out on August 5, 2024.");
  });

  it("says a stepwise value is in force since its date, and how current the data are (here no check recorded)", () => {
    const es = text(adjustAnswerView("es", MESSAGES.es, "BPC", inForce, "/api/v1/adjust?x").html);
    expect(es).toContain("6.864 (vigente desde el 1 de enero de 2026; sin comprobación registrada; datos modificados por última vez el 20 de noviembre de 2026)");
    expect(es).not.toContain("no hay un valor propio");
    const en = text(adjustAnswerView("en", MESSAGES.en, "BPC", inForce, "/api/v1/adjust?x").html);
    expect(en).toContain("6,864 (in force since January 1, 2026; no check recorded; data last changed on November 20, 2026)");
  });
});

describe("the calculator's faults", () => {
  const asked = { amount: "25.5.5", from: "2020-01-15", to: "2026-11-29", first: "2014-01-01", today: "2026-11-28", by: "UI" };
  it.each([
    [{ status: 400, code: "bad_request", parameter: "amount" }, "«25.5.5» no es un monto: escribilo con cifras, como 25.000 o 25.000,50.", "“25.5.5” is not an amount"],
    [{ status: 400, code: "bad_request", parameter: "to" }, "La fecha de destino es posterior a hoy (28 de noviembre de 2026): todavía no hay valores para ella.", "The date to is after today (November 28, 2026)"],
    [{ status: 429, code: "too_many_requests", parameter: "rate" }, "Demasiadas consultas seguidas: esperá unos segundos y probá de nuevo.", "Too many requests"],
    [{ status: 500, code: "internal_error", parameter: null }, "No se pudo actualizar (error 500); probá de nuevo más tarde.", "Could not adjust (error 500)"],
  ])("%j is told in the page's language", (fault, es, en) => {
    expect(adjustFaultText(MESSAGES.es, fault, asked, new Formatter("es", "UYU"))).toBe(es);
    expect(adjustFaultText(MESSAGES.en, fault, asked, new Formatter("en", "UYU"))).toContain(en);
  });

  it("tells a date before the first value, and one in a gap", () => {
    const f = new Formatter("es", "UYU");
    expect(adjustFaultText(MESSAGES.es, { status: 400, code: "bad_request", parameter: "from" }, { ...asked, from: "2010-01-01" }, f)).toBe("La fecha de origen es anterior al primer valor de UI (1 de enero de 2014).");
    expect(adjustFaultText(MESSAGES.es, { status: 400, code: "bad_request", parameter: "from" }, asked, f)).toBe("La fecha de origen no tiene un valor de UI.");
  });
});

describe("the calculator's today", () => {
  it("is the reader's day, but never after the day in Montevideo (UTC−3)", () => {
    const pad = (n: number) => String(n).padStart(2, "0");
    for (const iso of ["2026-11-28T01:44:00Z", "2026-11-28T03:00:00Z", "2026-11-28T12:00:00Z", "2026-12-31T23:30:00Z"]) {
      const now = new Date(iso);
      const local = `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
      const montevideo = new Date(now.getTime() - 3 * 3_600_000).toISOString().slice(0, 10);
      expect(calculatorToday(now), iso).toBe(local < montevideo ? local : montevideo);
    }
    // At 01:44 UTC it is still the 27th in Montevideo.
    expect(calculatorToday(new Date("2026-11-28T01:44:00Z")) <= "2026-11-27").toBe(true);
  });
});
