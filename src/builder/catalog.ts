/**
 * The catalog (`CATALOG_PATH`): the indicators, their sub-series, units,
 * sources and the links to the endpoint, the site page and the downloads, all
 * paths on the site serving it (a mirror's catalog leads to the mirror's files).
 */
import type { SiteConfig } from "../core/indicator/config.js";
import { LICENSE } from "../core/answer/contract.js";
import { DAY_OR_NULL, closedObject, type FieldDeclarations, type JsonSchema } from "../core/answer/schema.js";
import { RHYTHMS } from "../core/time/coverage.js";
import { DCAT_CATALOG_PATH, OPENAPI_PATH, SERVICE_FEED_PATH, endpointPath, feedPath, seriesPagePath } from "../core/file/paths.js";
import type { BuiltIndicator } from "./dataset.js";
import { freshnessFacts, scheduleFacts, STATUS_PATH } from "./freshness.js";
import { downloadLinks } from "../core/indicator/distributions.js";

/**
 * A reference to the OpenAPI component `name` (`#/components/schemas/<name>`): a
 * schema the catalog and the metadata document share (`Localized`, `Facet`,
 * `Schedule`, `Freshness`) is named once there and referred to, so the document
 * stays readable. (Here, not in src/core/answer/schema.ts, which the pages' script
 * bundles: the build alone writes these documents.)
 */
export const componentRef = (name: string): JsonSchema => ({ $ref: `#/components/schemas/${name}` });

/** A text in both languages: OpenAPI's `Localized`. */
export const LOCALIZED_REF = componentRef("Localized");

/** A path on the site serving the document (the catalog's and the metadata document's links). */
export const SITE_PATH = { type: "string" } as const;

/** A number of points. */
export const POINT_COUNT = { type: "integer", minimum: 0 } as const;

/** The fields `indicatorFacts` writes, in its order, with their schemas. */
export function indicatorFactsFields(): FieldDeclarations {
  return {
    id: { schema: { type: "string" } },
    title: { schema: LOCALIZED_REF },
    description: { schema: LOCALIZED_REF },
    unit: { schema: { type: "string" } },
    rhythm: { schema: { type: "string", enum: [...RHYTHMS] } },
    stepwise: { schema: { type: "boolean", description: "True when a value holds until the next one (a tariff, a legal minimum)." } },
    license: { schema: { type: "string" } },
    source: { schema: closedObject({ name: { schema: LOCALIZED_REF }, url: { schema: { type: "string", format: "uri" } } }) },
    notes: { schema: { type: "array", items: LOCALIZED_REF } },
    last_updated: { schema: { ...DAY_OR_NULL, description: "The newest point's date." } },
    points: { schema: { ...POINT_COUNT, description: "How many points it has, every sub-series." } },
  };
}

/** What the catalog and the metadata document say of an indicator, in this key order (`indicatorFactsFields`). */
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

/** The fields of each facet `facetList` writes, with their schemas: OpenAPI's `Facet`. */
export function facetFields(): FieldDeclarations {
  return {
    name: { schema: { type: "string" } },
    title: { schema: LOCALIZED_REF },
    values: { schema: { type: "array", items: { type: "string" }, description: "The values, in display order (language-neutral keys)." } },
    labels: { schema: { type: "array", items: LOCALIZED_REF, description: "labels[i] is the label of values[i]." } },
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

/** A download's path, or for a download in parts (src/builder/download-parts.ts) its parts' paths, newest first. */
export const PATH_OR_PARTS: JsonSchema = { oneOf: [SITE_PATH, { type: "array", items: SITE_PATH }] };

/** The first links of an indicator in the catalog and in the metadata document: its endpoint and its pages. */
export function pageLinkFields(): FieldDeclarations {
  return {
    endpoint: { schema: SITE_PATH },
    page: { schema: { ...SITE_PATH, description: "The indicator's page in Spanish." } },
    page_en: { schema: { ...SITE_PATH, description: "The indicator's page in English." } },
  };
}

/** The fields of an indicator's `links` in the catalog, in their order, with their schemas. */
export function catalogLinkFields(): FieldDeclarations {
  return {
    ...pageLinkFields(),
    json: { schema: { ...SITE_PATH, description: "The API's default answer as a file." } },
    csv: { schema: PATH_OR_PARTS },
    parquet: { schema: PATH_OR_PARTS },
    xlsx: { schema: PATH_OR_PARTS },
    datapackage: { schema: SITE_PATH },
    feed: { schema: { ...SITE_PATH, description: "The indicator's Atom feed." } },
  };
}

/** The fields of each sub-series of an indicator in the catalog, in their order, with their schemas. */
export function catalogSeriesFields(): FieldDeclarations {
  return {
    id: { schema: { type: "string" } },
    title: { schema: LOCALIZED_REF },
    facets: { schema: { type: "object", additionalProperties: { type: "string" }, description: "The sub-series' value of each facet it has, by facet name." } },
    points: { schema: POINT_COUNT },
    first: { schema: { ...DAY_OR_NULL, description: "Its oldest point's date; null: no point." } },
    last: { schema: { ...DAY_OR_NULL, description: "Its newest point's date; null: no point." } },
  };
}

/** The fields of each indicator of the catalog, in their order, with their schemas. */
export function catalogIndicatorFields(): FieldDeclarations {
  return {
    ...indicatorFactsFields(),
    schedule: { schema: componentRef("Schedule") },
    freshness: { schema: componentRef("Freshness") },
    links: { schema: closedObject(catalogLinkFields()) },
    facets: { schema: { type: "array", items: componentRef("Facet") } },
    series: { schema: { type: "array", items: closedObject(catalogSeriesFields()) } },
  };
}

/** The fields of the catalog, in their order, with their schemas: OpenAPI's `Catalog`. */
export function catalogFields(): FieldDeclarations {
  return {
    name: { schema: { type: "string" } },
    license: { schema: { type: "string" } },
    openapi: { schema: { ...SITE_PATH, description: "This API's OpenAPI description." } },
    dcat: { schema: { ...SITE_PATH, description: "The DCAT catalog (JSON-LD)." } },
    feed: { schema: { ...SITE_PATH, description: "The service's Atom feed." } },
    status: { schema: { ...SITE_PATH, description: "Every indicator's freshness." } },
    indicators: { schema: { type: "array", items: closedObject(catalogIndicatorFields()) } },
  };
}

/**
 * Renders the catalog as compact, deterministic JSON (its fields: `catalogFields`); `versions`:
 * each indicator's data version (seconds), the last check's fallback.
 */
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
