/**
 * The history table of an indicator: every data version the service published
 * (`as_of`, docs/api.md), made by the build from the data's git history
 * (src/builder/history.ts). Not a copy of the answers per version: each distinct
 * point (its date, sub-series, value text, source and note) is kept once per
 * stretch of versions it was published in, `[from, to)`, and a version's answer
 * data is the points whose stretch holds it, viewed in place (`versionAnswers`),
 * so the same pager and renderer answer a past version as today's.
 *
 * The table is written in shards (`encodeHistoryShards`), each the table of a
 * run of consecutive sub-series in id order, and an index listing them
 * (`_data/<indicator>.history.bin`, below): as for today's answers
 * (src/core/file/answer-index.ts), a question as of a past day reads only the shards
 * of the sub-series it names, and the table grows with the data without a file
 * over the CDN's limit.
 *
 * Layout of a shard (a container, src/core/file/container.ts, magic `OSH1`; little-endian):
 *
 *     header (JSON)     the versions, oldest first (`HistoryVersion`; their sub-series as runs,
 *                       `StoredVersion`), and the number of entries N
 *     u32 × N           from: the first version each entry is in
 *     u32 × N           to: the first version it is no longer in (the number of versions: still in)
 *     the rest          the entries as an answer file (src/core/file/answers.ts), in its global
 *                       order (date descending, sub-series ascending, then `from`)
 */
import { UnreadSeries, runsOf, shardList, shardsHolding, type AnswerPart, type AnswerView, type ShardEntry } from "../file/answer-index.js";
import { answerFields, decodeAnswers, encodeAnswers, globalIndex, textStart, AnswerSeries, type AnswerData, type AnswerFields, type AnswerRow } from "../file/answers.js";
import { createContainer, openContainer, writeColumn } from "../file/container.js";
import { dateOfDay, dayNumber, dayOfTime } from "../time/dates.js";
import { byCodeUnits } from "../text/order.js";
import type { Schedule } from "../time/schedule.js";

const MAGIC = "OSH1";

/**
 * The bound the rule of coverage puts on a version's newest points: the day of
 * the last recorded check in the version's `indicator.json` (`check.day`), and the
 * day its points last changed (src/core/time/schedule.ts `Look`), the later of the two;
 * and the version time, its answers' `Last-Modified`.
 */
export interface VersionBound {
  /** The data version time a build of this version has (src/source/version.ts), seconds since the epoch. */
  readonly time: number;
  readonly checked: string | null;
  /** The day of the version that last changed its points (this one's, or an earlier one's when it changed only metadata). */
  readonly changed: string;
}

/** One published version of an indicator. */
export interface HistoryVersion {
  /** The commit of the published branch it landed with; `null` for data not committed (the build's working tree). */
  readonly commit: string | null;
  /** When it was published: that commit's time (seconds since the epoch); its UTC day is the version's day. */
  readonly published: number;
  readonly bound: VersionBound;
  /** What its `indicator.json` said, read leniently (src/source/load.ts `pointsOnlyMeta`). */
  readonly unit: string;
  readonly rhythm: string;
  readonly stepwise: boolean;
  /** When its values were due (`schedule`, src/core/time/schedule.ts), `null` when it declared none or does not validate today. */
  readonly schedule: Schedule | null;
  /** Its sub-series, as indices into the table's ids (ascending: sorted by id). */
  readonly series: readonly number[];
}

/** A point of the table with the versions it was published in, `[from, to)`. */
export interface HistoryEntry extends AnswerRow {
  readonly from: number;
  readonly to: number;
}

interface Header {
  readonly versions: readonly StoredVersion[];
  readonly entries: number;
}

/**
 * A version as a file's header stores it: its sub-series as runs `[first, count]`
 * of consecutive indices. Most versions hold one or a few runs, so a header grows
 * by a few bytes a version, not by a number per sub-series (8 KB a version for the
 * health insurance prices' 1,554).
 */
type StoredVersion = Omit<HistoryVersion, "series"> & { readonly series: readonly (readonly [number, number])[] };

