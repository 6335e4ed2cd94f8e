/**
 * The pager: which points of a dataset a query selects.
 *
 * `limit` and `offset` apply to each sub-series separately (docs/DESIGN.md §2): a page holds,
 * for every sub-series, its points ranked `offset+1 … offset+limit` (newest = rank 1)
 * within the window `[from, to]`. Each sub-series is sorted newest first, so its
 * window is found with two binary searches and the page is a slice: no full scan.
 */
import { dayNumber } from "./dates.js";
import type { PageQuery, SeriesIndex } from "./model.js";

/** The points of one sub-series that a page holds: ranks `start` to `end - 1`. */
export interface SeriesSlice<S extends SeriesIndex = SeriesIndex> {
  readonly series: S;
  readonly start: number;
  readonly end: number;
}

/** A selected page, before it is rendered to bytes. */
export interface Page<S extends SeriesIndex = SeriesIndex> {
  readonly query: PageQuery;
  /** The slices in sub-series id order. */
  readonly slices: readonly SeriesSlice<S>[];
  /** Points in the window, all sub-series, before limit/offset. */
  readonly total: number;
  /** Some sub-series has points in the window beyond `offset + limit`. */
  readonly hasMore: boolean;
}

/** First rank `i` of the newest-first `series` with `day(i) <= day` (or its length). */
export function firstAtOrBefore(series: SeriesIndex, day: number): number {
  let lo = 0;
  let hi = series.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (series.day(mid) > day) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** First rank `i` of the newest-first `series` with `day(i) < day` (or its length). */
export function firstBefore(series: SeriesIndex, day: number): number {
  let lo = 0;
  let hi = series.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (series.day(mid) >= day) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * Selects the page that `query` asks of the sub-series `series` (sorted by id):
 * of all of them, or of those at `chosen` (ascending indices: the resolved
 * `series` selection, src/core/selection.ts).
 */
export function selectPage<S extends SeriesIndex>(series: readonly S[], query: PageQuery, chosen: readonly number[] | null = null): Page<S> {
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
