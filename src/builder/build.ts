/**
 * The build (docs/DESIGN.md §4) as one in-process function, `build(options,
 * effects)`: read and validate `data/`, plan every output file, check the plan
 * against the file budget, then render and write the files one by one into a
 * temporary folder that replaces the old output only when complete
 * (src/builder/output.ts). Everything it touches outside memory comes in `effects`.
 */
import { createHash } from "node:crypto";
import { resolve } from "node:path";
import { renderCatalog } from "./catalog.js";
import { renderStatus, STATUS_PATH } from "./freshness.js";
import { adjustersOf, buildIndicator, deflatorsOf, encodeShard, encodeTile, type BuiltIndicator } from "./dataset.js";
import { searchIndex, searchShards } from "./search-index.js";
import type { ClientScripts } from "./bundle-client.js";
import type { BuildEffects, Log } from "./effects.js";
import { planFormats } from "./formats/plan.js";
import { downloadParts } from "./download-parts.js";
import { renderMetadata } from "./metadata-doc.js";
import { renderOpenApi } from "./openapi.js";
import { writeOutput, type FileEffects, type WriteFile } from "./output.js";
import { checkRedirects, headersFile, routesJson } from "./pages-config.js";
import { PageSources } from "./page-policy.js";
import { planHost, rankIndicators } from "./host-plan.js";
import { previewImage } from "./preview-image.js";
import { Pack } from "./r2-pack.js";
import type { FileRecord } from "../core/file/hosted.js";
import { pageDownloads } from "./page-downloads.js";
import { isoDateTime, newestVersion } from "./formats/facts.js";
import type { DownloadLinks, ViewIndicator } from "../site/client/series-view.js";
import { parseSiteConfig } from "./site-config.js";
import { CSV_ES_HEADER, CSV_HEADER, textStart } from "../core/file/answers.js";
import { encodeAnswerIndex, planShards, publicationDays, wholeView, type ShardEntry } from "../core/file/answer-index.js";
import { planTiles, type TileEntry } from "../core/file/time-tiles.js";
import { attributionAnchor, attributionUrl, type SiteConfig } from "../core/indicator/config.js";
import { LIMIT, SHARD_BYTES } from "../core/answer/contract.js";
import { partPath, type DownloadPart } from "../core/indicator/distributions.js";
import { dataTag, dataTagger } from "../core/answer/etag.js";
import { MANIFEST_PATH, prebuiltPagePath, type Manifest } from "../core/file/manifest.js";
import { FILE_MANIFEST_PATH, UNLISTED_FILES, listing, renderFileManifest, type ListedFile } from "../core/file/file-manifest.js";
import { DEFAULT_QUERY, FORMATS, type PageQuery } from "../core/indicator/model.js";
import { longestSeries, selectPage } from "../core/answer/page.js";
import {
  CATALOG_PATH,
  OPENAPI_PATH,
  PAGE_SCRIPT_PATH,
  answersPath,
  answerShardPath,
  answerTilePath,
  historyPath,
  historyShardPath,
  SEARCH_INDEX_PATH,
  searchShardPath,
  csvEsPath,
  csvPath,
  defaultPagePath,
  endpointPath,
  filesIndexPath,
  metadataPath,
  outputFile,
  seriesFilePath,
  seriesPagePath,
  embedPagePath,
  homePath,
  previewImagePath,
} from "../core/file/paths.js";
import { jsonAnswerSize, renderAnswer } from "../core/answer/render.js";
import { dayOfTime } from "../core/time/dates.js";
import { resolveSelection } from "../core/answer/selection.js";
import { changesMarkdown, diffData, formatChanges, hasRevisions } from "../source/changes.js";
import { BuildError, DataError, formatIssue } from "../source/errors.js";
import { loadData, type CsvCache, type IndicatorSource, type LoadResult } from "../source/load.js";
import { buildHistories, committedStates, currentChanged, historyOf, type IndicatorHistory } from "./history.js";
import { versionDay } from "../core/history/history.js";
import { renderEmbedPage, renderHome, renderIndicatorPage, renderNotFound } from "../site/site.js";
import { revisionsOf, siteIndicator } from "./site-model.js";
import { viewGroupFiles, viewGroups } from "./view-data.js";
import { LANGS } from "../core/text/i18n.js";

/** The prebuilt limits when `--limits` is not given (docs/DESIGN.md §4). */
export const DEFAULT_LIMITS: readonly number[] = [10, 50, 100, 500, 1000, LIMIT.max];
/** Most file writes in flight at once. */
const WRITES_IN_FLIGHT = 16;

/** Cloudflare Pages' per-site file limit on the free plan. */
export const DEFAULT_MAX_FILES = 20_000;
/** Cloudflare Pages' limit on the size of one file (25 MiB): a larger one cannot be deployed. */
export const DEFAULT_MAX_FILE_BYTES = 25 * 2 ** 20;

/** The change report's options (src/source/changes.ts). */
export interface ChangeOptions {
  /** The git revision holding the published version (`HEAD`); no report when undefined. */
  readonly base?: string | undefined;
  /** Let published points change or disappear. */
  readonly allowRevisions?: boolean | undefined;
  /** A file to append the report to as Markdown (the CI job summary). */
  readonly summary?: string | undefined;
}

