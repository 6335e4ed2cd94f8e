/**
 * The rule of coverage: which days a point speaks for. One home, in day numbers
 * (days since 1970-01-01, src/core/time/dates.ts), for the API's `at` and questions
 * about time (src/core/answer/page.ts, src/core/time/derive.ts), the pages' cards, answers and
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
import { byCodeUnits } from "../text/order.js";
import { datedOnOrBefore, dueDayOf, successorDueDay, successorOf, type Look, type Schedule, type Successor } from "./schedule.js";
import { partitionPoint, upperBound } from "../answer/sorted.js";

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
    // The first publication after `day`.
    const next = upperBound(published, day);
    return next < published.length ? (published[next] as number) : null;
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

/**
 * What a question about a day after the last check reads (`answeringRankDay`):
 * the check's day, whether values hold until the next (only such a value is in
 * force after the check) and the indicator's publication schedule (src/core/time/schedule.ts).
 */
export interface AfterCheck {
  /** The rule's bound: the later of the recorded check and the last change of points (src/core/time/schedule.ts `checkedDate`). */
  readonly checked: number;
  /** What the bound is made of, as the API's answer says it (`meta.checked`, `meta.data_changed`); absent where only the bound is known (the pages' rule). */
  readonly look?: Look;
  readonly stepwise: boolean;
  /** When values are due; null: none is (every value may hold on). */
  readonly schedule: Schedule | null;
}

/** What the rule needs of an indicator besides its points. */
export interface CoverageRule {
  /** When a point's successor is due (`nextDueDayOf`). */
  readonly nextDue: NextDueDay;
  /**
   * The exclusive end of everything known (`versionEndDay`): the day after the
   * last check, or after the newest point when that is later; `Infinity` for no such bound.
   */
  readonly versionEnd: number;
  /** Absent: a day after the check has no value (the derived answers' rule). */
  readonly afterCheck?: AfterCheck;
  /** The indicator's newest publication (the newest day any sub-series has a point); absent: not known. */
  readonly newest?: number;
}

/**
 * The rule of an indicator of `rhythm` whose publications (the days any of its
 * sub-series has a point) are `published`, ascending, last looked at on
 * `checkedOn` (`YYYY-MM-DD`: src/core/time/schedule.ts `lookBound`, the later of the
 * recorded check and the last change of points). With `after`, questions about
 * days after it are answered as `answeringRankDay` says.
 */
export function coverageRule(rhythm: string, published: ArrayLike<number>, checkedOn: string, after?: Omit<AfterCheck, "checked">): CoverageRule {
  const newest = published.length === 0 ? null : dateOfDay(published[published.length - 1] as number);
  const rule = {
    nextDue: nextDueDayOf(rhythm, published),
    versionEnd: versionEndDay(checkedOn, newest),
    ...(newest === null ? {} : { newest: dayNumber(newest) }),
  };
  return after === undefined ? rule : { ...rule, afterCheck: { ...after, checked: dayNumber(checkedOn) } };
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
  // Days descend: the first rank whose day is <= `day`.
  const rank = partitionPoint(0, series.length, (i) => series.day(i) > day);
  return rank < series.length ? rank : -1;
}

/** The rank of the point covering day `day`, or -1 when none does. */
export function coveringRankDay(series: DaySeries, day: number, rule: CoverageRule): number {
  const rank = latestOnOrBefore(series, day);
  return rank >= 0 && day < coverageEndDay(series, rank, rule) ? rank : -1;
}

/**
 * The rank of the point that answers "what applies on day `day`?" (the API's
 * `at`, the pages' question), or -1. Up to the last check, the point covering
 * the day. After it, the value in force at the check, as long as its successor
 * was not due by that day (by the rhythm or the schedule, whichever comes
 * first): a value that holds until the next one is known to hold until then. A
 * value of a period (an index of a month) speaks for its period only.
 */
export function answeringRankDay(series: DaySeries, day: number, rule: CoverageRule): number {
  const after = rule.afterCheck;
  if (day < rule.versionEnd || after === undefined) return coveringRankDay(series, day, rule);
  const rank = after.stepwise ? coveringRankDay(series, rule.versionEnd - 1, rule) : -1;
  if (rank < 0) return -1;
  const due = successorDue(series, rank, rule, after);
  return due === null || day < due ? rank : -1;
}

