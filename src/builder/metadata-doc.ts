/**
 * The metadata document of an indicator (`metadataPath`, `/api/v1/<id>/metadata.json`),
 * linked from every answer (`meta.metadata`, `Link: rel="describedby"`): what a
 * client needs to label an answer without the catalog of every indicator — unit,
 * source, licence, notes, the facets with their values, and each sub-series with
 * its title and facets (as indices into the facet values); the points, first and
 * last dates of each sub-series are in the catalog. About half the catalog's size
 * for an indicator of many faceted sub-series (docs/api.md, "The API contract").
 * `source_kinds` says what kind of document the points cite (src/core/answer/provenance.ts),
 * and how many points of each kind every sub-series has (column-wise).
 */
import { facetList, indicatorFacts } from "./catalog.js";
import type { BuiltIndicator } from "./dataset.js";
import { freshnessFacts, scheduleFacts, seriesFreshness } from "./freshness.js";
import { csvPath, endpointPath, seriesPagePath } from "../core/file/paths.js";
import { unitLabels } from "../core/time/unit-labels.js";
import { csvFiles, downloadLinks } from "../core/indicator/distributions.js";
import { sourceKindCounts } from "../core/answer/source-kind-counts.js";

/**
 * Renders the metadata document (compact, deterministic JSON). `version` is the
 * data version (seconds): the last check's fallback (src/builder/freshness.ts).
 */
export function renderMetadata(indicator: BuiltIndicator, version: number): string {
  const { source, labels, answers } = indicator;
  const { meta } = source;
  // When each sub-series' next value is due (src/builder/freshness.ts); absent for one without points.
  const fresh = new Map(seriesFreshness(indicator, version).map((f) => [f.id, f]));
  const facets = facetList({ source });
  const names = facets.map((f) => f.name);
  const values = new Map(facets.map((f) => [f.name, f.values]));
  const kinds = sourceKindCounts(meta.sourceKinds, source.rows);
  const doc = {
    ...indicatorFacts({ source, answers }),
    // What the numbers of each `units` mode (and of `real`, `per`) are, in both languages.
    schedule: scheduleFacts(indicator),
    freshness: freshnessFacts(indicator, version),
    units: unitLabels(meta.display.unit ?? { es: meta.unit, en: meta.unit }),
    links: { endpoint: endpointPath(meta.id), page: seriesPagePath(meta.id), page_en: seriesPagePath(meta.id, "en"), ...partLinks(indicator) },
    facets,
    // The kinds the points cite, each with its label, its number of points and, column-wise (the size of a
    // document of many sub-series), each sub-series' number of points of that kind, in the order of \`series\`.
    source_kinds: kinds.kinds.map((k, i) => ({ ...k, series: labels.map((label) => kinds.bySeries.get(label.id)?.[i] ?? 0) })),
    series: labels.map((label) => ({
      id: label.id,
      title: label.title,
      // Per facet, the index of the sub-series' value in `facets[k].values` (null when it has none).
      facets: names.map((name) => {
        const value = label.facets[name];
        return value === undefined ? null : (values.get(name) ?? []).indexOf(value);
      }),
      // Only where a next value is expected: 1,554 sub-series of irregular prices would carry 50 KB of nulls.
      ...freshnessOfSeries(fresh.get(label.id)),
    })),
  };
  return JSON.stringify(doc);
}

/**
 * Every point as CSV: `csv`, the path of `data.csv`; for an indicator in parts
 * (src/builder/download-parts.ts), the paths of its parts' files, newest first, and
 * what each part holds.
 */
function partLinks({ source, parts }: BuiltIndicator): Record<string, unknown> {
  const { id } = source.meta;
  if (parts === undefined) return { csv: csvPath(id) };
  const { csv, parquet, xlsx } = downloadLinks(id, parts);
  return {
    csv,
    csv_es: csvFiles(id, parts, "es"),
    parquet,
    xlsx,
    parts: parts.map((part) => ({ part: part.name, first: part.first, last: part.last, points: part.to - part.from })),
  };
}

/** A sub-series' `next_due` and `overdue`, or nothing when no next value is expected (`next_due` would be null). */
function freshnessOfSeries(fresh: { readonly nextDue: string | null; readonly overdue: boolean } | undefined): { next_due?: string; overdue?: boolean } {
  return fresh === undefined || fresh.nextDue === null ? {} : { next_due: fresh.nextDue, overdue: fresh.overdue };
}
