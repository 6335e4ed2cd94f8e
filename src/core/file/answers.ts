/**
 * The answer file (`_data/<indicator>.api.bin`): everything the function needs to
 * answer any query of an indicator, with every point already rendered, so that an
 * answer is a selection of byte ranges copied into one buffer.
 *
 * Points have two orders. Per sub-series, newest first (the pager's binary
 * searches and slices); and the API's order over the whole indicator, date
 * descending then sub-series ascending: the "global" order, in which each point's
 * JSON object (followed by a comma) and CSV line are stored. The points of any
 * page are a set of global positions; sorted, they are the answer's order, and
 * runs of consecutive positions are contiguous bytes (the whole default answer of
 * an indicator is one run).
 *
 * Layout (little-endian):
 *
 *     "OSA3"                     magic, 4 bytes (OSA2: every spreadsheet line stored)
 *     u32 H                      header length in bytes
 *     H bytes                    header: UTF-8 JSON (see `Header`)
 *     0–3 zero bytes             padding to a multiple of 4
 *     u32 × S                    number of points of each sub-series
 *     i32 × N                    day numbers, per sub-series newest first
 *     u32 × N                    global position of each of those points
 *     u32 × N                    end offset of each point's JSON text, by global position
 *     u32 × N                    end offset of each point's CSV line, by global position
 *     u32 × N                    end offset of each point's spreadsheet CSV line, by global position
 *     u32 × N                    sub-series (index) of each point, by global position
 *     u32 × N                    rank in its sub-series of each point, by global position
 *     f64 × N                    values, per sub-series newest first (for derived answers)
 *     I bytes                    the sub-series ids, UTF-8, separated by "\n"
 *     J bytes                    JSON texts in global order: `{"date":…,"series":…,"value":…},`
 *     C bytes                    CSV lines in global order (`date,series,value,source,note`, RFC 4180)
 *     E bytes                    spreadsheet CSV lines in global order (`dialect=es`: `;`, decimal comma, CRLF),
 *                                empty for a point whose line follows from its CSV line (src/core/answer/spreadsheet.ts
 *                                `spreadsheetLineOf`, checked by `encodeAnswers`): most points; `spreadsheetText` reads either
 */
import { createContainer, openContainer } from "./container.js";
import type { FieldDeclarations } from "../answer/schema.js";
import { dayNumber } from "../time/dates.js";
import type { Schedule } from "../time/schedule.js";
import { datasetFields, type DatasetFields, type SeriesIndex } from "../indicator/model.js";
import { spreadsheetLineOf, writeSpreadsheetLine } from "../answer/spreadsheet.js";
import { byCodeUnits } from "../text/order.js";
import type { GlobalIndex, Page } from "../answer/page.js";
import type { SourceKindRule } from "../answer/provenance.js";
import { lowerBound } from "../answer/sorted.js";

const MAGIC = "OSA3";

/**
 * The sections of the layout above, in order: each one's name and its size in
 * bytes from the header. The one declaration of the order: every read and write
 * finds a section by name (`sectionsAt`).
 */
const SECTIONS = [
  ["counts", (h: Header) => 4 * h.series],
  ["days", (h: Header) => 4 * h.points],
  ["globals", (h: Header) => 4 * h.points],
  ["jsonEnds", (h: Header) => 4 * h.points],
  ["csvEnds", (h: Header) => 4 * h.points],
  ["csvEsEnds", (h: Header) => 4 * h.points],
  ["seriesOf", (h: Header) => 4 * h.points],
  ["rankOf", (h: Header) => 4 * h.points],
  ["values", (h: Header) => 8 * h.points],
  ["ids", (h: Header) => h.idsBytes],
  ["json", (h: Header) => h.jsonBytes],
  ["csv", (h: Header) => h.csvBytes],
  ["csvEs", (h: Header) => h.csvEsBytes],
] as const;

/** The offset of each section, by name. */
type Sections = Record<(typeof SECTIONS)[number][0], number>;

/** The sizes of every section (`createContainer`'s), or of all but the last, which runs to the end (`openContainer`'s). */
const sectionSizes = (h: Header, last = false) => (last ? SECTIONS : SECTIONS.slice(0, -1)).map(([, size]) => size(h));

