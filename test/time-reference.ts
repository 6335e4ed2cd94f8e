/**
 * An independent reference for the questions about time (docs/time.md), written from its rules and separately from src/core/time/derive.ts:
 * dates stay `YYYY-MM-DD` strings moved with `Date.UTC`, a frequency walks every
 * day of every period, a ratio walks every day of both series. Slow and plain on
 * purpose; tests compare the API with it (and test/python/time_oracle.py, pandas,
 * checks the same through workerd).
 */
import type { RefIndicator } from "./reference.js";

/** What the rule of coverage needs beyond the points. */
export interface TimeRefIndicator extends RefIndicator {
  readonly rhythm: string;
  readonly stepwise: boolean;
  /** The data version date (`YYYY-MM-DD`, UTC) of `Last-Modified`: the last check when none later is declared. */
  readonly version: string;
  /** The dates of `schedule` in indicator.json (docs/data.md); absent: none declared. */
  readonly schedule?: "daily" | "irregular" | { readonly months: readonly number[]; readonly day: number };
}

/** A value with the days it covers, `[start, end)`; `id` tells apart steps of equal value. */
interface Step {
  readonly start: string;
  readonly end: string;
  readonly value: number;
  readonly id: string;
}

const DAY = 86_400_000;
const parseDay = (date: string) => Date.UTC(Number(date.slice(0, 4)), Number(date.slice(5, 7)) - 1, Number(date.slice(8, 10)));
const iso = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const following = new Map<string, string>();
/** The day after `date` (remembered: the reference walks the same days again and again). */
function nextDay(date: string): string {
  let next = following.get(date);
  if (next === undefined) {
    next = iso(parseDay(date) + DAY);
    following.set(date, next);
  }
  return next;
}
const monthOf = (date: string) => date.slice(0, 7);

/** `date` + `n` calendar months, the day clamped to the month's length. */
function plusMonths(date: string, n: number): string {
  const y = Number(date.slice(0, 4));
  const m = Number(date.slice(5, 7)) - 1 + n;
  const target = new Date(Date.UTC(y, m, 1));
  const last = new Date(Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0)).getUTCDate();
  target.setUTCDate(Math.min(Number(date.slice(8, 10)), last));
  return iso(target.getTime());
}

const RHYTHM: Record<string, { months?: number; days?: number }> = {
  daily: { days: 1 },
  weekly: { days: 7 },
  monthly: { months: 1 },
  quarterly: { months: 3 },
  semiannual: { months: 6 },
  annual: { months: 12 },
};

/** The steps of one sub-series by the rule of coverage. */
export function refLevelSteps(ind: TimeRefIndicator, series: string): Step[] {
  const points = ind.points.filter((p) => p.series === series).sort((a, b) => (a.date < b.date ? -1 : 1));
  const publications = [...new Set(ind.points.map((p) => p.date))].sort();
  const newest = publications[publications.length - 1] ?? ind.version;
  const versionEnd = nextDay(newest > ind.version ? newest : ind.version);
  const rhythm = RHYTHM[ind.rhythm];
  return points
    .map((p, i) => {
      const due =
        rhythm?.months !== undefined
          ? plusMonths(p.date, rhythm.months)
          : rhythm?.days !== undefined
            ? iso(parseDay(p.date) + rhythm.days * DAY)
            : (publications.find((d) => d > p.date) ?? null);
      const ends = [points[i + 1]?.date ?? null, due, versionEnd].filter((d): d is string => d !== null).sort();
      return { start: p.date, end: ends[0] as string, value: Number(p.raw), id: `${series}@${p.date}` };
    })
    .filter((s) => s.end > s.start);
}

/** Each day of a step series with its step: the series expanded to days, as a daily table would hold it. */
const expanded = new WeakMap<readonly Step[], Map<string, Step>>();

/** The step covering `day`. */
function covering(steps: readonly Step[], day: string): Step | undefined {
  let days = expanded.get(steps);
  if (days === undefined) {
    days = new Map();
    for (const s of steps) for (let d = s.start; d < s.end; d = nextDay(d)) days.set(d, s);
    expanded.set(steps, days);
  }
  return days.get(day);
}

