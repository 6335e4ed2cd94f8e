/**
 * `GET /api/v1/adjust`: an amount of money carried from one date to another by an
 * index or a unit of account (an index of the cost of living, an indexed unit): amount × the value
 * covering `to` / the value covering `from`, each value found by the rule of
 * coverage (src/core/coverage.ts), as `at=` finds it. Which sub-series adjust is
 * data (`adjusts` in `indicator.json`, the manifest's `adjusters`).
 *
 * Its parameters are declared like the data endpoint's (src/core/parameters.ts);
 * this module is pure: the endpoint (src/api/adjust.ts) reads the answer files.
 */
import { csvRow } from "./answers.js";
import { partOf, type AnswerView } from "./answer-index.js";
import { DERIVED_DIGITS, quote } from "./contract.js";
import { coveringRankDay, type CoverageRule } from "./coverage.js";
import { dateOfDay, dayNumber } from "./dates.js";
import { derivedText } from "./derive.js";
import type { AdjusterRef } from "./manifest.js";
import { DATE_SCHEMA, SERIES_REF, dateParse, invalid, type Declared } from "./parameters.js";
import { FORMATS, type Format } from "./model.js";
import { API_BASE } from "./contract.js";

/** The path of the endpoint. */
export const ADJUST_PATH = `${API_BASE}/adjust`;

/** A validated adjustment. */
export interface AdjustQuery {
  /** The amount as a number, and as the canonical URL writes it. */
  readonly amount: { readonly value: number; readonly text: string };
  readonly from: string;
  readonly to: string;
  readonly by: { readonly indicator: string; readonly series: string };
  readonly format: Format;
}

/** Plain decimals: no sign, exponent or thousands separator; at most 15 significant digits (a double keeps them). */
const AMOUNT = /^(?:0|[1-9][0-9]*)(?:\.[0-9]+)?$/;

/** The parameters of `/api/v1/adjust`, in the canonical order. */
export const ADJUST_DECLARATIONS: readonly Declared<AdjustQuery>[] = [
  {
    name: "amount",
    absent: null,
    required: "the amount of money to adjust, e.g. amount=1000",
    parse: (text) => {
      const digits = text.replace(/^0+|\./g, "").replace(/0+$/, "").length;
      if (!AMOUNT.test(text) || digits > 15) return invalid(`amount: expected a number ≥ 0 written with digits and an optional decimal point (1000 or 1234.56), got ${quote(text)}`);
      const value = Number(text);
      return { value, text: String(value) };
    },
    echo: (q) => q.amount.text,
    schema: { type: "string", pattern: AMOUNT.source },
    description: { en: "The amount of money to adjust: a number ≥ 0 (`1000`, `1234.56`).", es: "El monto de dinero a actualizar: un número ≥ 0 (`1000`, `1234.56`)." },
    summary: { en: "the amount", es: "el monto" },
  },
  {
    name: "from",
    absent: null,
    required: "the date of the amount, e.g. from=2019-01-15",
    parse: dateParse("from", "start"),
    echo: (q) => q.from,
    schema: DATE_SCHEMA,
    description: {
      en: "The date of the amount (YYYY-MM-DD; YYYY-MM or YYYY mean its first day): the value of `by` covering it is the divisor.",
      es: "La fecha del monto (AAAA-MM-DD; AAAA-MM o AAAA, su primer día): el valor de `by` que la cubre es el divisor.",
    },
    summary: { en: "the date of the amount", es: "la fecha del monto" },
  },
  {
    name: "to",
    absent: null,
    required: "the date to carry the amount to, e.g. to=2026-07-01",
    parse: dateParse("to", "start"),
    echo: (q) => q.to,
    schema: DATE_SCHEMA,
    description: {
      en: "The date to carry the amount to (YYYY-MM-DD; YYYY-MM or YYYY mean its first day): the value of `by` covering it is the multiplier.",
      es: "La fecha a la que se lleva el monto (AAAA-MM-DD; AAAA-MM o AAAA, su primer día): el valor de `by` que la cubre es el multiplicador.",
    },
    summary: { en: "the date to carry it to", es: "la fecha a la que se lleva" },
  },
  {
    name: "by",
    absent: null,
    required: "the index or unit to adjust by, `<indicator>:<sub-series id>`: one of those the OpenAPI document lists",
    parse: (text) => {
      const m = SERIES_REF.exec(text);
      return m === null ? invalid(`by: expected <indicator>:<sub-series id>, got ${quote(text)}`) : { indicator: m[1] as string, series: m[2] as string };
    },
    echo: (q) => `${q.by.indicator}:${q.by.series}`,
    schema: { type: "string", pattern: SERIES_REF.source },
    description: {
      en: "`<indicator>:<sub-series id>`: what adjusts the amount, one of the sub-series the indicators declare (`adjusts` in their indicator.json; listed in the 400 of any other).",
      es: "`<indicador>:<id de subserie>`: con qué se actualiza, una de las subseries que los indicadores declaran (`adjusts` en su indicator.json; el 400 de cualquier otra las lista).",
    },
    summary: { en: "the index or unit (`indicator:series`)", es: "el índice o la unidad (`indicador:subserie`)" },
  },
  {
    name: "format",
    absent: "json",
    parse: (text) => ((FORMATS as readonly string[]).includes(text) ? text : invalid(`format: expected ${FORMATS.join(" or ")}, got ${quote(text)}`)),
    echo: (q) => (q.format === "json" ? null : q.format),
    schema: { type: "string", enum: [...FORMATS], default: "json" },
    description: { en: "`json` (default) or `csv` (one line: the same fields).", es: "`json` (por defecto) o `csv` (una línea con los mismos campos)." },
    summary: { en: "`json` or `csv`", es: "`json` o `csv`" },
  },
];

