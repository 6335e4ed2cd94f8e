/**
 * The one binary search: where a sorted sequence crosses from the indices "before"
 * a key to the others. Every search of this code over ordered things (days newest
 * first, positions, step starts, publication days, sorted ids, shards and tiles by
 * their first element) asks it, each with its own test of an index; so lower and
 * upper bounds, ascending or descending, are one loop stated once.
 *
 * It allocates nothing and reads nothing but what `before` reads: the Worker answers
 * a query with a few of these per sub-series.
 */

/**
 * The partition point of the indices `from … to - 1`: the first `i` at which
 * `before(i)` is false, or `to` when it holds everywhere. `before` must hold on a
 * prefix of the range and not after it (a sorted sequence tested against one key).
 *
 * For an ascending `a` and a key `x`: the lower bound (first `a[i] >= x`) is
 * `partitionPoint(0, n, (i) => a[i] < x)`, the upper bound (first `a[i] > x`) is
 * `partitionPoint(0, n, (i) => a[i] <= x)`; the last `a[i] <= x` is the upper bound
 * minus one. Over a descending sequence the tests flip (`a[i] > x` finds the first
 * `a[i] <= x`). Works on any integer range, negative day numbers included.
 */
export function partitionPoint(from: number, to: number, before: (i: number) => boolean): number {
  let lo = from;
  let hi = to;
  while (lo < hi) {
    // The midpoint without overflow or sign trouble: lo + ⌊(hi − lo) / 2⌋.
    const mid = lo + ((hi - lo) >>> 1);
    if (before(mid)) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The lower bound of `value` in the ascending `sorted[from … to - 1]`: the first index whose element is `>= value` (or `to`). */
export function lowerBound(sorted: ArrayLike<number>, value: number, from = 0, to = sorted.length): number {
  return partitionPoint(from, to, (i) => (sorted[i] as number) < value);
}

/** The upper bound of `value` in the ascending `sorted[from … to - 1]`: the first index whose element is `> value` (or `to`). */
export function upperBound(sorted: ArrayLike<number>, value: number, from = 0, to = sorted.length): number {
  return partitionPoint(from, to, (i) => (sorted[i] as number) <= value);
}
