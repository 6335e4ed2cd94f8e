/**
 * From validated source rows to the `Dataset` the pager reads: sub-series sorted by
 * id, newest first, encoded into the binary dataset file and decoded back, so the
 * build renders its pages from exactly what the function will read.
 */
import { decodeDataset, encodeDataset, type PlainSeries } from "../core/columnar.js";
import type { SourceRow } from "../source/csv.js";
import type { IndicatorSource } from "../source/load.js";
import type { Dataset } from "../core/model.js";
import { byCodeUnits } from "../core/order.js";

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

/** An indicator's data in its three forms: plain arrays, the dataset file, and the decoded dataset. */
export interface IndicatorData {
  readonly plain: readonly PlainSeries[];
  readonly file: Uint8Array;
  readonly dataset: Dataset;
}

/** Builds the data of one indicator. `attribution` is the ready-made anchor. */
export function indicatorData(source: IndicatorSource, attribution: string): IndicatorData {
  const plain = plainSeries(source);
  let lastUpdated: string | null = null;
  for (const s of plain) {
    const newest = s.dates[0];
    if (newest !== undefined && (lastUpdated === null || newest > lastUpdated)) lastUpdated = newest;
  }
  const fields = { indicator: source.meta.id, unit: source.meta.unit, license: source.meta.license, lastUpdated, attribution };
  const file = encodeDataset(fields, plain);
  return { plain, file, dataset: decodeDataset(file) };
}
