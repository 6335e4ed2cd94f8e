/**
 * The build (DESIGN §4): validated indicators → the whole output tree in memory
 * (`renderOutput`, pure), then written through a temporary folder that replaces
 * the old output only when complete (`writeOutput`, effects passed in).
 */
import { stringify } from "csv-stringify/sync";
import { formatRFC7231 } from "date-fns";
import { renderCatalog, type BuiltIndicator } from "./catalog.js";
import { attributionAnchor, type SiteConfig } from "./config.js";
import { toDataset } from "./dataset.js";
import { BuildError } from "./errors.js";
import { strongEtag } from "./etag.js";
import type { IndicatorSource } from "./load.js";
import { DEFAULT_QUERY, type Dataset, type PageQuery } from "./model.js";
import { renderOpenApi } from "./openapi.js";
import { longestSeries, selectPage } from "./page.js";
import { headersFile, routesJson } from "./pages-config.js";
import { nextUrl, renderPage } from "./render.js";
import { renderHome, renderIndicatorPage, renderNotFound } from "./site.js";

/** The prebuilt limits when `--limits` is not given (DESIGN §4). */
export const DEFAULT_LIMITS: readonly number[] = [10, 50, 100, 500, 1000, 5000];
/** Cloudflare Pages' per-site file limit on the free plan. */
export const DEFAULT_MAX_FILES = 20_000;

/** The output tree: POSIX paths relative to the output folder → file contents. */
export type OutputTree = Map<string, string | Uint8Array>;

export interface BuildOptions {
  readonly config: SiteConfig;
  /** Prebuilt page sizes; every offset `0, L, 2L, …` that holds points is written for each. */
  readonly limits: readonly number[];
  /** The file budget: the build stops before writing anything beyond it. */
  readonly maxFiles: number;
  /** Data version time of each indicator, seconds since the epoch (DESIGN §4). */
  readonly versions: ReadonlyMap<string, number>;
  /** Files of `public/` copied as they are: relative path → bytes. */
  readonly publicFiles: ReadonlyMap<string, Uint8Array>;
}

/** Per-indicator figures for the build summary. */
export interface IndicatorStats {
  readonly id: string;
  readonly series: number;
  readonly points: number;
  readonly files: number;
  readonly bytes: number;
}

/** The internal index the function reads: where each prebuilt page is and its ETag. */
export interface Manifest {
  readonly indicators: Record<
    string,
    {
      /** HTTP-date of the data version: `Last-Modified` of every response. */
      readonly lastModified: string;
      /** Path of the full dataset (`_data/<indicator>.json`). */
      readonly dataset: string;
      /** Prebuilt pages by `"<limit>/<offset>"`: their path, strong ETag and `meta.next`. */
      readonly pages: Record<string, PrebuiltPage>;
    }
  >;
}

/** Where a prebuilt page is, so the function can serve it (and answer 304 or HEAD) without reading it. */
export interface PrebuiltPage {
  readonly path: string;
  readonly etag: string;
  /** The page's `meta.next`, for the `Link` header. */
  readonly next: string | null;
}

/** The prebuilt page queries of one limit: offsets `0, L, 2L, …` below the longest sub-series. */
function prebuiltQueries(dataset: Dataset, limits: readonly number[]): PageQuery[] {
  const longest = longestSeries(dataset);
  const queries: PageQuery[] = [];
  for (const limit of limits) {
    for (let offset = 0; offset < longest; offset += limit) queries.push({ from: null, to: null, limit, offset });
  }
  return queries;
}

/** Files an indicator adds besides its pages: index.json, data.csv, series page, `_data` file. */
const FILES_PER_INDICATOR = 4;
/** Files the build always writes besides `public/`: home, 404, catalog, OpenAPI, manifest, `_routes.json`, `_headers`. */
const FIXED_FILES = 7;

/** Counts the files a build would write, before rendering any of them. */
export function countFiles(datasets: readonly Dataset[], options: BuildOptions): number {
  const publicCount = [...options.publicFiles.keys()].filter((p) => p !== "_headers").length;
  let count = FIXED_FILES + publicCount;
  for (const dataset of datasets) count += FILES_PER_INDICATOR + prebuiltQueries(dataset, options.limits).length;
  return count;
}

