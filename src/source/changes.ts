/**
 * The change report: what a data change does to the published points, per
 * indicator — points added, revised (old value → new) and removed — so that no
 * published point disappears or changes without someone saying so. Revisions and
 * removals are refused unless the maintainer allows them (`--allow-revisions`).
 */
import { byCodeUnits } from "../core/text/order.js";
import type { SourceRow } from "./csv.js";
import type { IndicatorSource } from "./load.js";

export interface Revision {
  readonly series: string;
  readonly date: string;
  readonly old: string;
  readonly new: string;
}

export interface PointRef {
  readonly series: string;
  readonly date: string;
  readonly value: string;
}

/** The changes of one indicator between the published version and the data now. */
export interface IndicatorChanges {
  readonly id: string;
  /** The indicator is new: it has no published version. */
  readonly isNew: boolean;
  readonly added: readonly PointRef[];
  readonly revised: readonly Revision[];
  readonly removed: readonly PointRef[];
}

const key = (row: { series: string; date: string }) => `${row.series}\u0000${row.date}`;
const byPoint = (a: { series: string; date: string }, b: { series: string; date: string }) =>
  byCodeUnits(a.series, b.series) || byCodeUnits(a.date, b.date);

/**
 * Compares the indicators of the published version (`base`) with the current
 * ones. A value counts as revised when its text changed (`44.9` → `44.90` too:
 * the API publishes the text). An indicator removed whole has all its points removed.
 */
export function diffData(base: readonly IndicatorSource[], current: readonly IndicatorSource[]): IndicatorChanges[] {
  const baseById = new Map(base.map((i) => [i.meta.id, i]));
  const ids = [...new Set([...base.map((i) => i.meta.id), ...current.map((i) => i.meta.id)])].sort(byCodeUnits);
  return ids.map((id) => {
    const before = new Map<string, SourceRow>((baseById.get(id)?.rows ?? []).map((r) => [key(r), r]));
    const now = current.find((i) => i.meta.id === id)?.rows ?? [];
    const added: PointRef[] = [];
    const revised: Revision[] = [];
    for (const row of now) {
      const old = before.get(key(row));
      if (old === undefined) added.push({ series: row.series, date: row.date, value: row.value });
      else if (old.value !== row.value) revised.push({ series: row.series, date: row.date, old: old.value, new: row.value });
      before.delete(key(row));
    }
    const removed = [...before.values()].map((r) => ({ series: r.series, date: r.date, value: r.value }));
    return { id, isNew: !baseById.has(id), added: added.sort(byPoint), revised: revised.sort(byPoint), removed: removed.sort(byPoint) };
  });
}

/** Whether any published point would change or disappear. */
export function hasRevisions(changes: readonly IndicatorChanges[]): boolean {
  return changes.some((c) => c.revised.length > 0 || c.removed.length > 0);
}

/** Most points listed one by one per kind and indicator; the counts are always whole. */
const MAX_LISTED = 50;

function listed<T>(items: readonly T[], line: (item: T) => string): string[] {
  const lines = items.slice(0, MAX_LISTED).map(line);
  if (items.length > MAX_LISTED) lines.push(`  … and ${items.length - MAX_LISTED} more`);
  return lines;
}

/** The report as text lines: a line of counts per indicator, then every revision and removal. */
export function formatChanges(changes: readonly IndicatorChanges[], base: string): string[] {
  const lines = [`changes against ${base}:`];
  for (const c of changes) {
    lines.push(`${c.id}${c.isNew ? " (new)" : ""}: ${c.added.length} added, ${c.revised.length} revised, ${c.removed.length} removed`);
    lines.push(...listed(c.revised, (r) => `  revised ${r.series} ${r.date}: ${r.old} → ${r.new}`));
    lines.push(...listed(c.removed, (r) => `  removed ${r.series} ${r.date} (was ${r.value})`));
  }
  return lines;
}

/** The report as Markdown, for a CI job summary. */
export function changesMarkdown(changes: readonly IndicatorChanges[], base: string, refused: boolean): string {
  const rows = changes.map((c) => `| \`${c.id}\`${c.isNew ? " (new)" : ""} | ${c.added.length} | ${c.revised.length} | ${c.removed.length} |`);
  const details = changes.flatMap((c) => [
    ...listed(c.revised, (r) => `- revised \`${c.id}\` \`${r.series}\` ${r.date}: ${r.old} → ${r.new}`),
    ...listed(c.removed, (r) => `- removed \`${c.id}\` \`${r.series}\` ${r.date} (was ${r.value})`),
  ]);
  const verdict = refused
    ? "**Refused:** published points would change or disappear. If the source revised them, re-run with `--allow-revisions` (label the pull request `data-revision`)."
    : hasRevisions(changes)
      ? "Revisions and removals allowed (`--allow-revisions`)."
      : "No published point changes or disappears.";
  return [`### Data changes against \`${base}\``, "", "| indicator | added | revised | removed |", "|---|---:|---:|---:|", ...rows, "", ...details, ...(details.length > 0 ? [""] : []), verdict, ""].join(
    "\n",
  );
}
