/**
 * Facts about an indicator that several open-data formats state, each computed
 * once from the built data: its releases, its time span, its facet columns, its
 * keywords, the data version as an ISO 8601 time, absolute URLs. Pure functions.
 */
import type { SiteConfig } from "../../core/config.js";
import { byCodeUnits } from "../../core/order.js";
import type { BuiltIndicator } from "../dataset.js";

/** One data release: a distinct point date of the indicator (a publication date) and the points dated so. */
export interface Release {
  readonly date: string;
  readonly points: number;
}

/**
 * The indicator's releases, newest first. Every point is dated from the day it
 * applies, and a (series, date) pair is unique (docs/DESIGN.md §3), so the points
 * of one date are one publication's.
 */
export function releases(indicator: BuiltIndicator): Release[] {
  const counts = new Map<string, number>();
  for (const s of indicator.plain) for (const date of s.dates) counts.set(date, (counts.get(date) ?? 0) + 1);
  return [...counts.entries()].sort(([a], [b]) => byCodeUnits(b, a)).map(([date, points]) => ({ date, points }));
}

/** The first and last point dates (`YYYY-MM-DD`), or `null` for an indicator without points. */
export function temporalCoverage({ plain }: Pick<BuiltIndicator, "plain">): { readonly start: string; readonly end: string } | null {
  let start: string | null = null;
  let end: string | null = null;
  for (const s of plain) {
    const newest = s.dates[0];
    const oldest = s.dates.at(-1);
    if (newest !== undefined && (end === null || newest > end)) end = newest;
    if (oldest !== undefined && (start === null || oldest < start)) start = oldest;
  }
  return start === null || end === null ? null : { start, end };
}

/** The facet names of the sub-series, in the order they first appear (none for plain sub-series). */
export function facetNames(indicator: BuiltIndicator): string[] {
  const names = new Set<string>();
  for (const label of indicator.labels) for (const name of Object.keys(label.facets)) names.add(name);
  return [...names];
}

/** Keywords for catalogs: the country, the kind of data and the words of the indicator's id. */
export function keywords(indicator: BuiltIndicator): string[] {
  return [...new Set(["Uruguay", "statistics", "time series", ...indicator.source.meta.id.split("-")])];
}

/** A data version (seconds since the epoch) as an ISO 8601 UTC date-time without fractions: `2023-11-14T22:13:20Z`. */
export function isoDateTime(seconds: number): string {
  return new Date(seconds * 1000).toISOString().replace(/\.\d{3}Z$/, "Z");
}

/** A day (`YYYY-MM-DD`) as the UTC midnight that starts it, ISO 8601. */
export function dayStart(date: string): string {
  return `${date}T00:00:00Z`;
}

/** The newest of the data versions, seconds since the epoch. */
export function newestVersion(versions: ReadonlyMap<string, number>): number {
  return Math.max(0, ...versions.values());
}

/** The data version of an indicator. @throws Error when the build gave none (a bug). */
export function versionOf(versions: ReadonlyMap<string, number>, indicator: string): number {
  const version = versions.get(indicator);
  if (version === undefined) throw new Error(`no data version time for ${indicator}`);
  return version;
}

/** The absolute URL of a published path (`/…`) under the configured base URL. */
export function absoluteUrl(config: SiteConfig, path: string): string {
  return `${config.baseUrl}${path}`;
}

/** The licence the service publishes under (`LICENSE`, SPDX `CC-BY-4.0`): its deed and its title. */
export const LICENSE_URL = "https://creativecommons.org/licenses/by/4.0/";
export const LICENSE_TITLE = "Creative Commons Attribution 4.0 International";
