/**
 * The pager: which points of a dataset a query selects.
 *
 * `limit` and `offset` apply to each sub-series separately (docs/DESIGN.md §2): a page holds,
 * for every sub-series, its points ranked `offset+1 … offset+limit` (newest = rank 1)
 * within the window `[from, to]`. Each sub-series is sorted newest first, so its
 * window is found with two binary searches and the page is a slice: no full scan.
 */
import { dayNumber } from "./dates.js";
import type { Dataset, PageQuery, SeriesColumns } from "./model.js";

/** The points of one sub-series that a page holds: ranks `start` to `end - 1`. */
export interface SeriesSlice {
  readonly series: SeriesColumns;
  readonly start: number;
  readonly end: number;
}

/** A selected page, before it is rendered to bytes. */
export interface Page {
  readonly dataset: Dataset;
  readonly query: PageQuery;
  readonly slices: readonly SeriesSlice[];
  /** Points in the window, all sub-series, before limit/offset. */
  readonly total: number;
  /** Some sub-series has points in the window beyond `offset + limit`. */
  readonly hasMore: boolean;
}

/** First rank `i` of the newest-first `series` with `day(i) <= day` (or its length). */
export function firstAtOrBefore(series: SeriesColumns, day: number): number {
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
export function firstBefore(series: SeriesColumns, day: number): number {
  let lo = 0;
  let hi = series.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (series.day(mid) >= day) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Selects the page that `query` asks of `dataset`. */
export function selectPage(dataset: Dataset, query: PageQuery): Page {
  const slices: SeriesSlice[] = [];
  let total = 0;
  let hasMore = false;
  const to = query.to === null ? null : dayNumber(query.to);
  const from = query.from === null ? null : dayNumber(query.from);
  for (const series of dataset.series) {
    const windowStart = to === null ? 0 : firstAtOrBefore(series, to);
    const windowEnd = from === null ? series.length : firstBefore(series, from);
    if (windowEnd <= windowStart) continue;
    total += windowEnd - windowStart;
    const start = windowStart + query.offset;
    const end = Math.min(windowEnd, start + query.limit);
    if (windowEnd > start + query.limit) hasMore = true;
    if (start < end) slices.push({ series, start, end });
  }
  return { dataset, query, slices, total, hasMore };
}

/**
 * The largest number of points any sub-series has in the unbounded window: the
 * prebuilt pages of limit `L` are the offsets `0, L, 2L, …` below this number.
 */
export function longestSeries(dataset: Dataset): number {
  let longest = 0;
  for (const series of dataset.series) longest = Math.max(longest, series.length);
  return longest;
}
