/**
 * `GET /api/v1/adjust`: an amount of money carried from one date to another by an
 * index or a unit of account (an index of the cost of living, an indexed unit): amount × the value
 * covering `to` / the value covering `from`, each value found by the rule of
 * coverage (src/core/time/coverage.ts), as `at=` finds it. Which sub-series adjust is
 * data (`adjusts` in `indicator.json`, the manifest's `adjusters`).
 *
 * Its parameters are declared like the data endpoint's (src/core/answer/parameters.ts);
 * this module is pure: the endpoint (src/api/adjust.ts) reads the answer files.
 */
import { csvRow } from "../file/answers.js";
import { partOf, type AnswerView } from "../file/answer-index.js";
import { quote } from "../answer/contract.js";
import { closedObject, type FieldDeclarations } from "../answer/schema.js";
import { answeringRankDay, coveringRankDay, latestOnOrBefore, type CoverageRule } from "./coverage.js";
import { dateOfDay, dayNumber } from "./dates.js";
import { derivedText } from "./derive.js";
import type { AdjusterRef } from "../file/manifest.js";
import { DATE_SCHEMA, SERIES_REF, dateParse, formatDeclaration, invalid, type Declared } from "../answer/parameters.js";
import type { Format } from "../indicator/model.js";
import { freshnessOf, type Schedule } from "./schedule.js";
import { API_BASE } from "../answer/contract.js";
import { partitionPoint } from "../answer/sorted.js";

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

/** One of the two dates of an adjustment (`from`, `to`): required, a day or its first day, echoed as given. */
function dateDeclared(name: "from" | "to", required: string, words: Pick<Declared<AdjustQuery>, "description" | "summary">): Declared<AdjustQuery> {
  return { name, absent: null, required, parse: dateParse(name, "start"), echo: (q) => q[name], schema: DATE_SCHEMA, ...words };
}

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
  dateDeclared("from", "the date of the amount, e.g. from=2019-01-15", {
    description: {
      en: "The date of the amount (YYYY-MM-DD; YYYY-MM or YYYY mean its first day), up to today in Montevideo (UTC−3): the value of `by` for it (as `at` answers) is the divisor; past `by`'s newest value, that value, said in `meta.used.from`.",
      es: "La fecha del monto (AAAA-MM-DD; AAAA-MM o AAAA, su primer día), hasta hoy en Montevideo (UTC−3): el valor de `by` para ella (el que responde `at`) es el divisor; después del valor más reciente de `by`, ese valor, y `meta.used.from` lo dice.",
    },
    summary: { en: "the date of the amount", es: "la fecha del monto" },
  }),
  dateDeclared("to", "the date to carry the amount to, e.g. to=2026-07-01", {
    description: {
      en: "The date to carry the amount to (YYYY-MM-DD; YYYY-MM or YYYY mean its first day), up to today in Montevideo (UTC−3): the value of `by` for it (as `at` answers) is the multiplier; past `by`'s newest value, that value, said in `meta.used.to`.",
      es: "La fecha a la que se lleva el monto (AAAA-MM-DD; AAAA-MM o AAAA, su primer día), hasta hoy en Montevideo (UTC−3): el valor de `by` para ella (el que responde `at`) es el multiplicador; después del valor más reciente de `by`, ese valor, y `meta.used.to` lo dice.",
    },
    summary: { en: "the date to carry it to", es: "la fecha a la que se lleva" },
  }),
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
  formatDeclaration({ en: "`json` (default) or `csv` (one line: the same fields).", es: "`json` (por defecto) o `csv` (una línea con los mismos campos)." }),
];

/**
 * Why the date asked has no value of its own, so that the newest value before it
 * is used (never silently): `overdue`, the value after the one used was due by
 * the indicator's schedule on or before today (`due`) and is not in the data;
 * `pending`, it is due after today (`due`; null when the schedule names no day).
 */
export interface Missing {
  readonly reason: "overdue" | "pending";
  readonly due: string | null;
}

