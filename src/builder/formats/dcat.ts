/**
 * `/api/v1/catalog.jsonld`: the whole service as a DCAT catalog in JSON-LD, with
 * the DCAT-AP vocabulary (DCAT-AP 3.0, https://semiceu.github.io/DCAT-AP/):
 * a `dcat:Catalog` holding one `dcat:Dataset` per indicator, each with one
 * `dcat:Distribution` per download (src/builder/formats/distributions.ts), and a
 * `dcat:DataService` for the API (endpoint URL, OpenAPI description). Controlled
 * vocabularies are those DCAT-AP names: the EU Publications Office's authority
 * tables for language, country, frequency and file type; IANA media types.
 *
 * What identifies is absolute, from the configured base URL, wherever the catalog
 * is served: the `@id` of the catalog, each dataset, distribution and the service,
 * and the publisher with its homepage (an RDF node's IRI names one thing; a mirror
 * serves the same datasets, not new ones). What a reader follows is a path
 * (`dcat:downloadURL`, `dcat:accessURL`, `dcat:landingPage`, the service's
 * `dcat:endpointURL` and `dcat:endpointDescription`, the catalog's homepage):
 * JSON-LD resolves a relative IRI against the document's own address (JSON-LD 1.1
 * §4.1.3, no `@base` here), so a mirror's catalog leads to the mirror's files.
 */
import { indicatorPageUrl, type SiteConfig } from "../../core/indicator/config.js";
import { API_BASE } from "../../core/answer/contract.js";
import { LANGS, type Lang, type Localized } from "../../core/text/i18n.js";
import { sourceKindCounts } from "../../core/answer/source-kind-counts.js";
import { CATALOG_PATH, DCAT_CATALOG_PATH, OPENAPI_PATH, endpointPath, homePath, seriesPagePath } from "../../core/file/paths.js";
import type { BuiltIndicator } from "../dataset.js";
import { distributions, type Distribution } from "../../core/indicator/distributions.js";
import { LICENSE_URL, absoluteUrl, isoDateTime, keywords, newestVersion, timeSpan, versionOf } from "./facts.js";

const EU = "http://publications.europa.eu/resource/authority";

/** The JSON-LD context: the prefixes of the vocabularies used. */
const CONTEXT = {
  dcat: "http://www.w3.org/ns/dcat#",
  dct: "http://purl.org/dc/terms/",
  foaf: "http://xmlns.com/foaf/0.1/",
  xsd: "http://www.w3.org/2001/XMLSchema#",
} as const;

/**
 * `dct:accrualPeriodicity` from an indicator's rhythm (EU frequency authority
 * table); a rhythm it does not name is left out rather than guessed.
 */
const FREQUENCIES: Readonly<Record<string, string>> = {
  daily: "DAILY",
  weekly: "WEEKLY",
  monthly: "MONTHLY",
  quarterly: "QUARTERLY",
  semiannual: "ANNUAL_2",
  annual: "ANNUAL",
  irregular: "IRREG",
};

const ref = (iri: string) => ({ "@id": iri });
const text = (value: string) => ({ "@value": value, "@language": "en" });
/** A label in every language of the site, each a language-tagged literal. */
const texts = (value: Localized) => LANGS.map((lang) => ({ "@value": value[lang], "@language": lang }));
const typed = (value: string, type: "xsd:date" | "xsd:dateTime") => ({ "@value": value, "@type": type });

/** The IRI of an indicator's dataset: its page's `#dataset` (also the `@id` of the page's schema.org Dataset). */
export function datasetIri(config: SiteConfig, indicator: string): string {
  return `${indicatorPageUrl(config, indicator)}#dataset`;
}

/** The IRI of the API as a data service. */
export function serviceIri(config: SiteConfig): string {
  return `${absoluteUrl(config, DCAT_CATALOG_PATH)}#api`;
}

function publisher(config: SiteConfig) {
  return { "@id": `${config.baseUrl}/#publisher`, "@type": "foaf:Agent", "foaf:name": config.name, "foaf:homepage": ref(`${config.baseUrl}/`) };
}

