/**
 * When an indicator's next value is due: its publication schedule, declared in
 * `indicator.json` (`schedule`, docs/data.md), never guessed from its past; an
 * indicator that declares none has its successors by its declared rhythm. The
 * one rule of "due" and "overdue" (`successorOf`) is here: the API's answers
 * about days after a sub-series' newest point (src/core/time/coverage.ts
 * `absenceDay`), the freshness of every sub-series in the metadata document, the
 * catalog and `status.json` (`freshnessOf`), and the pages' cards read it.
 *
 * A schedule says on which dates values are dated (`dates`: every day, the given
 * day of the given months, or no fixed dates) and, for a value about a period
 * published after it, when that value comes out (`published`: so many months
 * after its date, on a day of the month). A value is due the day it comes out:
 * on its date, or its publication day. Day numbers as in src/core/time/dates.ts.
 */
import { addMonthsToDay, dateOfDay, dayNumber, dayOfCivil, daysInMonth, monthOfDay } from "./dates.js";

/** Who recorded a check: the unattended update, or a person (`npm run check`). */
export const CHECKERS = ["update", "person"] as const;
/** What a check found: points not in the data yet, or none. */
export const CHECK_OUTCOMES = ["new-data", "nothing-new"] as const;

/**
 * A recorded look at the publisher (`check` in indicator.json): the day, who
 * looked, the address read, what it found; the update adds the file's SHA-256
 * and the newest period it held, a person may add a note.
 */
export interface Check {
  readonly day: string;
  readonly by: (typeof CHECKERS)[number];
  readonly read: string;
  readonly outcome: (typeof CHECK_OUTCOMES)[number];
  readonly sha256?: string | undefined;
  readonly newest?: string | undefined;
  readonly note?: string | undefined;
}

/** The dates a value may be dated on: every day, a day of some months, or none fixed. */
export type ScheduleDates = "daily" | "irregular" | { readonly months: readonly number[]; readonly day: number };

export interface Schedule {
  readonly dates: ScheduleDates;
  /** A value dated in a month comes out `monthsAfter` months later, on `day` of that month; null: on its date. */
  readonly published: { readonly monthsAfter: number; readonly day: number } | null;
}

/** The first scheduled date strictly after day `day`, or null when the dates are irregular. */
export function nextDatedDay(schedule: Schedule, day: number): number | null {
  const { dates } = schedule;
  if (dates === "irregular") return null;
  if (dates === "daily") return day + 1;
  const month = monthOfDay(day);
  // The months are at most 12 apart: two years of candidates always hold the next one.
  for (let k = 0; k <= 24; k++) {
    const m = month + k;
    const year = Math.floor(m / 12);
    const calendarMonth = m - year * 12 + 1;
    if (!dates.months.includes(calendarMonth)) continue;
    const candidate = dayOfCivil(year, calendarMonth, Math.min(dates.day, daysInMonth(year, calendarMonth)));
    if (candidate > day) return candidate;
  }
  return null;
}

/** The newest scheduled date on or before day `day` (the value of the period holding it), or null when the dates are irregular. */
export function datedOnOrBefore(schedule: Schedule, day: number): number | null {
  const { dates } = schedule;
  if (dates === "irregular") return null;
  if (dates === "daily") return day;
  // The next scheduled date after a day two years back, then on while it stays on or before `day`.
  let found: number | null = null;
  let d = nextDatedDay(schedule, addMonthsToDay(day, -25));
  while (d !== null && d <= day) {
    found = d;
    d = nextDatedDay(schedule, d);
  }
  return found;
}

/** The day a value dated day `dated` is due: its date, or its publication day. */
export function dueDayOf(schedule: Schedule, dated: number): number {
  const { published } = schedule;
  if (published === null) return dated;
  const month = monthOfDay(dated) + published.monthsAfter;
  const year = Math.floor(month / 12);
  const m = month - year * 12 + 1;
  return dayOfCivil(year, m, Math.min(published.day, daysInMonth(year, m)));
}

/** When the successor of a value dated day `day` is due, or null: no date is due (irregular). */
export function successorDueDay(schedule: Schedule, day: number): number | null {
  const next = nextDatedDay(schedule, day);
  return next === null ? null : dueDayOf(schedule, next);
}

/**
 * What is expected of the value after a sub-series' newest one (`successorOf`):
 * `none`, nothing (no date is set for it); `replaced`, the indicator has
 * published the successor's date without it (a series replaced, a provider
 * gone), so nothing is awaited; `pending`, it is due on `due`, after the last
 * look; `overdue`, it was due on `due`, on or before the last look, and is not
 * in the data. `dated` is the successor's date, `due` the day it comes out.
 */
export type Successor = { readonly state: "none" } | { readonly state: "replaced" | "pending" | "overdue"; readonly dated: number; readonly due: number };

const NOTHING_EXPECTED: Successor = { state: "none" };