function storedVersion({ series, ...rest }: HistoryVersion): StoredVersion {
  const runs: [number, number][] = [];
  for (const s of series) {
    const last = runs[runs.length - 1];
    if (last !== undefined && last[0] + last[1] === s) last[1]++;
    else runs.push([s, 1]);
  }
  return { ...rest, series: runs };
}

/** A stored version as the code reads it: its sub-series listed when first asked (a question reads one version's). */
function loadedVersion({ series: runs, ...rest }: StoredVersion): HistoryVersion {
  let series: number[] | undefined;
  return {
    ...rest,
    get series(): readonly number[] {
      if (series === undefined) {
        series = [];
        for (const [first, count] of runs) for (let s = first; s < first + count; s++) series.push(s);
      }
      return series;
    },
  };
}

/** A decoded history table. */
export interface HistoryData {
  readonly versions: readonly HistoryVersion[];
  /** Every entry, as answer data (never answered as it is: entries of several versions share dates). */
  readonly union: AnswerData;
  readonly from: Uint32Array;
  readonly to: Uint32Array;
}

/** A version's day: the UTC day of its publication (docs/api.md says why UTC). */
export function versionDay(version: HistoryVersion): string {
  return dayOfTime(version.published);
}

/** The entries in the table's order: the answer file's global order, then by version. */
function byEntry(a: HistoryEntry, b: HistoryEntry): number {
  return byCodeUnits(b.date, a.date) || byCodeUnits(a.series, b.series) || a.from - b.from;
}

/**
 * What a history table is made of: `fields` are the current version's (the
 * table's own answer file is never answered as it is); `ids` every sub-series of
 * any version, sorted; its versions and entries; `csvLine`, `csvEsLine` as `encodeAnswers`'.
 */
export interface HistoryContents {
  readonly fields: AnswerFields;
  readonly ids: readonly string[];
  readonly versions: readonly HistoryVersion[];
  readonly entries: readonly HistoryEntry[];
  readonly csvLine: (row: AnswerRow) => string;
  readonly csvEsLine: (row: AnswerRow) => string;
}

/** Encodes a history table. Deterministic. */
export function encodeHistory({ fields, ids, versions, entries, csvLine, csvEsLine }: HistoryContents): Uint8Array {
  const sorted = [...entries].sort(byEntry);
  // encodeAnswers sorts stably by date and sub-series: the order above stays.
  const union = encodeAnswers(fields, ids, sorted, csvLine, csvEsLine);
  const header: Header = { versions: versions.map(storedVersion), entries: sorted.length };
  const { bytes, view, offsets } = createContainer(MAGIC, header, [4 * sorted.length, 4 * sorted.length, union.length]);
  const [fromOffset, toOffset, unionOffset] = offsets as [number, number, number];
  writeColumn(view, fromOffset, sorted.map((e) => e.from));
  writeColumn(view, toOffset, sorted.map((e) => e.to));
  bytes.set(union, unionOffset);
  return bytes;
}

/**
 * Decodes a history table into views on its bytes.
 * @throws Error when the bytes are not a history table.
 */
export function decodeHistory(input: ArrayBuffer | Uint8Array): HistoryData {
  const { bytes, header, offsets } = openContainer<Header>(input, MAGIC, "a history table", (h) => [4 * h.entries, 4 * h.entries]);
  const [fromOffset, toOffset, unionOffset] = offsets as [number, number, number];
  const n = header.entries;
  return {
    versions: header.versions.map(loadedVersion),
    from: new Uint32Array(bytes.buffer, bytes.byteOffset + fromOffset, n),
    to: new Uint32Array(bytes.buffer, bytes.byteOffset + toOffset, n),
    union: decodeAnswers(bytes.subarray(unionOffset)),
  };
}

/**
 * The version in force at the end of `day` (`YYYY-MM-DD`, UTC), given the days
 * the versions were published (ascending, as the manifest lists them): the last
 * one published on or before it, or -1 when the first was published later.
 */
export function versionOn(days: readonly string[], day: string): number {
  let found = -1;
  days.forEach((d, i) => {
    if (d <= day) found = i;
  });
  return found;
}

