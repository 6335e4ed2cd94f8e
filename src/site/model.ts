/**
 * What the site renders an indicator from: a view model the build makes
 * (src/builder/site-model.ts), so that the site never reads the build's types and
 * every word it writes about the data comes from `indicator.json`.
 */
import type { DownloadPart } from "../core/indicator/distributions.js";
import type { Lang, Localized } from "../core/text/i18n.js";
import type { CitedKind } from "../core/answer/source-kind-counts.js";
import type { ViewIndicator } from "./client/series-view.js";

/** True when every value of `meta` cites its publisher's own publication: then the publisher is "the source", and the page names no other. */
export function allOfficial(meta: Pick<SiteIndicator, "sourceKinds">): boolean {
  return meta.sourceKinds.every((k) => k.kind === "official");
}

export interface SiteIndicator {
  readonly id: string;
  readonly description: Localized;
  readonly license: string;
  readonly source: { readonly name: Localized; readonly url: string };
  readonly notes: readonly Localized[];
  readonly glossary: readonly { readonly term: Localized; readonly definition: Localized }[];
  /** The units this indicator (a monthly index) deflates, with the sub-series that does (`deflates` in `indicator.json`). */
  readonly deflates: readonly { readonly unit: string; readonly series: string }[];
  /** The ratios the page offers as views of its chart (`view.ratios`: the API's `per`). */
  readonly ratios: readonly { readonly per: string; readonly label: Localized; readonly percent: boolean }[];
  /** Date of the newest point, or null for an indicator without points. */
  readonly lastUpdated: string | null;
  readonly seriesCount: number;
  /** The kinds of source the points cite, each with its label, number of points and the sources of that kind they cite (src/core/answer/source-kind-counts.ts `citedSources`). */
  readonly sourceKinds: readonly CitedKind[];
  /** What the page's view needs: labels, points, notes, display settings. */
  readonly view: ViewIndicator;
  /** The schema.org Dataset of the page in each language, as a JSON-LD object. */
  readonly jsonLd: Readonly<Record<Lang, unknown>>;
  /** The parts of its whole-indicator downloads, newest first, when they are split (src/builder/download-parts.ts); absent: whole files. */
  readonly parts?: readonly DownloadPart[];
}