export interface BuildOptions extends ChangeOptions {
  /** The data folder. */
  readonly data: string;
  /** The output folder. */
  readonly out: string;
  /** The site configuration file (`site.config.json`). */
  readonly configFile: string;
  /** Replaces the configuration's public base URL. */
  readonly siteUrl?: string | undefined;
  /** Prebuilt page sizes; every offset `0, L, 2L, …` that holds points is written for each. */
  readonly limits: readonly number[];
  /** The file budget: the build stops before writing anything beyond it. */
  readonly maxFiles: number;
  /** The largest file the output may hold, in bytes (default `DEFAULT_MAX_FILE_BYTES`): a larger one stops the build. */
  readonly maxFileBytes?: number | undefined;
  /**
   * The largest whole-indicator download (the CSV files, Parquet, XLSX), in bytes: past it they are
   * split into yearly parts (src/builder/download-parts.ts). Default and at most `maxFileBytes`.
   */
  readonly maxDownloadBytes?: number | undefined;
  /** Write each sub-series' default answer as static files (default true). */
  readonly seriesFiles?: boolean | undefined;
  /** `SOURCE_DATE_EPOCH`: the data version time of every indicator, when set. */
  readonly sourceDateEpoch?: number | undefined;
  /** Read the data's git history into the history tables (default true); without, each holds this build's version alone. */
  readonly history?: boolean | undefined;
  /** The size each shard of an indicator's answers aims at (default `SHARD_BYTES`). */
  readonly shardBytes?: number | undefined;
  /** wrangler's local state folder (`--persist-to`) to put the files moved to R2 into, for `wrangler pages dev`; none when undefined. */
  readonly r2State?: string | undefined;
}

/** Per-indicator figures for the build summary. */
export interface IndicatorStats {
  readonly id: string;
  readonly series: number;
  readonly points: number;
  files: number;
  bytes: number;
}

export interface BuildResult {
  readonly stats: readonly IndicatorStats[];
  /** Files written on Pages (the output folder). */
  readonly files: number;
  /** Files moved to R2, and the objects they make (files of the same bytes share one). */
  readonly r2: number;
  readonly r2Objects: number;
}

/** One file of the output, planned before any is rendered. */
export interface PlannedFile {
  /** Path relative to the output folder. */
  readonly path: string;
  /** The indicator the file belongs to, for the summary. */
  readonly indicator?: string;
  /** An R2 object (a tail indicator's pack, src/builder/r2-pack.ts): written to the R2 folder by the SHA-256 of its bytes, not on Pages, not listed. */
  readonly r2?: boolean;
  /** Moved to R2 (src/builder/host-plan.ts): its bytes go into its indicator's pack, not into a file of their own; the function serves it from there. */
  readonly packed?: boolean;
  render(): string | Uint8Array | Promise<string | Uint8Array>;
  /** Told the SHA-256 (hex) of the rendered bytes, computed once as they are written, and the bytes (a tail indicator's index records the one, its pack the other). */
  hashed?(sha256: string, body: string | Uint8Array): void;
}

/** What the plan is made from. */
export interface PlanInput {
  readonly config: SiteConfig;
  readonly indicators: readonly BuiltIndicator[];
  readonly limits: readonly number[];
  /** Data version time of each indicator, seconds since the epoch. */
  readonly versions: ReadonlyMap<string, number>;
  /** Files of `public/`: relative path → bytes. */
  readonly publicFiles: ReadonlyMap<string, Uint8Array>;
  /** The browser's scripts: the page script's file, and the early script the indicator pages inline. */
  readonly scripts: ClientScripts;
  /** Write each sub-series' default answer as static files (JSON and CSV), for mirrors. */
  readonly seriesFiles: boolean;
  /** Each indicator's history table (src/builder/history.ts); an indicator without one gets a table of its current version alone. */
  readonly histories?: ReadonlyMap<string, IndicatorHistory>;
  /** The size each shard of an indicator's answers aims at (default `SHARD_BYTES`, src/core/file/answer-index.ts). */
  readonly shardBytes?: number | undefined;
  /** The largest file the output may hold (default `DEFAULT_MAX_FILE_BYTES`): a prebuilt page over it is left to the function. */
  readonly maxFileBytes?: number | undefined;
  /** Most points of a page script's group file (default `VIEW_PART_POINTS`, src/builder/view-data.ts): a larger group is written in parts. */
  readonly viewPartPoints?: number | undefined;
  /** Told of each prebuilt page left out for its size (the build's log). */
  readonly leftOut?: ((path: string, bytes: number) => void) | undefined;
  /** The file budget of Pages (default `DEFAULT_MAX_FILES`): past it, files move to R2 (src/builder/host-plan.ts). */
  readonly maxFiles?: number | undefined;
}

/** The prebuilt page queries: for each limit `L`, the offsets `0, L, 2L, …` below the longest sub-series. */
function prebuiltQueries(indicator: BuiltIndicator, limits: readonly number[]): PageQuery[] {
  const longest = longestSeries(indicator.answers.series);
  const queries: PageQuery[] = [];
  for (const limit of limits) {
    for (let offset = 0; offset < longest; offset += limit) queries.push({ ...DEFAULT_QUERY, limit, offset });
  }
  return queries;
}

/** The site's stylesheet among the files of `public/`. */
const STYLESHEET = "style.css";

const CSV_HEADER_BYTES = new TextEncoder().encode(CSV_HEADER);
const CSV_ES_HEADER_BYTES = new TextEncoder().encode(CSV_ES_HEADER);

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length + b.length);
  out.set(a, 0);
  out.set(b, a.length);
  return out;
}

