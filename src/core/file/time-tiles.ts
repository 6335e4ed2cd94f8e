/**
 * Time tiles: an indicator's answers cut by time as well, for a day across many
 * sub-series (`at`). The shards (src/core/file/answer-index.ts) hold runs of whole
 * sub-series, so `at` over every sub-series reads every shard: the whole
 * indicator, for one point of each. A tile holds every sub-series over a stretch
 * of time instead, and such a question reads one tile.
 *
 * Tile `t` answers the days from `starts[t]` to the next tile's start (the first
 * also every day before it, the last every day after). It holds, of every
 * sub-series, its points of those days, the newest point before them (what a day
 * of the tile may carry from before) and the oldest after them (what ends a
 * point's coverage): a run of consecutive ranks, so the rule of coverage
 * (src/core/time/coverage.ts) reads in the tile, for any day of it, the point, its
 * newer neighbour and whether it is the newest that it reads in the whole
 * sub-series. A tile is an answer file (src/core/file/answers.ts) of those points:
 * the answer is the same bytes.
 *
 * An indicator has tiles when its answers take more than one shard. Each tile
 * carries up to two points of every sub-series besides its own days, so a tile
 * aims at `max(target, 2 × that carry)` bytes: its own days hold at least as
 * many points as the carry, and the tiles together at most twice the answers'.
 * (Three times the carry was measured: a day across 10,000 sub-series of 1M
 * points read 7.8 MB instead of 5.2, for tiles of 1.7 times the answers.)
 */
import type { AnswerData } from "./answers.js";
import { MAX_READ_BYTES } from "../answer/contract.js";
import { latestOnOrBefore, type DaySeries } from "../time/coverage.js";
import { partitionPoint } from "../answer/sorted.js";

/** One tile: the first day it answers, and the size of its file. */
export interface TileEntry {
  readonly start: number;
  readonly bytes: number;
}

/**
 * The first day of each tile of `data` (the whole indicator's answers, whose
 * `publications` are its publication days, ascending), each tile as close to
 * `targetBytes` as whole publication days allow; none when one tile would hold
 * everything, or when the smallest tile would be over `mostBytes` (what one
 * request may read: so many sub-series that no tile could be read, and none is
 * written). `bytes`: the answers' size, for the bytes a point takes on average.
 */
export function planTiles(data: AnswerData, publications: Int32Array, bytes: number, targetBytes: number, mostBytes: number = MAX_READ_BYTES): number[] {
  if (data.points === 0 || publications.length < 2) return [];
  const perPoint = bytes / data.points;
  const carry = 2 * data.ids.length;
  if (2 * carry * perPoint > mostBytes) return [];
  // Points of its own days a tile may hold: what `targetBytes` leaves beside the carry, and at least as many as the carry.
  const own = Math.max(Math.floor(targetBytes / perPoint) - carry, carry);
  // Points per publication day, oldest first (the answer order is date descending).
  const onDay = new Uint32Array(publications.length);
  for (let g = data.points - 1, p = 0; g >= 0; g--) {
    const day = data.global.day(g);
    while ((publications[p] as number) < day) p++;
    onDay[p] = (onDay[p] as number) + 1;
  }
  const starts = [publications[0] as number];
  let held = 0;
  publications.forEach((day, p) => {
    const points = onDay[p] as number;
    if (held > 0 && held + points > own) {
      starts.push(day);
      held = 0;
    }
    held += points;
  });
  return starts.length < 2 ? [] : starts;
}

/** The ranks `from … to - 1` of `series` (days newest first) that the tile of the days `start … end - 1` holds. */
export function tileRanks(series: DaySeries, start: number, end: number): readonly [number, number] {
  // The newest point before the tile's end: the one after it (one rank newer) ends its coverage.
  const last = latestOnOrBefore(series, end - 1);
  const from = last < 0 ? series.length - 1 : Math.max(last - 1, 0);
  const before = latestOnOrBefore(series, start - 1);
  return [from, before < 0 ? series.length : before + 1];
}

/** The tile answering day `day`: the last whose start is not after it (the first for a day before every start). */
export function tileOf(tiles: readonly { readonly start: number }[], day: number): number {
  return partitionPoint(1, tiles.length, (t) => (tiles[t] as { start: number }).start <= day) - 1;
}
