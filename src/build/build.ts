/**
 * The build (DESIGN §4): validated indicators → every output file, each handed to
 * `write` as soon as it is rendered (`renderOutput`), which src/output.ts writes
 * into a temporary folder that replaces the old output only when complete.
 */
import { stringify } from "csv-stringify/sync";
import { formatRFC7231 } from "date-fns";
import { renderCatalog, type BuiltIndicator } from "./catalog.js";
import { attributionAnchor, type SiteConfig } from "../core/config.js";
import { indicatorData } from "./dataset.js";
import { BuildError } from "../source/errors.js";
import { strongEtag } from "../core/etag.js";
import type { IndicatorSource } from "../source/load.js";
import { DEFAULT_QUERY, type Dataset, type PageQuery } from "../core/model.js";
import { renderOpenApi } from "./openapi.js";
import { byCodeUnits } from "../core/order.js";
import { longestSeries, selectPage } from "../core/page.js";
import { headersFile, routesJson } from "./pages-config.js";
import { nextUrl, renderPage } from "../core/render.js";
import type { WriteFile } from "./output.js";
import { renderHome, renderIndicatorPage, renderNotFound } from "../site/site.js";

/** The prebuilt limits when `--limits` is not given (DESIGN §4). */
export const DEFAULT_LIMITS: readonly number[] = [10, 50, 100, 500, 1000, 5000];
/** Cloudflare Pages' per-site file limit on the free plan. */
export const DEFAULT_MAX_FILES = 20_000;

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
      /** Path of the full dataset (`_data/<indicator>.bin`, src/columnar.ts). */
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
  /** Its size in bytes (the function keeps small pages in memory). */
  readonly bytes: number;
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
  const rows = [...source.rows].sort((a, b) => byCodeUnits(b.date, a.date) || byCodeUnits(a.series, b.series));
  return stringify(
    rows.map((r) => [r.date, r.series, r.value, r.source, r.note]),
    { header: true, columns: ["date", "series", "value", "source", "note"] },
  );
}

/**
 * Renders every output file and hands it to `write`, in a fixed order. The same
 * indicators and options give the same bytes. Returns the per-indicator figures
 * and the number of files written.
 * @throws BuildError when the output would exceed the file budget (before any write).
 */
export async function renderOutput(
  indicators: readonly IndicatorSource[],
  options: BuildOptions,
  write: WriteFile,
): Promise<{ stats: IndicatorStats[]; files: number }> {
  const { config } = options;
  const built: (BuiltIndicator & { file: Uint8Array })[] = indicators.map((source) => ({
    source,
    ...indicatorData(source, attributionAnchor(config, source.meta.id)),
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

  let written = 0;
  const emit: WriteFile = async (path, body) => {
    written++;
    await write(path, body);
  };
  const stats: IndicatorStats[] = [];
  const manifest: Manifest = { indicators: {} };
  const lastModified = new Map<string, string>();
  for (const indicator of built) {
    const { source, dataset, file } = indicator;
    const id = source.meta.id;
    const base = `api/v1/${id}`;
    let files = 0;
    let bytes = 0;
    const add = async (path: string, body: string | Uint8Array) => {
      files++;
      bytes += typeof body === "string" ? Buffer.byteLength(body) : body.length;
      await emit(path, body);
    };
    const pages: Record<string, PrebuiltPage> = {};
    const addPage = async (path: string, query: PageQuery) => {
      const page = selectPage(dataset, query);
      const body = renderPage(page);
      pages[`${query.limit}/${query.offset}`] ??= {
        path: `/${path}`,
        etag: await strongEtag(body),
        next: nextUrl(page),
        bytes: Buffer.byteLength(body),
      };
      await add(path, body);
    };
    for (const query of prebuiltQueries(dataset, options.limits)) {
      await addPage(`${base}/limit-${query.limit}/offset-${query.offset}.json`, query);
    }
    await addPage(`${base}/index.json`, DEFAULT_QUERY);
    await add(`${base}/data.csv`, renderCsv(source));
    await add(`series/${id}/index.html`, renderIndicatorPage(config, indicator));
    await add(`_data/${id}.bin`, file);

    const version = options.versions.get(id);
    if (version === undefined) throw new BuildError(`no data version time for ${id}`);
    const httpDate = formatRFC7231(new Date(version * 1000));
    lastModified.set(id, httpDate);
    manifest.indicators[id] = { lastModified: httpDate, dataset: `/_data/${id}.bin`, pages };
    stats.push({ id, series: dataset.series.length, points: source.rows.length, files, bytes });
  }

  for (const [path, bytes] of options.publicFiles) if (path !== "_headers") await emit(path, bytes);
  const staticHeaders = new TextDecoder().decode(options.publicFiles.get("_headers") ?? new Uint8Array());
  await emit("index.html", renderHome(config, built));
  await emit("404.html", renderNotFound(config));
  await emit("api/v1/index.json", renderCatalog(config, built));
  await emit("api/v1/openapi.json", renderOpenApi(config, built, options.limits));
  await emit("_data/manifest.json", JSON.stringify(manifest));
  await emit("_routes.json", routesJson());
  await emit("_headers", headersFile(staticHeaders, lastModified));
  return { stats, files: written };
}