/** The CSV files of every point, `data.csv` and `data.es.csv`, whole or in their parts (src/builder/download-parts.ts). */
function planCsvFiles(indicator: BuiltIndicator): PlannedFile[] {
  const id = indicator.source.meta.id;
  const { csv, csvEnds } = indicator.answers;
  const { bytes: csvEs, ends: csvEsEnds } = indicator.spreadsheet;
  const file = (path: string, header: Uint8Array, bytes: Uint8Array, ends: Uint32Array, part?: DownloadPart): PlannedFile => ({
    path: outputFile(part === undefined ? path : partPath(path, part)),
    indicator: id,
    render() {
      if (part === undefined) return concat(header, bytes);
      return concat(header, bytes.subarray(textStart(ends, part.from), textStart(ends, part.to)));
    },
  });
  return (indicator.parts ?? [undefined]).flatMap((part) => [
    file(csvPath(id), CSV_HEADER_BYTES, csv, csvEnds, part),
    file(csvEsPath(id), CSV_ES_HEADER_BYTES, csvEs, csvEsEnds, part),
  ]);
}

/** The indicator with the parts of its downloads, when its CSV files would pass `maxFileBytes`. */
function withParts(indicator: BuiltIndicator, maxFileBytes: number): BuiltIndicator {
  const { csv, csvEnds } = indicator.answers;
  const { bytes: csvEs, ends: csvEsEnds } = indicator.spreadsheet;
  const parts = downloadParts(
    indicator.source.meta.id,
    [
      { header: CSV_HEADER_BYTES.length, bytes: csv, ends: csvEnds },
      { header: CSV_ES_HEADER_BYTES.length, bytes: csvEs, ends: csvEsEnds },
    ],
    maxFileBytes,
  );
  return parts === undefined ? indicator : { ...indicator, parts };
}

/**
 * Every file of the output, in the order they are rendered: each indicator's
 * pages, default page, CSV, site page and dataset; then the site-wide files; the
 * manifest comes after every page, whose ETags it lists. Nothing is rendered
 * here: the plan's length is the file budget's count.
 */
export function planOutput(input: PlanInput): PlannedFile[] {
  const config = pageConfig(input);
  const index = searchIndex(input.indicators);
  const manifest = outputManifest(input, config, index);
  const plan: PlannedFile[] = [];
  const lastModified = new Map<string, string>();
  const entries = new Map<string, { files: string | undefined }>();
  for (const indicator of input.indicators) {
    const id = indicator.source.meta.id;
    const version = input.versions.get(id);
    if (version === undefined) throw new BuildError(`no data version time for ${id}`);
    const entry = planIndicator(plan, input, config, indicator, version);
    lastModified.set(id, entry.lastModified);
    manifest.indicators[id] = entry;
    entries.set(id, entry);
  }
  plan.push(...planFormats(input), ...planSiteFiles(input, config, manifest, searchShards(index)));
  // Last: the host's rules come from every file planned above.
  return placeOnHost(plan, input, lastModified, entries);
}

/** What the pages are rendered with: the site's configuration, the stylesheet and early script they inline, and every indicator's view. */
function pageConfig(input: PlanInput) {
  const stylesheet = input.publicFiles.get(STYLESHEET);
  // The pages' questions read the other indicators' views (the deflator, the ratios' divisors).
  // The first call makes each site model (siteIndicator reuses it): with its revised points, read from its history table.
  const views = new Map(
    input.indicators.map((i) => {
      const id = i.source.meta.id;
      return [id, siteIndicator(input.config, i, input.versions.get(id) ?? 0, revisionsOf(input.histories?.get(id))).view];
    }),
  );
  return {
    ...input.config,
    style: stylesheet === undefined ? undefined : new TextDecoder().decode(stylesheet),
    earlyScript: input.scripts.early,
    views,
    deflators: deflatorsOf(input.indicators),
    adjusters: adjustersOf(input.indicators),
    // Filled indicator by indicator (`planIndicator`), read when the pages are rendered.
    downloads: new Map<string, Map<string | null, Partial<DownloadLinks>>>(),
  };
}

/** The page configuration `planOutput` renders with (`pageConfig`). */
type PageConfig = ReturnType<typeof pageConfig>;

/** The manifest without its indicators' entries (added as each is planned): the site, the deflators and adjusters, the search index's tag. */
function outputManifest(input: PlanInput, config: PageConfig, index: ReturnType<typeof searchIndex>): Manifest {
  // The tag is of the whole index: it changes exactly when an answer can, whatever the shards.
  const search = new TextEncoder().encode(JSON.stringify(index));
  const versions = [...input.versions.values()];
  return {
    indicators: {},
    deflators: deflatorsOf(input.indicators),
    adjusters: adjustersOf(input.indicators),
    site: { baseUrl: config.baseUrl, attribution: config.attributionText },
    search: {
      path: SEARCH_INDEX_PATH,
      tag: dataTag(search),
      lastModified: new Date((versions.length === 0 ? 0 : Math.max(...versions)) * 1000).toUTCString(),
    },
  };
}

