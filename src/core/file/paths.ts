/**
 * Every path the service publishes, stated once. Paths are absolute (`/…`); the
 * build writes the file of a path at `outputFile(path)` in the output folder.
 */
import { DEFAULT_LANG, langPrefix, type Lang } from "../text/i18n.js";
import { API_BASE } from "../answer/contract.js";

/** The catalog of indicators (static file). */
export const CATALOG_PATH = `${API_BASE}/index.json`;
/** The OpenAPI description (static file). */
export const OPENAPI_PATH = `${API_BASE}/openapi.json`;
/** The indicator pages' script, bundled from src/site/client/. */
export const PAGE_SCRIPT_PATH = "/assets/series-page.js";

/**
 * The data endpoint's route: `/api/v1/{indicator}`, with or without a final slash. The
 * id is the raw path segment, as Pages' router hands it over (not percent-decoded).
 * The pattern of that route in the function's table (src/api/routes.ts); stated
 * here, where the page script bundles it, as it always was.
 */
export const ENDPOINT_ROUTE = new RegExp(`^${API_BASE}/([^/]+)/?$`);

/** Path of an indicator's API endpoint. */
export function endpointPath(indicator: string): string {
  return `${API_BASE}/${indicator}`;
}

/** The indicator's default answer as a static file (what a mirror serves for the endpoint). */
export function defaultPagePath(indicator: string): string {
  return `${endpointPath(indicator)}/index.json`;
}

/** Every point of the indicator as CSV (static file). */
export function csvPath(indicator: string): string {
  return `${endpointPath(indicator)}/data.csv`;
}

/** Every point as the CSV Spanish-locale spreadsheets open (`dialect=es`, static file): `?format=csv&dialect=es&limit=5000` when no sub-series has more points. */
export function csvEsPath(indicator: string): string {
  return `${endpointPath(indicator)}/data.es.csv`;
}

/** The indicator's page on the site in `lang` (Spanish, the default, is the target of its attribution link). */
export function seriesPagePath(indicator: string, lang: Lang = DEFAULT_LANG): string {
  return `${langPrefix(lang)}/series/${indicator}/`;
}

/** The indicator's chart alone, for other sites to embed in an iframe. */
export function embedPagePath(indicator: string, lang: Lang = DEFAULT_LANG): string {
  return `${seriesPagePath(indicator, lang)}embed/`;
}

/** The indicator page's preview image in `lang` (Open Graph `og:image`, 1200×630 PNG): the page's chart, title and newest value. */
export function previewImagePath(indicator: string, lang: Lang = DEFAULT_LANG): string {
  return `${seriesPagePath(indicator, lang)}preview.png`;
}

/** The home page in `lang`. */
export function homePath(lang: Lang = DEFAULT_LANG): string {
  return `${langPrefix(lang)}/`;
}

/**
 * One group of an indicator's sub-series as its page shows them (labels, points,
 * notes; src/builder/view-data.ts), JSON; internal: the page script loads the group
 * of the visitor's selection. `key` from src/site/client/series-view.ts `groupKey`.
 */
export function viewDataPath(indicator: string, key: string): string {
  return `${viewDataFolder(indicator)}${key}.json`;
}

/** Part `n` (from 1) of a group file too large for one (src/builder/view-data.ts): group keys hold no dot. */
export function viewPartPath(indicator: string, key: string, n: number): string {
  return `${viewDataFolder(indicator)}${key}.${n}.json`;
}

/** The folder of an indicator's group files (`viewDataPath`). */
export function viewDataFolder(indicator: string): string {
  return `/_data/${indicator}/view/`;
}

