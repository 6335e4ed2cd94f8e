/**
 * `api/v1/index.json`: the catalog of indicators, their sub-series, units,
 * sources and the links to the endpoint, the site page and the downloads.
 */
import { indicatorPageUrl, type SiteConfig } from "../core/config.js";
import type { IndicatorSource } from "../source/load.js";
import type { PlainSeries } from "../core/columnar.js";
import type { Dataset } from "../core/model.js";
import { endpointPath } from "../core/render.js";

/** One indicator with its data: sub-series as plain arrays and the decoded dataset. */
export interface BuiltIndicator {
  readonly source: IndicatorSource;
  readonly plain: readonly PlainSeries[];
  readonly dataset: Dataset;
}

/** Renders the catalog as compact, deterministic JSON. */
export function renderCatalog(config: SiteConfig, indicators: readonly BuiltIndicator[]): string {
  const catalog = {
    name: config.name,
    license: "CC-BY-4.0",
    openapi: "/api/v1/openapi.json",
    indicators: indicators.map(({ source, plain, dataset }) => {
      const { meta } = source;
      const endpoint = endpointPath(meta.id);
      const declared = new Map(meta.series.map((d) => [d.id, d]));
      return {
        id: meta.id,
        title: meta.title,
        description: meta.description,
        unit: meta.unit,
        rhythm: meta.rhythm,
        license: meta.license,
        source: meta.source,
        notes: meta.notes,
        last_updated: dataset.lastUpdated,
        points: source.rows.length,
        links: {
          endpoint,
          page: indicatorPageUrl(config, meta.id),
          json: `${endpoint}/index.json`,
          csv: `${endpoint}/data.csv`,
        },
        series: plain.map((s) => {
          const d = declared.get(s.id);
          return {
            id: s.id,
            title: d?.title ?? s.id,
            facets: d?.facets ?? {},
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
