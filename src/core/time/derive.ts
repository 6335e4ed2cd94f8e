/**
 * Questions about time (docs/time.md): the value in force on a
 * day, values on regular calendar periods, ratios of two series, values in pesos
 * of one month, changes and indices. One home for the API and the site.
 *
 * Everything works on step series (`Steps`): values with the days each covers,
 * made from an indicator's points by the rule of coverage (src/core/time/coverage.ts).
 * A day covered by no step has no value: nothing here estimates or interpolates.
 * The transforms apply in a fixed order, each to the result of the one before:
 * frequency → per → real → units; then the window (`from`/`to` or `at`), then
 * `limit`/`offset` (src/core/time/derived-answer.ts).
 *
 * Days are day numbers (days since 1970-01-01, src/core/time/dates.ts); ends are exclusive.
 */
import { DERIVED_DIGITS, type Aggregation, type Units } from "../answer/contract.js";
import { type CoverageRule, type DaySeries } from "./coverage.js";
import { dayNumber, dayOfMonth, monthOfDay } from "./dates.js";
import { upperBound } from "../answer/sorted.js";

/** A column of `capacity` elements beginning with `column`'s: a growing buffer's column, copied once per doubling. */
export function grown<A extends Int32Array | Float64Array>(column: A, capacity: number): A {
  const next = new (column.constructor as new (length: number) => A)(capacity);
  next.set(column);
  return next;
}

/**
 * Values with the days each covers, oldest first: step `k < length` covers
 * `[start[k], end[k])` with `value[k]`, ascending and disjoint; `month[k]` is the
 * month of `start[k]` (a month index, `monthIndex`), carried along so that no
 * transform splits a day again. Typed columns, grown by doubling and reused from
 * one sub-series to the next (`clear`): a derived answer makes no object per step
 * (docs/performance.md). An end is a `Float64Array` cell because a coverage may
 * be unbounded (`Infinity`).
 */
export class Steps {
  start: Int32Array;
  month: Int32Array;
  end: Float64Array;
  value: Float64Array;
  length = 0;

  constructor(capacity = 64) {
    this.start = new Int32Array(capacity);
    this.month = new Int32Array(capacity);
    this.end = new Float64Array(capacity);
    this.value = new Float64Array(capacity);
  }

  /** Empties the steps, keeping their room. */
  clear(): this {
    this.length = 0;
    return this;
  }

  push(start: number, month: number, end: number, value: number): void {
    const k = this.length;
    if (k === this.start.length) this.grow();
    this.start[k] = start;
    this.month[k] = month;
    this.end[k] = end;
    this.value[k] = value;
    this.length = k + 1;
  }

  /** Room for `n` steps at least, the steps kept. */
  reserve(n: number): this {
    while (this.start.length < n) this.grow();
    return this;
  }

  private grow(): void {
    const capacity = 2 * this.start.length;
    this.start = grown(this.start, capacity);
    this.month = grown(this.month, capacity);
    this.end = grown(this.end, capacity);
    this.value = grown(this.value, capacity);
  }
}

/** What the rule of coverage (src/core/time/coverage.ts) needs of an indicator, and how its values hold. */
export interface CoverageInputs extends CoverageRule {
  /** True: a value holds until the next (a wage); false: a point is the value of its period (an index of a month). */
  readonly stepwise: boolean;
}

/** A sub-series' points, newest first. */
export interface PointSeries extends DaySeries {
  value(i: number): number;
}

/** The points of a sub-series with the days each covers by the rule of coverage (src/core/time/coverage.ts `coverageEndDay`), into `out`. */
export function levelSteps(series: PointSeries, rule: CoverageRule, out: Steps): Steps {
  out.clear().reserve(series.length);
  const { start, month, end: ends, value } = out;
  const { nextDue, versionEnd } = rule;
  // `coverageEndDay` and `monthIndex` written out: a question about time runs this loop over every
  // point of a sub-series, often on an isolate's first request, where each call is interpreted.
  let k = 0;
  let current = 0;
  let monthFrom = 0;
  let monthTo = -Infinity;
  let day = series.length === 0 ? 0 : series.day(series.length - 1);
  for (let i = series.length - 1; i >= 0; i--) {
    const newer = i > 0 ? series.day(i - 1) : Infinity;
    let end = Math.min(versionEnd, newer);
    const due = nextDue(day);
    if (due !== null && due < end) end = due;
    if (end > day) {
      if (day >= monthTo || day < monthFrom) {
        current = monthIndex(day);
        monthFrom = monthStart(current);
        monthTo = monthStart(current + 1);
      }
      start[k] = day;
      month[k] = current;
      ends[k] = end;
      value[k] = series.value(i);
      k++;
    }
    day = newer;
  }
  out.length = k;
  return out;
}

