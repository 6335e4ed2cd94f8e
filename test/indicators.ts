/**
 * The indicators of data/, read from the folder: tests that loop over indicators
 * use this list, so an indicator added to data/ is tested without a test change.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { ROOT } from "./helpers.js";

/** Every folder of data/ with an indicator.json, in code-unit order (the build's order). */
export function indicatorIds(dataDir = join(ROOT, "data")): string[] {
  return readdirSync(dataDir)
    .filter((name) => existsSync(join(dataDir, name, "indicator.json")))
    .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

export const INDICATOR_IDS: readonly string[] = indicatorIds();

/** The sub-series `indicator.json` declares for `id`, in its order. */
export function declaredSeries(id: string, dataDir = join(ROOT, "data")): string[] {
  const meta = JSON.parse(readFileSync(join(dataDir, id, "indicator.json"), "utf8")) as { series: { id: string }[] };
  return meta.series.map((s) => s.id);
}

/** The first sub-series `indicator.json` declares for `id`: one every indicator has. */
export function firstSeries(id: string, dataDir = join(ROOT, "data")): string {
  const first = declaredSeries(id, dataDir)[0];
  if (first === undefined) throw new Error(`${id} declares no sub-series`);
  return first;
}

/**
 * The kind of a source address by `sourceKinds` of `id`'s `indicator.json`, read
 * here again (not through src/): the declared prefixes, longest first, the first
 * the address begins with; `none` when it cites nothing.
 */
export function declaredSourceKind(id: string, dataDir = join(ROOT, "data")): (source: string) => string {
  const meta = JSON.parse(readFileSync(join(dataDir, id, "indicator.json"), "utf8")) as { sourceKinds?: { prefix: string; kind: string }[] };
  const rules = [...(meta.sourceKinds ?? [])].sort((a, b) => b.prefix.length - a.prefix.length);
  return (source) => (source === "" ? "none" : (rules.find((r) => source.startsWith(r.prefix))?.kind ?? "unclassified"));
}
