/**
 * Keeping the whole-indicator downloads within the host's largest file
 * (docs/formats.md "Files within the host's limit"): before anything is rendered,
 * the exact sizes of `data.csv` and `data.es.csv` (their header and their lines,
 * already in the answer data) say whether they fit. When either would not, the
 * indicator's CSV files, Parquet file and workbook are split into yearly parts,
 * and a year over the limit into numbered parts of whole days (part 1 the oldest),
 * so a past year's files never change when the data grows. An indicator whose
 * files fit keeps them, byte for byte.
 */
import { textStart } from "../core/file/answers.js";
import type { DownloadPart } from "../core/indicator/distributions.js";
import { BuildError } from "../source/errors.js";

/** One CSV rendering of every point: its header's bytes and the points' lines, in the order of `data.csv`. */
export interface CsvLines {
  readonly header: number;
  /** Every line, concatenated. */
  readonly bytes: Uint8Array;
  /** Where each line ends in `bytes`. */
  readonly ends: Uint32Array;
}

const decoder = new TextDecoder();

/**
 * The parts of an indicator's downloads, newest first, or `undefined` when its
 * CSV files fit `max` bytes whole. Every rendering in `csvs` has the same points
 * in the same order (`data.csv` and `data.es.csv`); a part holds at most `max`
 * bytes in each. Concatenated newest first without their headers, the parts are
 * the whole file.
 * @throws BuildError when one line with a header is over `max`: no part can hold it.
 */
export function downloadParts(id: string, csvs: readonly CsvLines[], max: number): DownloadPart[] | undefined {
  const first = csvs[0];
  if (first === undefined || csvs.every((c) => c.header + c.bytes.length <= max)) return undefined;
  const n = first.ends.length;
  const start = (c: CsvLines, g: number) => textStart(c.ends, g);
  /** The bytes of lines `[from, to)` with a header, in the largest rendering. */
  const size = (from: number, to: number) => Math.max(...csvs.map((c) => c.header + start(c, to) - start(c, from)));
  // Each line starts with its date (`YYYY-MM-DD`).
  const dateOf = (g: number) => decoder.decode(first.bytes.subarray(start(first, g), start(first, g) + 10));
  const parts: DownloadPart[] = [];
  let yearEnd = 0;
  while (yearEnd < n) {
    // The lines of one year: dates descend, so a year's lines are consecutive.
    const from = yearEnd;
    const year = dateOf(from).slice(0, 4);
    while (yearEnd < n && dateOf(yearEnd).startsWith(year)) yearEnd++;
    if (size(from, yearEnd) <= max) {
      parts.push({ name: year, from, to: yearEnd, first: dateOf(yearEnd - 1), last: dateOf(from) });
      continue;
    }
    parts.push(...splitYear(id, year, from, yearEnd, max, size, dateOf));
  }
  return parts;
}

/**
 * A year's lines `[from, to)` in numbered parts of at most `max` bytes, newest
 * first: whole days, gathered from the oldest (so the year's growth changes only
 * its newest part); a day too large alone is cut between its lines.
 */
function splitYear(
  id: string,
  year: string,
  from: number,
  to: number,
  max: number,
  size: (from: number, to: number) => number,
  dateOf: (g: number) => string,
): DownloadPart[] {
  // Closed parts, oldest first, as positions `[a, b)`; the open part is `[partStart, partEnd)`.
  const ranges: [number, number][] = [];
  let partStart = to;
  let partEnd = to;
  let dayEnd = to;
  while (dayEnd > from) {
    let dayStart = dayEnd - 1;
    const day = dateOf(dayStart);
    while (dayStart > from && dateOf(dayStart - 1) === day) dayStart--;
    if (size(dayStart, partEnd) <= max) {
      partStart = dayStart;
    } else {
      if (partStart < partEnd) ranges.push([partStart, partEnd]);
      let cut = dayEnd;
      if (size(dayStart, dayEnd) > max) {
        // The day alone is too large: cut where the next line would not fit.
        for (let g = dayEnd - 1; g >= dayStart; g--) {
          if (size(g, g + 1) > max) {
            throw new BuildError(`${id}: the point on line ${g + 2} of data.csv is over the largest file with a CSV header alone (${max} bytes, --max-file-bytes)`);
          }
          if (size(g, cut) > max) {
            ranges.push([g + 1, cut]);
            cut = g + 1;
          }
        }
      }
      partStart = dayStart;
      partEnd = cut;
    }
    dayEnd = dayStart;
  }
  if (partStart < partEnd) ranges.push([partStart, partEnd]);
  return ranges
    .map(([a, b], k) => ({ name: `${year}-part-${k + 1}`, from: a, to: b, first: dateOf(b - 1), last: dateOf(a) }))
    .reverse();
}
