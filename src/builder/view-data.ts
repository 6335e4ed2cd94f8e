/**
 * What an indicator page's script loads: its sub-series in groups, one file per
 * group of the view (src/site/client/series-view.ts `groupKey`: the sub-series
 * sharing every facet value but the compared one; all of them for an indicator
 * without a compared facet), as JSON, which Cloudflare and most servers compress.
 * A selection fetches only its group (a few kilobytes), never the whole indicator.
 *
 * A group of more than `VIEW_PART_POINTS` points (a million daily points: 22 MB)
 * is written in parts of consecutive sub-series, each of at most that many points
 * unless one sub-series alone has more: the group's file then lists the parts'
 * addresses and the ids each holds (`parts`), and the page script reads those it
 * needs: all of them to draw the group, those of the sub-series on the cards to
 * answer a question (src/site/client/group-files.ts `groupWith`). Every file
 * stays far below the host's 25 MiB, however many sub-series a group has.
 */
import type { ViewGroupFile } from "../site/client/group-files.js";
import { groupKey, seriesParameter, type ViewIndicator, type ViewSeries } from "../site/client/series-view.js";
import { viewDataPath, viewPartPath } from "../core/file/paths.js";

/** Most points a group file holds (about 2 MB of JSON): a larger group is written in parts. */
export const VIEW_PART_POINTS = 100_000;

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

const encodeGroup = (file: ViewGroupFile) => new TextEncoder().encode(JSON.stringify(file));

/** The `series` parameter naming exactly `series`, a group of `view`. */
const groupParameter = (view: ViewIndicator, series: readonly ViewSeries[]) => seriesParameter(series.map((s) => s.id), view.series.map((s) => s.id));

/** One group's file: the sub-series of `series` (a group of `view`) and their `series` parameter, as JSON. */
export function renderViewGroup(view: ViewIndicator, series: readonly ViewSeries[]): Uint8Array {
  return encodeGroup({ parameter: groupParameter(view, series), series });
}

/** A file of the output: its path from the site's root and how to render it. */
interface GroupFile {
  readonly path: string;
  readonly render: () => Uint8Array;
}

/**
 * The files of group `key` of `view` (its sub-series `series`): one, or when they
 * have more than `partPoints` points in all, the group's file listing its parts
 * and the parts, runs of consecutive sub-series of at most `partPoints` points
 * each (a longer sub-series alone).
 */
export function viewGroupFiles(view: ViewIndicator, key: string, series: readonly ViewSeries[], partPoints = VIEW_PART_POINTS): GroupFile[] {
  const path = viewDataPath(view.id, key);
  const points = series.reduce((n, s) => n + s.dates.length, 0);
  if (points <= partPoints) return [{ path, render: () => renderViewGroup(view, series) }];
  const runs: ViewSeries[][] = [];
  let held = Infinity;
  for (const s of series) {
    if (held + s.dates.length > partPoints) {
      runs.push([]);
      held = 0;
    }
    runs.at(-1)?.push(s);
    held += s.dates.length;
  }
  const parts = runs.map((run, i) => ({ path: viewPartPath(view.id, key, i + 1), run }));
  return [
    { path, render: () => encodeGroup({ parameter: groupParameter(view, series), series: [], parts: parts.map((p) => ({ path: p.path, ids: p.run.map((s) => s.id) })) }) },
    ...parts.map(({ path: partPath, run }) => ({ path: partPath, render: () => encodeGroup({ parameter: null, series: run }) })),
  ];
}