/** One end of an adjustment: the date asked, the point whose value is used for it, and the days that point covers. */
export interface AdjustEnd {
  readonly date: string;
  /** The point's own date and value (its text as published), source and note. */
  readonly point: string;
  readonly value: string;
  readonly covers: { readonly from: string; readonly to: string };
  readonly source: string;
  readonly note: string | null;
  /** Null when the point's value is the date's own (it covers the date, or is in force on it); else why the date has none. */
  readonly missing: Missing | null;
}

/** What the endpoint needs of the `by` indicator. */
export interface AdjustInput {
  readonly data: AnswerView;
  /** The rule of coverage with what it answers after the last check (`afterCheck`, as `at` reads it). */
  readonly rule: CoverageRule;
  readonly adjuster: AdjusterRef;
  /** The indicator's publication schedule (src/core/time/schedule.ts), or null. */
  readonly schedule: Schedule | null;
  /** Today (`YYYY-MM-DD`): the latest date either end may name. */
  readonly today: string;
}

/**
 * The end of `date` in sub-series `s` of `data`, or the detail of the 400 that
 * says why there is none. The value is the one `at` answers for the date (the
 * point covering it, or a stepwise value in force after the last check); past
 * the sub-series' newest value, that newest value, with why the date has none
 * of its own (`Missing`, by the rule of freshness, src/core/time/schedule.ts
 * `freshnessOf`, at today). A date after today, before the first value or in a
 * gap between two values is a 400.
 */
export function adjustEnd(name: "from" | "to", date: string, input: AdjustInput, s: number): AdjustEnd | string {
  const { data, rule } = input;
  const series = data.series[s];
  const by = `${input.adjuster.indicator}:${input.adjuster.series}`;
  if (date > input.today) return `${name}: ${date} is after today (${input.today}, in Montevideo, UTC−3): no value is known for it yet`;
  if (series === undefined || series.length === 0) return `${name}: ${by} has no values`;
  const day = dayNumber(date);
  let rank = answeringRankDay(series, day, rule);
  let missing: Missing | null = null;
  if (rank < 0) {
    const before = latestOnOrBefore(series, day);
    if (before < 0) return `${name}: ${date} is before ${by}'s first value (${dateOfDay(series.day(series.length - 1))})`;
    if (before > 0) return `${name}: no value of ${by} covers ${date}: its values skip from ${dateOfDay(series.day(before))} to ${dateOfDay(series.day(before - 1))}`;
    // Past the newest value: that value, and whether the one after it is overdue by today.
    const newest = dateOfDay(series.day(0));
    const fresh = freshnessOf(input.schedule, rule.nextDue, newest, input.today, rule.newest === undefined ? newest : dateOfDay(rule.newest));
    missing = { reason: fresh.overdue ? "overdue" : "pending", due: fresh.nextDue };
    rank = 0;
  }
  // The point's line is in the file of its shard (src/core/file/answer-index.ts).
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
    missing,
  };
}

/** The last day point `rank` of sub-series `s` covers (by the rule: the day before its successor, its due date or the data version's end). */
function coverageLastDay(input: AdjustInput, s: number, rank: number): number {
  const series = input.data.series[s];
  if (series === undefined) return -Infinity;
  // The covered days are contiguous from the point's own day: find the end by the rule itself,
  // the last day up to the newer point's (or the version's end) that the point still covers.
  const last = rank === 0 ? input.rule.versionEnd : series.day(rank - 1);
  return partitionPoint(series.day(rank) + 1, last + 1, (day) => coveringRankDay(series, day, input.rule) === rank) - 1;
}

/** The fields of `meta.used` as `usedMeta` writes them, with their schemas. */
export function usedMetaFields(): FieldDeclarations {
  const end = closedObject({
    date: { schema: { type: "string", format: "date", description: "The date of the point whose value is used (`data.from.point`, `data.to.point`)." } },
    reason: {
      schema: {
        type: ["string", "null"],
        enum: ["overdue", "pending", null] satisfies (Missing["reason"] | null)[],
        description:
          "Null: the value is the date's own (it covers the date, or a stepwise value is in force on it). Else the date is after the newest value and that value is used: `overdue`, the value after it was due by the indicator's schedule on or before today and is not in the data; `pending`, it is due after today.",
      },
    },
    due: { schema: { type: ["string", "null"], format: "date", description: "With a reason, when the value after the one used was (or is) due; null when the schedule names no day, or without a reason." } },
  });
  return { from: { schema: end }, to: { schema: end } };
}