/** One end of an adjustment: the date asked, the point whose value covers it, and the days that point covers. */
export interface AdjustEnd {
  readonly date: string;
  /** The point's own date and value (its text as published), source and note. */
  readonly point: string;
  readonly value: string;
  readonly covers: { readonly from: string; readonly to: string };
  readonly source: string;
  readonly note: string | null;
}

/** What the endpoint needs of the `by` indicator. */
export interface AdjustInput {
  readonly data: AnswerView;
  readonly rule: CoverageRule;
  readonly adjuster: AdjusterRef;
}

/**
 * The end of `date` in sub-series `s` of `data`, or the detail of the 400 that
 * says why there is none (the date is before the first point, or past what the
 * data covers: a successor due, or the data version's end).
 */
export function adjustEnd(name: "from" | "to", date: string, input: AdjustInput, s: number): AdjustEnd | string {
  const { data, rule } = input;
  const series = data.series[s];
  const by = `${input.adjuster.indicator}:${input.adjuster.series}`;
  if (series === undefined || series.length === 0) return `${name}: ${by} has no values`;
  const day = dayNumber(date);
  const rank = coveringRankDay(series, day, rule);
  if (rank < 0) {
    const first = dateOfDay(series.day(series.length - 1));
    const last = dateOfDay(series.day(0));
    return day < series.day(series.length - 1)
      ? `${name}: ${date} is before ${by}'s first value (${first})`
      : `${name}: no value of ${by} covers ${date}; its newest is of ${last} and the data cover ${by} up to ${dateOfDay(coverageLastDay(input, s, 0))}`;
  }
  // The point's line is in the file of its shard (src/core/answer-index.ts).
  const part = partOf(data, s);
  if (part === undefined) throw new Error(`${by}: its shard was not read`);
  const row = csvRow(part.data, series.global(rank));
  return {
    date,
    point: row.date,
    value: row.value,
    covers: { from: row.date, to: dateOfDay(coverageLastDay(input, s, rank)) },
    source: row.source,
    note: row.note === "" ? null : row.note,
  };
}

/** The last day point `rank` of sub-series `s` covers (by the rule: the day before its successor, its due date or the data version's end). */
function coverageLastDay(input: AdjustInput, s: number, rank: number): number {
  const series = input.data.series[s];
  if (series === undefined) return -Infinity;
  // The covered days are contiguous from the point's own day: find the end by the rule itself.
  let lo = series.day(rank);
  let hi = rank === 0 ? input.rule.versionEnd : series.day(rank - 1);
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (coveringRankDay(series, mid, input.rule) === rank) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/** A derived number as the API writes it: rounded once to `DERIVED_DIGITS` significant digits. */
const rounded = (x: number) => derivedText(x) as string;

/** The answer's body, JSON or CSV. */
export function adjustBody(query: AdjustQuery, input: AdjustInput, from: AdjustEnd, to: AdjustEnd, meta: Record<string, unknown>): string {
  const ratio = Number(to.value) / Number(from.value);
  const factor = rounded(ratio);
  const adjusted = rounded(query.amount.value * ratio);
  const units = input.adjuster.unit === null ? null : rounded(query.amount.value / Number(from.value));
  if (query.format === "csv") {
    const cell = (text: string) => (/[",\n\r]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text);
    const header = ["amount", "by", "from", "from_point", "from_value", "from_source", "to", "to_point", "to_value", "to_source", "factor", "adjusted", "in_units"];
    const line = [query.amount.text, `${query.by.indicator}:${query.by.series}`, from.date, from.point, from.value, from.source, to.date, to.point, to.value, to.source, factor, adjusted, units ?? ""];
    return `${header.join(",")}\n${line.map(cell).join(",")}\n`;
  }
  // Numbers as the API writes them: the values' published texts, derived ones rounded once.
  const end = (e: AdjustEnd) => `{"date":"${e.date}","point":"${e.point}","value":${e.value},"covers":${JSON.stringify(e.covers)},"source":${JSON.stringify(e.source)},"note":${JSON.stringify(e.note)}}`;
  return (
    `{"data":{"amount":${query.amount.text},"from":${end(from)},"to":${end(to)},"factor":${factor},"adjusted":${adjusted},"in_units":${units ?? "null"}},` +
    `"meta":${JSON.stringify({ ...meta, digits: DERIVED_DIGITS })}}`
  );
}
