/**
 * The downloads of an indicator, stated once for every format that lists them
 * (the catalog's links, the Data Package's resources, the DCAT distributions,
 * the schema.org `DataDownload`s and the page's download list): path, media type
 * (IANA), file type (the EU Publications Office's file-type authority, which
 * DCAT-AP uses for `dct:format`) and a title.
 */
import { LIMIT } from "../answer/contract.js";
import { csvEsPath, csvPath, dataPackagePath, defaultPagePath, parquetPath, xlsxPath } from "../file/paths.js";

export type DistributionKey = "json" | "csv" | "parquet" | "xlsx" | "datapackage";

/**
 * One part of an indicator whose whole-indicator downloads would pass the host's
 * largest file (docs/formats.md "Files within the host's limit"): the points of one
 * year, or of a stretch of days of a year too large for one file.
 */
export interface DownloadPart {
  /** The name in its files' names: the year (`2024`), or the year and its number (`2024-part-2`; part 1 holds the year's oldest days). */
  readonly name: string;
  /** Its points, as positions in the order of `data.csv`: `[from, to)`. */
  readonly from: number;
  readonly to: number;
  /** Its oldest and newest day. */
  readonly first: string;
  readonly last: string;
}

/** The downloads split into parts: the CSV files, the Parquet file and the workbook. */
const SPLIT_KEYS: ReadonlySet<DistributionKey> = new Set(["csv", "parquet", "xlsx"]);

/** The path of a whole-indicator file's part: `data.csv` → `data-2024.csv`, `data.es.csv` → `data-2024-part-2.es.csv`. */
export function partPath(path: string, part: DownloadPart): string {
  const slash = path.lastIndexOf("/");
  const dot = path.indexOf(".", slash);
  return `${path.slice(0, dot)}-${part.name}${path.slice(dot)}`;
}

/** Where a part's points are, for titles: the year, or the year's part and its days. */
export function partTitle(part: DownloadPart): string {
  const year = part.name.slice(0, 4);
  return part.name === year ? year : `${year}, part ${part.name.slice(10)}: ${part.first} to ${part.last}`;
}

/** The files of a whole-indicator CSV download, `data.csv` or `data.es.csv`: itself, or its parts newest first. */
export function csvFiles(indicator: string, parts: readonly DownloadPart[] | undefined, dialect: "plain" | "es" = "plain"): string[] {
  const path = dialect === "es" ? csvEsPath(indicator) : csvPath(indicator);
  return parts === undefined ? [path] : parts.map((part) => partPath(path, part));
}

export interface Distribution {
  readonly key: DistributionKey;
  /** Absolute path on the site (`/api/v1/…`). */
  readonly path: string;
  /** IANA media type. */
  readonly mediaType: string;
  /** Code in http://publications.europa.eu/resource/authority/file-type/. */
  readonly fileType: string;
  readonly title: string;
  /** The part of a split download this file holds (`DownloadPart.name`); absent for a whole file. */
  readonly part?: string;
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

/**
 * The indicator's downloads in a fixed order, JSON (the API's default page) first;
 * a split download (`parts` given) as one entry per part, newest first, in its place.
 */
export function distributions(indicator: string, parts?: readonly DownloadPart[]): Distribution[] {
  return Object.values(downloads(indicator)).flatMap((d) => (parts === undefined || !SPLIT_KEYS.has(d.key) ? [d] : parts.map((part) => inPart(d, part))));
}

/** One part of a whole-indicator download: its file and its title. */
export function inPart(d: Distribution, part: DownloadPart): Distribution {
  return { ...d, path: partPath(d.path, part), title: `${d.title} (${partTitle(part)})`, part: part.name };
}

/** The downloads' paths by key (the catalog's and the metadata document's links): a split download's as the list of its parts' paths. */
export function downloadLinks(indicator: string, parts?: readonly DownloadPart[]): Record<string, string | string[]> {
  const links: Record<string, string | string[]> = {};
  for (const d of distributions(indicator, parts)) {
    const known = links[d.key];
    links[d.key] = d.part === undefined ? d.path : [...(Array.isArray(known) ? known : []), d.path];
  }
  return links;
}

/** The file name of a download, for links relative to its folder. */
export function fileName(distribution: Distribution): string {
  return distribution.path.slice(distribution.path.lastIndexOf("/") + 1);
}