/** The container's offsets (one per section, in the order of `SECTIONS`) by section name. */
function sectionsAt(offsets: readonly number[]): Sections {
  return Object.fromEntries(SECTIONS.map(([name], i) => [name, offsets[i] as number])) as Sections;
}

/** The bytes each point takes in the columns of the layout above (seven u32, one f64), beside its texts. */
export const POINT_COLUMN_BYTES = 7 * 4 + 8;

/** The header line of every CSV answer and of `data.csv`. */
export const CSV_HEADER = "date,series,value,source,note\n";

/** The start of every spreadsheet CSV answer (`dialect=es`): a UTF-8 byte order mark and the header line. */
export const CSV_ES_HEADER = "\uFEFFdate;series;value;source;note\r\n";

/** The answer file's indicator-level fields: `meta`'s, and the plain URL of the attribution link. */
export interface AnswerFields extends DatasetFields {
  /** The attribution link's target (the `href` of `attribution`), for the CSV answers' `Link: rel="cite-as"`. */
  readonly attributionUrl: string;
  /** How often points come (src/core/time/coverage.ts) and whether a value holds until the next: the rule of coverage's inputs. */
  readonly rhythm: string;
  readonly stepwise: boolean;
  /** The kinds of the sources the points cite, by address prefix (src/core/answer/provenance.ts): what `provenance=true` says of each point. */
  readonly sourceKinds?: readonly SourceKindRule[];
  /**
   * The day of the last recorded check of the publisher (`check.day` in
   * `indicator.json`; absent: none recorded), the day the points last changed
   * (`changed`), and when values are due (`schedule`, src/core/time/schedule.ts):
   * what an answer about a day after the last look reads.
   */
  readonly checked?: string;
  readonly changed?: string;
  readonly schedule?: Schedule;
}

interface Header extends AnswerFields {
  /** Number of sub-series (S) and of points (N). */
  series: number;
  points: number;
  /** Byte lengths of the ids (I), JSON (J), CSV (C) and spreadsheet CSV (E) sections. */
  idsBytes: number;
  jsonBytes: number;
  csvBytes: number;
  csvEsBytes: number;
}

/** The answer fields of `fields` alone, in the files' order (their headers are compared byte for byte). */
export function answerFields(fields: AnswerFields): AnswerFields {
  return {
    ...datasetFields(fields),
    attributionUrl: fields.attributionUrl,
    rhythm: fields.rhythm,
    stepwise: fields.stepwise,
    sourceKinds: fields.sourceKinds ?? [],
    // Left out when not declared: an indicator without them has the header it had before them.
    ...(fields.checked === undefined ? {} : { checked: fields.checked }),
    ...(fields.changed === undefined ? {} : { changed: fields.changed }),
    ...(fields.schedule === undefined ? {} : { schedule: fields.schedule }),
  };
}

/** One point as the build has it. */
export interface AnswerRow {
  readonly date: string;
  readonly series: string;
  /** A JSON number literal, as the source wrote it. */
  readonly value: string;
  readonly source: string;
  readonly note: string;
}

/** A sub-series of the answer file: the pager's view, plus each point's global position. */
export class AnswerSeries implements SeriesIndex {
  constructor(
    readonly id: string,
    private readonly start: number,
    readonly length: number,
    private readonly days: Int32Array,
    private readonly globals: Uint32Array,
    private readonly values: Float64Array,
  ) {}

  day(i: number): number {
    return this.days[this.start + i] as number;
  }

  /** The value of point `i` as a number (its text, exact, is in the JSON and CSV sections). */
  value(i: number): number {
    return this.values[this.start + i] as number;
  }

  /** Global position of point `i` (increasing with `i`: newest first in both orders). */
  global(i: number): number {
    return this.globals[this.start + i] as number;
  }

  /** The global positions of points `from` to `to` (exclusive), a view: `global` over a range, with no call per point. */
  globalRange(from: number, to: number): Uint32Array {
    return this.globals.subarray(this.start + from, this.start + to);
  }
}

