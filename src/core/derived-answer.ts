/**
 * A derived answer (any query with `frequency`, `per`, `real` or `units`): the
 * pipeline of src/core/derive.ts over each selected sub-series, then the window,
 * `limit`/`offset` per sub-series, and the bytes. Derived answers are computed on
 * request, never prebuilt. Each value is rounded once, when written (`derivedText`); a derived
 * value has no source of its own, so the CSV's `source` and `note` are empty.
 */
import { CSV_ES_HEADER, CSV_HEADER } from "./answers.js";
import { FREQUENCIES, MAX_DERIVED_VALUES } from "./contract.js";
import { dateOfDay, dayNumber, addMonths } from "./dates.js";
import {
  aggregate,
  applyUnits,
  coveringStep,
  deflate,
  divide,
  levelSteps,
  derivedText,
  type CoverageInputs,
  type Deflator,
  type PointSeries,
  type Steps,
} from "./derive.js";
import type { DatasetFields, PageQuery } from "./model.js";
import { spreadsheetNumber } from "./spreadsheet.js";
import type { PageSummary } from "./page.js";
import { answerMeta } from "./render.js";

/** An indicator as the pipeline reads it: the rule of coverage's inputs and its sub-series (sorted by id). */
export interface TimeSource extends CoverageInputs {
  readonly series: readonly (PointSeries & { readonly id: string })[];
}

/** Everything a derived answer is computed from. */
export interface DerivedInputs {
  readonly source: TimeSource;
  /** The selected sub-series (ascending indices), or `null` for all. */
  readonly chosen: readonly number[] | null;
  readonly query: PageQuery;
  /** `per`: the divisor's indicator and sub-series index. */
  readonly divisor: { readonly source: TimeSource; readonly series: number } | null;
  /** `real`: the deflator by month and its value in the `real` month. */
  readonly deflator: Deflator | null;
}

/** A computed page: its points in the answer's order (date descending, then sub-series ascending). */
export interface DerivedPage extends PageSummary {
  readonly ids: readonly string[];
  readonly days: readonly number[];
  /** Each value, unrounded (written by `renderDerived` with `derivedText`). */
  readonly values: readonly number[];
  /** With `units=index`: whether any selected sub-series has a value covering `base`. */
  readonly baseFound: boolean;
}

const DAYS_PER_MONTH = 30.437;

/** The months of the query's period, or `null` without `frequency`. */
function periodMonths(query: PageQuery): number | null {
  return query.frequency === null ? null : FREQUENCIES[query.frequency];
}

/**
 * The days the periods are computed for: the window, looking back a year and a
 * period before `from` (what `units` compares with); everything without `frequency`.
 */
function span(query: PageQuery, months: number | null): { from: number; to: number } {
  if (months === null || query.from === null) return { from: -Infinity, to: query.to === null ? Infinity : dayNumber(query.to) };
  const from = query.units === null ? query.from : addMonths(query.from, -(12 + months));
  return { from: dayNumber(from), to: query.to === null ? Infinity : dayNumber(query.to) };
}

const indices = (inputs: DerivedInputs): readonly number[] => inputs.chosen ?? inputs.source.series.map((_, s) => s);

/**
 * About how many values a question computes (points read and periods made, the
 * divisor's included): what the CPU a request may spend is budgeted on.
 */
export function derivedWork(inputs: DerivedInputs): number {
  const months = periodMonths(inputs.query);
  const { from, to } = span(inputs.query, months);
  const periodsOf = (one: PointSeries, source: TimeSource, lo: number, hi: number) => {
    if (months === null || one.length === 0) return 0;
    const first = Math.max(one.day(one.length - 1), lo);
    const last = Math.min(source.versionEnd, hi + 1);
    return last <= first ? 0 : Math.ceil((last - first) / (DAYS_PER_MONTH * months)) + 1 + (inputs.query.units === "index" ? 1 : 0);
  };
  let work = 0;
  for (const s of indices(inputs)) {
    const one = inputs.source.series[s] as PointSeries;
    work += one.length + periodsOf(one, inputs.source, from, to);
  }
  if (inputs.divisor !== null) {
    const one = inputs.divisor.source.series[inputs.divisor.series] as PointSeries;
    work += one.length + periodsOf(one, inputs.divisor.source, -Infinity, Infinity);
  }
  return work;
}

/** Whether a question fits the budget, and by how much it must narrow when not. */
export function overBudget(inputs: DerivedInputs): { work: number; series: number; fitting: number } | null {
  const work = derivedWork(inputs);
  if (work <= MAX_DERIVED_VALUES) return null;
  const series = indices(inputs).length;
  return { work, series, fitting: Math.max(1, Math.floor((series * MAX_DERIVED_VALUES) / work)) };
}

/** The sub-series' steps after frequency, per and real, over periods starting within `[from, to]`. */
function transformed(inputs: DerivedInputs, one: PointSeries, divisor: Steps | null, from: number, to: number): Steps {
  const { source, query, deflator } = inputs;
  const months = periodMonths(query);
  let steps = levelSteps(one, source);
  if (months !== null) steps = aggregate(steps, months, query.aggregation ?? "mean", source.stepwise, from, to);
  if (divisor !== null) steps = divide(steps, divisor);
  if (deflator !== null) steps = deflate(steps, deflator, months);
  return steps;
}

