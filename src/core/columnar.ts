/**
 * The dataset file the function reads (`_data/<indicator>.bin`): a compact binary,
 * column-wise layout that is usable the moment it is fetched. Decoding creates
 * typed-array views over the bytes and nothing else; no per-point object or
 * string is made until a page needs that point. So a cold isolate
 * indexes even a million points in a few milliseconds, and a request touches only
 * the points of its page (binary search on the day numbers, then a slice).
 *
 * Layout (little-endian):
 *
 *     "OSC2"                    magic, 4 bytes
 *     u32 H                     header length in bytes
 *     H bytes                   header: UTF-8 JSON (see `Header`)
 *     0–3 zero bytes            padding to a multiple of 4
 *     u32 × S                   number of points of each sub-series
 *     i32 × N                   day numbers (days since 1970-01-01), per sub-series newest first
 *     u32 × N                   end offset of each value in the value text
 *     I bytes                   the sub-series ids, UTF-8, separated by "\n"
 *     bytes                     the value text: every value as written, concatenated (ASCII)
 *
 * Sub-series follow each other in id order. Ids and counts are not in the JSON
 * header: 62,500 `[id, count]` pairs took 23 ms to parse, a split and a typed
 * array take a fraction of that.
 */
import { createContainer, openContainer } from "./container.js";
import { dateOfDay, dayNumber } from "./dates.js";
import { datasetFields, type Dataset, type DatasetFields, type SeriesColumns } from "./model.js";

const MAGIC = "OSC2";

interface Header extends DatasetFields {
  /** Number of sub-series (S). */
  series: number;
  /** Number of points (N). */
  points: number;
  /** Length in bytes of the ids section (I). */
  idsBytes: number;
}

/** Plain sub-series data, as the build has it. */
export interface PlainSeries {
  readonly id: string;
  /** Strictly descending `YYYY-MM-DD` dates. */
  readonly dates: readonly string[];
  /** JSON number literals (ASCII). */
  readonly values: readonly string[];
}

/** Encodes a dataset into the binary layout above. Deterministic. */
export function encodeDataset(fields: DatasetFields, series: readonly PlainSeries[]): Uint8Array {
  const points = series.reduce((n, s) => n + s.dates.length, 0);
  const encoder = new TextEncoder();
  const ids = encoder.encode(series.map((s) => s.id).join("\n"));
  const header: Header = {
    ...datasetFields(fields),
    series: series.length,
    points,
    idsBytes: ids.length,
  };
  const text = series.map((s) => s.values.join("")).join("");
  if (!/^[\x20-\x7e]*$/.test(text)) throw new Error("dataset values must be ASCII JSON number literals");
  const { bytes, view, offsets } = createContainer(MAGIC, header, [4 * series.length, 4 * points, 4 * points, ids.length, text.length]);
  const [countsOffset, daysOffset, endsOffset, idsOffset, textOffset] = offsets as [number, number, number, number, number];
  let k = 0;
  let end = 0;
  series.forEach((s, j) => {
    view.setUint32(countsOffset + 4 * j, s.dates.length, true);
    s.dates.forEach((date, i) => {
      view.setInt32(daysOffset + 4 * k, dayNumber(date), true);
      end += (s.values[i] as string).length;
      view.setUint32(endsOffset + 4 * k, end, true);
      k++;
    });
  });
  bytes.set(ids, idsOffset);
  for (let i = 0; i < text.length; i++) bytes[textOffset + i] = text.charCodeAt(i);
  return bytes;
}

/** One sub-series as a window on the shared columns. */
class ColumnSeries implements SeriesColumns {
  constructor(
    readonly id: string,
    private readonly start: number,
    readonly length: number,
    private readonly days: Int32Array,
    private readonly ends: Uint32Array,
    private readonly text: Uint8Array,
  ) {}

  day(i: number): number {
    return this.days[this.start + i] as number;
  }

  date(i: number): string {
    return dateOfDay(this.days[this.start + i] as number);
  }

  value(i: number): string {
    const k = this.start + i;
    const from = k === 0 ? 0 : (this.ends[k - 1] as number);
    const to = this.ends[k] as number;
    // Values are short ASCII literals: building the string here is cheaper than
    // decoding the whole value text when a page needs a handful of them.
    let value = "";
    for (let j = from; j < to; j++) value += String.fromCharCode(this.text[j] as number);
    return value;
  }
}

/**
 * Decodes a dataset file. The typed arrays are views on `bytes` when it is
 * 4-byte aligned (a fetched ArrayBuffer always is), else on a copy.
 * @throws Error when the bytes are not a dataset file.
 */
export function decodeDataset(input: ArrayBuffer | Uint8Array): Dataset {
  const { bytes, header, offsets } = openContainer<Header>(input, MAGIC, "a dataset file", (h) => [4 * h.series, 4 * h.points, 4 * h.points, h.idsBytes]);
  const [countsOffset, daysOffset, endsOffset, idsOffset, textOffset] = offsets as [number, number, number, number, number];
  const n = header.points;
  const counts = new Uint32Array(bytes.buffer, bytes.byteOffset + countsOffset, header.series);
  const days = new Int32Array(bytes.buffer, bytes.byteOffset + daysOffset, n);
  const ends = new Uint32Array(bytes.buffer, bytes.byteOffset + endsOffset, n);
  const ids = header.series === 0 ? [] : new TextDecoder().decode(bytes.subarray(idsOffset, textOffset)).split("\n");
  const text = bytes.subarray(textOffset);
  let start = 0;
  const series = ids.map((id, j) => {
    const count = counts[j] as number;
    const s = new ColumnSeries(id, start, count, days, ends, text);
    start += count;
    return s;
  });
  return {
    ...datasetFields(header),
    series,
  };
}