/**
 * What is made of a decoded table and kept with it, per table: at most this many
 * versions' answer data (about 50 bytes a point each) and change lists
 * (src/core/history/changes.ts), the oldest made dropped first, so that a table asked of
 * many versions holds a bounded multiple of its size (src/api/data-store.ts counts it).
 */
export const VERSIONS_KEPT = 4;

/**
 * `make()` for `key` of `table` (a decoded table or index), kept in `cache` with
 * at most `most` values of the same table (`VERSIONS_KEPT`), the oldest made dropped first.
 */
export function keptPerTable<O extends object, T>(cache: WeakMap<O, Map<number, T>>, table: O, key: number, make: () => T, most = VERSIONS_KEPT): T {
  let made = cache.get(table);
  if (made === undefined) cache.set(table, (made = new Map<number, T>()));
  let value = made.get(key);
  if (value === undefined) {
    made.set(key, (value = make()));
    for (const old of made.keys()) {
      if (made.size <= most) break;
      made.delete(old);
    }
  }
  return value;
}

const answersOf = new WeakMap<HistoryData, Map<number, AnswerData>>();

/**
 * Version `v`'s answer data: the entries published in it, in the answer file's
 * order, as the build of that version would have encoded them. Nothing is
 * copied but positions: the texts stay in the table (`AnswerData.starts`).
 * Kept with the decoded table (`keptPerTable`).
 */
export function versionAnswers(history: HistoryData, v: number): AnswerData {
  return keptPerTable(answersOf, history, v, () => materialize(history, v));
}

/** The answer fields of a version: the table's (`fields`, the current version's), with what the version's own `indicator.json` said, and its newest point's date. */
function versionFields(fields: AnswerFields, version: HistoryVersion, lastUpdated: string | null): AnswerFields {
  return {
    indicator: fields.indicator,
    unit: version.unit,
    license: fields.license,
    lastUpdated,
    attribution: fields.attribution,
    attributionUrl: fields.attributionUrl,
    rhythm: version.rhythm,
    stepwise: version.stepwise,
    ...(version.bound.checked === null ? {} : { checked: version.bound.checked }),
    changed: version.bound.changed,
    ...(version.schedule === null ? {} : { schedule: version.schedule }),
    // The kinds of source as declared now (the table's): what provenance=true says of a past version's points too.
    ...(fields.sourceKinds === undefined ? {} : { sourceKinds: fields.sourceKinds }),
  };
}

function materialize(history: HistoryData, v: number): AnswerData {
  const { union, from, to } = history;
  const version = history.versions[v];
  if (version === undefined) throw new Error(`no version ${v} in the history of ${union.indicator}`);
  const ids = version.series.map((s) => union.ids[s] as string);
  const local = new Int32Array(union.ids.length).fill(-1);
  version.series.forEach((s, k) => (local[s] = k));

  // The entries of version v, in the global order; their sub-series and ranks.
  const alive: number[] = [];
  for (let g = 0; g < union.points; g++) if ((from[g] as number) <= v && v < (to[g] as number)) alive.push(g);
  const n = alive.length;
  const counts = new Uint32Array(ids.length);
  const seriesOf = new Uint32Array(n);
  const rankOf = new Uint32Array(n);
  alive.forEach((g, k) => {
    const s = local[union.global.series(g)] as number;
    if (s < 0) throw new Error(`${union.indicator}: version ${v} has a point of a sub-series it does not declare`);
    seriesOf[k] = s;
    rankOf[k] = (counts[s] as number)++;
  });
  const starts = new Uint32Array(ids.length);
  for (let s = 1; s < ids.length; s++) starts[s] = (starts[s - 1] as number) + (counts[s - 1] as number);
  const days = new Int32Array(n);
  const globals = new Uint32Array(n);
  const values = new Float64Array(n);
  const textStarts = { json: new Uint32Array(n), csv: new Uint32Array(n), csvEs: new Uint32Array(n) };
  const jsonEnds = new Uint32Array(n);
  const csvEnds = new Uint32Array(n);
  const csvEsEnds = new Uint32Array(n);
  alive.forEach((g, k) => {
    const at = (starts[seriesOf[k] as number] as number) + (rankOf[k] as number);
    const us = union.series[union.global.series(g)] as AnswerSeries;
    days[at] = union.global.day(g);
    globals[at] = k;
    values[at] = us.value(union.global.rank(g));
    textStarts.json[k] = textStart(union.jsonEnds, g);
    textStarts.csv[k] = textStart(union.csvEnds, g);
    textStarts.csvEs[k] = textStart(union.csvEsEnds, g);
    jsonEnds[k] = union.jsonEnds[g] as number;
    csvEnds[k] = union.csvEnds[g] as number;
    csvEsEnds[k] = union.csvEsEnds[g] as number;
  });
  const series = ids.map((id, s) => new AnswerSeries(id, starts[s] as number, counts[s] as number, days, globals, values));
  const global = globalIndex(n, days, starts, seriesOf, rankOf);
  return {
    ...versionFields(union, version, n === 0 ? null : dateOfDay(global.day(0))),
    series,
    ids,
    points: n,
    global,
    json: union.json,
    jsonEnds,
    csv: union.csv,
    csvEnds,
    csvEs: union.csvEs,
    csvEsEnds,
    starts: textStarts,
  };
}

