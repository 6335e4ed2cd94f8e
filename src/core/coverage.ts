/**
 * The rule of coverage: which days a point speaks for. One home, in day numbers
 * (days since 1970-01-01, src/core/dates.ts), for the API's `at` and questions
 * about time (src/core/page.ts, src/core/derive.ts), the pages' cards, answers and
 * gaps (src/site/client/series-view.ts), which call it through the wrappers on
 * `YYYY-MM-DD` dates at the end of this file.
 *
 * A point covers the days from its date until the earliest of: the next point of
 * its sub-series; the date its next point was due (one rhythm later, or for an
 * irregular indicator the indicator's next publication); and the end of the data's
 * version (nothing is known to be in force after it). For a periodic indicator (an
 * index of a month) this is exactly the period the point refers to. A day covered
 * by no point has no value: no estimate, no interpolation.
 *
 * Ends are exclusive: a coverage `[start, end)` ends the day before `end`.
 */
import { addMonthsToDay, dateOfDay, dayNumber } from "./dates.js";
import { byCodeUnits } from "./order.js";

/**
 * How often an indicator's points come: "irregular" when it has no fixed rhythm
 * (then a point's successor is due at the indicator's next publication).
 */
export const RHYTHMS = ["daily", "weekly", "monthly", "quarterly", "semiannual", "annual", "irregular"] as const;
export type Rhythm = (typeof RHYTHMS)[number];

const RHYTHM_MONTHS: Readonly<Partial<Record<Rhythm, number>>> = { monthly: 1, quarterly: 3, semiannual: 6, annual: 12 };
const RHYTHM_DAYS: Readonly<Partial<Record<Rhythm, number>>> = { daily: 1, weekly: 7 };

/** Every date that has a point in any of `dates` (each a sub-series' dates, in any order), ascending: the indicator's publications. */
export function publications(dates: Iterable<readonly string[]>): string[] {
  const all = new Set<string>();
  for (const list of dates) for (const date of list) all.add(date);
  return [...all].sort(byCodeUnits);
}

/** The length of a rhythm in calendar months (monthly 1 … annual 12), or undefined when it is counted in days or irregular. */
export function rhythmMonths(rhythm: string): number | undefined {
  return RHYTHM_MONTHS[rhythm as Rhythm];
}

/** For a point's day, the day its successor is due (exclusive end of its coverage by rhythm); null: not known. */
export type NextDueDay = (day: number) => number | null;

/**
 * When the point after one of day `day` is due, in day numbers: one rhythm later,
 * or for an irregular indicator its next publication (`published` ascending day
 * numbers; null after the last).
 */
export function nextDueDayOf(rhythm: string, published: ArrayLike<number>): NextDueDay {
  const months = RHYTHM_MONTHS[rhythm as Rhythm];
  if (months !== undefined) return (day) => addMonthsToDay(day, months);
  const days = RHYTHM_DAYS[rhythm as Rhythm];
  if (days !== undefined) return (day) => day + days;
  return (day) => {
    // Binary search: the first publication after `day`.
    let lo = 0;
    let hi = published.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if ((published[mid] as number) <= day) lo = mid + 1;
      else hi = mid;
    }
    return lo < published.length ? (published[lo] as number) : null;
  };
}

/**
 * The version bound of the rule, as an exclusive end day: the day after the data
 * version date, or after the indicator's newest point when that is later (a value
 * published ahead of the day it takes effect is known to start that day).
 */
export function versionEndDay(versionDate: string, newest: string | null): number {
  return dayNumber(newest !== null && newest > versionDate ? newest : versionDate) + 1;
}

/** What the rule needs of an indicator besides its points. */
export interface CoverageRule {
  /** When a point's successor is due (`nextDueDayOf`). */
  readonly nextDue: NextDueDay;
  /** The exclusive end of everything known (`versionEndDay`); `Infinity` for no such bound. */
  readonly versionEnd: number;
}

/**
 * The rule of an indicator of `rhythm` whose publications (the days any of its
 * sub-series has a point) are `published`, ascending, at the data version dated
 * `versionDate` (`YYYY-MM-DD`).
 */
export function coverageRule(rhythm: string, published: ArrayLike<number>, versionDate: string): CoverageRule {
  const newest = published.length === 0 ? null : dateOfDay(published[published.length - 1] as number);
  return { nextDue: nextDueDayOf(rhythm, published), versionEnd: versionEndDay(versionDate, newest) };
}

/** A sub-series' points as the rule reads them: by rank, newest first (rank 0 = newest), each its day number. */
export interface DaySeries {
  readonly length: number;
  day(rank: number): number;
}

/**
 * The exclusive end day of the coverage of the point of rank `rank`: the earliest
 * of the next point's day, the day the next was due and the version's end
 * (`Infinity` when nothing bounds it).
 */
export function coverageEndDay(series: DaySeries, rank: number, rule: CoverageRule): number {
  let end = rule.versionEnd;
  if (rank > 0) end = Math.min(end, series.day(rank - 1));
  const due = rule.nextDue(series.day(rank));
  return due === null ? end : Math.min(end, due);
}

/** The rank of the newest point on or before day `day`, or -1. */
export function latestOnOrBefore(series: DaySeries, day: number): number {
  // Binary search on descending days: the first rank whose day is <= `day`.
  let lo = 0;
  let hi = series.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (series.day(mid) > day) lo = mid + 1;
    else hi = mid;
  }
  return lo < series.length ? lo : -1;
}

/** The rank of the point covering day `day`, or -1 when none does. */
export function coveringRankDay(series: DaySeries, day: number, rule: CoverageRule): number {
  const rank = latestOnOrBefore(series, day);
  return rank >= 0 && day < coverageEndDay(series, rank, rule) ? rank : -1;
}

// The same on `YYYY-MM-DD` dates, for the site (whose points keep the dates as written).

/** For a point's date, the date its successor is due; null: not known (`NextDueDay` on dates). */
export type NextDue = (date: string) => string | null;

/** `due` on dates. */
export function onDates(due: NextDueDay): NextDue {
  return (date) => {
    const day = due(dayNumber(date));
    return day === null ? null : dateOfDay(day);
  };
}

/** `nextDueDayOf` on dates: `published` ascending. */
export function nextDueOf(rhythm: string, published: readonly string[]): NextDue {
  return onDates(nextDueDayOf(rhythm, published.map(dayNumber)));
}

/** Dates, newest first, as the rule reads them. */
export function daySeries(dates: readonly string[]): DaySeries {
  return { length: dates.length, day: (rank) => dayNumber(dates[rank] as string) };
}

/** The rank of the point covering the day `date` (newest-first `dates`), or -1 when none does (`coveringRankDay`). */
export function coveringRank(dates: readonly string[], date: string, rule: CoverageRule): number {
  return coveringRankDay(daySeries(dates), dayNumber(date), rule);
}

/** A missing stretch of a sub-series: the dates of the points on either side. */
export interface Gap {
  readonly series: string;
  readonly after: string;
  readonly before: string;
}

/** The gaps of one sub-series: consecutive points (`dates` ascending) farther apart than `nextDue` allows. */
export function gapsBetween(series: string, dates: readonly string[], nextDue: NextDue): Gap[] {
  const gaps: Gap[] = [];
  for (let k = 0; k + 1 < dates.length; k++) {
    const [after, before] = [dates[k] as string, dates[k + 1] as string];
    const due = nextDue(after);
    if (due !== null && before > due) gaps.push({ series, after, before });
  }
  return gaps;
}