/** A decoded answer file: views over its bytes, nothing per point. */
export interface AnswerData extends AnswerFields {
  /** Sub-series sorted by id. */
  readonly series: readonly AnswerSeries[];
  readonly ids: readonly string[];
  readonly points: number;
  /** The points in the API's order: a window is a range of it (src/core/answer/page.ts). */
  readonly global: GlobalIndex;
  readonly json: Uint8Array;
  readonly jsonEnds: Uint32Array;
  readonly csv: Uint8Array;
  readonly csvEnds: Uint32Array;
  readonly csvEs: Uint8Array;
  readonly csvEsEnds: Uint32Array;
  /**
   * Where each point's text begins, by global position, when the texts are not
   * back to back: a past version (src/core/history/history.ts) views the texts of the
   * history table, where points of other versions lie between its own. Absent,
   * a point's text begins where the one before ends.
   */
  readonly starts?: { readonly json: Uint32Array; readonly csv: Uint32Array; readonly csvEs: Uint32Array };
}

const encoder = new TextEncoder();

/**
 * Where the text of point `g` begins in a section whose texts end at `ends`:
 * where the one before ends, or `starts[g]` when the texts are not back to back
 * (`AnswerData.starts`).
 */
export function textStart(ends: Uint32Array, g: number, starts?: Uint32Array): number {
  return starts !== undefined ? (starts[g] as number) : g === 0 ? 0 : (ends[g - 1] as number);
}

/**
 * The length of the spreadsheet CSV line (`dialect=es`) of point `g` of `data`:
 * its stored text's, or, where the file stores none (it follows from the CSV line,
 * `encodeAnswers`), its CSV line's and one more (CRLF for LF: `writeSpreadsheetLine`).
 */
function spreadsheetLength(data: AnswerData, g: number): number {
  const stored = (data.csvEsEnds[g] as number) - textStart(data.csvEsEnds, g, data.starts?.csvEs);
  return stored > 0 ? stored : (data.csvEnds[g] as number) - textStart(data.csvEnds, g, data.starts?.csv) + 1;
}

/**
 * `prefix` and the spreadsheet lines of the points (`part[m]`, `positions[m]`;
 * `part` null: all of `datas[0]`) in one buffer: each stored line copied, each
 * other made from its CSV line byte by byte (`writeSpreadsheetLine`).
 */
export function assembleSpreadsheet(datas: readonly AnswerData[], part: Uint32Array | null, positions: Uint32Array, prefix: Uint8Array): Uint8Array<ArrayBuffer> {
  let size = prefix.length;
  for (let m = 0; m < positions.length; m++) size += spreadsheetLength(datas[part === null ? 0 : (part[m] as number)] as AnswerData, positions[m] as number);
  const out = new Uint8Array(size);
  out.set(prefix, 0);
  let at = prefix.length;
  for (let m = 0; m < positions.length; m++) {
    const data = datas[part === null ? 0 : (part[m] as number)] as AnswerData;
    const g = positions[m] as number;
    const start = textStart(data.csvEsEnds, g, data.starts?.csvEs);
    const end = data.csvEsEnds[g] as number;
    if (end > start) {
      out.set(data.csvEs.subarray(start, end), at);
      at += end - start;
    } else at = writeSpreadsheetLine(data.csv, textStart(data.csvEnds, g, data.starts?.csv), data.csvEnds[g] as number, out, at);
  }
  return out;
}

/** The spreadsheet CSV line of point `g` of `data`, stored or made (`assembleSpreadsheet` of that point alone). */
export function spreadsheetText(data: AnswerData, g: number): Uint8Array {
  return assembleSpreadsheet([data], null, Uint32Array.of(g), new Uint8Array(0));
}

/** Every point's spreadsheet line in the answers' order, as one text and where each ends (what `data.es.csv` holds). */
export function spreadsheetSection(data: AnswerData): { readonly bytes: Uint8Array; readonly ends: Uint32Array } {
  const positions = new Uint32Array(data.points);
  for (let g = 0; g < data.points; g++) positions[g] = g;
  const ends = new Uint32Array(data.points);
  let at = 0;
  for (let g = 0; g < data.points; g++) ends[g] = at += spreadsheetLength(data, g);
  return { bytes: assembleSpreadsheet([data], null, positions, new Uint8Array(0)), ends };
}

/** The length in bytes of `text` in UTF-8 (a lone surrogate counts as the 3 bytes of U+FFFD, as TextEncoder writes it). */
function utf8Length(text: string): number {
  let bytes = text.length;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) continue;
    if (c < 0x800) bytes += 1;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      bytes += 2; // a pair: 4 bytes for 2 code units
      i++;
    } else bytes += 2;
  }
  return bytes;
}

