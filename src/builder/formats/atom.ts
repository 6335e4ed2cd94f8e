/**
 * Atom feeds (RFC 4287) of the data releases: one per indicator
 * (`/api/v1/<id>/feed.atom`) and one for the whole service (`/feed.atom`). A
 * release is a distinct point date of an indicator (src/builder/formats/facts.ts);
 * its entry says how many points carry that date and, in the service feed, which
 * indicator, worded by what its dates mean (points taking effect on a day, or
 * referring to a period: `display.date`). Entries are newest first, each
 * `updated` at the release date's midnight UTC (for a period, the day after it
 * ends), the feed `updated` at its newest entry's, so a feed changes only
 * when the data does. Entry ids are `tag:` URIs (RFC 4151) that never change.
 * A feed holds the newest `MAX_ENTRIES` releases: what a reader polls for is
 * what is new, and a daily indicator would otherwise grow its feed without
 * bound (older releases stay in the data; RFC 5005 archives are not written).
 *
 * Links (`self`, `alternate`, `related`) are paths: RFC 4287 §4.2.7.1 makes `href`
 * an IRI reference, resolved against the feed's own address (RFC 3986 §5.1.3, no
 * `xml:base`), so a mirror's feed links the mirror. What identifies (the `tag:`
 * ids, §4.2.6: absolute and never changing) and the author's `uri` (the publisher,
 * as credited) stay absolute, from the public base URL, wherever the feed is served.
 */
import { withQuery } from "../../core/text/url.js";
import type { SiteConfig } from "../../core/indicator/config.js";
import { escapeHtml } from "../../core/text/html.js";
import { byCodeUnits } from "../../core/text/order.js";
import { ATOM_MEDIA_TYPE, SERVICE_FEED_PATH, feedPath, homePath, seriesPagePath } from "../../core/file/paths.js";
import { csvFiles } from "../../core/indicator/distributions.js";
import type { BuiltIndicator } from "../dataset.js";
import type { Revisions } from "../history.js";
import { changesPath } from "../../core/history/changes.js";
import { versionDay } from "../../core/history/history.js";
import { LICENSE_TITLE, isoDateTime, newestVersion, releaseOf, releases } from "./facts.js";

/**
 * The date part of every tag URI: RFC 4151 §2.1 asks for a day on which the
 * tagging entity held the authority name; the service was first built on
 * 2026-11-23. Fixed forever, so ids stay the same.
 */
export const TAG_DATE = "2026-11-23";

/** Entries per feed at most, the newest. */
export const MAX_ENTRIES = 200;

interface Entry {
  readonly id: string;
  readonly title: string;
  readonly updated: string;
  readonly summary: string;
  readonly indicator: string;
  readonly indicatorTitle: string;
  readonly page: string;
  /** The CSV files of its points: `data.csv`, or for an indicator in parts the parts holding them. */
  readonly csv: readonly string[];
  /** A revision's changes (`/api/v1/<id>/changes?since=…`). */
  readonly changes?: string;
}

/** XML text and attribute values (the five predefined entities are valid XML too). */
const x = escapeHtml;
const count = (n: number) => n.toLocaleString("en-US");
const plural = (n: number, word: string) => `${count(n)} ${word}${n === 1 ? "" : "s"}`;

/** `tag:<host>,<TAG_DATE>:<specific>`: the base URL's host names the authority (RFC 4151 §2). */
export function tagUri(config: SiteConfig, specific: string): string {
  return `tag:${new URL(config.baseUrl).hostname},${TAG_DATE}:${specific}`;
}

/**
 * The CSV links of an entry about points of `dates`: `data.csv`, or for an
 * indicator in parts (src/builder/download-parts.ts) the parts holding those dates.
 */
function csvLinks({ source, parts }: BuiltIndicator, dates: readonly string[]): string[] {
  const files = csvFiles(source.meta.id, parts);
  if (parts === undefined) return files;
  return parts.flatMap((part, i) => (dates.some((d) => part.first <= d && d <= part.last) ? [files[i] as string] : []));
}

function entries(config: SiteConfig, indicator: BuiltIndicator, withIndicator: boolean): Entry[] {
  const { meta } = indicator.source;
  const total = indicator.plain.length;
  return releases(indicator).map(({ date, points }) => {
    const { phrase, updated } = releaseOf(meta, date);
    return {
      id: tagUri(config, `${meta.id}/${date}`),
      title: `${withIndicator ? `${meta.title.en}: ` : ""}${plural(points, "point")} ${phrase}`,
      updated,
      summary: `${meta.title.en}: ${plural(points, "point")} ${phrase}, one in each of ${count(points)} of its ${count(total)} sub-series.`,
    indicator: meta.id,
    indicatorTitle: meta.title.en,
    page: seriesPagePath(meta.id),
      csv: csvLinks(indicator, [date]),
    };
  });
}

/** Revisions listed one by one in a revision entry's summary; the counts are always whole. */
const LISTED_REVISIONS = 5;

/**
 * A version that revised or removed published points (src/builder/history.ts) as an
 * entry, linking its changes (`/api/v1/<id>/changes?since=` the version before).
 */
