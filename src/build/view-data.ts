/**
 * What an indicator page's script loads: its sub-series in groups, one file per
 * group of the view (src/site/client/series-view.ts `groupKey`: the sub-series
 * sharing every facet value but the compared one; all of them for an indicator
 * without a compared facet), as JSON, which Cloudflare and most servers compress.
 * A selection fetches only its group (a few kilobytes), never the whole indicator.
 */
import type { ViewGroupFile } from "../site/client/group-files.js";
import { groupKey, seriesParameter, type ViewIndicator, type ViewSeries } from "../site/client/series-view.js";

/** Every group of `view`'s sub-series: key → its sub-series, keys in first-seen order. */
export function viewGroups(view: ViewIndicator): Map<string, ViewSeries[]> {
  const groups = new Map<string, ViewSeries[]>();
  for (const s of view.series) {
    const key = groupKey(view, s.facets);
    const group = groups.get(key) ?? [];
    group.push(s);
    groups.set(key, group);
  }
  return groups;
}

/** One group's file: the sub-series of `series` (a group of `view`) and their `series` parameter, as JSON. */
export function renderViewGroup(view: ViewIndicator, series: readonly ViewSeries[]): Uint8Array {
  const file: ViewGroupFile = { parameter: seriesParameter(series.map((s) => s.id), view.series.map((s) => s.id)), series };
  return new TextEncoder().encode(JSON.stringify(file));
}
