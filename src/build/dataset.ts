/**
 * From validated source rows to the `Dataset` the pager reads: sub-series sorted by
 * id, newest first, encoded into the binary dataset file and decoded back, so the
 * build renders its pages from exactly what the function will read.
 */
import { stringify } from "csv-stringify/sync";
import { decodeAnswers, encodeAnswers, type AnswerData, type AnswerRow } from "../core/answers.js";
import { decodeDataset, encodeDataset, type PlainSeries } from "../core/columnar.js";
import type { DeflatorRef, Manifest } from "../core/manifest.js";
import type { Dataset } from "../core/model.js";
import { byCodeUnits } from "../core/order.js";
import { seriesLabels, type SeriesLabel } from "../core/series-meta.js";
import { spreadsheetNumber } from "../core/spreadsheet.js";
import type { SourceRow } from "../source/csv.js";
import type { IndicatorSource } from "../source/load.js";
import { temporalCoverage } from "./formats/facts.js";

/** Groups rows by sub-series, newest first; declared sub-series without points are kept, empty. */
export function plainSeries(source: IndicatorSource): PlainSeries[] {
  const bySeries = new Map<string, SourceRow[]>(source.meta.series.map((s) => [s.id, []]));
  for (const row of source.rows) bySeries.get(row.series)?.push(row);
  return [...bySeries.entries()]
    .sort(([a], [b]) => byCodeUnits(a, b))
    .map(([id, rows]) => {
      rows.sort((a, b) => byCodeUnits(b.date, a.date));
      return { id, dates: rows.map((r) => r.date), values: rows.map((r) => r.value) };
    });
}

/**
 * An indicator as the build renders it: its source (metadata and rows), its
 * sub-series as plain arrays with their labels, the site's dataset file and the
 * function's answer file, each with what is decoded from it: the build renders
 * from exactly what the site and the function read.
 */
export interface BuiltIndicator {
  readonly source: IndicatorSource;
  readonly plain: readonly PlainSeries[];
  /** Title and facets of each sub-series, in the order of `plain`. */
  readonly labels: readonly SeriesLabel[];
  /**
   * The indicator column-wise (src/core/columnar.ts) and its decoding, which the
   * catalog, the metadata document and the site's facts read; no longer published
   * (the page script reads group files, src/build/view-data.ts).
   */
  readonly file: Uint8Array;
  readonly dataset: Dataset;
  /** The function's answer file (src/core/answers.ts) and its decoding. */
  readonly answersFile: Uint8Array;
  readonly answers: AnswerData;
}

/** One point as a CSV line: the CSV library's quoting, so `data.csv` and CSV answers agree. */
export function csvLine(row: AnswerRow): string {
  return stringify([[row.date, row.series, row.value, row.source, row.note]]);
}

/** One point as a spreadsheet CSV line (`dialect=es`, src/core/spreadsheet.ts): `;`, decimal comma, CRLF. */
export function csvEsLine(row: AnswerRow): string {
  return stringify([[row.date, row.series, spreadsheetNumber(row.value), row.source, row.note]], { delimiter: ";", record_delimiter: "\r\n" });
}

/** Builds one indicator. `attribution` is the ready-made anchor, `attributionUrl` its target. */
export function buildIndicator(source: IndicatorSource, attribution: string, attributionUrl: string): BuiltIndicator {
  const plain = plainSeries(source);
  const lastUpdated = temporalCoverage({ plain })?.end ?? null;
  const fields = { indicator: source.meta.id, unit: source.meta.unit, license: source.meta.license, lastUpdated, attribution };
  const file = encodeDataset(fields, plain);
  const ids = plain.map((s) => s.id);
  const labels = seriesLabels(ids, source.meta.series);
  const answersFile = encodeAnswers({ ...fields, attributionUrl, rhythm: source.meta.rhythm, stepwise: source.meta.stepwise }, ids, source.rows, csvLine, csvEsLine);
  return { source, plain, labels, file, dataset: decodeDataset(file), answersFile, answers: decodeAnswers(answersFile) };
}

/** By unit, the index that deflates it (`deflates` in `indicator.json`; one per unit, src/source/load.ts). */
export function deflatorsOf(indicators: readonly BuiltIndicator[]): Manifest["deflators"] {
  const deflators: Record<string, DeflatorRef> = {};
  for (const { source } of indicators) for (const d of source.meta.deflates) deflators[d.unit] = { indicator: source.meta.id, series: d.series };
  return deflators;
}