function distribution(config: SiteConfig, indicator: string, d: Distribution, modified: string) {
  const isApi = d.key === "json";
  return {
    "@id": absoluteUrl(config, d.path),
    "@type": "dcat:Distribution",
    "dct:title": text(d.title),
    // DCAT-AP: accessURL is mandatory; for the API's answer it is the endpoint, reached through the service.
    "dcat:accessURL": ref(isApi ? endpointPath(indicator) : d.path),
    "dcat:downloadURL": ref(d.path),
    ...(isApi ? { "dcat:accessService": ref(serviceIri(config)) } : {}),
    "dcat:mediaType": ref(`https://www.iana.org/assignments/media-types/${d.mediaType}`),
    "dct:format": ref(`${EU}/file-type/${d.fileType}`),
    ...(d.key === "datapackage" ? { "dct:conformsTo": ref("https://specs.frictionlessdata.io/data-package/") } : {}),
    "dct:license": ref(LICENSE_URL),
    "dct:modified": typed(modified, "xsd:dateTime"),
  };
}

/** "Values by kind of source: official publication: 12; press: 34", in every language. */
function provenanceText(indicator: BuiltIndicator): Localized {
  const { kinds } = sourceKindCounts(indicator.source.meta.sourceKinds, indicator.source.rows);
  const list = (lang: Lang) => kinds.map((k) => `${k.label[lang]}: ${k.points}`).join("; ");
  return { es: `Valores según el tipo de su fuente: ${list("es")}`, en: `Values by kind of source: ${list("en")}` };
}

function dataset(config: SiteConfig, indicator: BuiltIndicator, version: number) {
  const { meta } = indicator.source;
  const modified = isoDateTime(version);
  const coverage = timeSpan(indicator);
  const frequency = FREQUENCIES[meta.rhythm];
  return {
    "@id": datasetIri(config, meta.id),
    "@type": "dcat:Dataset",
    "dct:identifier": meta.id,
    "dct:title": texts(meta.title),
    "dct:description": texts(meta.description),
    "dcat:keyword": keywords(indicator).map(text),
    "dct:language": [ref(`${EU}/language/SPA`), ref(`${EU}/language/ENG`)],
    "dct:spatial": ref(`${EU}/country/URY`),
    ...(coverage === null
      ? {}
      : { "dct:temporal": { "@type": "dct:PeriodOfTime", "dcat:startDate": typed(coverage.start, "xsd:date"), "dcat:endDate": typed(coverage.end, "xsd:date") } }),
    ...(frequency === undefined ? {} : { "dct:accrualPeriodicity": ref(`${EU}/frequency/${frequency}`) }),
    "dct:modified": typed(modified, "xsd:dateTime"),
    "dct:publisher": ref(`${config.baseUrl}/#publisher`),
    "dct:source": ref(meta.source.url),
    // Not every value is the publisher's: the kinds of source of the points, counted (src/core/answer/provenance.ts).
    "dct:provenance": { "@type": "dct:ProvenanceStatement", "dct:description": texts(provenanceText(indicator)) },
    "dct:license": ref(LICENSE_URL),
    "dcat:landingPage": ref(seriesPagePath(meta.id)),
    "dcat:distribution": distributions(meta.id, indicator.parts).map((d) => distribution(config, meta.id, d, modified)),
  };
}

/** Renders the catalog; `versions` holds each indicator's data version (seconds since the epoch). */
export function renderDcatCatalog(config: SiteConfig, indicators: readonly BuiltIndicator[], versions: ReadonlyMap<string, number>): string {
  const catalog = {
    "@context": CONTEXT,
    "@id": absoluteUrl(config, DCAT_CATALOG_PATH),
    "@type": "dcat:Catalog",
    "dct:title": text(config.name),
    "dct:description": text("Uruguayan statistical indicators as time series, free under CC BY 4.0: a JSON API and downloads."),
    "dct:language": [ref(`${EU}/language/SPA`), ref(`${EU}/language/ENG`)],
    "dct:license": ref(LICENSE_URL),
    "dct:publisher": publisher(config),
    "dct:modified": typed(isoDateTime(newestVersion(versions)), "xsd:dateTime"),
    "foaf:homepage": ref(homePath()),
    "dcat:service": {
      "@id": serviceIri(config),
      "@type": "dcat:DataService",
      "dct:title": text(`${config.name} API`),
      "dct:description": text(`The JSON API: ${endpointPath("{indicator}")} with optional query parameters; the list of indicators is ${CATALOG_PATH}.`),
      "dcat:endpointURL": ref(API_BASE),
      "dcat:endpointDescription": ref(OPENAPI_PATH),
      "dct:license": ref(LICENSE_URL),
      "dct:publisher": ref(`${config.baseUrl}/#publisher`),
      "dcat:servesDataset": indicators.map((i) => ref(datasetIri(config, i.source.meta.id))),
    },
    "dcat:dataset": indicators.map((i) => dataset(config, i, versionOf(versions, i.source.meta.id))),
  };
  return JSON.stringify(catalog);
}
