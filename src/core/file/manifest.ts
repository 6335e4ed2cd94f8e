/**
 * The manifest: the build's index of what it prebuilt, which the function reads
 * to serve a prebuilt page (and answer 304 or HEAD) without reading the page.
 * The build records each prebuilt page's size by limit and offset; which query a
 * page answers, where it is and its `next` link are derived here, once.
 */
import { DEFAULT_QUERY, type PageQuery } from "../indicator/model.js";
import { defaultPagePath, endpointPath } from "./paths.js";
import { queryUrl } from "../answer/render.js";

/** Where the manifest is in the output. */
export const MANIFEST_PATH = "/_data/manifest.json";

/** A prebuilt page: where it is and its `Link` header (its ETag is its query's, src/core/answer/etag.ts). */
export interface PrebuiltPage {
  readonly path: string;
  /** The page's `meta.next`, for the `Link` header. */
  readonly next: string | null;
  /** Its size in bytes (the function keeps small pages in memory). */
  readonly bytes: number;
}

export interface ManifestEntry {
  /** HTTP-date of the data version: `Last-Modified` of every response. */
  readonly lastModified: string;
  /** Path of the answer file (src/core/file/answers.ts). */
  readonly answers: string;
  /** The data tag of every answer's ETag (src/core/answer/etag.ts `dataTag`). */
  readonly tag: string;
  /**
   * The prebuilt pages (`prebuiltPage` finds one): by limit, the size in bytes of
   * the page at each offset 0, L, 2L, … below the longest sub-series, 0 where the
   * page was left to the function (over the largest file the host takes). A
   * number per page, not its path and links, which `prebuiltPage` derives: the
   * function parses the manifest at every cold start.
   */
  readonly pages: Record<string, readonly number[]>;
  /** The size of the default page, `index.json` (0: left to the function). */
  readonly index: number;
  /** The points of its longest sub-series: a page has a next one while a sub-series has points beyond it. */
  readonly longest: number;
  /** The history table (src/core/history/history.ts): its path, data tag, and the day each version was published, oldest first (the last is this build's). */
  readonly history: { readonly path: string | null; readonly tag: string; readonly days: readonly string[] };
  /**
   * A tail indicator's (src/builder/host-plan.ts): the path of the index of its files
   * (src/core/file/hosted.ts), which the function serves in place of Pages. Absent for
   * an indicator whose files Pages serves.
   */
  readonly files?: string;
}

/** The index that deflates a unit (`real`): an indicator's sub-series, declared in its `indicator.json` (`deflates`). */
export interface DeflatorRef {
  readonly indicator: string;
  readonly series: string;
}

/** A sub-series that adjusts amounts (`/api/v1/adjust?by=`), declared in its `indicator.json` (`adjusts`). */
export interface AdjusterRef {
  readonly indicator: string;
  readonly series: string;
  /** The unit of account its value is the worth of (an indexed unit), or `null` (an index). */
  readonly unit: { readonly es: string; readonly en: string } | null;
}

export interface Manifest {
  readonly indicators: Record<string, ManifestEntry>;
  /** The site's public base URL and attribution phrase: what the MCP tools cite. */
  readonly site: { readonly baseUrl: string; readonly attribution: string };
  /** The search index: its path and data tag (its ETags), and the latest data version of the indicators it covers. */
  readonly search: { readonly path: string; readonly tag: string; readonly lastModified: string };
  /** By unit (`UYU`): the index that deflates it. A unit not listed is not a currency `real` applies to. */
  readonly deflators: Record<string, DeflatorRef>;
  /** The sub-series `adjust` takes, in the indicators' order. */
  readonly adjusters: readonly AdjusterRef[];
}

/**
 * Whether a prebuilt page can answer `query`: pages are prebuilt as JSON for
 * `limit`/`offset` alone, so another format or any other field of the query that
 * is set (a window, a selection, or any field a later parameter adds) means the
 * answer must be computed. Fields other than `limit`, `offset` and `format` are
 * `null` when not given, which is what makes this safe for parameters added later.
 */
export function isPrebuiltQuery(query: PageQuery): boolean {
  return Object.entries(query).every(([field, value]) => field === "limit" || field === "offset" || (field === "format" ? value === "json" : value === null));
}

/**
 * The prebuilt page of `indicator` (its manifest entry `entry`) that answers
 * `query`, or `undefined`: where it is, its `meta.next` (the same query one page
 * further, while a sub-series has points beyond it) and its size.
 */
export function prebuiltPage(indicator: string, entry: ManifestEntry, query: PageQuery): PrebuiltPage | undefined {
  if (!isPrebuiltQuery(query)) return undefined;
  const { limit, offset } = query;
  const sizes = Object.hasOwn(entry.pages, String(limit)) ? entry.pages[String(limit)] : undefined;
  const k = offset / limit;
  const listed = sizes !== undefined && Number.isInteger(k) ? (sizes[k] ?? 0) : 0;
  const isDefault = limit === DEFAULT_QUERY.limit && offset === 0;
  const bytes = listed > 0 ? listed : isDefault ? entry.index : 0;
  if (bytes === 0) return undefined;
  const next = offset + limit < entry.longest ? queryUrl(indicator, { ...query, offset: offset + limit }) : null;
  return { path: listed > 0 ? prebuiltPagePath(indicator, limit, offset) : defaultPagePath(indicator), next, bytes };
}

/** Path of the prebuilt page of `limit` at `offset`. */
export function prebuiltPagePath(indicator: string, limit: number | string, offset: number | string): string {
  return `${endpointPath(indicator)}/limit-${limit}/offset-${offset}.json`;
}

/** The entry of `indicator`, or `undefined` (never an inherited property: ids come from URLs). */
export function manifestEntry(manifest: Manifest, indicator: string): ManifestEntry | undefined {
  return Object.hasOwn(manifest.indicators, indicator) ? manifest.indicators[indicator] : undefined;
}