const PERIOD_MONTHS: Record<string, number> = { month: 1, quarter: 3, semester: 6, year: 12 };

/** The first day of the calendar period of `months` months holding `date`. */
function periodOf(date: string, months: number): string {
  const m = Number(date.slice(5, 7)) - 1;
  return `${date.slice(0, 4)}-${String(m - (m % months) + 1).padStart(2, "0")}-01`;
}

/** One value per fully covered period, walking every day. */
function refAggregate(steps: readonly Step[], months: number, aggregation: string, stepwise: boolean): Step[] {
  if (steps.length === 0) return [];
  const out: Step[] = [];
  const last = (steps[steps.length - 1] as Step).end;
  for (let p = periodOf((steps[0] as Step).start, months); p < last; p = plusMonths(p, months)) {
    const q = plusMonths(p, months);
    const daily: number[] = [];
    let whole = true;
    for (let d = p; d < q; d = nextDay(d)) {
      const s = covering(steps, d);
      if (s === undefined) {
        whole = false;
        break;
      }
      daily.push(s.value);
    }
    if (!whole) continue;
    const values = stepwise ? daily : steps.filter((s) => s.start >= p && s.start < q).map((s) => s.value);
    if (values.length === 0) continue;
    const value =
      aggregation === "mean"
        ? values.reduce((a, b) => a + b, 0) / values.length
        : aggregation === "end"
          ? (values[values.length - 1] as number)
          : aggregation === "min"
            ? Math.min(...values)
            : Math.max(...values);
    out.push({ start: p, end: q, value, id: p });
  }
  return out;
}

/** The ratio, walking every day: a new step wherever either side's step changes. */
function refDivide(numerator: readonly Step[], divisor: readonly Step[]): Step[] {
  if (numerator.length === 0 || divisor.length === 0) return [];
  const out: Step[] = [];
  const first = (numerator[0] as Step).start;
  const last = (numerator[numerator.length - 1] as Step).end;
  let open: { start: string; key: string; value: number } | null = null;
  const close = (day: string) => {
    if (open !== null) out.push({ start: open.start, end: day, value: open.value, id: open.key });
    open = null;
  };
  for (let d = first; d < last; d = nextDay(d)) {
    const a = covering(numerator, d);
    const b = covering(divisor, d);
    const key = a === undefined || b === undefined || b.value === 0 ? null : `${a.id}/${b.id}`;
    if (key === null) close(d);
    else if (open === null || open.key !== key) {
      close(d);
      open = { start: d, key, value: (a as Step).value / (b as Step).value };
    }
  }
  close(last);
  return out;
}

/** A query of the time reference, as parsed strings. */
export interface TimeRefQuery {
  readonly series: string;
  readonly at?: string;
  readonly from?: string;
  readonly to?: string;
  readonly frequency?: string;
  readonly aggregation?: string;
  readonly per?: { readonly indicator: TimeRefIndicator; readonly series: string };
  readonly real?: { readonly cpi: TimeRefIndicator; readonly series: string; readonly month: string };
  readonly units?: string;
  readonly base?: string;
}

/** The first date after `date` the schedule dates a value on, or null (irregular, or none declared). */
function refNextScheduled(ind: TimeRefIndicator, date: string): string | null {
  const s = ind.schedule;
  if (s === undefined || s === "irregular") return null;
  if (s === "daily") return nextDay(date);
  // Every month's candidate from the date's month on, the day clamped to the month: the first after `date`.
  for (let k = 0; k <= 24; k++) {
    const first = plusMonths(`${date.slice(0, 8)}01`, k);
    if (!s.months.includes(Number(first.slice(5, 7)))) continue;
    const last = new Date(Date.UTC(Number(first.slice(0, 4)), Number(first.slice(5, 7)), 0)).getUTCDate();
    const day = `${first.slice(0, 8)}${String(Math.min(s.day, last)).padStart(2, "0")}`;
    if (day > date) return day;
  }
  return null;
}

/**
 * `at` alone about a day on or after the rule's version bound (docs/time.md, the
 * last check): a value that holds until the next answers while neither its
 * rhythm nor the schedule has its successor due; a value of a period never.
 */
