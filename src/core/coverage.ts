/**
 * The rule of coverage: which days a point speaks for. One home, used by the site
 * (cards, gaps in charts) and, next, by the API's questions about time.
 *
 * A point covers the days from its date until the earliest of: the next point of
 * its sub-series; the date its next point was due (one rhythm later, or for an
 * irregular indicator the indicator's next publication); and the end of the data's
 * version (nothing is known to be in force after it). For a periodic indicator (an
 * index of a month) this is exactly the period the point refers to. A day covered
 * by no point has no value: no estimate, no interpolation.
 *
 * Dates are `YYYY-MM-DD` strings (src/core/dates.ts): their order is the calendar's.
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

/** For a point's date, the date its successor is due (exclusive end of its coverage by rhythm); null: not known. */
export type NextDue = (date: string) => string | null;

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

/** The same as `NextDue`, in day numbers (days since 1970-01-01). */
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
 * When the point after one dated `date` is due: one rhythm later, or for an
 * irregular indicator its next publication (`published` ascending; null after the last).
 */
export function nextDueOf(rhythm: string, published: readonly string[]): NextDue {
  const due = nextDueDayOf(rhythm, published.map(dayNumber));
  return (date) => {
    const day = due(dayNumber(date));
    return day === null ? null : dateOfDay(day);
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

/** The rank (in newest-first `dates`) of the newest point dated on or before `date`, or -1. */
export function latestOnOrBefore(dates: readonly string[], date: string): number {
  // Binary search on descending dates: the first rank whose date is <= `date`.
  let lo = 0;
  let hi = dates.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((dates[mid] as string) > date) lo = mid + 1;
    else hi = mid;
  }
  return lo < dates.length ? lo : -1;
}

/**
 * The exclusive end of the coverage of the point of rank `rank` (in newest-first
 * `dates`): the earliest of the next point, the date it was due and `versionEnd`
 * (the day after the data's version date; null for no such bound). Null when
 * nothing bounds it.
 */
export function coverageEnd(dates: readonly string[], rank: number, nextDue: NextDue, versionEnd: string | null): string | null {
  const ends = [rank > 0 ? (dates[rank - 1] as string) : null, nextDue(dates[rank] as string), versionEnd].filter((d): d is string => d !== null);
  return ends.length === 0 ? null : ends.reduce((a, b) => (b < a ? b : a));
}

/** The rank of the point covering the day `date` (newest-first `dates`), or -1 when none does. */
export function coveringRank(dates: readonly string[], date: string, nextDue: NextDue, versionEnd: string | null): number {
  const rank = latestOnOrBefore(dates, date);
  if (rank < 0) return -1;
  const end = coverageEnd(dates, rank, nextDue, versionEnd);
  return end === null || date < end ? rank : -1;
}

