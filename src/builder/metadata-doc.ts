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
import { LOCALIZED_REF, PATH_OR_PARTS, POINT_COUNT, SITE_PATH, componentRef, facetList, indicatorFacts, indicatorFactsFields, pageLinkFields } from "./catalog.js";
import type { BuiltIndicator } from "./dataset.js";
import { freshnessFacts, scheduleFacts, seriesFreshness } from "./freshness.js";
import { csvPath, endpointPath, seriesPagePath } from "../core/file/paths.js";
import { unitLabels } from "../core/time/unit-labels.js";
import { csvFiles, downloadLinks } from "../core/indicator/distributions.js";
import { sourceKindCounts } from "../core/answer/source-kind-counts.js";
import { DAY, closedObject, type FieldDeclarations } from "../core/answer/schema.js";
import { SOURCE_KINDS } from "../core/answer/provenance.js";

/** The fields of the metadata document's `links`, in their order, with their schemas (the ones after `csv`: an indicator in parts only). */
export function metadataLinkFields(): FieldDeclarations {
  const inParts = "Only for an indicator too large for one file, whose downloads are in parts: ";
  return {
    ...pageLinkFields(),
    csv: { schema: { ...PATH_OR_PARTS, description: "Every point as CSV: `data.csv`, or its parts' files, newest first." } },
    csv_es: { optional: true, schema: { type: "array", items: SITE_PATH, description: `${inParts}the parts' CSV files in the Spanish dialect, newest first.` } },
    parquet: { optional: true, schema: { ...PATH_OR_PARTS, description: `${inParts}the Parquet files.` } },
    xlsx: { optional: true, schema: { ...PATH_OR_PARTS, description: `${inParts}the workbooks.` } },
    parts: {
      optional: true,
      schema: {
        type: "array",
        description: `${inParts}what each part holds, newest first: its name in its files' names, its oldest and newest day, its number of points.`,
        items: closedObject({ part: { schema: { type: "string" } }, first: { schema: DAY }, last: { schema: DAY }, points: { schema: POINT_COUNT } }),
      },
    },
  };
}

/** The fields of each item of the metadata document's `source_kinds`, with their schemas. */
export function sourceKindFields(): FieldDeclarations {
  return {
    kind: { schema: { type: "string", enum: [...SOURCE_KINDS, "none"], description: "The kind of document the points cite; `none`: points citing nothing." } },
    label: { schema: LOCALIZED_REF },
    points: { schema: POINT_COUNT },
    series: { schema: { type: "array", items: POINT_COUNT, description: "Each sub-series' number of points of that kind, in the order of `series`." } },
  };
}

/** The fields of each sub-series of the metadata document, with their schemas. */
export function metadataSeriesFields(): FieldDeclarations {
  return {
    id: { schema: { type: "string" } },
    title: { schema: LOCALIZED_REF },
    facets: { schema: { type: "array", items: { type: ["integer", "null"], minimum: 0 }, description: "Per facet, the index of the sub-series' value in `facets[k].values`; null: it has none." } },
    next_due: { optional: true, schema: { ...DAY, description: "When its next value is due; absent, with `overdue`, when none is expected (irregular, no points, or left out of later publications)." } },
    overdue: { optional: true, schema: { type: "boolean", description: "True when `next_due` is on or before the last check and the value is not in the data." } },
  };
}

/** The fields of the metadata document, in their order, with their schemas: OpenAPI's `Metadata`. */
export function metadataFields(): FieldDeclarations {
  // One label per mode `unitLabels` writes (its keys: the unit it is given does not matter here).
  const labels = Object.fromEntries(Object.keys(unitLabels({ es: "", en: "" })).map((mode) => [mode, { schema: LOCALIZED_REF }]));
  return {
    ...indicatorFactsFields(),
    schedule: { schema: componentRef("Schedule") },
    freshness: { schema: componentRef("Freshness") },
    units: { schema: closedObject(labels, "What the numbers of each `units` mode are (and of `real` and `per` answers), in both languages.") },
    links: { schema: closedObject(metadataLinkFields()) },
    facets: { schema: { type: "array", items: componentRef("Facet") } },
    source_kinds: { schema: { type: "array", items: closedObject(sourceKindFields()), description: `The kinds of source the points cite, in the order ${[...SOURCE_KINDS, "none"].join(", ")}.` } },
    series: { schema: { type: "array", items: closedObject(metadataSeriesFields()) } },
  };
}

/**
 * Renders the metadata document (compact, deterministic JSON; its fields: `metadataFields`). `version` is the
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