/** The full series as CSV, in API order (date descending, then sub-series ascending). */
function renderCsv(source: IndicatorSource): string {
  const rows = [...source.rows].sort((a, b) =>
    a.date !== b.date ? (a.date < b.date ? 1 : -1) : a.series < b.series ? -1 : a.series > b.series ? 1 : 0,
  );
  return stringify(
    rows.map((r) => [r.date, r.series, r.value, r.source, r.note]),
    { header: true, columns: ["date", "series", "value", "source", "note"] },
  );
}

/** JSON of the dataset for the function (`_data/<indicator>.json`). */
export function renderDatasetFile(dataset: Dataset): string {
  return JSON.stringify(dataset);
}

/**
 * Renders every output file in memory. Pure but for hashing: the same indicators
 * and options give the same bytes.
 * @throws BuildError when the output would exceed the file budget.
 */
export async function renderOutput(
  indicators: readonly IndicatorSource[],
  options: BuildOptions,
): Promise<{ tree: OutputTree; stats: IndicatorStats[] }> {
  const { config } = options;
  const built: BuiltIndicator[] = indicators.map((source) => ({
    source,
    dataset: toDataset(source, attributionAnchor(config, source.meta.id)),
  }));
  const fileCount = countFiles(
    built.map((b) => b.dataset),
    options,
  );
  if (fileCount > options.maxFiles) {
    throw new BuildError(
      `the output would hold ${fileCount} files, over the budget of ${options.maxFiles}: ` +
        `prebuild fewer or larger limits (--limits, now ${options.limits.join(",")}) or raise --max-files`,
    );
  }

  const tree: OutputTree = new Map();
  const stats: IndicatorStats[] = [];
  const manifest: Manifest = { indicators: {} };
  const lastModified = new Map<string, string>();
  for (const indicator of built) {
    const { source, dataset } = indicator;
    const id = source.meta.id;
    const base = `api/v1/${id}`;
    const files: [string, string][] = [];
    const pages: Record<string, PrebuiltPage> = {};
    const addPage = async (path: string, query: PageQuery) => {
      const page = selectPage(dataset, query);
      const body = renderPage(page);
      files.push([path, body]);
      pages[`${query.limit}/${query.offset}`] ??= { path: `/${path}`, etag: await strongEtag(body), next: nextUrl(page) };
    };
    for (const query of prebuiltQueries(dataset, options.limits)) {
      await addPage(`${base}/limit-${query.limit}/offset-${query.offset}.json`, query);
    }
    await addPage(`${base}/index.json`, DEFAULT_QUERY);
    files.push([`${base}/data.csv`, renderCsv(source)]);
    files.push([`series/${id}/index.html`, renderIndicatorPage(config, indicator)]);
    files.push([`_data/${id}.json`, renderDatasetFile(dataset)]);

    const version = options.versions.get(id);
    if (version === undefined) throw new BuildError(`no data version time for ${id}`);
    const httpDate = formatRFC7231(new Date(version * 1000));
    lastModified.set(id, httpDate);
    manifest.indicators[id] = { lastModified: httpDate, dataset: `/_data/${id}.json`, pages };
    for (const [path, body] of files) tree.set(path, body);
    stats.push({
      id,
      series: dataset.series.length,
      points: source.rows.length,
      files: files.length,
      bytes: files.reduce((sum, [, body]) => sum + Buffer.byteLength(body), 0),
    });
  }

  for (const [path, bytes] of options.publicFiles) if (path !== "_headers") tree.set(path, bytes);
  const staticHeaders = new TextDecoder().decode(options.publicFiles.get("_headers") ?? new Uint8Array());
  tree.set("index.html", renderHome(config, built));
  tree.set("404.html", renderNotFound(config));
  tree.set("api/v1/index.json", renderCatalog(config, built));
  tree.set("api/v1/openapi.json", renderOpenApi(config, built, options.limits));
  tree.set("_data/manifest.json", JSON.stringify(manifest));
  tree.set("_routes.json", routesJson());
  tree.set("_headers", headersFile(staticHeaders, lastModified));
  return { tree, stats };
}