/** An indicator's entry in the manifest: its page sizes, tag and index size are filled as its files are rendered. */
function manifestEntry(indicator: BuiltIndicator, limits: readonly number[], queries: readonly PageQuery[], history: IndicatorHistory, httpDate: string) {
  const id = indicator.source.meta.id;
  // Each limit's page sizes, filled as the pages are rendered (0: left to the function).
  const pages: Record<string, number[]> = Object.fromEntries(limits.map((limit) => [String(limit), queries.filter((q) => q.limit === limit).map(() => 0)]));
  return {
    lastModified: httpDate,
    answers: answersPath(id),
    // Set once its shards are rendered, before the manifest is (below): the tag of their bytes.
    tag: "",
    pages,
    index: 0,
    longest: longestSeries(indicator.answers.series),
    // One version: no table (src/builder/history.ts), and a tag of what /changes then says (its days and the indicator's fields).
    history: {
      path: history.table === null ? null : historyPath(id),
      tag: dataTag(history.table === null ? new TextEncoder().encode(JSON.stringify([history.versions.map(versionDay), indicator.answerFields])) : [...history.table.shards, history.table.index]),
      days: history.versions.map(versionDay),
    },
    // A tail indicator's: where the index of its files is (src/builder/host-plan.ts), set once the output is placed.
    files: undefined as string | undefined,
  };
}

/** An indicator's manifest entry (`manifestEntry`). */
type ManifestEntry = ReturnType<typeof manifestEntry>;

/** The page of `indicator` a query selects. */
function selectedPage(indicator: BuiltIndicator, query: PageQuery) {
  const { answers } = indicator;
  const chosen = query.series === null ? null : resolveSelection(answers.ids, query.series).indices;
  return selectPage(answers.series, query, chosen, answers.global);
}

/** The API's answer to `query` of `indicator`, as the function writes it. */
function answerOf(indicator: BuiltIndicator, query: PageQuery) {
  return renderAnswer(wholeView(indicator.answers), selectedPage(indicator, query));
}

/** An answer as a static file: a prebuilt page (its size told to `listed`, for the manifest) or a sub-series' copy. */
function answerFile(indicator: BuiltIndicator, path: string, query: PageQuery, listed?: (bytes: number) => void): PlannedFile {
  return {
    path: outputFile(path),
    indicator: indicator.source.meta.id,
    render() {
      const body = answerOf(indicator, query);
      listed?.(body.length);
      return body;
    },
  };
}

/**
 * Every file of one indicator, into `plan`, in the order they are rendered: its
 * prebuilt pages, CSV files and metadata, its sub-series' files and downloads, its
 * pages, the page script's data, its answers (shards, tiles, index) and its
 * history table. Its manifest entry, which the rendering fills.
 */
function planIndicator(plan: PlannedFile[], input: PlanInput, config: PageConfig, indicator: BuiltIndicator, version: number): ManifestEntry {
  const id = indicator.source.meta.id;
  const queries = prebuiltQueries(indicator, input.limits);
  const history = input.histories?.get(id) ?? historyOf(indicator, version);
  // An HTTP-date (IMF-fixdate, RFC 9110 §5.6.7), as `toUTCString` writes it: the function writes the computed answers' the same way (src/api/endpoint.ts).
  const entry = manifestEntry(indicator, input.limits, queries, history, new Date(version * 1000).toUTCString());
  const maxFileBytes = input.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES;
  const pagesPlanned = planPrebuiltPages(plan, input, indicator, queries, entry);
  plan.push(...planCsvFiles(indicator));
  plan.push({ path: outputFile(metadataPath(id)), indicator: id, render: () => renderMetadata(indicator, version) });
  if (input.seriesFiles) {
    for (const series of indicator.answers.ids) {
      for (const format of FORMATS) plan.push(answerFile(indicator, seriesFilePath(id, series, format), { ...DEFAULT_QUERY, series: [series], format }));
    }
  }
  // The downloads the page offers, as files its links name (src/builder/page-downloads.ts).
  const view = config.views.get(id) as ViewIndicator;
  const downloads = pageDownloads({ view, inParts: indicator.parts !== undefined, answer: (query) => answerOf(indicator, query), planned: (file) => pagesPlanned.has(file), maxFileBytes });
  plan.push(...downloads.files);
  config.downloads.set(id, downloads.links);
  plan.push(...planPages(input, config, indicator, version));
  plan.push(...planAnswerFiles(input, indicator, entry));
  // The history table's shards, then its index (src/core/history/history.ts).
  const { table } = history;
  if (table !== null) {
    table.shards.forEach((bytes, k) => plan.push({ path: outputFile(historyShardPath(id, k)), indicator: id, render: () => bytes }));
    plan.push({ path: outputFile(historyPath(id)), indicator: id, render: () => table.index });
  }
  return entry;
}

/**
 * The prebuilt pages of `queries` and the default page, into `plan`, each when it
 * is within the largest file the host takes: a larger one is not planned (its size
 * is known before anything is rendered), and the function answers its query, or
 * says how to narrow it (src/api/endpoint.ts). The paths planned.
 */
function planPrebuiltPages(plan: PlannedFile[], input: PlanInput, indicator: BuiltIndicator, queries: readonly PageQuery[], entry: ManifestEntry): Set<string> {
  const id = indicator.source.meta.id;
  const maxFileBytes = input.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES;
  const pagesPlanned = new Set<string>();
  const page = (path: string, query: PageQuery, listed: (bytes: number) => void) => {
    const bytes = jsonAnswerSize(wholeView(indicator.answers), selectedPage(indicator, query));
    if (bytes <= maxFileBytes) {
      plan.push(answerFile(indicator, path, query, listed));
      pagesPlanned.add(outputFile(path));
    } else input.leftOut?.(outputFile(path), bytes);
  };
  for (const query of queries) {
    const sizes = entry.pages[String(query.limit)] as number[];
    page(prebuiltPagePath(id, query.limit, query.offset), query, (bytes) => (sizes[query.offset / query.limit] = bytes));
  }
  page(defaultPagePath(id), DEFAULT_QUERY, (bytes) => (entry.index = bytes));
  return pagesPlanned;
}

