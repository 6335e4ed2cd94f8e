/**
 * The derived answers' own machinery (src/core/time/derive.ts, src/core/time/derived-answer.ts)
 * where it is fast rather than plain: the rounding's fast path against
 * `toPrecision`, the answer's order by either sort, and the bytes written digit by
 * digit against the same answer concatenated as text. The numbers themselves are
 * checked against an independent reference in test/integration/time-questions.test.ts.
 */
import { describe, expect, it } from "vitest";
import { prng } from "../../scripts/bench/generate.js";
import { CSV_ES_HEADER, CSV_HEADER } from "../../src/core/file/answers.js";
import { nextDueDayOf } from "../../src/core/time/coverage.js";
import { addMonthsToDay, dateOfDay, dayNumber } from "../../src/core/time/dates.js";
import { deflatorAt, derivedText, monthIndex, monthlyIndex, writeDerived, yearBefore, DERIVED_MAX_BYTES } from "../../src/core/time/derive.js";
import { derivePage, renderDerived, type DerivedPage, type TimeSource } from "../../src/core/time/derived-answer.js";
import { DEFAULT_QUERY, type PageQuery } from "../../src/core/indicator/model.js";
import { answerMeta } from "../../src/core/answer/render.js";
import { spreadsheetNumber } from "../../src/core/answer/spreadsheet.js";

/** The rounding as docs/time.md states it: once, to 8 significant digits, the shortest JSON number of the result. */
const reference = (value: number) => String(Number(value.toPrecision(8)));

const decoder = new TextDecoder("utf-8", { ignoreBOM: true });

/** `writeDerived`'s text with decimal mark `decimal`, or null when it leaves the value to `derivedText`. */
function written(value: number, decimal: number): string | null {
  const bytes = new Uint8Array(DERIVED_MAX_BYTES);
  const end = writeDerived(bytes, 0, value, decimal);
  return end < 0 ? null : decoder.decode(bytes.subarray(0, end));
}

/** Values of every kind the fast path must get right or leave: any bits, any magnitude, ties and near ties, next to powers of ten, ratios. */
function values(count: number): number[] {
  const random = prng(20261125);
  const bits = new Float64Array(1);
  const words = new Uint32Array(bits.buffer);
  const out: number[] = [];
  for (let i = 0; i < count; i++) {
    const kind = i % 5;
    const sign = random() < 0.5 ? -1 : 1;
    const scale = 10 ** (Math.floor(random() * 34) - 12);
    if (kind === 0) {
      words[0] = Math.floor(random() * 2 ** 32);
      words[1] = Math.floor(random() * 2 ** 32);
      out.push(bits[0] as number);
    } else if (kind === 1) out.push(sign * random() * scale);
    // An 8-digit integer and a half: a tie at the ninth digit, exact or one ulp away.
    else if (kind === 2) out.push(sign * ((Math.floor(1e7 + random() * 9e7) + 0.5) * scale) * (1 + Math.floor(random() * 3 - 1) * Number.EPSILON));
    else if (kind === 3) out.push(sign * scale * (1 - random() * 1e-8));
    else out.push((100 * (Math.round(random() * 1e6) / 100 - 5000)) / (Math.round(random() * 1e6) / 100 + 0.01));
  }
  return out;
}

describe("derived values' text", () => {
  it("is String(Number(x.toPrecision(8))), on the fast path and off it", () => {
    // Collected, then compared once: an expect per value would be most of the test's time.
    const wrong: string[] = [];
    for (const value of values(100_000)) {
      if (!Number.isFinite(value)) {
        if (derivedText(value) !== null) wrong.push(`${value}: ${derivedText(value)}`);
        continue;
      }
      const text = reference(value);
      if (derivedText(value) !== text) wrong.push(`${value}: derivedText ${derivedText(value)}, not ${text}`);
      const fast = written(value, 46);
      if (fast !== null && fast !== text) wrong.push(`${value}: written ${fast}, not ${text}`);
      const es = written(value, 44);
      if (es !== null && es !== spreadsheetNumber(text)) wrong.push(`${value}: written with a decimal comma ${es}, not ${spreadsheetNumber(text)}`);
    }
    expect(wrong).toEqual([]);
  });

  it.each([
    [0, "0"],
    [-0, "0"],
    // Ties at the ninth digit round up, as toPrecision's do (ECMA-262: "the larger n").
    [12345678.5, "12345679"],
    [-12345678.5, "-12345679"],
    [99999999.5, "100000000"],
    // The double nearest 0.123456785 is below it.
    [0.123456785, "0.12345678"],
    [1 / 3, "0.33333333"],
    [-2.5e-6, "-0.0000025"],
    [1.5981222e-7, "1.5981222e-7"],
    [123456789012, "123456790000"],
    [1e21, "1e+21"],
    [29819.4194, "29819.419"],
  ])("%d → %s", (value, text) => {
    expect(derivedText(value)).toBe(text);
    expect([null, text]).toContain(written(value, 46));
    expect([null, spreadsheetNumber(text)]).toContain(written(value, 44));
  });

  it("takes the fast path for the values answers hold", () => {
    const typical = values(10_000).filter((v, i) => i % 5 === 4);
    expect(typical.filter((v) => written(v, 46) === null).length).toBeLessThan(typical.length / 1000);
  });
});