/** The index of the step covering `day`, or -1. */
export function coveringStep(steps: Steps, day: number): number {
  const { start, end } = steps;
  // The last step starting on or before the day.
  const k = upperBound(start, day, 0, steps.length) - 1;
  return k >= 0 && day < (end[k] as number) ? k : -1;
}

/** Year × 12 + month − 1 of a day: months as consecutive integers. */
export const monthIndex = monthOfDay;

const monthStart = dayOfMonth;

/** The first day of the calendar period of `months` months (1, 3, 6 or 12, starting in January) that contains `day`. */
export function periodStart(day: number, months: number): number {
  const month = monthIndex(day);
  return monthStart(month - (month % months));
}

/**
 * One value per calendar period of `months` months, dated the period's first day
 * and covering the period, for the periods whose every day some step covers, into
 * `out`. Stepwise: `mean` weights each value by the days it is in force, `end` is
 * the value on the last day, `min`/`max` over the values in force. Periodic: the
 * points dated inside the period, `mean` their plain mean, `end` the last.
 * Only periods that start within `[from, to]` (day numbers) are computed.
 */
export function aggregate(steps: Steps, months: number, aggregation: Aggregation, stepwise: boolean, from: number, to: number, out: Steps): Steps {
  out.clear();
  const { start, end, value } = steps;
  const n = steps.length;
  if (n === 0) return out;
  // The parameter's text compared once, not per period (a parsed string may not be interned).
  const mode = aggregation === "mean" ? 0 : aggregation === "end" ? 1 : aggregation === "min" ? 2 : 3;
  // Periods by their first month (a month index): the next period's first day without splitting a day.
  let month = monthIndex(Math.max(start[0] as number, from));
  month -= month % months;
  let p = monthStart(month);
  let k = 0;
  while (p <= to) {
    while (k < n && (end[k] as number) <= p) k++;
    if (k === n) break;
    const q = monthStart(month + months);
    if ((start[k] as number) >= q) {
      // A gap longer than the period: jump to the period of the next step.
      month = monthIndex(start[k] as number);
      month -= month % months;
      p = monthStart(month);
      continue;
    }
    let covered = 0;
    let weighted = 0;
    let sum = 0;
    let count = 0;
    let min = Infinity;
    let max = -Infinity;
    let last = NaN;
    for (let j = k; j < n && (start[j] as number) < q; j++) {
      const lo = Math.max(start[j] as number, p);
      const hi = Math.min(end[j] as number, q);
      if (hi <= lo) continue;
      covered += hi - lo;
      const v = value[j] as number;
      if (!stepwise && (start[j] as number) < p) continue;
      weighted += v * (hi - lo);
      sum += v;
      count++;
      if (v < min) min = v;
      if (v > max) max = v;
      last = v;
    }
    if (covered === q - p && count > 0) {
      const mean = stepwise ? weighted / (q - p) : sum / count;
      out.push(p, month, q, mode === 0 ? mean : mode === 1 ? last : mode === 2 ? min : max);
    }
    month += months;
    p = q;
  }
  return out;
}

/**
 * The ratio of two step series, itself a step series, into `out`: one step for
 * every stretch where both have a value, dated where it begins. A divisor of 0
 * gives no step.
 */
