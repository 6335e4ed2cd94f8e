/**
 * Questions about time (docs/time.md): the value in force on a
 * day, values on regular calendar periods, ratios of two series, values in pesos
 * of one month, changes and indices. One home for the API and the site.
 *
 * Everything works on step series (`Steps`): values with the days each covers,
 * made from an indicator's points by the rule of coverage (src/core/coverage.ts).
 * A day covered by no step has no value: nothing here estimates or interpolates.
 * The transforms apply in a fixed order, each to the result of the one before:
 * frequency → per → real → units; then the window (`from`/`to` or `at`), then
 * `limit`/`offset` (src/core/derived-answer.ts).
 *
 * Days are day numbers (days since 1970-01-01, src/core/dates.ts); ends are exclusive.
 */
import { DERIVED_DIGITS, type Aggregation, type Units } from "./contract.js";
import { coverageEndDay, type CoverageRule, type DaySeries } from "./coverage.js";
import { addMonthsToDay, dayOfMonth, monthOfDay } from "./dates.js";

/** Values with the days each covers, oldest first: `[start[k], end[k])`, ascending and disjoint. */
export interface Steps {
  readonly start: number[];
  readonly end: number[];
  readonly value: number[];
}

const noSteps = (): Steps => ({ start: [], end: [], value: [] });

function push(steps: Steps, start: number, end: number, value: number): void {
  steps.start.push(start);
  steps.end.push(end);
  steps.value.push(value);
}

/** What the rule of coverage (src/core/coverage.ts) needs of an indicator, and how its values hold. */
export interface CoverageInputs extends CoverageRule {
  /** True: a value holds until the next (a wage); false: a point is the value of its period (an index of a month). */
  readonly stepwise: boolean;
}

/** A sub-series' points, newest first. */
export interface PointSeries extends DaySeries {
  value(i: number): number;
}

/** The points of a sub-series with the days each covers by the rule of coverage (src/core/coverage.ts `coverageEndDay`). */
export function levelSteps(series: PointSeries, rule: CoverageRule): Steps {
  const steps = noSteps();
  for (let i = series.length - 1; i >= 0; i--) {
    const day = series.day(i);
    const end = coverageEndDay(series, i, rule);
    if (end > day) push(steps, day, end, series.value(i));
  }
  return steps;
}

/** The index of the step covering `day`, or -1. */
export function coveringStep(steps: Steps, day: number): number {
  let lo = 0;
  let hi = steps.start.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((steps.start[mid] as number) <= day) lo = mid + 1;
    else hi = mid;
  }
  const k = lo - 1;
  return k >= 0 && day < (steps.end[k] as number) ? k : -1;
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
 * and covering the period, for the periods whose every day some step covers.
 * Stepwise: `mean` weights each value by the days it is in force, `end` is the
 * value on the last day, `min`/`max` over the values in force. Periodic: the
 * points dated inside the period, `mean` their plain mean, `end` the last.
 * Only periods that start within `[from, to]` (day numbers) are computed.
 */
export function aggregate(steps: Steps, months: number, aggregation: Aggregation, stepwise: boolean, from = -Infinity, to = Infinity): Steps {
  const out = noSteps();
  const { start, end, value } = steps;
  const n = start.length;
  if (n === 0) return out;
  let p = periodStart(Math.max(start[0] as number, from), months);
  let k = 0;
  while (p <= to) {
    while (k < n && (end[k] as number) <= p) k++;
    if (k === n) break;
    const q = addMonthsToDay(p, months);
    if ((start[k] as number) >= q) {
      // A gap longer than the period: jump to the period of the next step.
      p = periodStart(start[k] as number, months);
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
      push(out, p, q, aggregation === "mean" ? mean : aggregation === "end" ? last : aggregation === "min" ? min : max);
    }
    p = q;
  }
  return out;
}

/**
 * The ratio of two step series, itself a step series: one step for every stretch
 * where both have a value, dated where it begins. A divisor of 0 gives no step.
 */
export function divide(numerator: Steps, divisor: Steps): Steps {
  const out = noSteps();
  let i = 0;
  let j = 0;
  while (i < numerator.start.length && j < divisor.start.length) {
    const lo = Math.max(numerator.start[i] as number, divisor.start[j] as number);
    const hi = Math.min(numerator.end[i] as number, divisor.end[j] as number);
    const d = divisor.value[j] as number;
    if (hi > lo && d !== 0) push(out, lo, hi, (numerator.value[i] as number) / d);
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
 * Values in money of the deflator's base month: × base / the index of the step's
 * month, or with `months` (a frequency), / the mean index of the period's months.
 * A step whose month (or one of its period's months) has no index has none.
 */
export function deflate(steps: Steps, deflator: Deflator, months: number | null): Steps {
  const out = noSteps();
  const span = months ?? 1;
  const { sums, missing, first, base } = deflator;
  const count = sums.length - 1;
  for (let k = 0; k < steps.start.length; k++) {
    const a = monthIndex(steps.start[k] as number) - first;
    const b = a + span;
    if (a < 0 || b > count || (missing[b] as number) - (missing[a] as number) > 0) continue;
    const sum = (sums[b] as number) - (sums[a] as number);
    if (sum !== 0) push(out, steps.start[k] as number, steps.end[k] as number, ((steps.value[k] as number) * base * span) / sum);
  }
  return out;
}

/** The day one year before `day` (the day clamped: 29 February → 28 February). */
export function yearBefore(day: number): number {
  return addMonthsToDay(day, -12);
}

/**
 * `units` applied to a step series: each step against the step before it (when
 * that one ends where this one begins), against the value covering the same day a
 * year earlier, or against `base` (for `index`: the value covering the base day,
 * found by the caller). A percentage or an index whose divisor is 0 has no step; a
 * difference from 0 does.
 */
export function applyUnits(steps: Steps, units: Exclude<Units, "level">, base: number): Steps {
  const out = noSteps();
  const { start, end, value } = steps;
  // The step covering the day a year before step k: its index only grows with k.
  let j = 0;
  for (let k = 0; k < start.length; k++) {
    const v = value[k] as number;
    let against: number;
    if (units === "index") against = base;
    else if (units === "change" || units === "percent_change") {
      if (k === 0 || end[k - 1] !== start[k]) continue;
      against = value[k - 1] as number;
    } else {
      const day = yearBefore(start[k] as number);
      while (j < k && (end[j] as number) <= day) j++;
      if (j === k || (start[j] as number) > day) continue;
      against = value[j] as number;
    }
    if (units === "change" || units === "change_a_year_ago") push(out, start[k] as number, end[k] as number, v - against);
    else if (against !== 0) push(out, start[k] as number, end[k] as number, units === "index" ? (100 * v) / against : (100 * (v - against)) / against);
  }
  return out;
}

/**
 * A derived value as the API writes it: rounded once to `DERIVED_DIGITS`
 * significant digits, as the shortest JSON number of the rounded value (what
 * `String(Number(x.toPrecision(8)))` gives, without its second conversion: the
 * trailing zeros of `toPrecision` are dropped). `null` when not finite.
 */
export function derivedText(value: number): string | null {
  if (!Number.isFinite(value)) return null;
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