/**
 * When the successor of the point of rank `rank` is due: for a value that holds
 * until the next, by rhythm or schedule, whichever first; for the value of a
 * period, when the next period's is published (its schedule; else the rhythm).
 * Null: never.
 */
function successorDue(series: DaySeries, rank: number, rule: CoverageRule, after: AfterCheck): number | null {
  const byRhythm = rule.nextDue(series.day(rank));
  const bySchedule = after.schedule === null ? null : successorDueDay(after.schedule, series.day(rank));
  if (!after.stepwise && after.schedule !== null) return bySchedule;
  if (byRhythm === null) return bySchedule;
  return bySchedule === null ? byRhythm : Math.min(byRhythm, bySchedule);
}

/**
 * What is expected after a sub-series' newest point, dated day `last`, under
 * `rule`: the one rule of due and overdue (src/core/time/schedule.ts
 * `successorOf`) by the rule's schedule (none without `afterCheck`) else its
 * rhythm, against the indicator's newest publication, at the last look (without
 * `afterCheck`, the day before the version's end).
 */
export function newestSuccessor(rule: CoverageRule, last: number): Successor {
  const after = rule.afterCheck;
  return successorOf(after?.schedule ?? null, rule.nextDue, last, rule.newest ?? -Infinity, after?.checked ?? rule.versionEnd - 1);
}

/**
 * Why no point answers day `day` (`answeringRankDay` is -1): `before_first`, the
 * day is before the sub-series' first point; `overdue`, the value after the one
 * dated `last` was due on `due`, on or before the last check, and is not in the
 * data; `pending`, it is due on `due`, after the last check (not known yet;
 * null: no date is set for it); `ended`, the sub-series' last value is dated
 * `last` and the indicator has published its successor's date (due on `due`)
 * without it: later publications leave it out (a series replaced, a provider
 * gone), so nothing is awaited. After a sub-series' newest point, the rule of
 * "due" decides (src/core/time/schedule.ts `successorOf`, as status.json and the
 * cards). For a value of a period with a schedule, the value pending is the one
 * of the period holding the day.
 */
export interface Absence {
  readonly reason: "before_first" | "overdue" | "pending" | "ended";
  readonly last: number | null;
  readonly due: number | null;
}

/** Why sub-series `series` has no point answering day `day` under `rule` (`Absence`). */
export function absenceDay(series: DaySeries, day: number, rule: CoverageRule): Absence {
  const rank = latestOnOrBefore(series, day);
  if (rank < 0) return { reason: "before_first", last: null, due: null };
  const last = series.day(rank);
  const after = rule.afterCheck;
  let due: number | null;
  if (rank === 0) {
    const successor = newestSuccessor(rule, last);
    if (successor.state === "replaced") return { reason: "ended", last, due: successor.due };
    if (successor.state === "overdue") return { reason: "overdue", last, due: successor.due };
    due = successor.state === "none" ? null : successor.due;
  } else {
    // A gap inside the series: its successor by the rhythm (a value of a period with a schedule: by the schedule).
    due = after !== undefined && after.schedule !== null && !after.stepwise ? successorDue(series, rank, rule, after) : rule.nextDue(last);
    // A due day after the check is not known to be missed: the data says nothing of it yet.
    if (due !== null && due < rule.versionEnd) return { reason: "overdue", last, due };
  }
  if (after !== undefined && after.schedule !== null && !after.stepwise) {
    // Nothing missed by the check: the value of the period holding the day is the one awaited.
    const dated = datedOnOrBefore(after.schedule, day);
    if (dated !== null && dated > last) due = dueDayOf(after.schedule, dated);
  }
  return { reason: "pending", last, due };
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

/** The rank of the point answering the day `date` (newest-first `dates`), or -1 (`answeringRankDay`). */
export function answeringRank(dates: readonly string[], date: string, rule: CoverageRule): number {
  return answeringRankDay(daySeries(dates), dayNumber(date), rule);
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