/** An indicator's pages in every language (series page, embed, preview image), then the page script's data, one file per group of its view (src/builder/view-data.ts). */
function planPages(input: PlanInput, config: PageConfig, indicator: BuiltIndicator, version: number): PlannedFile[] {
  const id = indicator.source.meta.id;
  const plan: PlannedFile[] = [];
  for (const lang of LANGS) {
    plan.push(
      { path: outputFile(seriesPagePath(id, lang)), indicator: id, render: () => renderIndicatorPage(config, siteIndicator(config, indicator, version), lang) },
      { path: outputFile(embedPagePath(id, lang)), indicator: id, render: () => renderEmbedPage(config, siteIndicator(config, indicator, version), lang) },
      { path: outputFile(previewImagePath(id, lang)), indicator: id, render: () => previewImage(config, siteIndicator(config, indicator, version), lang) },
    );
  }
  const { view } = siteIndicator(config, indicator, version);
  for (const [key, series] of viewGroups(view)) {
    for (const file of viewGroupFiles(view, key, series, input.viewPartPoints)) plan.push({ path: outputFile(file.path), indicator: id, render: file.render });
  }
  return plan;
}

/**
 * The answers in shards, the time tiles, then their index, which records the
 * shards' and tiles' sizes as they are rendered (src/core/file/answer-index.ts)
 * and sets the entry's tag, of the shards' bytes.
 */
function planAnswerFiles(input: PlanInput, indicator: BuiltIndicator, entry: ManifestEntry): PlannedFile[] {
  const id = indicator.source.meta.id;
  const shardBytes = input.shardBytes ?? SHARD_BYTES;
  const shards: ShardEntry[] = planShards(indicator.answers, shardBytes);
  const tagger = dataTagger(createHash("sha256"));
  const shardFiles = shards.map((shard, k): PlannedFile => ({
    path: outputFile(answerShardPath(id, k)),
    indicator: id,
    render() {
      const bytes = encodeShard(indicator, shard.first, shard.count);
      shards[k] = { ...shard, bytes: bytes.length };
      tagger.add(bytes);
      return bytes;
    },
  }));
  // The time tiles (src/core/file/time-tiles.ts), of an indicator of more than one shard: answers of the same bytes, not in the tag.
  const starts = shards.length < 2 ? [] : planTiles(indicator.answers, publicationDays(indicator.answers), indicator.answersFile.length, shardBytes);
  const tiles: TileEntry[] = starts.map((start) => ({ start, bytes: 0 }));
  const tileFiles = tiles.map((tile, t): PlannedFile => ({
    path: outputFile(answerTilePath(id, t)),
    indicator: id,
    render() {
      const bytes = encodeTile(indicator, starts, t);
      tiles[t] = { ...tile, bytes: bytes.length };
      return bytes;
    },
  }));
  const indexFile: PlannedFile = {
    path: outputFile(answersPath(id)),
    indicator: id,
    render() {
      entry.tag = tagger.tag();
      return encodeAnswerIndex(indicator.answers, shards, tiles);
    },
  };
  return [...shardFiles, ...tileFiles, indexFile];
}

/** The site-wide files after the indicators': the public files, the page script, the home pages, 404, catalog, status, OpenAPI, search, and last the manifest. */
function planSiteFiles(input: PlanInput, config: PageConfig, manifest: Manifest, searchFiles: ReturnType<typeof searchShards>): PlannedFile[] {
  const plan: PlannedFile[] = [];
  // The stylesheet is inlined in every page (src/site/site.ts `RenderConfig`), not served on its own.
  for (const [path, bytes] of input.publicFiles) if (path !== STYLESHEET) plan.push({ path, render: () => bytes });
  plan.push(
    { path: outputFile(PAGE_SCRIPT_PATH), render: () => input.scripts.page },
    ...LANGS.map((lang) => ({ path: outputFile(homePath(lang)), render: () => renderHome(config, input.indicators.map((i) => siteIndicator(config, i, input.versions.get(i.source.meta.id) ?? 0)), lang) })),
    { path: "404.html", render: () => renderNotFound(config) },
    { path: outputFile(CATALOG_PATH), render: () => renderCatalog(config, input.indicators, input.versions) },
    { path: outputFile(STATUS_PATH), render: () => renderStatus(input.indicators, input.versions) },
    { path: outputFile(OPENAPI_PATH), render: () => renderOpenApi(config, input.indicators, input.limits, manifest.adjusters) },
    { path: outputFile(SEARCH_INDEX_PATH), render: () => JSON.stringify(searchFiles.top) },
    ...searchFiles.shards.map((text, n) => ({ path: outputFile(searchShardPath(n)), render: () => text })),
    { path: outputFile(MANIFEST_PATH), render: () => JSON.stringify(manifest) },
  );
  return plan;
}

const sha256Hex = (body: string | Uint8Array) => createHash("sha256").update(body).digest("hex");

/** The files planned after the rest, counted in the budget: `_headers`, `_routes.json` and `/manifest.json` (`fileManifestFile`). */
const EXTRA_FILES = 3;

