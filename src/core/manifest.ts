/**
 * The manifest: the build's index of what it prebuilt, which the function reads
 * to serve a prebuilt page (and answer 304 or HEAD) without reading the page.
 * The key of a prebuilt page is derived here, once, for the build and the function.
 */
import type { PageQuery } from "./model.js";
import { endpointPath } from "./paths.js";

/** Where the manifest is in the output. */
export const MANIFEST_PATH = "/_data/manifest.json";

/** A prebuilt page: where it is and its `Link` header (its ETag is its query's, src/core/etag.ts). */
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
  /** Path of the answer file (src/core/answers.ts). */
  readonly answers: string;
  /** The data tag of every answer's ETag (src/core/etag.ts `dataTag`). */
  readonly tag: string;
  /** Prebuilt pages by `prebuiltKey` of their query. */
  readonly pages: Record<string, PrebuiltPage>;
  /** The history table (src/core/history.ts): its path, data tag, and the day each version was published, oldest first (the last is this build's). */
  readonly history: { readonly path: string | null; readonly tag: string; readonly days: readonly string[] };
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
 * The key of the prebuilt page that answers `query`, or `null` when no prebuilt
 * page can: pages are prebuilt as JSON for `limit`/`offset` alone, so another
 * format or any other field of the query that is set (a window, a selection, or
 * any field a later parameter adds) means the answer must be computed. Fields
 * other than `limit`, `offset` and `format` are `null` when not given, which is
 * what makes this safe for parameters added later.
 */
export function prebuiltKey(query: PageQuery): string | null {
  const { limit, offset, format, ...rest } = query;
  if (format !== "json") return null;
  for (const value of Object.values(rest)) if (value !== null) return null;
  return `${limit}/${offset}`;
}

/** Path of the prebuilt page of `limit` at `offset`. */
export function prebuiltPagePath(indicator: string, limit: number | string, offset: number | string): string {
  return `${endpointPath(indicator)}/limit-${limit}/offset-${offset}.json`;
}

/** The entry of `indicator`, or `undefined` (never an inherited property: ids come from URLs). */
export function manifestEntry(manifest: Manifest, indicator: string): ManifestEntry | undefined {
  return Object.hasOwn(manifest.indicators, indicator) ? manifest.indicators[indicator] : undefined;
}
