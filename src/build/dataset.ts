/**
 * From validated source rows to the `Dataset` the pager reads: sub-series sorted by
 * id, newest first, encoded into the binary dataset file and decoded back, so the
 * build renders its pages from exactly what the function will read.
 */
import { decodeDataset, encodeDataset, type PlainSeries } from "../core/columnar.js";
import type { Dataset } from "../core/model.js";
import { byCodeUnits } from "../core/order.js";
import { seriesLabels, type SeriesLabel } from "../core/series-meta.js";
import type { SourceRow } from "../source/csv.js";
import type { IndicatorSource } from "../source/load.js";

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
 * sub-series as plain arrays with their labels, the dataset file and the dataset
 * decoded from that file.
 */
export interface BuiltIndicator {
  readonly source: IndicatorSource;
  readonly plain: readonly PlainSeries[];
  /** Title and facets of each sub-series, in the order of `plain`. */
  readonly labels: readonly SeriesLabel[];
  readonly file: Uint8Array;
  readonly dataset: Dataset;
}

/** Builds one indicator. `attribution` is the ready-made anchor. */
export function buildIndicator(source: IndicatorSource, attribution: string): BuiltIndicator {
  const plain = plainSeries(source);
  let lastUpdated: string | null = null;
  for (const s of plain) {
    const newest = s.dates[0];
    if (newest !== undefined && (lastUpdated === null || newest > lastUpdated)) lastUpdated = newest;
  }
  const fields = { indicator: source.meta.id, unit: source.meta.unit, license: source.meta.license, lastUpdated, attribution };
  const file = encodeDataset(fields, plain);
  const labels = seriesLabels(
    plain.map((s) => s.id),
    source.meta.series,
  );
  return { source, plain, labels, file, dataset: decodeDataset(file) };
}
