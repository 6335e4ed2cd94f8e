/**
 * `datapackage.json`: a Frictionless Data Package (Data Package v1,
 * https://specs.frictionlessdata.io/data-package/) describing `data.csv` as a
 * Tabular Data Resource with its Table Schema (fields, types, primary key) and
 * CSV Dialect, plus the Parquet and XLSX files as further resources; licence,
 * sources, contributors, title and description. Resource paths are relative to
 * the descriptor, so a mirror of the folder stays a valid package.
 */
import { indicatorPageUrl, type SiteConfig } from "../../core/indicator/config.js";
import { CATALOG_PATH, dataPackagePath } from "../../core/file/paths.js";
import { ID_PATTERN, type IndicatorMeta } from "../../source/metadata.js";
import type { BuiltIndicator } from "../dataset.js";
import { downloads, fileName, inPart, type Distribution } from "../../core/indicator/distributions.js";
import { LICENSE_TITLE, LICENSE_URL, absoluteUrl, dateMeaning, isoDateTime, keywords } from "./facts.js";

/** A Table Schema field (https://specs.frictionlessdata.io/table-schema/). */
export interface SchemaField {
  readonly name: string;
  readonly type: "date" | "string" | "number";
  readonly format?: string;
  readonly title?: string;
  readonly description?: string;
  readonly constraints?: { readonly required?: boolean; readonly pattern?: string };
}

/** The name of the CSV resource in the package. */
export const CSV_RESOURCE = "data";

/**
 * The Table Schema of `data.csv`: its columns in order. Table Schema patterns are
 * XML Schema regular expressions, which match the whole value: no anchors.
 */
export function csvFields(meta: IndicatorMeta): SchemaField[] {
  const unit = meta.display.unit?.en ?? meta.unit;
  return [
    { name: "date", type: "date", format: "default", title: "Date", description: dateMeaning(meta), constraints: { required: true } },
    {
      name: "series",
      type: "string",
      title: "Sub-series",
      description: `The sub-series id; its title and facets are in the catalog (${CATALOG_PATH}).`,
      constraints: { required: true, pattern: ID_PATTERN.source.replace(/^\^|\$$/g, "") },
    },
    { name: "value", type: "number", title: "Value", description: `The value in ${unit}, exactly as the source publishes it.`, constraints: { required: true } },
    { name: "source", type: "string", format: "uri", title: "Source", description: "The URL of the publication the point was read from; its kind (official publication, press, reference work, …) is declared in the indicator's metadata document (source_kinds) and given per value by the API's provenance=true." },
    { name: "note", type: "string", title: "Note", description: "A remark on the point, when there is one." },
  ];
}

/** Renders the indicator's Data Package descriptor; `version` is its data version (seconds since the epoch). */
export function renderDataPackage(config: SiteConfig, indicator: BuiltIndicator, version: number): string {
  const { meta } = indicator.source;
  const { csv, parquet, xlsx } = downloads(meta.id);
  const csvResource = (name: string, path: string, title: string) => ({
    name,
    path,
    profile: "tabular-data-resource",
    title,
    format: "csv",
    mediatype: csv.mediaType,
    encoding: "utf-8",
    // CSV Dialect (https://specs.frictionlessdata.io/csv-dialect/): LF line ends, not the default CRLF.
    dialect: { delimiter: ",", lineTerminator: "\n", quoteChar: '"', doubleQuote: true, header: true },
    schema: { fields: csvFields(meta), primaryKey: ["series", "date"], missingValues: [""] },
  });
  const others = (suffix: string, d: Distribution, format: string) => ({ name: `${CSV_RESOURCE}${suffix}-${format}`, path: fileName(d), profile: "data-resource", title: d.title, format, mediatype: d.mediaType });
  // An indicator in parts (src/builder/download-parts.ts): each part's files as resources, newest first.
  const resources =
    indicator.parts === undefined
      ? [csvResource(CSV_RESOURCE, fileName(csv), csv.title), others("", parquet, "parquet"), others("", xlsx, "xlsx")]
      : indicator.parts.flatMap((part) => {
          const suffix = `-${part.name}`;
          const partCsv = inPart(csv, part);
          return [csvResource(`${CSV_RESOURCE}${suffix}`, fileName(partCsv), partCsv.title), others(suffix, inPart(parquet, part), "parquet"), others(suffix, inPart(xlsx, part), "xlsx")];
        });
  const descriptor = {
    profile: "tabular-data-package",
    name: meta.id,
    id: absoluteUrl(config, dataPackagePath(meta.id)),
    title: meta.title.en,
    description: meta.description.en,
    homepage: indicatorPageUrl(config, meta.id),
    created: isoDateTime(version),
    keywords: keywords(indicator),
    licenses: [{ name: meta.license, path: LICENSE_URL, title: LICENSE_TITLE }],
    sources: [{ title: meta.source.name.en, path: meta.source.url }],
    contributors: [{ title: config.name, path: `${config.baseUrl}/`, role: "publisher" }],
    resources,
  };
  return `${JSON.stringify(descriptor, null, 2)}\n`;
}