// ---------------------------------------------------------------------------
// The table in shards

/**
 * Layout of the index (a container, magic `OSJ1`; little-endian):
 *
 *     header (JSON)     the current version's answer fields, the versions (`HistoryVersion`,
 *                       their sub-series as runs of indices into the ids below), each version's number of
 *                       points, and the counts of the sections
 *     u32 × K           the first sub-series of each shard (the last runs to S)
 *     u32 × K           the size of each shard file in bytes
 *     i32 × D           the days of the points, ascending, one row per stretch of versions
 *     u32 × D           from: the first version of the stretch in which the day has a point
 *     u32 × D           to: the first version after it
 *     I bytes           the sub-series ids of every version, sorted, UTF-8, separated by "\n"
 *
 * What a question as of version v needs before it reads a shard is here: the
 * version's sub-series (its `series` selects among them), its fields, its number
 * of points, and the days any of its sub-series has a point (the rule of
 * coverage's publications, src/api/time.ts), which the stretches give.
 */
const INDEX_MAGIC = "OSJ1";

type IndexHeader = { readonly fields: AnswerFields; readonly versions: readonly StoredVersion[]; readonly points: readonly number[] } & Readonly<
  /** How many sub-series, shards and day stretches the index holds, and the byte length of its ids. */
  Record<"series" | "shards" | "days" | "idsBytes", number>
>;

const indexSections = (h: IndexHeader) => [4 * h.shards, 4 * h.shards, 4 * h.days, 4 * h.days, 4 * h.days];

/** A decoded history index. */
export interface HistoryIndex {
  /** The current version's answer fields (a past version's differ by what its `indicator.json` said). */
  readonly fields: AnswerFields;
  readonly versions: readonly HistoryVersion[];
  /** Each version's number of points. */
  readonly points: readonly number[];
  /** The sub-series of every version, sorted by id. */
  readonly ids: readonly string[];
  /** The shards: each the table of a run of sub-series (src/core/file/answer-index.ts `ShardEntry`). */
  readonly shards: readonly ShardEntry[];
  /** Each day with a point, ascending, once per stretch `[from, to)` of versions in which it has one. */
  readonly days: Int32Array;
  readonly dayFrom: Uint32Array;
  readonly dayTo: Uint32Array;
}

/** A table in shards: its index and the shard files, in order. */
export interface HistoryFiles {
  readonly index: Uint8Array;
  readonly shards: readonly Uint8Array[];
}

const encoder = new TextEncoder();
const textDecoder = new TextDecoder();

/** The versions of a shard of sub-series `first … first + count - 1`: each version's sub-series among them, from 0. */
function shardVersions(versions: readonly HistoryVersion[], first: number, count: number): HistoryVersion[] {
  return versions.map((version) => ({ ...version, series: version.series.filter((s) => s >= first && s < first + count).map((s) => s - first) }));
}

