/**
 * Facts about an indicator that several open-data formats state, each computed
 * once from the built data: its releases, its time span, its facet columns, its
 * keywords, the data version as an ISO 8601 time, absolute URLs. Pure functions.
 */
import type { SiteConfig } from "../../core/indicator/config.js";
import { nextDueOf } from "../../core/time/coverage.js";
import { dateOfDay, dayNumber } from "../../core/time/dates.js";
import { byCodeUnits } from "../../core/text/order.js";
import type { IndicatorMeta } from "../../source/metadata.js";
import type { BuiltIndicator } from "../dataset.js";

/** One data release: a distinct point date of the indicator (a publication date) and the points dated so. */
export interface Release {
  readonly date: string;
  readonly points: number;
}

/**
 * The indicator's releases, newest first: the points sharing a date. A (series,
 * date) pair is unique (docs/DESIGN.md §3), so the points of one date are one
 * publication's; what the date means (the day values take effect, or the period
 * they refer to) is the indicator's `display.date` ({@link releaseOf}).
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

/** Words for a period of each rhythm, for the formats' English descriptions. */
const PERIOD_NOUNS: Readonly<Record<string, string>> = { daily: "day", weekly: "week", monthly: "month", quarterly: "quarter", semiannual: "half-year", annual: "year" };

/** What a point's date means, in English: the Data Package's `date` field and the XLSX metadata sheet say it. */
export function dateMeaning(meta: IndicatorMeta): string {
  switch (meta.display.date) {
    case "effective":
      return "The day the value takes effect; it holds until the next one (ISO 8601, YYYY-MM-DD).";
    case "period":
      return `The first day of the ${PERIOD_NOUNS[meta.rhythm] ?? "period"} the value refers to (ISO 8601, YYYY-MM-DD); it is published later.`;
    default:
      return "The date of the value (ISO 8601, YYYY-MM-DD).";
  }
}

/** The last day of the period a period-dated point refers to (its own date for other indicators, or when the rhythm has no length). */
export function periodEnd(meta: IndicatorMeta, date: string): string {
  if (meta.display.date !== "period") return date;
  const next = nextDueOf(meta.rhythm, [])(date);
  return next === null ? date : dateOfDay(dayNumber(next) - 1);
}

/** The days the data speak of: the first point's date to the newest point's date, or to the end of its period. */
export function timeSpan(indicator: Pick<BuiltIndicator, "plain" | "source">): { readonly start: string; readonly end: string } | null {
  const coverage = temporalCoverage(indicator);
  return coverage === null ? null : { start: coverage.start, end: periodEnd(indicator.source.meta, coverage.end) };
}

/**
 * How a feed speaks of a release: its points "take effect on" the date, "refer to"
 * the period, or are "dated"; and its Atom `updated` time: the date itself, or for
 * a period the day after it ends (a value of a period cannot be published before
 * the period is over; the exact publication day is not in the data).
 */
export function releaseOf(meta: IndicatorMeta, date: string): { readonly phrase: string; readonly updated: string } {
  switch (meta.display.date) {
    case "effective":
      return { phrase: `taking effect on ${date}`, updated: dayStart(date) };
    case "period": {
      const end = periodEnd(meta, date);
      return { phrase: `for the ${PERIOD_NOUNS[meta.rhythm] ?? "period"} ${date}/${end}`, updated: dayStart(dateOfDay(dayNumber(end) + 1)) };
    }
    default:
      return { phrase: `dated ${date}`, updated: dayStart(date) };
  }
}
