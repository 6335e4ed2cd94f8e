/**
 * The downloads an indicator's page offers, as static files. The page is written
 * with its default selection, and offers its downloads (the chosen sub-series, the
 * whole comparison, every sub-series: src/site/client/series-view.ts) as links.
 * Pointing those at the API's query (`?series=…&limit=5000&format=csv`) needs the
 * function: a static copy of the site (`wget --mirror`, `npm run mirror`, nginx
 * with deploy/nginx.conf) could not answer them. So the build writes each such
 * answer once as a file, byte for byte the API's, and the page links the file:
 * every link a page holds resolves on a plain static server. Every sub-series
 * needs no new file: `data.csv`, `data.es.csv` and the prebuilt page
 * `limit-5000/offset-0.json` hold those answers. What the page script renders for
 * another selection links the API (the function answers it).
 */
import { createHash } from "node:crypto";
import { LIMIT } from "../core/answer/contract.js";
import { DEFAULT_LANG } from "../core/text/i18n.js";
import { prebuiltPagePath } from "../core/file/manifest.js";
import { DEFAULT_QUERY, type PageQuery } from "../core/indicator/model.js";
import { csvEsPath, csvPath, outputFile, pageDownloadPath } from "../core/file/paths.js";
import { renderView, type DownloadChoice, type DownloadLinks, type ViewIndicator } from "../site/client/series-view.js";
import type { PlannedFile } from "./build.js";

/** What a page's downloads are made from. */
export interface PageDownloadsInput {
  readonly view: ViewIndicator;
  /** The indicator's whole downloads are in yearly parts (no `data.csv` to link). */
  readonly inParts: boolean;
  /** The API's answer to `query`, as the function writes it. */
  readonly answer: (query: PageQuery) => Uint8Array;
  /** Whether the plan already holds the output file `file` (a prebuilt page may have been left out for its size). */
  readonly planned: (file: string) => boolean;
  /** The largest file the output may hold: a larger answer stays the API's. */
  readonly maxFileBytes: number;
}

/** The files to write, and the links of the page's downloads by `series` parameter (null: every sub-series). */
export interface PageDownloads {
  readonly files: PlannedFile[];
  readonly links: Map<string | null, Partial<DownloadLinks>>;
}

/** Longest name a download's file takes from its `series` parameter; longer ones are named by a hash. */
const MAX_NAME = 150;

/**
 * A file name for a `series` parameter: a sub-series id as it is, a pattern's `*`
 * as `_` and a list's commas as they are (neither is in an id: no name is another's),
 * a long list `~` and a hash of it. Safe in a URL path and on every file system.
 */
export function pageDownloadName(series: string): string {
  const name = series.replaceAll("*", "_");
  return name.length <= MAX_NAME ? name : `~${createHash("sha256").update(series).digest("hex").slice(0, 32)}`;
}

/** The queries of a choice's three downloads, as the page's API links ask them. */
function queries(series: string): Record<keyof DownloadLinks, PageQuery> {
  const asked = { ...DEFAULT_QUERY, series: series.split(","), limit: LIMIT.max };
  return { csv: { ...asked, format: "csv" }, sheet: { ...asked, format: "csv", dialect: "es" }, json: asked };
}

/** Every sub-series: the static whole files and the prebuilt page of the largest limit, where the output has them. */
function everySeries(id: string, input: PageDownloadsInput): Partial<DownloadLinks> {
  const page = prebuiltPagePath(id, LIMIT.max, 0);
  return {
    ...(input.inParts ? {} : { csv: csvPath(id), sheet: csvEsPath(id) }),
    ...(input.planned(outputFile(page)) ? { json: page } : {}),
  };
}

/** One choice of some sub-series: its three answers rendered now (to know they fit), as files. */
function someSeries(id: string, choice: DownloadChoice, input: PageDownloadsInput, files: PlannedFile[]): Partial<DownloadLinks> {
  const links: Partial<Record<keyof DownloadLinks, string>> = {};
  for (const [kind, query] of Object.entries(queries(choice.series as string)) as [keyof DownloadLinks, PageQuery][]) {
    const bytes = input.answer(query);
    if (bytes.length > input.maxFileBytes) continue;
    const path = pageDownloadPath(id, pageDownloadName(choice.series as string), kind);
    files.push({ path: outputFile(path), indicator: id, render: () => bytes });
    links[kind] = path;
  }
  return links;
}

/**
 * The downloads of the page of `input.view` for its default selection (the same in
 * every language). A choice with a sub-series of more points than the API gives
 * at once already links the static whole files (series-view.ts `downloadPaths`).
 */
export function pageDownloads(input: PageDownloadsInput): PageDownloads {
  const { view } = input;
  const files: PlannedFile[] = [];
  const links = new Map<string | null, Partial<DownloadLinks>>();
  const { choices } = renderView({ lang: DEFAULT_LANG, indicator: view, selection: view.defaults, baseUrl: "" });
  for (const choice of choices) {
    if (choice.longest > LIMIT.max || links.has(choice.series)) continue;
    links.set(choice.series, choice.series === null ? everySeries(view.id, input) : someSeries(view.id, choice, input, files));
  }
  return { files, links };
}
