/**
 * An indicator's answers in shards: the answer index (`_data/<indicator>.api.bin`)
 * and the shard files it lists (`_data/<indicator>/answers/<k>.bin`), each an
 * answer file (src/core/file/answers.ts) of a run of consecutive sub-series in id order.
 *
 * Why by sub-series: a question names its sub-series (`series`), or asks of all of
 * them; the shards of the named ones hold every point it can read, whatever its
 * dates, so one request reads only the shards of the sub-series it names, and an
 * indicator of any number of sub-series costs a narrow question what one shard
 * costs. The index is what every request of the indicator needs first: its
 * `meta` fields, its sub-series and how many points each has, the days it
 * published on (the rule of coverage's input, src/api/time.ts), and which shard
 * holds which sub-series.
 *
 * The answer order is date descending, then sub-series ascending; a shard holds
 * a run of sub-series, so a page of several shards is their pages merged by date,
 * the shard of the lower ids first on a tie (src/core/answer/render.ts).
 *
 * Layout of the index (a container, src/core/file/container.ts, magic `OSI1`; little-endian):
 *
 *     header (JSON)     the answer fields (`AnswerFields`), and `IndexCounts`
 *     u32 × S           number of points of each sub-series
 *     i32 × P           the days on which any sub-series has a point, ascending
 *     u32 × K           the first sub-series of each shard (the last shard runs to S)
 *     u32 × K           the size of each shard file in bytes
 *     i32 × T           the first day of each time tile (src/core/file/time-tiles.ts; none when T is absent)
 *     u32 × T           the size of each tile file in bytes
 *     I bytes           the sub-series ids, UTF-8, separated by "\n"
 */
import { AnswerSeries, POINT_COLUMN_BYTES, answerFields, textStart, type AnswerData, type AnswerFields } from "./answers.js";
import { createContainer, openContainer, writeColumn } from "./container.js";
import type { GlobalIndex } from "../answer/page.js";
import type { TileEntry } from "./time-tiles.js";
import { partitionPoint } from "../answer/sorted.js";

const MAGIC = "OSI1";

interface IndexCounts {
  /** Sub-series (S), points (N), publication days (P), shards (K) and time tiles (T, absent: none); the byte length of the ids (I). */
  series: number;
  points: number;
  publications: number;
  shards: number;
  tiles?: number;
  idsBytes: number;
}

const sectionSizes = (h: IndexCounts) => [4 * h.series, 4 * h.publications, 4 * h.shards, 4 * h.shards, 4 * (h.tiles ?? 0), 4 * (h.tiles ?? 0)];

/** One shard of an indicator's answers: the sub-series `first … first + count - 1` and the size of its file. */
export interface ShardEntry {
  readonly first: number;
  readonly count: number;
  readonly bytes: number;
}