/** The divisor of `per`, on the query's periods when it has a frequency. */
function divisorSteps(inputs: DerivedInputs): Steps | null {
  if (inputs.divisor === null) return null;
  const { source, series } = inputs.divisor;
  const months = periodMonths(inputs.query);
  const steps = levelSteps(source.series[series] as PointSeries, source);
  return months === null ? steps : aggregate(steps, months, inputs.query.aggregation ?? "mean", source.stepwise);
}

/**
 * The derived page of a question: every selected sub-series through frequency →
 * per → real → units, rounded; then the window (`from`/`to` on the points' dates,
 * or `at`: the point covering that day) and `limit`/`offset` per sub-series.
 */
export function derivePage(inputs: DerivedInputs): DerivedPage {
  const { source, query } = inputs;
  const months = periodMonths(query);
  const { from, to } = span(query, months);
  const divisor = divisorSteps(inputs);
  const windowFrom = query.from === null ? -Infinity : dayNumber(query.from);
  const windowTo = query.to === null ? Infinity : dayNumber(query.to);
  const at = query.at === null ? null : dayNumber(query.at);
  const base = query.base === null ? null : dayNumber(query.base);
  // The page's points as parallel columns (no object per point): sub-series index, day, value.
  const pickedSeries: number[] = [];
  const pickedDays: number[] = [];
  const pickedValues: number[] = [];
  let total = 0;
  let hasMore = false;
  let baseFound = false;
  for (const s of indices(inputs)) {
    const one = source.series[s] as PointSeries & { readonly id: string };
    let steps = transformed(inputs, one, divisor, from, to);
    if (query.units !== null) {
      let against = NaN;
      if (query.units === "index") {
        const around = months === null ? steps : transformed(inputs, one, divisor, base as number, base as number);
        const k = coveringStep(around, base as number);
        if (k < 0) continue;
        baseFound = true;
        against = around.value[k] as number;
      }
      steps = applyUnits(steps, query.units, against);
    }
    // The window, newest first: the steps with a finite value (only those on the page are written out).
    const window: number[] = [];
    if (at !== null) {
      const k = coveringStep(steps, at);
      if (k >= 0 && Number.isFinite(steps.value[k])) window.push(k);
    } else {
      for (let k = steps.start.length - 1; k >= 0; k--) {
        const day = steps.start[k] as number;
        if (day < windowFrom) break;
        if (day <= windowTo && Number.isFinite(steps.value[k])) window.push(k);
      }
    }
    total += window.length;
    if (window.length > query.offset + query.limit) hasMore = true;
    const stop = Math.min(window.length, query.offset + query.limit);
    for (let r = query.offset; r < stop; r++) {
      const k = window[r] as number;
      pickedSeries.push(s);
      pickedDays.push(steps.start[k] as number);
      pickedValues.push(steps.value[k] as number);
    }
  }
  // The answer's order, date descending then sub-series ascending, as one numeric sort of keys.
  const count = pickedDays.length;
  const series = source.series.length;
  let newest = -Infinity;
  for (const day of pickedDays) if (day > newest) newest = day;
  const keys = new Float64Array(count);
  for (let m = 0; m < count; m++) keys[m] = (newest - (pickedDays[m] as number)) * series + (pickedSeries[m] as number);
  const order = new Uint32Array(count).map((_, m) => m);
  order.sort((a, b) => (keys[a] as number) - (keys[b] as number));
  const ids: string[] = [];
  const days: number[] = [];
  const values: number[] = [];
  for (const m of order) {
    ids.push(source.series[pickedSeries[m] as number]?.id as string);
    days.push(pickedDays[m] as number);
    values.push(pickedValues[m] as number);
  }
  return { query, total, hasMore, baseFound, ids, days, values };
}

const encoder = new TextEncoder();

/**
 * A derived page's bytes: JSON with `meta`, or CSV with empty `source` and
 * `note`. Ids (`[a-z0-9.-]`, src/source/metadata.ts), dates and numbers need no
 * escaping; the text is built by concatenation and encoded once (measured twice
 * as fast as writing bytes field by field).
 */
export function renderDerived(fields: DatasetFields, page: DerivedPage): Uint8Array<ArrayBuffer> {
  const { ids, days, values } = page;
  if (page.query.format === "csv" && page.query.dialect === "es") {
    let text = CSV_ES_HEADER;
    for (let m = 0; m < ids.length; m++) text += `${dateOfDay(days[m] as number)};${ids[m] as string};${spreadsheetNumber(derivedText(values[m] as number) as string)};;\r\n`;
    return encoder.encode(text);
  }
  if (page.query.format === "csv") {
    let text = CSV_HEADER;
    for (let m = 0; m < ids.length; m++) text += `${dateOfDay(days[m] as number)},${ids[m] as string},${derivedText(values[m] as number) as string},,\n`;
    return encoder.encode(text);
  }
  let text = '{"data":[';
  for (let m = 0; m < ids.length; m++) {
    text += `${m === 0 ? "" : ","}{"date":"${dateOfDay(days[m] as number)}","series":"${ids[m] as string}","value":${derivedText(values[m] as number) as string}}`;
  }
  return encoder.encode(`${text}],"meta":${JSON.stringify(answerMeta(fields, page))}}`);
}