/**
 * What `meta` says of the values used (`meta.used`): for each end the date of the
 * point whose value is used and, when that value is not the date's own, why
 * (`reason`, `due`; both null otherwise).
 */
export function usedMeta(from: AdjustEnd, to: AdjustEnd): Record<"from" | "to", { date: string; reason: Missing["reason"] | null; due: string | null }> {
  const one = (e: AdjustEnd) => ({ date: e.point, reason: e.missing?.reason ?? null, due: e.missing?.due ?? null });
  return { from: one(from), to: one(to) };
}

/** A derived number as the API writes it: rounded once to `DERIVED_DIGITS` significant digits. */
const rounded = (x: number) => derivedText(x) as string;

/** The CSV answer's columns: `*_reason` and `*_due` are empty when the point's value is the date's own (`meta.used`). */
export const ADJUST_CSV_HEADER = ["amount", "by", "from", "from_point", "from_value", "from_source", "to", "to_point", "to_value", "to_source", "factor", "adjusted", "in_units", "from_reason", "from_due", "to_reason", "to_due"] as const;

/** The fields of one end (`data.from`, `data.to`) as `adjustBody` writes them, with their schemas. */
export function adjustEndFields(): FieldDeclarations {
  return {
    date: { schema: { type: "string", format: "date", description: "The date asked." } },
    point: { schema: { type: "string", format: "date", description: "The date of the point whose value is used: the one covering the date asked (or in force on it), else the newest before it (`meta.used` says why)." } },
    value: { schema: { type: "number", description: "That point's value, as published." } },
    covers: {
      schema: {
        ...closedObject({ from: { schema: { type: "string", format: "date" } }, to: { schema: { type: "string", format: "date" } } }),
        description: "The days that point covers (a month of a monthly index, the day of a daily value, the days a stepwise value was in force).",
      },
    },
    source: { schema: { type: "string", description: "The publication the value was read from." } },
    note: { schema: { type: ["string", "null"] } },
  };
}

/** The fields of the answer's `data` as `adjustBody` writes them, with their schemas. */
export function adjustDataFields(): FieldDeclarations {
  const end = closedObject(adjustEndFields());
  return {
    amount: { schema: { type: "number" } },
    from: { schema: end },
    to: { schema: end },
    factor: { schema: { type: "number" } },
    adjusted: { schema: { type: "number" } },
    in_units: { schema: { type: ["number", "null"] } },
  };
}

/** The answer's body, JSON or CSV. */
export function adjustBody(query: AdjustQuery, input: AdjustInput, from: AdjustEnd, to: AdjustEnd, meta: Record<string, unknown>): string {
  const ratio = Number(to.value) / Number(from.value);
  const factor = rounded(ratio);
  const adjusted = rounded(query.amount.value * ratio);
  const units = input.adjuster.unit === null ? null : rounded(query.amount.value / Number(from.value));
  if (query.format === "csv") {
    const cell = (text: string) => (/[",\n\r]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text);
    const header = [...ADJUST_CSV_HEADER];
    const line = [query.amount.text, `${query.by.indicator}:${query.by.series}`, from.date, from.point, from.value, from.source, to.date, to.point, to.value, to.source, factor, adjusted, units ?? "", from.missing?.reason ?? "", from.missing?.due ?? "", to.missing?.reason ?? "", to.missing?.due ?? ""];
    return `${header.join(",")}\n${line.map(cell).join(",")}\n`;
  }
  // Numbers as the API writes them: the values' published texts, derived ones rounded once.
  const end = (e: AdjustEnd) => `{"date":"${e.date}","point":"${e.point}","value":${e.value},"covers":${JSON.stringify(e.covers)},"source":${JSON.stringify(e.source)},"note":${JSON.stringify(e.note)}}`;
  return (
    `{"data":{"amount":${query.amount.text},"from":${end(from)},"to":${end(to)},"factor":${factor},"adjusted":${adjusted},"in_units":${units ?? "null"}},` +
    `"meta":${JSON.stringify(meta)}}`
  );
}