/** The output file that holds `path`: relative to the output folder, `index.html` for a folder. */
export function outputFile(path: string): string {
  const relative = path.replace(/^\//, "");
  return relative === "" || relative.endsWith("/") ? `${relative}index.html` : relative;
}

/** The indicator's metadata document: its sub-series with their titles and facets, units, source, licence. */
export function metadataPath(indicator: string): string {
  return `${endpointPath(indicator)}/metadata.json`;
}

/** The indicator's answer index, for the function; internal (src/core/file/answer-index.ts). */
export function answersPath(indicator: string): string {
  return `/_data/${indicator}.api.bin`;
}

/** Shard `k` of the indicator's answers, for the function; internal (src/core/file/answer-index.ts). */
export function answerShardPath(indicator: string, k: number): string {
  return `/_data/${indicator}/answers/${k}.bin`;
}

/** Time tile `t` of the indicator's answers, read by the function for a day across many sub-series; internal (src/core/file/time-tiles.ts). */
export function answerTilePath(indicator: string, t: number): string {
  return `/_data/${indicator}/at/${t}.bin`;
}

/** The index of the indicator's history table, for the function's `as_of` and `/changes`; internal (src/core/history/history.ts). */
export function historyPath(indicator: string): string {
  return `/_data/${indicator}.history.bin`;
}

/**
 * The index of a tail indicator's files (src/core/file/hosted.ts): each file the function
 * serves in place of Pages, with its SHA-256 and whether it is in R2; internal.
 */
export function filesIndexPath(indicator: string): string {
  return `/_data/${indicator}/files.json`;
}

/** Shard `k` of the indicator's history table; internal (src/core/history/history.ts). */
export function historyShardPath(indicator: string, k: number): string {
  return `/_data/${indicator}/history/${k}.bin`;
}

/** The static copy of one sub-series' default answer, in `format` (what a mirror serves for `?series=<id>`). */
export function seriesFilePath(indicator: string, series: string, format: "json" | "csv"): string {
  return `${endpointPath(indicator)}/series/${series}.${format}`;
}

/** The extension of each kind of a page's download (src/builder/page-downloads.ts): the CSV, the spreadsheet CSV (`dialect=es`), JSON. */
const DOWNLOAD_EXTENSIONS = { csv: ".csv", sheet: ".es.csv", json: ".json" } as const;

/**
 * A download an indicator's page offers for the selection it is written with, as
 * a static file (src/builder/page-downloads.ts): the API's answer to `series` with
 * the largest `limit`. `name` is file-safe (`pageDownloadName`).
 */
export function pageDownloadPath(indicator: string, name: string, kind: keyof typeof DOWNLOAD_EXTENSIONS): string {
  return `${endpointPath(indicator)}/downloads/${name}${DOWNLOAD_EXTENSIONS[kind]}`;
}

/** Every point of the indicator as Apache Parquet (static file; src/builder/formats/parquet.ts). */
export function parquetPath(indicator: string): string {
  return `${endpointPath(indicator)}/data.parquet`;
}

/** Every point of the indicator as an Excel workbook, with a metadata sheet (static file). */
export function xlsxPath(indicator: string): string {
  return `${endpointPath(indicator)}/data.xlsx`;
}

/** The Frictionless Data Package describing `data.csv` and the other downloads (static file). */
export function dataPackagePath(indicator: string): string {
  return `${endpointPath(indicator)}/datapackage.json`;
}

/** The media type of the Atom feeds (RFC 4287 §7). */
export const ATOM_MEDIA_TYPE = "application/atom+xml";

/** The indicator's Atom feed of data releases (static file). */
export function feedPath(indicator: string): string {
  return `${endpointPath(indicator)}/feed.atom`;
}

/** The DCAT-AP catalog of every indicator and the API, as JSON-LD (static file). */
export const DCAT_CATALOG_PATH = `${API_BASE}/catalog.jsonld`;
/** The Atom feed of every indicator's data releases. */
export const SERVICE_FEED_PATH = "/feed.atom";
/** The sitemap of the HTML pages (sitemaps.org). */
export const SITEMAP_PATH = "/sitemap.xml";
/** The crawlers' rules, pointing to the sitemap. */
export const ROBOTS_PATH = "/robots.txt";
/** The MCP server for AI assistants (src/api/mcp.ts). */
export const MCP_PATH = "/mcp";

/** The search across sub-series (src/api/search.ts) and the index it reads (src/core/answer/search.ts). */
export const SEARCH_PATH = `${API_BASE}/search`;
export const SEARCH_INDEX_PATH = "/_data/search.json";
/** A shard of the search index: the top file (`SEARCH_INDEX_PATH`) lists them by number. */
export function searchShardPath(n: number): string {
  return `/_data/search/${n}.json`;
}

/** What the service is, for language models and AI assistants (llmstxt.org). */
export const LLMS_TXT_PATH = "/llms.txt";