/**
 * The plan placed on the host (src/builder/host-plan.ts): a tail indicator's files
 * record their SHA-256 in its index as they are written, those moved to R2 go
 * into their indicator's pack (src/builder/r2-pack.ts) instead of a file, and the
 * host's files come last: the packs, the indexes (which name each pack), `_headers`, whose pages'
 * policy allows by hash the inline code of every HTML file planned before it
 * (read as each is rendered, src/builder/page-policy.ts), and `_routes.json`. Their
 * limits (and a copied `_redirects`' ones) are checked here, before anything is
 * rendered or written; the policy's line length once the pages are rendered.
 */
function placeOnHost(plan: readonly PlannedFile[], input: PlanInput, lastModified: ReadonlyMap<string, string>, entries: ReadonlyMap<string, { files: string | undefined }>): PlannedFile[] {
  const redirects = input.publicFiles.get("_redirects");
  if (redirects !== undefined) checkRedirects(new TextDecoder().decode(redirects));
  const ranked = rankIndicators(input.indicators.map((i) => ({ id: i.source.meta.id, points: i.source.rows.length })));
  const host = planHost({ files: plan, ranked, lastModified, maxFiles: input.maxFiles ?? DEFAULT_MAX_FILES, extraFiles: EXTRA_FILES });
  // The rule count does not depend on the pages' code: checked now, with none.
  headersFile(lastModified, { scripts: [], styles: [] }, host.head);
  const routes = routesJson(host.excludes, new Set(host.tail));
  const pages = new PageSources();
  const indexes = new Map<string, Record<string, FileRecord>>(host.tail.map((id) => [id, {}]));
  const packs = new Map<string, Pack>();
  const placed = plan.map((file): PlannedFile => {
    if (file.path.endsWith(".html")) return { ...file, render: async () => pages.add(textOf(await file.render()), file.path) };
    const id = file.indicator;
    const index = id === undefined ? undefined : indexes.get(id);
    if (id === undefined || index === undefined || !file.path.startsWith(`${outputFile(endpointPath(id))}/`)) return file;
    const path = `/${file.path}`;
    if (!host.r2.has(file.path)) return { ...file, hashed: (sha256) => (index[path] = [sha256, 0]) };
    let pack = packs.get(id);
    if (pack === undefined) packs.set(id, (pack = new Pack(id)));
    // The pack's key is filled in when the index is rendered, after the pack.
    return { ...file, packed: true, hashed: (sha256, body) => (index[path] = [sha256, 1, "", ...pack.add(path, sha256, body)]) };
  });
  for (const [id, pack] of packs) placed.push({ path: `${id}.pack`, r2: true, render: () => pack.bytes(), hashed: (sha256) => (pack.key = sha256) });
  for (const [id, index] of indexes) {
    const entry = entries.get(id);
    if (entry !== undefined) entry.files = filesIndexPath(id);
    const withKey = (record: FileRecord): FileRecord => (record[1] === 1 ? [record[0], 1, packs.get(id)?.key ?? "", record[3], record[4]] : record);
    placed.push({ path: outputFile(filesIndexPath(id)), indicator: id, render: () => JSON.stringify(Object.fromEntries(Object.entries(index).map(([path, record]) => [path, withKey(record)]))) });
  }
  placed.push({ path: "_headers", render: () => headersFile(lastModified, pages.code(), host.head) }, { path: "_routes.json", render: () => routes });
  return placed;
}

/** A rendered file as text (UTF-8). */
const textOf = (body: string | Uint8Array): string => (typeof body === "string" ? body : new TextDecoder().decode(body));

/**
 * Compares the data with its published version (the data folder at `options.base`)
 * and prints what it adds, revises and removes.
 * @throws BuildError when published points would change or disappear and that is not allowed.
 */
async function reportChanges(data: string, current: LoadResult, options: ChangeOptions, effects: Pick<BuildEffects, "publishedSource" | "appendSummary" | "log">): Promise<void> {
  const { base } = options;
  if (base === undefined) return;
  const source = await effects.publishedSource(data, base);
  if (source === null) {
    effects.log.warn(`warning: ${data}: ${base} is not a git revision here: no published version to compare with, no change report`);
    return;
  }
  let published: readonly IndicatorSource[] = [];
  if ((await source.folders(data)).length > 0) {
    try {
      published = (await loadData(data, source, true)).indicators;
    } catch (error) {
      if (!(error instanceof DataError)) throw error;
      effects.log.warn(`warning: ${data} at ${base} does not load (${error.issues.length} faults): no change report`);
      return;
    }
  }
  const changes = diffData(published, current.indicators);
  for (const line of formatChanges(changes, base)) effects.log.info(line);
  const refused = hasRevisions(changes) && options.allowRevisions !== true;
  if (options.summary !== undefined) await effects.appendSummary(options.summary, changesMarkdown(changes, base, refused));
  if (refused) {
    const count = changes.reduce((n, c) => n + c.revised.length + c.removed.length, 0);
    throw new BuildError(
      `${count} published point${count === 1 ? "" : "s"} would change or disappear (listed above): ` +
        "if the source revised them, run again with --allow-revisions",
    );
  }
}

function printWarnings(load: LoadResult, log: Log): void {
  for (const warning of load.warnings) log.warn(`warning: ${formatIssue(warning)}`);
}

async function readSiteConfig(options: BuildOptions, effects: BuildEffects): Promise<SiteConfig> {
  let text: string;
  try {
    text = await effects.readConfig(options.configFile);
  } catch (error) {
    throw new DataError([{ file: options.configFile, reason: `cannot read: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}` }]);
  }
  return parseSiteConfig(text, options.configFile, options.siteUrl);
}

