/**
 * The points whose current value was revised: the value the service publishes
 * now differs from one it published before for the same sub-series and date.
 * The indicator pages mark them ("revisado el 14 oct 2026; antes 118,13"). Read
 * from the history table with the changes endpoint's own function
 * (src/core/history/changes.ts `shardChanges`), so the page and `/changes` never disagree
 * on what was revised, when, or from what.
 */
import { shardChanges } from "./changes.js";
import type { HistoryData } from "./history.js";
import { byCodeUnits } from "../text/order.js";

/** A revised point: the version day its value last changed, and the value text published just before that change. */
export type PointRevision = readonly [changed: string, previous: string];

/** The revised points of one sub-series, by date. */
export type SeriesRevisions = Readonly<Record<string, PointRevision>>;

/**
 * Whether some point has more than one entry in the table (a text of it changed,
 * or it left and came back): without one nothing was revised, and the versions
 * need not be compared (most indicators: their values are never revised).
 */
function anyPointChanged(history: HistoryData): boolean {
  const { global } = history.union;
  for (let g = 1; g < global.points; g++) {
    if (global.day(g) === global.day(g - 1) && global.series(g) === global.series(g - 1)) return true;
  }
  return false;
}

/**
 * The revised points of the current version, by sub-series id then date, from
 * the shards of its history table (src/core/history/history.ts). From
 * the newest version back, the first comparison in which a point is `revised`
 * is the one across its last change: its `previous` is the value published just
 * before that change, its `changed` that change's day (a point removed and
 * published again is revised against its value before the gap). A point revised back to
 * an earlier text is still revised (the service published another value for it
 * in between). Empty when no value was ever revised.
 */
export function revisedPoints(tables: readonly HistoryData[]): Map<string, Record<string, PointRevision>> {
  const revised = new Map<string, Record<string, PointRevision>>();
  const versions = tables[0]?.versions.length ?? 0;
  if (!tables.some(anyPointChanged)) return revised;
  for (let since = versions - 2; since >= 0; since--) {
    for (const c of shardChanges(tables, since)) {
      const byDate = revised.get(c.series) ?? {};
      if (c.change !== "revised" || c.previous === null || byDate[c.date] !== undefined) continue;
      byDate[c.date] = [c.changed, c.previous];
      revised.set(c.series, byDate);
    }
  }
  // Dates newest first, as the view's points (and the same bytes whatever order the changes came in).
  const newestFirst = (byDate: Record<string, PointRevision>) => Object.fromEntries(Object.entries(byDate).sort(([a], [b]) => byCodeUnits(b, a)));
  return new Map([...revised].map(([series, byDate]) => [series, newestFirst(byDate)]));
}