describe("the deflator at a month", () => {
  // A monthly index, newest first, with no value in 2024-02.
  const dates = ["2024-04-01", "2024-03-01", "2024-01-01"];
  const values = [130, 120, 100];
  const index = monthlyIndex({ length: dates.length, day: (i) => dayNumber(dates[i] as string), value: (i) => values[i] as number });

  it("takes the index's value in the `real` month as its base", () => {
    const deflator = deflatorAt(index, "2024-03");
    expect(deflator?.base).toBe(120);
    expect(deflator?.first).toBe(monthIndex(dayNumber("2024-01-01")));
    expect(deflator?.sums).toBe(index.sums);
    expect(deflatorAt(index, "2024-01")?.base).toBe(100);
  });

  it("is null for a month the index has no value for, inside or outside its months", () => {
    expect(deflatorAt(index, "2024-02")).toBeNull();
    expect(deflatorAt(index, "2023-12")).toBeNull();
    expect(deflatorAt(index, "2024-05")).toBeNull();
  });
});

describe("a year before", () => {
  it("is the day a year earlier, clamped, from the day and its month", () => {
    const wrong: string[] = [];
    for (let day = dayNumber("1795-01-01"); day < dayNumber("2405-12-31"); day += 5) {
      if (yearBefore(day, monthIndex(day)) !== addMonthsToDay(day, -12)) wrong.push(dateOfDay(day));
    }
    expect(wrong).toEqual([]);
    expect(dateOfDay(yearBefore(dayNumber("2024-02-29"), monthIndex(dayNumber("2024-02-29"))))).toBe("2023-02-28");
  });
});

/** An indicator of monthly sub-series `a`, `b`, `c`: `b` from `first`, the others from 2020-01, `months` points each. */
function source(first: string, months: number): TimeSource {
  const start = (date: string) => Array.from({ length: months }, (_, k) => dayNumber(`${String(Number(date.slice(0, 4)) + Math.floor((Number(date.slice(5, 7)) - 1 + k) / 12))}-${String(((Number(date.slice(5, 7)) - 1 + k) % 12) + 1).padStart(2, "0")}-01`)).reverse();
  const one = (id: string, days: number[], base: number) => ({ id, length: days.length, day: (i: number) => days[i] as number, value: (i: number) => base + i * 0.5 });
  return {
    nextDue: nextDueDayOf("monthly", []),
    versionEnd: dayNumber("2031-01-01"),
    stepwise: true,
    series: [one("a", start("2020-01"), 100), one("b", start(first), 200), one("c", start("2020-01"), 300)],
  };
}

const query = (q: Partial<PageQuery>): PageQuery => ({ ...DEFAULT_QUERY, units: "change", ...q });

/** A page's points as `date series` lines, in the page's order. */
const lines = (page: DerivedPage) => Array.from(page.days, (day, m) => `${dateOfDay(day)} ${page.ids[page.series[m] as number] as string}`);

describe("a derived page's order", () => {
  it("is date descending, then sub-series ascending, by counting the days", () => {
    const page = derivePage({ source: source("2020-03", 6), chosen: null, query: query({ limit: 2 }), divisor: null, deflator: null });
    expect(lines(page)).toEqual(["2020-08-01 b", "2020-07-01 b", "2020-06-01 a", "2020-06-01 c", "2020-05-01 a", "2020-05-01 c"]);
  });

  it("is the same when the days are too far apart to count", () => {
    // One point each, 40 years apart: more days than a counting sort is worth.
    const page = derivePage({ source: source("1980-01", 3), chosen: null, query: query({ limit: 1 }), divisor: null, deflator: null });
    expect(lines(page)).toEqual(["2020-03-01 a", "2020-03-01 c", "1980-03-01 b"]);
  });
});

/** The bytes as the text was once written: concatenated per point and encoded once. */
function concatenated(page: DerivedPage): string {
  const { days, values, series, ids } = page;
  const at = (m: number) => ({ date: dateOfDay(days[m] as number), id: ids[series[m] as number] as string, value: derivedText(values[m] as number) as string });
  const points = Array.from(days, (_, m) => at(m));
  if (page.query.format === "csv" && page.query.dialect === "es") return CSV_ES_HEADER + points.map((p) => `${p.date};${p.id};${spreadsheetNumber(p.value)};;\r\n`).join("");
  if (page.query.format === "csv") return CSV_HEADER + points.map((p) => `${p.date},${p.id},${p.value},,\n`).join("");
  return `{"data":[${points.map((p) => `{"date":"${p.date}","series":"${p.id}","value":${p.value}}`).join(",")}],"meta":${JSON.stringify(answerMeta(fields, page))}}`;
}

const fields = { indicator: "índice", unit: "UYU", license: "CC-BY-4.0", lastUpdated: "2026-01-01", attribution: '<a href="https://example.test/">Fuente: ñandú</a>' };

describe("a derived page's bytes", () => {
  // Values the fast path writes, and ones it leaves (tiny, huge, a tie): the spreadsheet writes a tiny one in 330 digits.
  const tricky = [1.25, -0.000123, 5e-324, -1.5981222e-7, 1e21, 12345678.5, 0, 29819.4194];
  const page = (format: PageQuery["format"], dialect: PageQuery["dialect"]): DerivedPage => ({
    query: query({ format, dialect }),
    total: tricky.length,
    hasMore: false,
    baseFound: false,
    series: Int32Array.from(tricky, (_, m) => m % 3),
    days: Int32Array.from(tricky, (_, m) => dayNumber("2026-01-01") - 31 * m),
    values: Float64Array.from(tricky),
    ids: ["a.b-1", "c", "zz.9"],
  });

  it.each([
    ["json", null],
    ["csv", null],
    ["csv", "es"],
  ] as const)("%s %s: the text concatenated, byte for byte", (format, dialect) => {
    const p = page(format, dialect);
    expect(decoder.decode(renderDerived(fields, p))).toBe(concatenated(p));
  });

  it("writes an empty page", () => {
    const p = { ...page("json", null), series: new Int32Array(0), days: new Int32Array(0), values: new Float64Array(0), total: 0 };
    expect(decoder.decode(renderDerived(fields, p))).toBe(concatenated(p));
  });
});