export function divide(numerator: Steps, divisor: Steps, out: Steps): Steps {
  out.clear();
  const n = numerator.length;
  const m = divisor.length;
  if (n === 0) return out;
  let i = 0;
  // From the divisor's first step ending after the numerator starts (ends ascend): a divisor of a
  // century of months divides each of a thousand sub-series over its own years only.
  let j = upperBound(divisor.end, numerator.start[0] as number, 0, m);
  while (i < n && j < m) {
    const lo = Math.max(numerator.start[i] as number, divisor.start[j] as number);
    const hi = Math.min(numerator.end[i] as number, divisor.end[j] as number);
    const d = divisor.value[j] as number;
    // Dated where the later of the two begins, in its month.
    const month = (numerator.start[i] as number) >= (divisor.start[j] as number) ? numerator.month[i] : divisor.month[j];
    if (hi > lo && d !== 0) out.push(lo, month as number, hi, (numerator.value[i] as number) / d);
    if ((numerator.end[i] as number) <= (divisor.end[j] as number)) i++;
    else j++;
  }
  return out;
}

/**
 * A deflator by month, for means over runs of months in constant time: month `m`
 * (a month index) is at `m - first`; `sums[i]` is the sum of the values of the
 * months before index `i`, `missing[i]` how many of them have none. `base` is its
 * value in the month values are expressed in.
 */
export interface Deflator {
  readonly first: number;
  readonly sums: Float64Array;
  readonly missing: Int32Array;
  readonly base: number;
}

/** A deflator by month without its base (`Deflator`), and its values: month `first + i` at `values[i]`, NaN where it has none. */
export interface MonthlyIndex {
  readonly first: number;
  readonly values: Float64Array;
  readonly sums: Float64Array;
  readonly missing: Int32Array;
}

/** A monthly sub-series (points newest first) as a deflator by month: the API's (src/api/time.ts) and the page's (src/site/client/questions.ts). */
export function monthlyIndex(series: PointSeries): MonthlyIndex {
  const n = series.length;
  const first = n === 0 ? 0 : monthIndex(series.day(n - 1));
  const last = n === 0 ? -1 : monthIndex(series.day(0));
  const values = new Float64Array(last - first + 1).fill(NaN);
  for (let i = 0; i < n; i++) values[monthIndex(series.day(i)) - first] = series.value(i);
  return { first, values, ...deflatorSums(values) };
}

/**
 * `index` as the deflator into the money of `month` (`YYYY-MM`): its value that
 * month is the base every value is carried to. Null when it has none that month.
 * The one place that reads an index at the `real` month: the API's answers
 * (src/api/endpoint.ts) and the page's (src/site/client/questions.ts) ask it.
 */
export function deflatorAt(index: MonthlyIndex, month: string): Deflator | null {
  const base = index.values[monthIndex(dayNumber(`${month}-01`)) - index.first];
  return base === undefined || Number.isNaN(base) ? null : { first: index.first, sums: index.sums, missing: index.missing, base };
}

/** The running sums of a deflator's monthly values (`values[i]` of month `first + i`, NaN where it has none). */
export function deflatorSums(values: ArrayLike<number>): { sums: Float64Array; missing: Int32Array } {
  const sums = new Float64Array(values.length + 1);
  const missing = new Int32Array(values.length + 1);
  for (let i = 0; i < values.length; i++) {
    const v = values[i] as number;
    const known = !Number.isNaN(v);
    sums[i + 1] = (sums[i] as number) + (known ? v : 0);
    missing[i + 1] = (missing[i] as number) + (known ? 0 : 1);
  }
  return { sums, missing };
}

/**
 * Values in money of the deflator's base month, into `out`: × base / the index of
 * the step's month, or with `months` (a frequency), / the mean index of the
 * period's months. A step whose month (or one of its period's months) has no
 * index has none.
 */
export function deflate(steps: Steps, deflator: Deflator, months: number | null, out: Steps): Steps {
  out.clear();
  const span = months ?? 1;
  const { sums, missing, first, base } = deflator;
  const { start, month, end, value } = steps;
  const count = sums.length - 1;
  for (let k = 0; k < steps.length; k++) {
    const a = (month[k] as number) - first;
    const b = a + span;
    if (a < 0 || b > count || (missing[b] as number) - (missing[a] as number) > 0) continue;
    const sum = (sums[b] as number) - (sums[a] as number);
    if (sum !== 0) out.push(start[k] as number, month[k] as number, end[k] as number, ((value[k] as number) * base * span) / sum);
  }
  return out;
}