/** For each day with a point, the stretches of versions in which it has one (merged from its entries' `[from, to)`). */
function dayStretches(entries: readonly HistoryEntry[]): { day: number; from: number; to: number }[] {
  const byDay = new Map<string, [number, number][]>();
  for (const e of entries) {
    const list = byDay.get(e.date) ?? [];
    list.push([e.from, e.to]);
    byDay.set(e.date, list);
  }
  const rows: { day: number; from: number; to: number }[] = [];
  for (const date of [...byDay.keys()].sort(byCodeUnits)) {
    const spans = (byDay.get(date) as [number, number][]).sort((a, b) => a[0] - b[0]);
    const day = dayNumber(date);
    let [from, to] = spans[0] as [number, number];
    for (const [f, t] of spans.slice(1)) {
      if (f <= to) to = Math.max(to, t);
      else {
        rows.push({ day, from, to });
        [from, to] = [f, t];
      }
    }
    rows.push({ day, from, to });
  }
  return rows;
}

/**
 * Encodes a history table (as `encodeHistory`) in shards of consecutive
 * sub-series, each as close to `targetBytes` as whole sub-series allow
 * (estimated from their entries' texts), and its index. Deterministic.
 */
export function encodeHistoryShards(contents: HistoryContents, targetBytes: number): HistoryFiles {
  const { fields, ids, versions, entries } = contents;
  const position = new Map(ids.map((id, s) => [id, s]));
  const bySeries: HistoryEntry[][] = ids.map(() => []);
  for (const e of entries) (bySeries[position.get(e.series) as number] as HistoryEntry[]).push(e);
  // Per entry: its columns (src/core/file/answers.ts), its from and to, and its texts (JSON, CSV; the spreadsheet line most often
  // not stored: src/core/file/answers.ts), without writing them.
  const estimate = (e: HistoryEntry) => 100 + 2 * (e.date.length + e.series.length + e.value.length) + e.source.length + e.note.length;
  const runs = runsOf(
    bySeries.map((own, s) => own.reduce((sum, e) => sum + estimate(e), 4 + encoder.encode(ids[s]).length + 1)),
    targetBytes,
  );
  const shards = runs.map(({ first, count }) =>
    encodeHistory({ ...contents, ids: ids.slice(first, first + count), versions: shardVersions(versions, first, count), entries: bySeries.slice(first, first + count).flat() }),
  );
  const stretches = dayStretches(entries);
  // Each version's points: an entry counts in its stretch of versions.
  const steps = new Int32Array(versions.length + 1);
  for (const e of entries) {
    steps[e.from] = (steps[e.from] as number) + 1;
    steps[e.to] = (steps[e.to] as number) - 1;
  }
  let running = 0;
  const points = versions.map((_, v) => (running += steps[v] as number));
  const idBytes = encoder.encode(ids.join("\n"));
  const header: IndexHeader = { fields: answerFields(fields), versions: versions.map(storedVersion), points, series: ids.length, shards: runs.length, days: stretches.length, idsBytes: idBytes.length };
  const { bytes, view, offsets } = createContainer(INDEX_MAGIC, header, [...indexSections(header), idBytes.length]);
  const [firstsAt, sizesAt, daysAt, fromAt, toAt, idsAt] = offsets as [number, number, number, number, number, number];
  writeColumn(view, firstsAt, runs.map((run) => run.first));
  writeColumn(view, sizesAt, shards.map((shard) => shard.length));
  writeColumn(view, daysAt, stretches.map((row) => row.day), true);
  writeColumn(view, fromAt, stretches.map((row) => row.from));
  writeColumn(view, toAt, stretches.map((row) => row.to));
  bytes.set(idBytes, idsAt);
  return { index: bytes, shards };
}

/**
 * Decodes a history index.
 * @throws Error when the bytes are not one.
 */