function refAtAfterCheck(ind: TimeRefIndicator, series: string, at: string): [string, number][] {
  if (!ind.stepwise) return [];
  const steps = refLevelSteps(ind, series);
  const publications = [...new Set(ind.points.map((p) => p.date))].sort();
  const newest = publications[publications.length - 1] ?? ind.version;
  const lastKnown = newest > ind.version ? newest : ind.version;
  const step = steps.find((s) => s.start <= lastKnown && lastKnown < s.end);
  if (step === undefined) return [];
  const rhythm = RHYTHM[ind.rhythm];
  const byRhythm =
    rhythm?.months !== undefined ? plusMonths(step.start, rhythm.months) : rhythm?.days !== undefined ? iso(parseDay(step.start) + rhythm.days * DAY) : null;
  const due = [byRhythm, refNextScheduled(ind, step.start)].filter((d): d is string => d !== null).sort()[0];
  return due === undefined || at < due ? [[step.start, step.value]] : [];
}

/**
 * The derived series of one sub-series, newest first, before `limit`/`offset`:
 * `[date, value]` pairs, or `null` when `units=index` finds nothing at `base`.
 */
export function refDerivedSeries(ind: TimeRefIndicator, q: TimeRefQuery): [string, number][] | null {
  const plain = q.frequency === undefined && q.per === undefined && q.real === undefined && (q.units === undefined || q.units === "level");
  if (q.at !== undefined && plain) {
    const newest = [...ind.points.map((p) => p.date)].sort().at(-1) ?? ind.version;
    if (q.at > (newest > ind.version ? newest : ind.version)) return refAtAfterCheck(ind, q.series, q.at);
  }
  const months = q.frequency === undefined ? null : (PERIOD_MONTHS[q.frequency] as number);
  let steps = refLevelSteps(ind, q.series);
  if (months !== null) steps = refAggregate(steps, months, q.aggregation ?? "mean", ind.stepwise);
  if (q.per !== undefined) {
    let divisor = refLevelSteps(q.per.indicator, q.per.series);
    if (months !== null) divisor = refAggregate(divisor, months, q.aggregation ?? "mean", q.per.indicator.stepwise);
    steps = refDivide(steps, divisor);
  }
  if (q.real !== undefined) {
    const cpi = new Map(q.real.cpi.points.filter((p) => p.series === q.real?.series).map((p) => [monthOf(p.date), Number(p.raw)]));
    const base = cpi.get(q.real.month) as number;
    steps = steps.flatMap((s) => {
      const list = Array.from({ length: months ?? 1 }, (_, i) => cpi.get(monthOf(plusMonths(s.start.slice(0, 8) + "01", i))));
      if (list.some((v) => v === undefined)) return [];
      const mean = (list as number[]).reduce((a, b) => a + b, 0) / list.length;
      return mean === 0 ? [] : [{ ...s, value: (s.value * base) / mean }];
    });
  }
  if (q.units !== undefined && q.units !== "level") {
    const against = (s: Step, i: number): number | undefined => {
      if (q.units === "index") return covering(steps, q.base as string)?.value;
      if (q.units === "change" || q.units === "percent_change") return i > 0 && steps[i - 1]?.end === s.start ? steps[i - 1]?.value : undefined;
      return covering(steps, plusMonths(s.start, -12))?.value;
    };
    if (q.units === "index" && covering(steps, q.base as string) === undefined) return null;
    steps = steps.flatMap((s, i) => {
      const w = against(s, i);
      if (w === undefined) return [];
      if (q.units === "change" || q.units === "change_a_year_ago") return [{ ...s, value: s.value - w }];
      if (w === 0) return [];
      return [{ ...s, value: q.units === "index" ? (100 * s.value) / w : (100 * (s.value - w)) / w }];
    });
  }
  const windowed = q.at !== undefined ? steps.filter((s) => s.start <= (q.at as string) && (q.at as string) < s.end) : steps.filter((s) => (q.from === undefined || s.start >= q.from) && (q.to === undefined || s.start <= q.to));
  return windowed.filter((s) => Number.isFinite(s.value)).reverse().map((s) => [s.start, s.value]);
}