/** The day one year before `day`, of month `month` (`monthIndex(day)`): the day clamped, 29 February → 28 February (`addMonthsToDay(day, -12)`). */
export function yearBefore(day: number, month: number): number {
  const first = monthStart(month - 12);
  return first + Math.min(day - monthStart(month), monthStart(month - 11) - first - 1);
}

/**
 * `units` applied to a step series, into `out`: each step against the step before
 * it (when that one ends where this one begins), against the value covering the
 * same day a year earlier, or against `base` (for `index`: the value covering the
 * base day, found by the caller). A percentage or an index whose divisor is 0 has
 * no step; a difference from 0 does.
 */
export function applyUnits(steps: Steps, units: Exclude<Units, "level">, base: number, out: Steps): Steps {
  out.clear();
  const { start, month, end, value } = steps;
  // The parameter's text compared once, not per step (a parsed string may not be interned).
  const index = units === "index";
  const previous = units === "change" || units === "percent_change";
  const difference = units === "change" || units === "change_a_year_ago";
  // The step covering the day a year before step k: its index only grows with k.
  let j = 0;
  for (let k = 0; k < steps.length; k++) {
    const v = value[k] as number;
    let against: number;
    if (index) against = base;
    else if (previous) {
      if (k === 0 || end[k - 1] !== start[k]) continue;
      against = value[k - 1] as number;
    } else {
      const day = yearBefore(start[k] as number, month[k] as number);
      while (j < k && (end[j] as number) <= day) j++;
      if (j === k || (start[j] as number) > day) continue;
      against = value[j] as number;
    }
    if (difference) out.push(start[k] as number, month[k] as number, end[k] as number, v - against);
    else if (against !== 0) out.push(start[k] as number, month[k] as number, end[k] as number, index ? (100 * v) / against : (100 * (v - against)) / against);
  }
  return out;
}

/** Exact powers of ten (every one up to 10^22 is a double). */
const POW10 = Array.from({ length: 23 }, (_, k) => Number(`1e${k}`));

/** `a` × 10^(7 − `exponent`), correctly rounded (one operation with an exact power of ten). */
const scaled = (a: number, exponent: number) => (exponent <= 7 ? a * (POW10[7 - exponent] as number) : a / (POW10[exponent - 7] as number));

/** The decimal exponent of the value `rounded8` rounded last: its second result, and the next call's first guess. */
let roundedExponent = 0;

/**
 * A positive finite value rounded to `DERIVED_DIGITS` (8) significant digits as
 * `toPrecision` rounds it (ECMA-262 §21.1.3.5: the nearest, ties up): the 8-digit
 * integer `digits`, the value being about `digits × 10^(roundedExponent − 7)`; or
 * -1 when this fast path cannot be sure (the scaled value within 10⁻⁶ of a tie:
 * its error is below 10⁻⁸) or the shortest text of the rounded value is
 * exponential (below 10⁻⁶ or from 10²¹). One multiplication by an exact power of
 * ten instead of `toPrecision`'s digits, from the exponent of the value before (a
 * series' values are mostly of one magnitude).
 */
function rounded8(a: number): number {
  // Written for 8 digits (the bounds below): any other precision takes `toPrecision`.
  if ((DERIVED_DIGITS as number) !== 8 || !(a >= 1e-7 && a < 1e21)) return -1;
  // From the exponent of the value before, a decade at a time (no log10): `m` in [10⁷, 10⁸).
  let exponent = roundedExponent;
  let m = scaled(a, exponent);
  while (m >= 1e8) {
    if (++exponent > 20) return -1;
    m = scaled(a, exponent);
  }
  while (m < 1e7) {
    if (--exponent < -7) return -1;
    m = scaled(a, exponent);
  }
  const fraction = m - Math.floor(m);
  if (Math.abs(fraction - 0.5) < 1e-6) return -1;
  let digits = Math.round(m);
  if (digits === 1e8) {
    digits = 1e7;
    exponent++;
  }
  if (exponent < -6 || exponent > 20) return -1;
  roundedExponent = exponent;
  return digits;
}

