/**
 * The schema.org `Dataset` of an indicator (https://schema.org/Dataset), as the
 * JSON-LD an indicator page embeds in `<script type="application/ld+json">`:
 * name, description, URL, licence, creator and publisher, temporal coverage,
 * the variable measured, free access and one `DataDownload` per download.
 */
import { indicatorPageUrl, type SiteConfig } from "../../core/indicator/config.js";
import type { Lang } from "../../core/text/i18n.js";
import type { BuiltIndicator } from "../dataset.js";
import { datasetIri } from "./dcat.js";
import { distributions } from "../../core/indicator/distributions.js";
import { LICENSE_URL, absoluteUrl, keywords, timeSpan } from "./facts.js";

/** The Dataset as a JSON-LD object, its texts in `lang` (the language of the page that embeds it). */
export function datasetJsonLd(config: SiteConfig, indicator: BuiltIndicator, lang: Lang): Record<string, unknown> {
  const { meta } = indicator.source;
  const coverage = timeSpan(indicator);
  return {
    "@context": "https://schema.org",
    "@type": "Dataset",
    "@id": datasetIri(config, meta.id),
    name: meta.title[lang],
    description: meta.description[lang],
    inLanguage: lang,
    url: indicatorPageUrl(config, meta.id, lang),
    identifier: meta.id,
    keywords: keywords(indicator),
    license: LICENSE_URL,
    isAccessibleForFree: true,
    // The statistics are the source's; the service compiles and publishes them.
    creator: { "@type": "Organization", name: meta.source.name[lang], url: meta.source.url },
    publisher: { "@type": "Organization", name: config.name, url: `${config.baseUrl}/` },
    isBasedOn: meta.source.url,
    spatialCoverage: { "@type": "Place", name: "Uruguay" },
    // ISO 8601 time interval, as schema.org's temporalCoverage asks.
    ...(coverage === null ? {} : { temporalCoverage: `${coverage.start}/${coverage.end}` }),
    variableMeasured: [
      { "@type": "PropertyValue", name: "value", description: meta.title[lang], unitText: meta.display.unit?.[lang] ?? meta.unit },
    ],
    distribution: distributions(meta.id, indicator.parts).map((d) => ({
      "@type": "DataDownload",
      name: d.title,
      encodingFormat: d.mediaType,
      contentUrl: absoluteUrl(config, d.path),
    })),
  };
}