/**
 * Writes one point's columns: its day and value at `k` (its place among the points
 * per sub-series newest first), its global position `g` there, and its sub-series
 * `s` and `rank` in it at `g`.
 */
function writePoint(view: DataView, sections: Sections, point: { k: number; g: number; s: number; rank: number; day: number; value: number }): void {
  const { k, g } = point;
  view.setInt32(sections.days + 4 * k, point.day, true);
  view.setFloat64(sections.values + 8 * k, point.value, true);
  view.setUint32(sections.globals + 4 * k, g, true);
  view.setUint32(sections.seriesOf + 4 * g, point.s, true);
  view.setUint32(sections.rankOf + 4 * g, point.rank, true);
}

/**
 * The fields of a point's JSON text (`encodeAnswers` writes `{"date":…,"series":…,"value":…}`),
 * with their schemas: OpenAPI's `Point` (a function: a bundle that writes no answer leaves it out).
 */
export function pointFields(): FieldDeclarations {
  return {
    date: { schema: { type: "string", format: "date" } },
    series: { schema: { type: "string" } },
    value: { schema: { type: "number" } },
  };
}

/**
 * Encodes an indicator's points. `ids` are its sub-series, sorted by id (declared
 * ones without points included); `csvLine` and `csvEsLine` render one point as a
 * CSV line, RFC 4180 and spreadsheet (the build passes its CSV library, so
 * `data.csv`, `data.es.csv` and CSV answers share every byte).
 * Deterministic.
 */
export function encodeAnswers(
  fields: AnswerFields,
  ids: readonly string[],
  rows: readonly AnswerRow[],
  csvLine: (row: AnswerRow) => string,
  csvEsLine: (row: AnswerRow) => string,
): Uint8Array {
  const index = new Map(ids.map((id, i) => [id, i]));
  // The global order: date descending, then sub-series ascending.
  const global = [...rows].sort((a, b) => byCodeUnits(b.date, a.date) || byCodeUnits(a.series, b.series));
  const position = new Map<AnswerRow, number>(global.map((row, g) => [row, g]));
  // Per sub-series, newest first: the global order restricted to one sub-series.
  const bySeries: AnswerRow[][] = ids.map(() => []);
  for (const row of global) bySeries[index.get(row.series) as number]?.push(row);

  const n = global.length;
  // Each section's texts as strings, written into the file at once (a million points are not a million small buffers).
  const jsonParts = global.map((r) => `{"date":"${r.date}","series":${JSON.stringify(r.series)},"value":${r.value}},`);
  const csvParts = global.map(csvLine);
  // A spreadsheet line that follows from the CSV line is not stored (`spreadsheetText`): about a third of the file.
  const csvEsParts = global.map((row, g) => {
    const es = csvEsLine(row);
    return spreadsheetLineOf(csvParts[g] as string) === es ? "" : es;
  });
  const jsonLengths = jsonParts.map(utf8Length);
  const csvLengths = csvParts.map(utf8Length);
  const csvEsLengths = csvEsParts.map(utf8Length);
  const sum = (lengths: readonly number[]) => lengths.reduce((total, l) => total + l, 0);
  const jsonBytes = sum(jsonLengths);
  const csvBytes = sum(csvLengths);
  const csvEsBytes = sum(csvEsLengths);
  const idBytes = encoder.encode(ids.join("\n"));
  const header: Header = {
    ...answerFields(fields),
    series: ids.length, points: n, idsBytes: idBytes.length, jsonBytes, csvBytes, csvEsBytes };
  const { bytes, view, offsets } = createContainer(MAGIC, header, sectionSizes(header, true));
  const sections = sectionsAt(offsets);
  let k = 0;
  bySeries.forEach((list, s) => {
    view.setUint32(sections.counts + 4 * s, list.length, true);
    list.forEach((row, rank) => {
      writePoint(view, sections, { k, g: position.get(row) as number, s, rank, day: dayNumber(row.date), value: Number(row.value) });
      k++;
    });
  });
  const section = (parts: string[], lengths: readonly number[], offset: number, size: number, endsOffset: number) => {
    let at = 0;
    lengths.forEach((length, g) => view.setUint32(endsOffset + 4 * g, (at += length), true));
    // In slices, so that no single string is longer than an engine allows.
    for (let g = 0, into = offset; g < n; g += 65_536) {
      const text = parts.slice(g, g + 65_536).join("");
      into += encoder.encodeInto(text, bytes.subarray(into, offset + size)).written;
    }
  };
  section(jsonParts, jsonLengths, sections.json, jsonBytes, sections.jsonEnds);
  section(csvParts, csvLengths, sections.csv, csvBytes, sections.csvEnds);
  section(csvEsParts, csvEsLengths, sections.csvEs, csvEsBytes, sections.csvEsEnds);
  bytes.set(idBytes, sections.ids);
  return bytes;
}