/**
 * `/manifest.json` (src/core/file/file-manifest.ts), planned after every other file:
 * rendered when they all are, from `listed`, which their renders fill.
 * @throws BuildError when another file of the plan (one of `public/`) is at its path.
 */
function fileManifestFile(plan: readonly PlannedFile[], config: SiteConfig, versions: ReadonlyMap<string, number>, listed: readonly ListedFile[]): PlannedFile {
  const path = outputFile(FILE_MANIFEST_PATH);
  if (plan.some((file) => file.path === path)) throw new BuildError(`public/${path}: the build writes ${path} itself, the list of the output's files (src/core/file/file-manifest.ts); remove the file from public/`);
  const head = {
    name: config.name,
    site: config.baseUrl,
    dataVersion: isoDateTime(newestVersion(versions)),
    dataVersions: Object.fromEntries([...versions].map(([id, seconds]) => [id, isoDateTime(seconds)])),
  };
  return { path, render: () => renderFileManifest(head, listed, createHash("sha256").update(listing(listed)).digest("hex")) };
}

/**
 * Stops the build at a file over the size a host accepts (Cloudflare Pages: 25 MiB):
 * checked as each file is rendered, before it is written, so the output is never
 * one the host refuses and the previous output stays as it was.
 */
function checkFileSize(path: string, body: string | Uint8Array, max: number): void {
  const size = typeof body === "string" ? Buffer.byteLength(body) : body.length;
  if (size <= max) return;
  const mib = (bytes: number) => `${(bytes / 2 ** 20).toFixed(1)} MiB`;
  throw new BuildError(`${path}: ${size} bytes (${mib(size)}), over the limit of ${max} bytes (${mib(max)}) per file that Cloudflare Pages deploys (--max-file-bytes): nothing was written`);
}

function printSummary(log: Log, stats: readonly IndicatorStats[], totalFiles: number, seconds: number, outDir: string): void {
  const rows = stats.map((s) => [s.id, String(s.series), String(s.points), String(s.files), String(s.bytes)]);
  const header = ["indicator", "sub-series", "points", "files", "bytes"];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] as string).length)));
  const line = (cells: string[]) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i] as number) : c.padStart(widths[i] as number))).join("  ");
  log.info(line(header));
  for (const row of rows) log.info(line(row));
  log.info(`${totalFiles} files written to ${outDir} in ${seconds.toFixed(2)} s`);
}

/**
 * Validates the data folder and writes the output folder. The same data, options
 * and `SOURCE_DATE_EPOCH` give the same bytes.
 * @throws DataError for faults in the data or the configuration, BuildError when
 * the output would exceed the file budget; in both cases nothing is written.
 */
export async function build(options: BuildOptions, effects: BuildEffects): Promise<BuildResult> {
  const started = effects.now();
  const config = await readSiteConfig(options, effects);
  const csvCache: CsvCache = new Map();
  const load = await loadData(options.data, effects.source, false, csvCache);
  printWarnings(load, effects.log);
  await reportChanges(options.data, load, options, effects);
  const versions = new Map<string, number>();
  const committed = await committedStates(options.data, options.history === false ? null : effects.history, csvCache, effects.log);
  // The day its points last changed (src/builder/history.ts `currentChanged`): with the recorded check, what bounds the rule of coverage.
  const changed = new Map<string, string>();
  for (const source of load.indicators) {
    const { meta, folder } = source;
    const time = options.sourceDateEpoch ?? (await effects.folderVersion(folder));
    versions.set(meta.id, time);
    // With SOURCE_DATE_EPOCH (the deploy's: the merge commit's time) the build's own points are of that
    // time, and no change of points is later than it: the history still says when they last changed.
    const epoch = options.sourceDateEpoch;
    const day = currentChanged(committed.get(meta.id) ?? [], source, time, epoch ?? (await effects.folderVersion(folder, "*.csv")));
    changed.set(meta.id, epoch !== undefined && day > dayOfTime(epoch) ? dayOfTime(epoch) : day);
  }
  const maxFileBytes = options.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES;
  const indicators = load.indicators.map((source) =>
    withParts(
      buildIndicator(source, attributionAnchor(config, source.meta.id), attributionUrl(config, source.meta.id), changed.get(source.meta.id)),
      Math.min(maxFileBytes, options.maxDownloadBytes ?? maxFileBytes),
    ),
  );
  const histories = buildHistories(indicators, versions, committed, options.shardBytes);
  const leftOut: string[] = [];
  const plan = planOutput({
    config,
    indicators,
    limits: options.limits,
    versions,
    publicFiles: await effects.publicFiles(),
    scripts: await effects.bundleClient(),
    seriesFiles: options.seriesFiles !== false,
    histories,
    shardBytes: options.shardBytes,
    maxFileBytes,
    maxFiles: options.maxFiles,
    leftOut: (path, bytes) => leftOut.push(`${path} (${(bytes / 2 ** 20).toFixed(1)} MiB)`),
  });
  // Last of all: the list of every file written, with its hash (src/core/file/file-manifest.ts).
  const listed: ListedFile[] = [];
  plan.push(fileManifestFile(plan, config, versions, listed));
  if (leftOut.length > 0) {
    const max = (maxFileBytes / 2 ** 20).toFixed(0);
    effects.log.warn(`note: ${leftOut.length} prebuilt page${leftOut.length === 1 ? "" : "s"} over ${max} MiB left to the function (--max-file-bytes): ${leftOut.slice(0, 3).join(", ")}${leftOut.length > 3 ? ", …" : ""}`);
  }
  const stats = new Map<string, IndicatorStats>(
    indicators.map(({ source, plain }) => [
      source.meta.id,
      { id: source.meta.id, series: plain.length, points: source.rows.length, files: 0, bytes: 0 },
    ]),
  );
  // Every file is listed in /manifest.json at its public path, those moved to R2 too (the function serves them there).
  const tally = (file: PlannedFile, bytes: number, sha256: string) => {
    if (file.r2 === true) return;
    if (file.path !== outputFile(FILE_MANIFEST_PATH) && !UNLISTED_FILES.includes(file.path)) listed.push({ path: file.path, bytes, sha256 });
    const counted = file.indicator === undefined ? undefined : stats.get(file.indicator);
    if (counted === undefined) return;
    counted.files++;
    counted.bytes += bytes;
  };
  const out = resolve(options.out);
  const keys = await writeFiles(plan, out, effects.output, maxFileBytes, tally);
  if (keys.length > 0 && options.r2State !== undefined) await effects.localR2?.(r2Folder(out), keys, options.r2State);
  const inR2 = plan.filter((file) => file.packed === true).length;
  const result = { stats: [...stats.values()], files: plan.length - inR2 - plan.filter((file) => file.r2 === true).length, r2: inR2, r2Objects: keys.length };
  printSummary(effects.log, result.stats, result.files, (effects.now() - started) / 1000, options.out);
  if (inR2 > 0) effects.log.info(`${inR2} files moved to R2 (src/builder/host-plan.ts): ${keys.length} object${keys.length === 1 ? "" : "s"} (a pack per tail indicator) in ${r2Folder(options.out)}${options.r2State === undefined ? "" : ` and in the local R2 state ${options.r2State}`}`);
  return result;
}

