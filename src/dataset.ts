/**
 * From validated source rows to the `Dataset` the pager reads: sub-series sorted by
 * id, each column-wise and newest first.
 */
import type { SourceRow } from "./csv.js";
import type { IndicatorSource } from "./load.js";
import type { Dataset, SeriesColumns } from "./model.js";

const byCodeUnits = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** Groups rows by sub-series, newest first; declared sub-series without points are kept, empty. */
export function seriesColumns(source: IndicatorSource): SeriesColumns[] {
  const bySeries = new Map<string, SourceRow[]>(source.meta.series.map((s) => [s.id, []]));
  for (const row of source.rows) bySeries.get(row.series)?.push(row);
  return [...bySeries.entries()]
    .sort(([a], [b]) => byCodeUnits(a, b))
    .map(([id, rows]) => {
      rows.sort((a, b) => byCodeUnits(b.date, a.date));
      return { id, dates: rows.map((r) => r.date), values: rows.map((r) => r.value) };
    });
}

/** Builds the dataset of one indicator. `attribution` is the ready-made anchor. */
export function toDataset(source: IndicatorSource, attribution: string): Dataset {
  const series = seriesColumns(source);
  let lastUpdated: string | null = null;
  for (const s of series) {
    const newest = s.dates[0];
    if (newest !== undefined && (lastUpdated === null || newest > lastUpdated)) lastUpdated = newest;
  }
  return {
    indicator: source.meta.id,
    unit: source.meta.unit,
    license: source.meta.license,
    lastUpdated,
    attribution,
    series,
  };
}