/**
 * The answer file of the sub-series `first … first + count - 1` of the decoded
 * answer file `whole` (not a past version's view): the same bytes as
 * `encodeAnswers` of their points, made by copying the points' columns and texts
 * instead of rendering them again (a shard, src/core/file/answer-index.ts). `ranks`:
 * of each sub-series (its index in the run), only the points of ranks `from …
 * to - 1` (a time tile, src/core/file/time-tiles.ts); all of them when absent.
 */
export function sliceAnswers(whole: AnswerData, fields: AnswerFields, first: number, count: number, ranks?: (s: number) => readonly [number, number]): Uint8Array {
  const run = whole.series.slice(first, first + count);
  const ranges = run.map((one, s): readonly [number, number] => (ranks === undefined ? [0, one.length] : ranks(s)));
  let n = 0;
  for (const [from, to] of ranges) n += to - from;
  // The run's points in the whole file's order, which restricted to them is their own.
  const positions = new Uint32Array(n);
  let k = 0;
  run.forEach((one, s) => {
    const [from, to] = ranges[s] as readonly [number, number];
    for (let i = from; i < to; i++) positions[k++] = one.global(i);
  });
  positions.sort();
  const local = (g: number) => lowerBound(positions, g, 0, n - 1);
  const bytesOf = (ends: Uint32Array) => {
    let size = 0;
    for (let m = 0; m < n; m++) size += (ends[positions[m] as number] as number) - textStart(ends, positions[m] as number);
    return size;
  };
  const idBytes = encoder.encode(run.map((one) => one.id).join("\n"));
  const header: Header = {
    ...answerFields(fields),
    series: run.length,
    points: n,
    idsBytes: idBytes.length,
    jsonBytes: bytesOf(whole.jsonEnds),
    csvBytes: bytesOf(whole.csvEnds),
    csvEsBytes: bytesOf(whole.csvEsEnds),
  };
  const { bytes, view, offsets } = createContainer(MAGIC, header, sectionSizes(header, true));
  const sections = sectionsAt(offsets);
  k = 0;
  run.forEach((one, s) => {
    const [from, to] = ranges[s] as readonly [number, number];
    view.setUint32(sections.counts + 4 * s, to - from, true);
    for (let i = from; i < to; i++, k++) {
      writePoint(view, sections, { k, g: local(one.global(i)), s, rank: i - from, day: one.day(i), value: one.value(i) });
    }
  });
  const copyTexts = (text: Uint8Array, ends: Uint32Array, offset: number, endsOffset: number) => {
    let at = 0;
    for (let m = 0; m < n; ) {
      const firstG = positions[m] as number;
      let last = firstG;
      while (m + 1 < n && positions[m + 1] === last + 1) last = positions[++m] as number;
      m++;
      const from = textStart(ends, firstG);
      bytes.set(text.subarray(from, ends[last]), offset + at);
      // The ends of the run's texts, shifted to where they now begin.
      for (let g = firstG, j = m - (last - firstG) - 1; g <= last; g++, j++) view.setUint32(endsOffset + 4 * j, at + (ends[g] as number) - from, true);
      at += (ends[last] as number) - from;
    }
  };
  copyTexts(whole.json, whole.jsonEnds, sections.json, sections.jsonEnds);
  copyTexts(whole.csv, whole.csvEnds, sections.csv, sections.csvEnds);
  copyTexts(whole.csvEs, whole.csvEsEnds, sections.csvEs, sections.csvEsEnds);
  bytes.set(idBytes, sections.ids);
  return bytes;
}

/**
 * The indicator's points in the API's order (`GlobalIndex`), over typed columns:
 * point `g` is of sub-series `seriesOf[g]` at rank `rankOf[g]`, whose day is in
 * `days` at that sub-series' start (`starts`) plus its rank.
 */
