/**
 * The pager: which points of a dataset a query selects.
 *
 * `limit` and `offset` apply to each sub-series separately (docs/DESIGN.md §2): a page holds,
 * for every sub-series, its points ranked `offset+1 … offset+limit` (newest = rank 1)
 * within the window `[from, to]`. Each sub-series is sorted newest first, so its
 * window is found with two binary searches and the page is a slice: no full scan.
 */
import { absenceDay, answeringRankDay, latestOnOrBefore, type Absence, type CoverageRule } from "../time/coverage.js";
import { dateOfDay, dayNumber } from "../time/dates.js";
import type { PageQuery, SeriesIndex } from "../indicator/model.js";
import type { Look } from "../time/schedule.js";
import { partitionPoint } from "./sorted.js";
import { DAY_OR_NULL, closedObject, type JsonSchema } from "./schema.js";

/** The points of one sub-series that a page holds: ranks `start` to `end - 1`. */
export interface SeriesSlice<S extends SeriesIndex = SeriesIndex> {
  readonly series: S;
  readonly start: number;
  readonly end: number;
}

/** What `meta` says of a page besides the query's echo. */
export interface PageSummary {
  readonly query: PageQuery;
  /** Points in the window, all sub-series, before limit/offset. */
  readonly total: number;
  /** Some sub-series has points in the window beyond `offset + limit`. */
  readonly hasMore: boolean;
  /** An `at` answer's word on the last check and on what is missing (`AtNotes`); absent: nothing to say. */
  readonly notes?: AtNotes;
}

/** Selected sub-series without a point for the same reason (src/core/time/coverage.ts `Absence`, dates as `YYYY-MM-DD`). */
export interface MissingGroup {
  readonly reason: Absence["reason"];
  readonly last: string | null;
  readonly due: string | null;
  readonly series: readonly string[];
}

/** The schema of a `MissingGroup` as `meta.missing` writes it (a function: a bundle that writes no answer leaves it out). */
export function missingGroupSchema(): JsonSchema {
  return closedObject({
    reason: {
      schema: {
        type: "string",
        enum: ["before_first", "overdue", "pending", "ended"] satisfies MissingGroup["reason"][],
        description:
          "`before_first`: the day is before its first point; `overdue`: the value after `last` was due on `due`, on or before the last check, and is not in the data; `pending`: it is due on `due` (null: no date set), after the last check; `ended`: the sub-series' last value is dated `last` and the indicator has since published its successor's date (due on `due`) without it (nothing is awaited).",
      },
    },
    last: { schema: { ...DAY_OR_NULL, description: "The date of the sub-series' last point on or before the day." } },
    due: { schema: { ...DAY_OR_NULL, description: "When the value missing was (or is) due." } },
    series: { schema: { type: "array", items: { type: "string" } } },
  });
}

/**
 * What an `at` answer says besides its points (`meta.checked`, `meta.missing`):
 * about a day after the last check, that check's date and why each selected
 * sub-series without a point has none; about an earlier day, the reasons only
 * when no sub-series has a point. Never a silent empty answer.
 */
export interface AtNotes {
  /** When the day asked is after the last look: the recorded check's day (null: none recorded) and the last change of points; else null. */
  readonly after: Look | null;
  readonly missing: readonly MissingGroup[];
}

/** A selected page, before it is rendered to bytes. */
export interface Page<S extends SeriesIndex = SeriesIndex> extends PageSummary {
  /** The slices in sub-series id order. */
  readonly slices: readonly SeriesSlice<S>[];
}

/** First rank `i` of the newest-first `series` with `day(i) <= day` (or its length). */
export function firstAtOrBefore(series: SeriesIndex, day: number): number {
  // The binary search of the rule of coverage (src/core/time/coverage.ts), which answers -1 for none.
  const rank = latestOnOrBefore(series, day);
  return rank < 0 ? series.length : rank;
}

/** First rank `i` of the newest-first `series` with `day(i) < day` (or its length). */
export function firstBefore(series: SeriesIndex, day: number): number {
  return partitionPoint(0, series.length, (i) => series.day(i) >= day);
}

/**
 * The points of an indicator in the API's order (date descending, then
 * sub-series ascending), by position: a date window is one range of positions.
 */
export interface GlobalIndex {
  readonly points: number;
  /** Day number, sub-series index and rank in its sub-series of the point at position `g`. */
  day(g: number): number;
  series(g: number): number;
  rank(g: number): number;
}

/** First position of the descending global order with `day(g) <= day`, or with `day(g) < day` when `strict`. */
function globalBound(global: GlobalIndex, day: number, strict: boolean): number {
  return partitionPoint(0, global.points, strict ? (g) => global.day(g) >= day : (g) => global.day(g) > day);
}

/**
 * The page of a window from a scan of its range of global positions `[first,
 * end)`: each chosen sub-series' points in the window are counted, and its slice
 * is its window's ranks `offset … offset + limit`.
 */