/**
 * A derived value as the API writes it: rounded once to `DERIVED_DIGITS`
 * significant digits, as the shortest JSON number of the rounded value (what
 * `String(Number(x.toPrecision(8)))` gives). `null` when not finite.
 */
export function derivedText(value: number): string | null {
  if (!Number.isFinite(value)) return null;
  if (value === 0) return "0";
  const digits = rounded8(Math.abs(value));
  if (digits < 0) return precisionText(value);
  // The rounded value is the double nearest digits × 10^(exponent − 7): a division
  // or a product of exact integers rounds to it as parsing its decimal text does.
  const exponent = roundedExponent;
  const x = exponent <= 7 ? digits / (POW10[7 - exponent] as number) : digits * (POW10[exponent - 7] as number);
  return String(value < 0 ? -x : x);
}

/**
 * `derivedText` by `toPrecision`, for what the fast path leaves (near ties,
 * tiny and huge values): the trailing zeros of `toPrecision` dropped.
 */
function precisionText(value: number): string {
  const text = value.toPrecision(DERIVED_DIGITS);
  const e = text.indexOf("e");
  if (e < 0) return text.indexOf(".") < 0 ? text : withoutTrailingZeros(text);
  // Exponential: below 1e-6 both forms agree once the zeros go; from 1e8 String() writes the digits out.
  if (text.charCodeAt(e + 1) === 43 /* + */) return String(Number(text));
  return withoutTrailingZeros(text.slice(0, e)) + text.slice(e);
}

/** A decimal with a point, without the zeros ending its fraction (and the point, when nothing is left of it): "100.00" → "100". */
function withoutTrailingZeros(text: string): string {
  let end = text.length;
  while (text.charCodeAt(end - 1) === 48 /* 0 */) end--;
  if (text.charCodeAt(end - 1) === 46 /* . */) end--;
  const kept = text.slice(0, end);
  return kept === "-0" ? "0" : kept;
}

/** The most bytes `writeDerived` writes: a sign and 21 digits (below 10²¹; "-0.00000" and 8 digits is 16). */
export const DERIVED_MAX_BYTES = 22;

/**
 * Writes `derivedText(value)` (`value` finite) as ASCII into `bytes` at `at`, with
 * `decimal` (a character code) as its decimal mark, and returns the position after
 * it; or returns -1, writing nothing, for a value the fast path of `rounded8`
 * leaves to `derivedText` (near ties, tiny and huge values). The digits come from
 * the rounded integer, with no string made: the bytes of a derived answer.
 */
export function writeDerived(bytes: Uint8Array, at: number, value: number, decimal: number): number {
  if (value === 0) {
    bytes[at] = 48; /* 0 */
    return at + 1;
  }
  const rounded = rounded8(Math.abs(value));
  if (rounded < 0) return -1;
  if (value < 0) bytes[at++] = 45; /* - */
  // An int32 from here (below 10⁸): digits by integer division, which the compiler makes a multiplication.
  let digits = rounded | 0;
  // The significant digits without the zeros ending them: the shortest text of the rounded value.
  let count = 8;
  while (digits % 10 === 0) {
    digits = (digits / 10) | 0;
    count--;
  }
  // `whole` digits before the point; with none, "0." and zeros first; with more than the digits, zeros after.
  const whole = roundedExponent + 1;
  if (whole <= 0) {
    bytes[at++] = 48;
    bytes[at++] = decimal;
    for (let z = whole; z < 0; z++) bytes[at++] = 48;
  }
  const fraction = whole > 0 && whole < count ? count - whole : 0;
  const stop = at + count + (fraction > 0 ? 1 : 0);
  // From the last digit back.
  let c = stop - 1;
  if (fraction > 0) {
    for (let f = 0; f < fraction; f++) {
      const q = (digits / 10) | 0;
      bytes[c--] = 48 + digits - q * 10;
      digits = q;
    }
    bytes[c--] = decimal;
  }
  while (c >= at) {
    const q = (digits / 10) | 0;
    bytes[c--] = 48 + digits - q * 10;
    digits = q;
  }
  at = stop;
  for (let z = count; z < whole; z++) bytes[at++] = 48;
  return at;
}