export function globalIndex(points: number, days: Int32Array, starts: Uint32Array, seriesOf: Uint32Array, rankOf: Uint32Array): GlobalIndex {
  return {
    points,
    day: (g) => days[(starts[seriesOf[g] as number] as number) + (rankOf[g] as number)] as number,
    series: (g) => seriesOf[g] as number,
    rank: (g) => rankOf[g] as number,
  };
}

/**
 * Decodes an answer file into views on its bytes (on a copy when they are not
 * 4-byte aligned; a fetched ArrayBuffer always is).
 * @throws Error when the bytes are not an answer file.
 */
export function decodeAnswers(input: ArrayBuffer | Uint8Array): AnswerData {
  const { bytes, header, offsets } = openContainer<Header>(input, MAGIC, "an answer file", (h) => sectionSizes(h));
  const sections = sectionsAt(offsets);
  const n = header.points;
  const decoder = new TextDecoder();
  if (sections.csvEs + header.csvEsBytes > bytes.length) throw new Error("not an answer file (truncated)");
  const at = (offset: number) => bytes.byteOffset + offset;
  const counts = new Uint32Array(bytes.buffer, at(sections.counts), header.series);
  const days = new Int32Array(bytes.buffer, at(sections.days), n);
  const globals = new Uint32Array(bytes.buffer, at(sections.globals), n);
  // Copied, not viewed: a Float64Array view needs 8-byte alignment, which the container does not promise.
  const values = new Float64Array(n);
  if (LITTLE_ENDIAN) {
    // One copy of the bytes (the file's order is the machine's): no loop, which a cold isolate would interpret.
    new Uint8Array(values.buffer).set(bytes.subarray(sections.values, sections.values + 8 * n));
  } else {
    const view = new DataView(bytes.buffer, at(sections.values), 8 * n);
    for (let k = 0; k < n; k++) values[k] = view.getFloat64(8 * k, true);
  }
  const ids = header.series === 0 ? [] : decoder.decode(bytes.subarray(sections.ids, sections.json)).split("\n");
  let start = 0;
  const starts = new Uint32Array(header.series);
  const series = ids.map((id, j) => {
    const count = counts[j] as number;
    const one = new AnswerSeries(id, start, count, days, globals, values);
    starts[j] = start;
    start += count;
    return one;
  });
  const seriesOf = new Uint32Array(bytes.buffer, at(sections.seriesOf), n);
  const rankOf = new Uint32Array(bytes.buffer, at(sections.rankOf), n);
  const global = globalIndex(n, days, starts, seriesOf, rankOf);
  return {
    ...answerFields(header),
    series,
    ids,
    points: n,
    global,
    json: bytes.subarray(sections.json, sections.csv),
    jsonEnds: new Uint32Array(bytes.buffer, at(sections.jsonEnds), n),
    csv: bytes.subarray(sections.csv, sections.csv + header.csvBytes),
    csvEnds: new Uint32Array(bytes.buffer, at(sections.csvEnds), n),
    csvEs: bytes.subarray(sections.csvEs, sections.csvEs + header.csvEsBytes),
    csvEsEnds: new Uint32Array(bytes.buffer, at(sections.csvEsEnds), n),
  };
}

/** True on a machine storing numbers least significant byte first, as the answer files do. */
const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

/** Most slices merged cursor by cursor; with more, the positions are sorted or marked. */
const MERGE_MAX_SLICES = 16;

/**
 * The global positions of a page's points, ascending: the answer's order. Few
 * slices are merged (each slice's positions already ascend); many points of many
 * slices are marked in a bitmap over the indicator's points and read back in
 * order; a few points of many slices are sorted.
 */
export function pagePositions(page: Page<AnswerSeries>, points: number): Uint32Array {
  const { slices } = page;
  let n = 0;
  for (const { start, end } of slices) n += end - start;
  const out = new Uint32Array(n);
  if (slices.length <= MERGE_MAX_SLICES) {
    const cursor = slices.map((slice) => slice.start);
    for (let m = 0; m < n; m++) {
      let best = -1;
      let bestGlobal = Infinity;
      for (let s = 0; s < slices.length; s++) {
        const slice = slices[s] as (typeof slices)[number];
        const i = cursor[s] as number;
        if (i < slice.end && slice.series.global(i) < bestGlobal) {
          bestGlobal = slice.series.global(i);
          best = s;
        }
      }
      out[m] = bestGlobal;
      cursor[best] = (cursor[best] as number) + 1;
    }
    return out;
  }
  let j = 0;
  for (const { series, start, end } of slices) {
    out.set(series.globalRange(start, end), j);
    j += end - start;
  }
  if (n * 8 < points) return out.sort();
  const marked = new Uint8Array(points);
  for (let m = 0; m < n; m++) marked[out[m] as number] = 1;
  j = 0;
  for (let g = 0; g < points; g++) if (marked[g] === 1) out[j++] = g;
  return out;
}

