/**
 * The catalog (`CATALOG_PATH`): the indicators, their sub-series, units,
 * sources and the links to the endpoint, the site page and the downloads, all
 * paths on the site serving it (a mirror's catalog leads to the mirror's files).
 */
import type { SiteConfig } from "../core/indicator/config.js";
import { LICENSE } from "../core/answer/contract.js";
import { DCAT_CATALOG_PATH, OPENAPI_PATH, SERVICE_FEED_PATH, endpointPath, feedPath, seriesPagePath } from "../core/file/paths.js";
import type { BuiltIndicator } from "./dataset.js";
import { freshnessFacts, scheduleFacts, STATUS_PATH } from "./freshness.js";
import { downloadLinks } from "../core/indicator/distributions.js";

/** What the catalog and the metadata document say of an indicator, in this key order. */
export function indicatorFacts({ source, answers }: Pick<BuiltIndicator, "source" | "answers">) {
  const { meta } = source;
  return {
    id: meta.id,
    title: meta.title,
    description: meta.description,
    unit: meta.unit,
    rhythm: meta.rhythm,
    stepwise: meta.stepwise,
    license: meta.license,
    source: meta.source,
    notes: meta.notes,
    last_updated: answers.lastUpdated,
    points: source.rows.length,
  };
}

/**
 * The facets of an indicator as the catalog and the metadata document list them:
 * in declaration order, each with its title and its values in declaration order,
 * `labels[i]` the label of `values[i]` in every language.
 */
export function facetList({ source }: Pick<BuiltIndicator, "source">) {
  return source.meta.facets.map((f) => ({ name: f.name, title: f.title, values: f.values.map((v) => v.value), labels: f.values.map((v) => v.label) }));
}

/** Renders the catalog as compact, deterministic JSON; `versions`: each indicator's data version (seconds), the last check's fallback. */
export function renderCatalog(config: SiteConfig, indicators: readonly BuiltIndicator[], versions: ReadonlyMap<string, number>): string {
  const catalog = {
    name: config.name,
    license: LICENSE,
    openapi: OPENAPI_PATH,
    dcat: DCAT_CATALOG_PATH,
    feed: SERVICE_FEED_PATH,
    status: STATUS_PATH,
    indicators: indicators.map((indicator) => {
      const { source, plain, labels, answers } = indicator;
      const { meta } = source;
      const endpoint = endpointPath(meta.id);
      return {
        ...indicatorFacts({ source, answers }),
        schedule: scheduleFacts(indicator),
        freshness: freshnessFacts(indicator, versions.get(meta.id) ?? 0),
        links: {
          endpoint,
          page: seriesPagePath(meta.id),
          page_en: seriesPagePath(meta.id, "en"),
          // The downloads by key, in their fixed order (json, csv, parquet, xlsx, datapackage); a split one as its parts' paths.
          ...downloadLinks(meta.id, indicator.parts),
          feed: feedPath(meta.id),
        },
        facets: facetList({ source }),
        series: plain.map((s, i) => {
          const { title, facets } = labels[i] as (typeof labels)[number];
          return {
            id: s.id,
            title,
            facets,
            points: s.dates.length,
            first: s.dates.at(-1) ?? null,
            last: s.dates[0] ?? null,
          };
        }),
      };
    }),
  };
  return JSON.stringify(catalog);
}