function scanWindow<S extends SeriesIndex>(
  series: readonly S[],
  query: PageQuery,
  chosen: readonly number[] | null,
  global: GlobalIndex,
  first: number,
  end: number,
): Page<S> {
  const wanted = chosen === null ? null : new Uint8Array(series.length);
  if (wanted !== null && chosen !== null) for (const s of chosen) wanted[s] = 1;
  // Per sub-series: the rank of its first point in the window and how many it has there.
  const firstRank = new Int32Array(series.length).fill(-1);
  const count = new Uint32Array(series.length);
  const touched: number[] = [];
  for (let g = first; g < end; g++) {
    const s = global.series(g);
    if (wanted !== null && wanted[s] !== 1) continue;
    if (firstRank[s] === -1) {
      firstRank[s] = global.rank(g);
      touched.push(s);
    }
    count[s] = (count[s] as number) + 1;
  }
  const slices: SeriesSlice<S>[] = [];
  let total = 0;
  let hasMore = false;
  for (const s of touched.sort((a, b) => a - b)) {
    const n = count[s] as number;
    const windowStart = firstRank[s] as number;
    total += n;
    const start = windowStart + query.offset;
    const stop = Math.min(windowStart + n, start + query.limit);
    if (n > query.offset + query.limit) hasMore = true;
    if (start < stop) slices.push({ series: series[s] as S, start, end: stop });
  }
  return { query, slices, total, hasMore };
}

/**
 * Selects the page that `query` asks of the sub-series `series` (sorted by id):
 * of all of them, or of those at `chosen` (ascending indices: the resolved
 * `series` selection, src/core/answer/selection.ts).
 *
 * With a date window and the indicator's `global` index, when the window holds
 * fewer points than the binary searches per chosen sub-series would take steps,
 * the window's range of positions is scanned instead (a narrow window over tens
 * of thousands of sub-series). Both ways give the same page.
 */
export function selectPage<S extends SeriesIndex>(
  series: readonly S[],
  query: PageQuery,
  chosen: readonly number[] | null = null,
  global: GlobalIndex | null = null,
): Page<S> {
  if (global !== null && (query.from !== null || query.to !== null)) {
    const first = query.to === null ? 0 : globalBound(global, dayNumber(query.to), false);
    const end = query.from === null ? global.points : globalBound(global, dayNumber(query.from), true);
    const candidates = chosen === null ? series.length : chosen.length;
    if (end - first < candidates * 16) return scanWindow(series, query, chosen, global, first, end);
  }
  const slices: SeriesSlice<S>[] = [];
  let total = 0;
  let hasMore = false;
  const to = query.to === null ? null : dayNumber(query.to);
  const from = query.from === null ? null : dayNumber(query.from);
  const count = chosen === null ? series.length : chosen.length;
  for (let j = 0; j < count; j++) {
    const one = series[chosen === null ? j : (chosen[j] as number)] as S;
    const windowStart = to === null ? 0 : firstAtOrBefore(one, to);
    const windowEnd = from === null ? one.length : firstBefore(one, from);
    if (windowEnd <= windowStart) continue;
    total += windowEnd - windowStart;
    const start = windowStart + query.offset;
    const end = Math.min(windowEnd, start + query.limit);
    if (windowEnd > start + query.limit) hasMore = true;
    if (start < end) slices.push({ series: one, start, end });
  }
  return { query, slices, total, hasMore };
}

/**
 * The largest number of points any sub-series has in the unbounded window: the
 * prebuilt pages of limit `L` are the offsets `0, L, 2L, …` below this number.
 */
export function longestSeries(series: readonly SeriesIndex[]): number {
  let longest = 0;
  for (const one of series) longest = Math.max(longest, one.length);
  return longest;
}

/**
 * The page of `at=DAY` for points as published: each chosen sub-series' one point
 * covering that day by the rule of coverage (src/core/time/coverage.ts `coveringRankDay`).
 * `limit`/`offset` apply as to any page: a sub-series has at most one point.
 */
export function selectAtPage<S extends SeriesIndex>(series: readonly S[], query: PageQuery, chosen: readonly number[] | null, rule: CoverageRule): Page<S> {
  const day = dayNumber(query.at as string);
  const slices: SeriesSlice<S>[] = [];
  const absent: S[] = [];
  let total = 0;
  const count = chosen === null ? series.length : chosen.length;
  for (let j = 0; j < count; j++) {
    const one = series[chosen === null ? j : (chosen[j] as number)] as S;
    const rank = answeringRankDay(one, day, rule);
    if (rank < 0) {
      absent.push(one);
      continue;
    }
    total++;
    if (query.offset === 0) slices.push({ series: one, start: rank, end: rank + 1 });
  }
  // One point per sub-series at most, and limit ≥ 1: never more beyond the page.
  const page = { query, slices, total, hasMore: false };
  const afterCheck = rule.afterCheck !== undefined && day >= rule.versionEnd ? rule.afterCheck : null;
  if (afterCheck === null && total > 0) return page;
  const after = afterCheck === null ? null : (afterCheck.look ?? { checked: null, changed: dateOfDay(afterCheck.checked) });
  return { ...page, notes: { after, missing: missingGroups(absent, day, rule) } };
}

/** The sub-series `absent` grouped by why they have no point on day `day` (in their order, each group where its first member is). */
function missingGroups(absent: readonly SeriesIndex[], day: number, rule: CoverageRule): MissingGroup[] {
  const groups = new Map<string, { reason: Absence["reason"]; last: string | null; due: string | null; series: string[] }>();
  for (const one of absent) {
    const a = absenceDay(one, day, rule);
    const last = a.last === null ? null : dateOfDay(a.last);
    const due = a.due === null ? null : dateOfDay(a.due);
    const key = `${a.reason} ${last} ${due}`;
    const group = groups.get(key);
    if (group === undefined) groups.set(key, { reason: a.reason, last, due, series: [one.id] });
    else group.series.push(one.id);
  }
  return [...groups.values()];
}