const decoder = new TextDecoder();

/**
 * The point at global position `g` as `data.csv` writes it: its date, sub-series,
 * value text, source and note (RFC 4180 fields: a note with a comma or a quote is
 * quoted, its quotes doubled).
 */
export function csvRow(data: AnswerData, g: number): AnswerRow {
  const start = textStart(data.csvEnds, g, data.starts?.csv);
  const line = decoder.decode(data.csv.subarray(start, data.csvEnds[g])).replace(/\n$/, "");
  const fields: string[] = [];
  for (let i = 0; i <= line.length; ) {
    if (line[i] === '"') {
      let text = "";
      let j = i + 1;
      for (;;) {
        const q = line.indexOf('"', j);
        if (q < 0) {
          text += line.slice(j);
          j = line.length;
          break;
        }
        text += line.slice(j, q);
        if (line[q + 1] === '"') {
          text += '"';
          j = q + 2;
        } else {
          j = q + 1;
          break;
        }
      }
      fields.push(text);
      i = j + 1;
    } else {
      const comma = line.indexOf(",", i);
      const end = comma < 0 ? line.length : comma;
      fields.push(line.slice(i, end));
      i = end + 1;
    }
  }
  const [date = "", series = "", value = "", source = "", note = ""] = fields;
  return { date, series, value, source, note };
}

/** One kind of text of an answer file (JSON, CSV): its bytes, where each point's ends, and where each begins when not back to back (`AnswerData.starts`). */
export interface Texts {
  readonly text: Uint8Array;
  readonly ends: Uint32Array;
  readonly starts: Uint32Array | undefined;
}

/** The JSON or CSV texts of each of `datas`. */
export function textsOf(datas: readonly AnswerData[], kind: "json" | "csv"): Texts[] {
  return datas.map((d) => (kind === "json" ? { text: d.json, ends: d.jsonEnds, starts: d.starts?.json } : { text: d.csv, ends: d.csvEnds, starts: d.starts?.csv }));
}

/**
 * `prefix`, the texts of the points (`part[m]`, `positions[m]`; `part` null: all
 * of `texts[0]`), then `suffix`, in one buffer. Runs of consecutive positions of
 * one file whose texts are back to back are copied as one range. With
 * `dropLastByte`, the last point's final byte (its separating comma) is left out.
 */
export function assemble(
  texts: readonly Texts[],
  part: Uint32Array | null,
  positions: Uint32Array,
  prefix: Uint8Array,
  suffix: Uint8Array,
  dropLastByte: boolean,
): Uint8Array<ArrayBuffer> {
  const n = positions.length;
  let size = prefix.length + suffix.length - (dropLastByte && n > 0 ? 1 : 0);
  for (let m = 0; m < n; m++) {
    const { ends, starts } = texts[part === null ? 0 : (part[m] as number)] as Texts;
    const g = positions[m] as number;
    size += (ends[g] as number) - textStart(ends, g, starts);
  }
  const out = new Uint8Array(size);
  out.set(prefix, 0);
  let at = prefix.length;
  const textEnd = size - suffix.length;
  for (let m = 0; m < n; ) {
    const p = part === null ? 0 : (part[m] as number);
    const { text, ends, starts } = texts[p] as Texts;
    const first = positions[m] as number;
    let last = first;
    while (m + 1 < n && (part === null || part[m + 1] === p) && positions[m + 1] === last + 1 && textStart(ends, last + 1, starts) === ends[last]) last = positions[++m] as number;
    m++;
    const from = textStart(ends, first, starts);
    const to = Math.min(ends[last] as number, from + (textEnd - at));
    out.set(text.subarray(from, to), at);
    at += to - from;
  }
  out.set(suffix, at);
  return out;
}