function revisionEntries(config: SiteConfig, indicator: BuiltIndicator, revisions: readonly Revisions[], withIndicator: boolean): Entry[] {
  const { meta } = indicator.source;
  return revisions.map((r) => {
    const day = versionDay(r.version);
    const what = [r.revised.length > 0 ? `${plural(r.revised.length, "point")} revised` : "", r.removed.length > 0 ? `${plural(r.removed.length, "point")} removed` : ""].filter((t) => t !== "").join(", ");
    const listed = r.revised.slice(0, LISTED_REVISIONS).map((c) => `${c.series} ${c.date}: ${c.old} → ${c.new}`);
    return {
      id: tagUri(config, `${meta.id}/revision/${day}`),
      title: `${withIndicator ? `${meta.title.en}: ` : ""}${what} on ${day}`,
      updated: isoDateTime(r.version.published),
      summary: `${meta.title.en}: ${what} on ${day}${listed.length > 0 ? ` (${listed.join("; ")}${r.revised.length > listed.length ? "; …" : ""})` : ""}. Every change since ${r.since}: the link.`,
      indicator: meta.id,
      indicatorTitle: meta.title.en,
      page: seriesPagePath(meta.id),
      csv: csvLinks(indicator, [...r.revised, ...r.removed].map((p) => p.date)),
      changes: withQuery(changesPath(meta.id), [["since", r.since]]),
    };
  });
}

function entryXml(e: Entry): string {
  return (
    `<entry>\n` +
    `<id>${x(e.id)}</id>\n` +
    `<title>${x(e.title)}</title>\n` +
    `<updated>${e.updated}</updated>\n` +
    `<link rel="alternate" type="text/html" href="${x(e.page)}"/>\n` +
    e.csv.map((csv) => `<link rel="related" type="text/csv" href="${x(csv)}"/>\n`).join("") +
    (e.changes === undefined ? "" : `<link rel="related" type="application/json" title="changes" href="${x(e.changes)}"/>\n`) +
    `<category term="${x(e.indicator)}" label="${x(e.indicatorTitle)}"/>\n` +
    `<summary>${x(e.summary)}</summary>\n` +
    `</entry>\n`
  );
}

interface FeedHead {
  readonly id: string;
  readonly title: string;
  readonly subtitle: string;
  readonly self: string;
  readonly alternate: string;
  /** `updated` when there is no entry (RFC 4287 §4.1.1 requires one): the data version. */
  readonly fallbackUpdated: string;
}

function feedXml(config: SiteConfig, head: FeedHead, list: readonly Entry[]): string {
  // RFC 4287 §4.2.15: the feed's updated is the most recent instant it changed: its newest entry.
  const updated = list[0]?.updated ?? head.fallbackUpdated;
  return (
    `<?xml version="1.0" encoding="utf-8"?>\n` +
    `<feed xmlns="http://www.w3.org/2005/Atom" xml:lang="en">\n` +
    `<id>${x(head.id)}</id>\n` +
    `<title>${x(head.title)}</title>\n` +
    `<subtitle>${x(head.subtitle)}</subtitle>\n` +
    `<updated>${updated}</updated>\n` +
    // §4.1.1: a feed without an author in every entry names one itself.
    `<author><name>${x(config.name)}</name><uri>${x(`${config.baseUrl}/`)}</uri></author>\n` +
    `<link rel="self" type="${ATOM_MEDIA_TYPE}" href="${x(head.self)}"/>\n` +
    `<link rel="alternate" type="text/html" href="${x(head.alternate)}"/>\n` +
    `<rights>${x(`${LICENSE_TITLE} (CC BY 4.0); credit: ${config.attributionText}`)}</rights>\n` +
    list.map(entryXml).join("") +
    `</feed>\n`
  );
}

/** Newest first; on the same instant, revisions before releases, then by indicator id. */
const newestFirst = (a: Entry, b: Entry) => byCodeUnits(b.updated, a.updated) || Number(b.changes !== undefined) - Number(a.changes !== undefined) || byCodeUnits(a.indicator, b.indicator);

/**
 * The releases of one indicator, and its revisions (`revisions`, from its history
 * table); `version` is its data version (seconds since the epoch).
 */
export function renderIndicatorFeed(config: SiteConfig, indicator: BuiltIndicator, version: number, revisions: readonly Revisions[] = []): string {
  const { meta } = indicator.source;
  return feedXml(
    config,
    {
      id: tagUri(config, meta.id),
      title: `${meta.title.en} — ${config.name}`,
      subtitle: `Data releases of ${meta.title.en}: one entry per publication date, newest first.`,
      self: feedPath(meta.id),
      alternate: seriesPagePath(meta.id),
      fallbackUpdated: isoDateTime(version),
    },
    (revisions.length === 0 ? entries(config, indicator, false) : [...entries(config, indicator, false), ...revisionEntries(config, indicator, revisions, false)].sort(newestFirst)).slice(0, MAX_ENTRIES),
  );
}

/** The releases of every indicator, newest first (equal dates: by indicator id). */
export function renderServiceFeed(
  config: SiteConfig,
  indicators: readonly BuiltIndicator[],
  versions: ReadonlyMap<string, number>,
  revisions: (id: string) => readonly Revisions[] = () => [],
): string {
  const all = indicators
    .flatMap((i) => [...entries(config, i, true), ...revisionEntries(config, i, revisions(i.source.meta.id), true)])
    .sort(newestFirst)
    .slice(0, MAX_ENTRIES);
  return feedXml(
    config,
    {
      id: tagUri(config, "releases"),
      title: `${config.name}: data releases`,
      subtitle: "Data releases of every indicator: one entry per indicator and publication date, newest first.",
      self: SERVICE_FEED_PATH,
      alternate: homePath(),
      fallbackUpdated: isoDateTime(newestVersion(versions)),
    },
    all,
  );
}
