/**
 * The `series` selection: which sub-series a list of ids and patterns names. A
 * pattern's `*` matches any run of characters, dots included
 * (`casmu.*`, `*.consult-general-medicine.fonasa`). Ids are sorted, so an exact id
 * or a pattern's literal prefix is found by binary search, not by a scan.
 */
import { byCodeUnits } from "../text/order.js";
import { partitionPoint } from "./sorted.js";

/** One item of the list: an id or a pattern (ids are `[a-z0-9]+([.-][a-z0-9]+)*`). */
export const SERIES_ITEM = /^[a-z0-9.*-]+$/;

/** First index of the sorted `ids` not below `key`. */
function lowerBound(ids: readonly string[], key: string): number {
  return partitionPoint(0, ids.length, (i) => byCodeUnits(ids[i] as string, key) < 0);
}

/** The indices of the sorted `ids` that `item` names. */
function matches(ids: readonly string[], item: string): number[] {
  const star = item.indexOf("*");
  if (star < 0) {
    const at = lowerBound(ids, item);
    return ids[at] === item ? [at] : [];
  }
  // Only ids starting with the literal prefix can match: a range of the sorted ids.
  const prefix = item.slice(0, star);
  const pattern = new RegExp(`^${item.split("*").map((part) => part.replace(/[.-]/g, "\\$&")).join(".*")}$`);
  const found: number[] = [];
  for (let i = lowerBound(ids, prefix); i < ids.length && (ids[i] as string).startsWith(prefix); i++) {
    if (pattern.test(ids[i] as string)) found.push(i);
  }
  return found;
}

/**
 * The indices (ascending) of the sorted `ids` that the items name, and the items
 * that name none.
 */
export function resolveSelection(ids: readonly string[], items: readonly string[]): { indices: number[]; unmatched: string[] } {
  const chosen = new Set<number>();
  const unmatched: string[] = [];
  for (const item of items) {
    const found = matches(ids, item);
    if (found.length === 0) unmatched.push(item);
    for (const i of found) chosen.add(i);
  }
  return { indices: [...chosen].sort((a, b) => a - b), unmatched };
}
