/**
 * The downloads of an indicator, stated once for every format that lists them
 * (the catalog's links, the Data Package's resources, the DCAT distributions,
 * the schema.org `DataDownload`s and the page's download list): path, media type
 * (IANA), file type (the EU Publications Office's file-type authority, which
 * DCAT-AP uses for `dct:format`) and a title.
 */
import { LIMIT } from "./contract.js";
import { csvPath, dataPackagePath, defaultPagePath, parquetPath, xlsxPath } from "./paths.js";

export type DistributionKey = "json" | "csv" | "parquet" | "xlsx" | "datapackage";

export interface Distribution {
  readonly key: DistributionKey;
  /** Absolute path on the site (`/api/v1/…`). */
  readonly path: string;
  /** IANA media type. */
  readonly mediaType: string;
  /** Code in http://publications.europa.eu/resource/authority/file-type/. */
  readonly fileType: string;
  readonly title: string;
}

/** Media type of an Office Open XML workbook (ECMA-376, registered with IANA). */
export const XLSX_MEDIA_TYPE = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet";
/** Media type of Apache Parquet (registered with IANA in 2024). */
export const PARQUET_MEDIA_TYPE = "application/vnd.apache.parquet";

/** The indicator's downloads by key. */
export function downloads(indicator: string): Readonly<Record<DistributionKey, Distribution>> {
  return {
    json: { key: "json", path: defaultPagePath(indicator), mediaType: "application/json", fileType: "JSON", title: `JSON: the API's default answer (the newest ${LIMIT.default} points of every sub-series)` },
    csv: { key: "csv", path: csvPath(indicator), mediaType: "text/csv", fileType: "CSV", title: "CSV: every point with its source and note" },
    parquet: { key: "parquet", path: parquetPath(indicator), mediaType: PARQUET_MEDIA_TYPE, fileType: "PARQUET", title: "Apache Parquet: every point, typed, with the facets as columns" },
    xlsx: { key: "xlsx", path: xlsxPath(indicator), mediaType: XLSX_MEDIA_TYPE, fileType: "XLSX", title: "Excel workbook: every point and a metadata sheet" },
    datapackage: { key: "datapackage", path: dataPackagePath(indicator), mediaType: "application/json", fileType: "JSON", title: "Frictionless Data Package: the CSV's schema, licence and sources" },
  };
}

/** The indicator's downloads in a fixed order, JSON (the API's default page) first. */
export function distributions(indicator: string): Distribution[] {
  return Object.values(downloads(indicator));
}

/** The file name of a download, for links relative to its folder. */
export function fileName(distribution: Distribution): string {
  return distribution.path.slice(distribution.path.lastIndexOf("/") + 1);
}