/** Where the files moved to R2 are written, beside the output (Pages uploads all of the output), for `npm run deploy` (scripts/upload-r2.ts). */
export const r2Folder = (out: string) => `${out}.r2`;

/**
 * Renders the plan, hashes each file once (told to the file and to `tally`) and
 * writes it: the files on Pages into the output folder, the R2 objects (the
 * packs of the files moved to R2) into `r2Folder(out)` by their key (the SHA-256
 * of their bytes, each once), both atomically (src/builder/output.ts); a stale R2
 * folder is removed when nothing moves. Files are rendered one after the other
 * (the manifest's render reads what the pages' renders recorded), and written with a few writes in
 * flight: thousands of small files wait on the disk, not on the CPU.
 * @returns the R2 keys written.
 */
async function writeFiles(plan: readonly PlannedFile[], out: string, fx: FileEffects, maxFileBytes: number, tally: (file: PlannedFile, bytes: number, sha256: string) => void): Promise<string[]> {
  const keys = new Set<string>();
  const produce = async (write: WriteFile, writeR2: WriteFile) => {
    const pending = new Set<Promise<void>>();
    const queue = (writing: Promise<void>) => {
      const written: Promise<void> = writing.finally(() => pending.delete(written));
      written.catch(() => undefined); // awaited below; a rejection must not count as unhandled meanwhile
      pending.add(written);
    };
    try {
      for (const file of plan) {
        const body = await file.render();
        // A pack holds files within the limit, and is within its own (src/builder/r2-pack.ts).
        if (file.r2 !== true) checkFileSize(file.path, body, maxFileBytes);
        // Each file's bytes hashed once: the manifest's entry, the tail's index and the R2 key.
        const sha256 = sha256Hex(body);
        file.hashed?.(sha256, body);
        tally(file, typeof body === "string" ? Buffer.byteLength(body) : body.length, sha256);
        if (file.r2 === true && !keys.has(sha256)) queue(writeR2(sha256, body));
        if (file.r2 === true) keys.add(sha256);
        else if (file.packed !== true) queue(write(file.path, body));
        if (pending.size >= WRITES_IN_FLIGHT) await Promise.race(pending);
      }
      await Promise.all(pending);
    } catch (error) {
      // Let the other writes end before the temporary folder is removed.
      await Promise.allSettled(pending);
      throw error;
    }
  };
  const r2 = r2Folder(out);
  if (plan.some((file) => file.r2 === true)) {
    await writeOutput(out, fx, (write) => writeOutput(r2, fx, (writeR2) => produce(write, writeR2)));
  } else {
    await writeOutput(out, fx, (write) => produce(write, () => Promise.reject(new Error("no file moves to R2"))));
    if (await fx.exists(r2)) await fx.remove(r2);
  }
  return [...keys];
}

/**
 * Validates the data folder only (what a pull request needs).
 * @throws DataError listing every fault; BuildError when published points would
 * change or disappear and that is not allowed.
 */
export async function validate(
  options: ChangeOptions & { readonly data: string },
  effects: Pick<BuildEffects, "source" | "log" | "publishedSource" | "appendSummary">,
): Promise<LoadResult> {
  const load = await loadData(options.data, effects.source);
  printWarnings(load, effects.log);
  await reportChanges(options.data, load, options, effects);
  const points = load.indicators.reduce((sum, i) => sum + i.rows.length, 0);
  effects.log.info(`ok: ${load.indicators.length} indicators, ${points} points in ${options.data}`);
  return load;
}