export function decodeHistoryIndex(input: ArrayBuffer | Uint8Array): HistoryIndex {
  const { bytes, header, offsets } = openContainer<IndexHeader>(input, INDEX_MAGIC, "a history index", indexSections);
  const [firstsAt, sizesAt, daysAt, fromAt, toAt, idsAt] = offsets as [number, number, number, number, number, number];
  if (idsAt + header.idsBytes > bytes.length) throw new Error("not a history index (truncated)");
  const at = (offset: number) => bytes.byteOffset + offset;
  return {
    fields: header.fields,
    versions: header.versions.map(loadedVersion),
    points: header.points,
    ids: header.series === 0 ? [] : textDecoder.decode(bytes.subarray(idsAt, idsAt + header.idsBytes)).split("\n"),
    shards: shardList(new Uint32Array(bytes.buffer, at(firstsAt), header.shards), new Uint32Array(bytes.buffer, at(sizesAt), header.shards), header.series),
    days: new Int32Array(bytes.buffer, at(daysAt), header.days),
    dayFrom: new Uint32Array(bytes.buffer, at(fromAt), header.days),
    dayTo: new Uint32Array(bytes.buffer, at(toAt), header.days),
  };
}

/** The ids of version `v`'s sub-series, sorted (the ones its `series` selects among). Made once per index and version. */
export function versionIds(index: HistoryIndex, v: number): readonly string[] {
  return perVersion(versionIdLists, index, v, () => (index.versions[v] as HistoryVersion).series.map((s) => index.ids[s] as string));
}

const versionIdLists = new WeakMap<HistoryIndex, Map<number, readonly string[]>>();
const versionDayLists = new WeakMap<HistoryIndex, Map<number, Int32Array>>();

/** What is made of an index per version (its ids, its days), kept for every version: small beside a version's answers. */
const perVersion = <T>(cache: WeakMap<HistoryIndex, Map<number, T>>, index: HistoryIndex, v: number, make: () => T): T => keptPerTable(cache, index, v, make, Infinity);

/** The days on which any sub-series of version `v` has a point, ascending: its publications. Made once per index and version. */
export function versionPublications(index: HistoryIndex, v: number): Int32Array {
  return perVersion(versionDayLists, index, v, () => {
    const days: number[] = [];
    index.days.forEach((day, d) => {
      if ((index.dayFrom[d] as number) <= v && v < (index.dayTo[d] as number) && days[days.length - 1] !== day) days.push(day);
    });
    return Int32Array.from(days);
  });
}

/** The shards holding version `v`'s sub-series at `chosen` (ascending indices into `versionIds`; `null`: all), ascending. */
export function historyShardsOf(index: HistoryIndex, v: number, chosen: readonly number[] | null): number[] {
  const series = (index.versions[v] as HistoryVersion).series;
  return shardsHolding(index.shards, chosen === null ? series : chosen.map((c) => series[c] as number));
}

/**
 * Version `v`'s answers with the shards `read` (k → its decoded table): the
 * sub-series of shards not read are placeholders the pager never reads (it reads
 * the chosen ones, whose shards are read), as for today's answers
 * (src/core/file/answer-index.ts `shardView`).
 */
export function versionView(index: HistoryIndex, v: number, read: ReadonlyMap<number, HistoryData>): AnswerView {
  const version = index.versions[v] as HistoryVersion;
  const ids = versionIds(index, v);
  const publications = versionPublications(index, v);
  const fields = versionFields(index.fields, version, publications.length === 0 ? null : dateOfDay(publications[publications.length - 1] as number));
  const series: AnswerSeries[] = [];
  const parts: AnswerPart[] = [];
  let at = 0;
  index.shards.forEach((shard, k) => {
    // Version v's sub-series in this shard: a run of its sorted ids.
    let count = 0;
    while (at + count < version.series.length && (version.series[at + count] as number) < shard.first + shard.count) count++;
    const table = read.get(k);
    // A shard without a sub-series of version v is no part of its view (the renderer finds a part by its first id).
    if (table !== undefined && count > 0) {
      const data = versionAnswers(table, v);
      parts.push({ data, first: at });
      for (const one of data.series) series.push(one);
    } else for (let s = at; s < at + count; s++) series.push(new UnreadSeries(ids[s] as string, 0));
    at += count;
  });
  const only = parts.length === 1 && index.shards.length === 1 ? (parts[0] as AnswerPart).data.global : null;
  return { ...fields, ids, series, points: index.points[v] as number, publications, parts, global: only };
}