/**
 * The one rule of "due" and "overdue": what is expected after the newest value
 * of a sub-series, dated day `last`, in an indicator whose newest point is dated
 * day `newest`, looked at on day `look` (the last look, `lookBound`, or today).
 * status.json and every freshness surface (`freshnessOf`), the API's
 * `meta.missing` after a sub-series' newest point
 * (src/core/time/coverage.ts `absenceDay`) and the pages' cards
 * (src/site/client/series-view.ts `standingOf`) all ask it, so they never disagree.
 *
 * The successor's date: with a schedule of fixed dates, the next scheduled date
 * after `last`; with none declared, one rhythm later (`byRhythm`, for a point's
 * day its successor's by the rhythm: src/core/time/coverage.ts `nextDueDayOf`;
 * for an irregular rhythm, the indicator's next publication after `last`). When that
 * date is on or before `newest`, later publications left the sub-series out:
 * replaced, never overdue. Otherwise it is due on its publication day (the
 * schedule's `published`, else its date): overdue when that day is on or before
 * `look`, pending after it.
 *
 * A schedule of no fixed dates (`irregular`) sets no date, so nothing is ever
 * due; the rhythm's successor still tells a sub-series the indicator has since
 * published without (for an irregular rhythm, any later publication): replaced.
 */
export function successorOf(schedule: Schedule | null, byRhythm: (day: number) => number | null, last: number, newest: number, look: number): Successor {
  const fixed = schedule !== null && schedule.dates !== "irregular";
  const dated = fixed ? nextDatedDay(schedule, last) : byRhythm(last);
  if (dated === null) return NOTHING_EXPECTED;
  const due = fixed ? dueDayOf(schedule, dated) : dated;
  if (dated <= newest) return { state: "replaced", dated, due };
  if (schedule !== null && !fixed) return NOTHING_EXPECTED;
  return { state: due <= look ? "overdue" : "pending", dated, due };
}

/** What is known of a sub-series' next value at the last check (`freshnessOf`). */
export interface Freshness {
  /** The sub-series' newest point's date. */
  readonly newest: string;
  /** When its next value is due (`YYYY-MM-DD`); null: none is expected (no date set, or left out of later publications). */
  readonly nextDue: string | null;
  /** True when that day is on or before the last check and the value is not in the data. */
  readonly overdue: boolean;
}

/**
 * The freshness of a sub-series whose newest point is dated `newest`, at the last
 * check `checked`, in an indicator whose newest point is dated `indicatorNewest`,
 * by the schedule (null: none declared) and else the rhythm's successor
 * `byRhythm`: `successorOf` on dates. Nothing is expected of a replaced
 * sub-series, so it is never overdue.
 */
export function freshnessOf(schedule: Schedule | null, byRhythm: (day: number) => number | null, newest: string, checked: string, indicatorNewest: string): Freshness {
  return freshnessFrom(newest, successorOf(schedule, byRhythm, dayNumber(newest), dayNumber(indicatorNewest), dayNumber(checked)));
}

/** The freshness of a sub-series whose newest point is dated `newest`, given what `successorOf` expects after it. */
export function freshnessFrom(newest: string, successor: Successor): Freshness {
  if (successor.state === "none" || successor.state === "replaced") return { newest, nextDue: null, overdue: false };
  return { newest, nextDue: dateOfDay(successor.due), overdue: successor.state === "overdue" };
}

/** An indicator's freshness from its sub-series': its newest point, the earliest next due date, and since when it is overdue (the earliest overdue due date). */
export interface IndicatorFreshness {
  readonly newest: string | null;
  readonly nextDue: string | null;
  readonly overdueSince: string | null;
  /** How many sub-series are overdue. */
  readonly overdueSeries: number;
}

/** The summary of the sub-series' `freshness` (any order). */
export function indicatorFreshness(freshness: readonly Freshness[]): IndicatorFreshness {
  let newest: string | null = null;
  let nextDue: string | null = null;
  let overdueSince: string | null = null;
  let overdueSeries = 0;
  for (const f of freshness) {
    if (newest === null || f.newest > newest) newest = f.newest;
    if (f.nextDue === null) continue;
    if (nextDue === null || f.nextDue < nextDue) nextDue = f.nextDue;
    if (f.overdue) {
      overdueSeries++;
      if (overdueSince === null || f.nextDue < overdueSince) overdueSince = f.nextDue;
    }
  }
  return { newest, nextDue, overdueSince, overdueSeries };
}

/**
 * What is known of how current an indicator is: the day of its last recorded
 * check (`null`: none recorded) and the day its points last changed (the data
 * version that added, revised or removed a point; a commit that changes only
 * metadata, schedules or code is neither).
 */
export interface Look {
  readonly checked: string | null;
  readonly changed: string;
}

/**
 * The day the rule of coverage counts as the last look at the data: the later
 * of the recorded check and the last change of points. A change of points is a
 * maintainer's reading of the data at least as new as what it holds, and the
 * answers about days up to it do not change when a check is older.
 */
export function checkedDate(checked: string | null, changed: string): string {
  return checked !== null && checked > changed ? checked : changed;
}

/** The bound of `look` (`checkedDate`). */
export const lookBound = (look: Look): string => checkedDate(look.checked, look.changed);