/** A decoded answer index. */
export interface AnswerIndex extends AnswerFields {
  /** Sub-series sorted by id, and each one's number of points. */
  readonly ids: readonly string[];
  readonly counts: Uint32Array;
  readonly points: number;
  /** The days on which any sub-series has a point, ascending: the publications (src/api/time.ts). */
  readonly publications: Int32Array;
  readonly shards: readonly ShardEntry[];
  /** The time tiles, by their first day (src/core/file/time-tiles.ts); none for an indicator of one shard. */
  readonly tiles: readonly TileEntry[];
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** Encodes the index of `data` (the whole indicator's answers) cut into `shards` and `tiles`. Deterministic. */
export function encodeAnswerIndex(data: AnswerData, shards: readonly ShardEntry[], tiles: readonly TileEntry[] = []): Uint8Array {
  const publications = publicationDays(data);
  const idBytes = encoder.encode(data.ids.join("\n"));
  const counts: IndexCounts = {
    series: data.ids.length,
    points: data.points,
    publications: publications.length,
    shards: shards.length,
    // Left out when none: an index without tiles has the bytes it had before them.
    ...(tiles.length === 0 ? {} : { tiles: tiles.length }),
    idsBytes: idBytes.length,
  };
  const { bytes, view, offsets } = createContainer(MAGIC, { ...answerFields(data), ...counts }, [...sectionSizes(counts), idBytes.length]);
  const [countsAt, publicationsAt, firstsAt, sizesAt, tileStartsAt, tileSizesAt, idsAt] = offsets as [number, number, number, number, number, number, number];
  writeColumn(view, countsAt, data.series.map((one) => one.length));
  writeColumn(view, publicationsAt, publications, true);
  writeColumn(view, firstsAt, shards.map((shard) => shard.first));
  writeColumn(view, sizesAt, shards.map((shard) => shard.bytes));
  writeColumn(view, tileStartsAt, tiles.map((tile) => tile.start), true);
  writeColumn(view, tileSizesAt, tiles.map((tile) => tile.bytes));
  bytes.set(idBytes, idsAt);
  return bytes;
}

/**
 * Decodes an answer index.
 * @throws Error when the bytes are not one.
 */
export function decodeAnswerIndex(input: ArrayBuffer | Uint8Array): AnswerIndex {
  const { bytes, header, offsets } = openContainer<AnswerFields & IndexCounts>(input, MAGIC, "an answer index", sectionSizes);
  const [countsAt, publicationsAt, firstsAt, sizesAt, tileStartsAt, tileSizesAt, idsAt] = offsets as [number, number, number, number, number, number, number];
  if (idsAt + header.idsBytes > bytes.length) throw new Error("not an answer index (truncated)");
  const at = (offset: number) => bytes.byteOffset + offset;
  const shards = shardList(new Uint32Array(bytes.buffer, at(firstsAt), header.shards), new Uint32Array(bytes.buffer, at(sizesAt), header.shards), header.series);
  const tileStarts = new Int32Array(bytes.buffer, at(tileStartsAt), header.tiles ?? 0);
  const tileSizes = new Uint32Array(bytes.buffer, at(tileSizesAt), header.tiles ?? 0);
  return {
    ...answerFields(header),
    ids: header.series === 0 ? [] : decoder.decode(bytes.subarray(idsAt, idsAt + header.idsBytes)).split("\n"),
    counts: new Uint32Array(bytes.buffer, at(countsAt), header.series),
    points: header.points,
    publications: new Int32Array(bytes.buffer, at(publicationsAt), header.publications),
    shards,
    tiles: Array.from(tileStarts, (start, t) => ({ start, bytes: tileSizes[t] as number })),
  };
}

/** The days on which any sub-series of `data` has a point, ascending. */
export function publicationDays(data: { readonly points: number; readonly global: GlobalIndex }): Int32Array {
  const days: number[] = [];
  // The global order is date descending: read it backwards, keeping each day once.
  for (let g = data.points - 1; g >= 0; g--) {
    const day = data.global.day(g);
    if (days.length === 0 || days[days.length - 1] !== day) days.push(day);
  }
  return Int32Array.from(days);
}

/**
 * Cuts the sub-series of `data` into shards of consecutive sub-series, each as
 * close to `targetBytes` as whole sub-series allow (a sub-series larger than it
 * is a shard alone), estimated from the texts each sub-series' points take in
 * the whole answer file.
 */
export function planShards(data: AnswerData, targetBytes: number): ShardEntry[] {
  const textBytes = new Float64Array(data.ids.length);
  for (let g = 0; g < data.points; g++) {
    const s = data.global.series(g);
    textBytes[s] =
      (textBytes[s] as number) +
      POINT_COLUMN_BYTES +
      (data.jsonEnds[g] as number) - textStart(data.jsonEnds, g) +
      (data.csvEnds[g] as number) - textStart(data.csvEnds, g) +
      (data.csvEsEnds[g] as number) - textStart(data.csvEsEnds, g);
  }
  // Each file's size is known once it is encoded (the build records it before writing the index).
  return runsOf(
    data.ids.map((id, s) => (textBytes[s] as number) + 4 + encoder.encode(id).length + 1),
    targetBytes,
  );
}

const NO_DAYS = new Int32Array(0);
const NO_GLOBALS = new Uint32Array(0);
const NO_VALUES = new Float64Array(0);

/**
 * A sub-series whose shard a request did not read: its id and length, nothing
 * else (a past version's, src/core/history/history.ts `versionView`: its id alone, length 0).
 */
export class UnreadSeries extends AnswerSeries {
  constructor(id: string, length: number) {
    // Shared empty arrays: an indicator of 10,000 sub-series has as many of these (three typed arrays each took 10 ms cold).
    super(id, 0, length, NO_DAYS, NO_GLOBALS, NO_VALUES);
  }
  override day(): number {
    throw new Error(`sub-series ${this.id}: its shard was not read`);
  }
  override value(): number {
    throw new Error(`sub-series ${this.id}: its shard was not read`);
  }
  override global(): number {
    throw new Error(`sub-series ${this.id}: its shard was not read`);
  }
  override globalRange(): Uint32Array {
    throw new Error(`sub-series ${this.id}: its shard was not read`);
  }
}

/** A read shard: its decoded answer file and the index of its first sub-series in the indicator. */
export interface AnswerPart {
  readonly data: AnswerData;
  readonly first: number;
}

/**
 * What a request answers from: the indicator's fields and sub-series (those of
 * shards not read are `UnreadSeries`, which the pager never reads: it reads only
 * the chosen ones), its publication days, and the shards read, in id order.
 * `global` is the whole indicator's order when one part holds every sub-series
 * (the pager then scans a narrow window instead of searching each sub-series).
 */
export interface AnswerView extends AnswerFields {
  readonly ids: readonly string[];
  readonly series: readonly AnswerSeries[];
  readonly points: number;
  readonly publications: ArrayLike<number>;
  readonly parts: readonly AnswerPart[];
  readonly global: GlobalIndex | null;
}

const wholeViews = new WeakMap<AnswerData, AnswerView>();

/** A whole answer file (the build's, a past version's) as a view of one part; made once per file. */
export function wholeView(data: AnswerData): AnswerView {
  let view = wholeViews.get(data);
  if (view === undefined) {
    view = { ...answerFields(data), ids: data.ids, series: data.series, points: data.points, publications: publicationDays(data), parts: [{ data, first: 0 }], global: data.global };
    wholeViews.set(data, view);
  }
  return view;
}

/** The view of `index` with the shards `read` (k → its decoded file), in shard order. */
export function shardView(index: AnswerIndex, read: ReadonlyMap<number, AnswerData>): AnswerView {
  const lone = index.shards.length === 1 ? read.get(0) : undefined;
  if (lone !== undefined) return fileView(index, lone);
  // Every sub-series unread (one copy of the stubs' list, no loop over them), then those of the read shards.
  const series = unreadSeries(index).slice();
  const parts: AnswerPart[] = [];
  index.shards.forEach((shard, k) => {
    const data = read.get(k);
    if (data === undefined) return;
    parts.push({ data, first: shard.first });
    data.series.forEach((one, j) => (series[shard.first + j] = one));
  });
  return { ...answerFields(index), ids: index.ids, series, points: index.points, publications: index.publications, parts, global: null };
}

/**
 * The view of `index` from one decoded file of every sub-series: its only shard,
 * or a time tile (src/core/file/time-tiles.ts), whose sub-series hold the points the tile holds.
 */
export function fileView(index: AnswerIndex, data: AnswerData): AnswerView {
  return { ...answerFields(index), ids: index.ids, series: data.series, points: index.points, publications: index.publications, parts: [{ data, first: 0 }], global: data.global };
}

const unreadStubs = new WeakMap<AnswerIndex, readonly AnswerSeries[]>();

/** Every sub-series of `index` as an `UnreadSeries`, made once per index: each view takes those of the shards it did not read. */
function unreadSeries(index: AnswerIndex): readonly AnswerSeries[] {
  let stubs = unreadStubs.get(index);
  if (stubs === undefined) {
    const made: AnswerSeries[] = new Array<AnswerSeries>(index.ids.length);
    for (let s = 0; s < made.length; s++) made[s] = new UnreadSeries(index.ids[s] as string, index.counts[s] as number);
    stubs = made;
    unreadStubs.set(index, stubs);
  }
  return stubs;
}

/** The shards of `index` (an answer index, a history table's) holding the sub-series at `chosen` (ascending indices; `null`: all), ascending. */
export function shardsOf(index: { readonly shards: readonly ShardEntry[] }, chosen: readonly number[] | null): number[] {
  return chosen === null ? index.shards.map((_, k) => k) : shardsHolding(index.shards, chosen);
}

/** Of `shards` (runs of sub-series in order), those holding the sub-series `series` (ascending indices), ascending. */
export function shardsHolding(shards: readonly ShardEntry[], series: Iterable<number>): number[] {
  const out: number[] = [];
  let k = 0;
  for (const s of series) {
    while (k + 1 < shards.length && (shards[k + 1] as ShardEntry).first <= s) k++;
    if (out[out.length - 1] !== k) out.push(k);
  }
  return out;
}

/** The shards a file lists as each one's first sub-series and size (the last runs to the `series`-th). */
export function shardList(firsts: Uint32Array, sizes: Uint32Array, series: number): ShardEntry[] {
  return Array.from(firsts, (first, k) => ({ first, count: (k + 1 < firsts.length ? (firsts[k + 1] as number) : series) - first, bytes: sizes[k] as number }));
}

/**
 * Runs of consecutive sub-series of sizes `bytes` (estimates), each as close to
 * `targetBytes` as whole sub-series allow: a sub-series larger than it is a run
 * alone; no sub-series, one empty run.
 */
export function runsOf(bytes: ArrayLike<number>, targetBytes: number): ShardEntry[] {
  const runs: ShardEntry[] = [];
  let first = 0;
  let size = 0;
  for (let s = 0; s < bytes.length; s++) {
    const own = bytes[s] as number;
    if (s > first && size + own > targetBytes) {
      runs.push({ first, count: s - first, bytes: 0 });
      first = s;
      size = 0;
    }
    size += own;
  }
  if (bytes.length > first || runs.length === 0) runs.push({ first, count: bytes.length - first, bytes: 0 });
  return runs;
}

/** The part of `view` holding sub-series index `s` (a binary search over the parts' first sub-series). */
export function partOf(view: AnswerView, s: number): AnswerPart | undefined {
  const { parts } = view;
  const part = parts[partitionPoint(1, parts.length, (k) => (parts[k] as AnswerPart).first <= s) - 1];
  return part !== undefined && part.first <= s && s < part.first + part.data.series.length ? part : undefined;
}
