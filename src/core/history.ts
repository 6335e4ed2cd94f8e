/**
 * The history table of an indicator: every data version the service published
 * (`as_of`, docs/api.md), made by the build from the data's git history
 * (src/build/history.ts). Not a copy of the answers per version: each distinct
 * point (its date, sub-series, value text, source and note) is kept once per
 * stretch of versions it was published in, `[from, to)`, and a version's answer
 * data is the points whose stretch holds it, viewed in place (`versionAnswers`),
 * so the same pager and renderer answer a past version as today's.
 *
 * Layout (a container, src/core/container.ts, magic `OSH1`; little-endian):
 *
 *     header (JSON)     the versions, oldest first (`HistoryVersion`), and the number of entries N
 *     u32 × N           from: the first version each entry is in
 *     u32 × N           to: the first version it is no longer in (the number of versions: still in)
 *     the rest          the entries as an answer file (src/core/answers.ts), in its global
 *                       order (date descending, sub-series ascending, then `from`)
 */
import { decodeAnswers, encodeAnswers, globalIndex, textStart, AnswerSeries, type AnswerData, type AnswerFields, type AnswerRow } from "./answers.js";
import { createContainer, openContainer } from "./container.js";
import { dateOfDay, dayOfTime } from "./dates.js";
import { byCodeUnits } from "./order.js";
import type { Schedule } from "./schedule.js";

const MAGIC = "OSH1";

/**
 * The bound the rule of coverage puts on a version's newest points: the version
 * time, and the day the source was last checked when the version's
 * `indicator.json` says (`checked`). One field, so the rule can take either.
 */
export interface VersionBound {
  /** The data version time a build of this version has (src/source/version.ts), seconds since the epoch. */
  readonly time: number;
  readonly checked: string | null;
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
  /** When its values were due (`schedule`, src/core/schedule.ts), `null` when it declared none or does not validate today. */
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
  readonly versions: readonly HistoryVersion[];
  readonly entries: number;
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
 * Encodes a history table. `fields` are the current version's (the table's own
 * answer file is never answered as it is); `ids` every sub-series of any version,
 * sorted; `csvLine`, `csvEsLine` as `encodeAnswers`'. Deterministic.
 */
export function encodeHistory(
  fields: AnswerFields,
  ids: readonly string[],
  versions: readonly HistoryVersion[],
  entries: readonly HistoryEntry[],
  csvLine: (row: AnswerRow) => string,
  csvEsLine: (row: AnswerRow) => string,
): Uint8Array {
  const sorted = [...entries].sort(byEntry);
  // encodeAnswers sorts stably by date and sub-series: the order above stays.
  const union = encodeAnswers(fields, ids, sorted, csvLine, csvEsLine);
  const header: Header = { versions, entries: sorted.length };
  const { bytes, view, offsets } = createContainer(MAGIC, header, [4 * sorted.length, 4 * sorted.length, union.length]);
  const [fromOffset, toOffset, unionOffset] = offsets as [number, number, number];
  sorted.forEach((e, g) => {
    view.setUint32(fromOffset + 4 * g, e.from, true);
    view.setUint32(toOffset + 4 * g, e.to, true);
  });
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
    versions: header.versions,
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

const answersOf = new WeakMap<HistoryData, Map<number, AnswerData>>();

/**
 * Version `v`'s answer data: the entries published in it, in the answer file's
 * order, as the build of that version would have encoded them. Nothing is
 * copied but positions: the texts stay in the table (`AnswerData.starts`).
 * Made once per decoded table and version.
 */
export function versionAnswers(history: HistoryData, v: number): AnswerData {
  let made = answersOf.get(history);
  if (made === undefined) answersOf.set(history, (made = new Map<number, AnswerData>()));
  let data = made.get(v);
  if (data === undefined) made.set(v, (data = materialize(history, v)));
  return data;
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
    indicator: union.indicator,
    unit: version.unit,
    license: union.license,
    lastUpdated: n === 0 ? null : dateOfDay(global.day(0)),
    attribution: union.attribution,
    attributionUrl: union.attributionUrl,
    rhythm: version.rhythm,
    stepwise: version.stepwise,
    ...(version.bound.checked === null ? {} : { checked: version.bound.checked }),
    ...(version.schedule === null ? {} : { schedule: version.schedule }),
    // The kinds of source as declared now (the table's): what provenance=true says of a past version's points too.
    ...(union.sourceKinds === undefined ? {} : { sourceKinds: union.sourceKinds }),
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
