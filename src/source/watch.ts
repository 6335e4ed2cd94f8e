/**
 * The watcher of hand-kept indicators (docs/data.md, "Watched indicators"): for
 * every indicator without an `importer` (its points are typed from decrees and
 * tables, so no unattended update brings them), the values its schedule (else
 * its rhythm) says are due and the data lacks, and what to do about the GitHub issue that asks a person
 * for them. Pure: given the loaded data, today and the open issues found, it plans;
 * src/source/watch-cli.ts runs the plan through gh.
 *
 * A sub-series' value is due and missing exactly when src/core/time/schedule.ts
 * `successorOf` says it is overdue as of today (its next value's due day is on or
 * before today; a sub-series the indicator has since published without expects
 * nothing), as status.json and the pages say at the last check. A check recorded on or after that due day that found nothing
 * new (`check.outcome` "nothing-new") settles it: a person looked and the
 * publisher had not published, so the watcher stops asking for that value.
 *
 * One issue per indicator, found again by the label `WATCH_LABEL` and the marker
 * `<!-- watch: <id> -->` on its first line: opened when a value is due and missing,
 * its title and body replaced on later runs (the body says how late, so it changes
 * every day), closed with a comment when nothing is due and missing any more.
 */
import { dateOfDay, dayNumber } from "../core/time/dates.js";
import { freshnessFrom, indicatorFreshness, successorOf, type Freshness } from "../core/time/schedule.js";
import { nextDueDayOf, publications } from "../core/time/coverage.js";
import type { IndicatorSource } from "./load.js";

/** The label of the watcher's issues: `gh issue list --label` finds them. */
export const WATCH_LABEL = "value-due";
/** What the label says on GitHub. */
export const WATCH_LABEL_DESCRIPTION = "A hand-kept indicator's value is due and not in the data (npm run watch)";

/** An open issue as `gh issue list --json number,title,body` gives it. */
export interface FoundIssue {
  readonly number: number;
  readonly title: string;
  readonly body: string;
}

/** A sub-series' value that the schedule says is due and the data lacks. */
export interface DueValue {
  readonly series: string;
  /** The sub-series' title in English. */
  readonly title: string;
  /** Its newest point's date. */
  readonly newest: string;
  /** The date the missing value is dated (the CSV's `date`). */
  readonly dated: string;
  /** The day it was due: its date, or its publication day. */
  readonly due: string;
  /** The CSV file holding the sub-series' newest point: where the value goes. */
  readonly file: string;
}

/** What the watcher does for one indicator. */
export type WatchAction =
  | { readonly kind: "open"; readonly indicator: string; readonly title: string; readonly body: string }
  | { readonly kind: "update"; readonly indicator: string; readonly issue: number; readonly title: string; readonly body: string }
  | { readonly kind: "close"; readonly indicator: string; readonly issue: number; readonly comment: string }
  | { readonly kind: "nothing"; readonly indicator: string; readonly reason: string };

/** The marker on the first line of an indicator's issue. */
export function markerOf(indicator: string): string {
  return `<!-- watch: ${indicator} -->`;
}

/** The indicators the watcher looks at: those without an importer, whose points a person adds. */
export function watchedIndicators(indicators: readonly IndicatorSource[]): IndicatorSource[] {
  return indicators.filter((i) => i.meta.importer === undefined);
}

/** The oldest open issue whose body carries the indicator's marker, if any. */
export function issueOf(indicator: string, issues: readonly FoundIssue[]): FoundIssue | undefined {
  const marker = markerOf(indicator);
  return [...issues].sort((a, b) => a.number - b.number).find((issue) => issue.body.includes(marker));
}

/** What is due of an indicator today: the values still asked for, and those a nothing-new check settled. */
export interface Due {
  readonly asked: readonly DueValue[];
  readonly settled: readonly DueValue[];
  /** Every sub-series' freshness as of today (for the reason nothing is due). */
  readonly freshness: readonly Freshness[];
}

/** The values of `source` due on or before `today` (`YYYY-MM-DD`) and missing from its data. */
export function dueValues(source: IndicatorSource, today: string): Due {
  const { meta, rows } = source;
  const newest = new Map<string, { date: string; file: string }>();
  let indicatorNewest = "";
  for (const row of rows) {
    const known = newest.get(row.series);
    if (known === undefined || row.date > known.date) newest.set(row.series, { date: row.date, file: row.file });
    if (row.date > indicatorNewest) indicatorNewest = row.date;
  }
  const asked: DueValue[] = [];
  const settled: DueValue[] = [];
  const freshness: Freshness[] = [];
  const { schedule, check } = meta;
  const byRhythm = nextDueDayOf(meta.rhythm, publications([rows.map((row) => row.date)]).map(dayNumber));
  for (const series of meta.series) {
    const point = newest.get(series.id);
    if (point === undefined) continue;
    // Today stands where the pages put the last check: due on or before it is overdue.
    const successor = successorOf(schedule, byRhythm, dayNumber(point.date), dayNumber(indicatorNewest), dayNumber(today));
    freshness.push(freshnessFrom(point.date, successor));
    if (successor.state !== "overdue") continue;
    const value: DueValue = { series: series.id, title: series.title.en, newest: point.date, dated: dateOfDay(successor.dated), due: dateOfDay(successor.due), file: point.file };
    const lookedSince = check !== undefined && check.outcome === "nothing-new" && check.day >= value.due;
    (lookedSince ? settled : asked).push(value);
  }
  return { asked, settled, freshness };
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;

/** "today", "1 day ago", "12 days ago". */
function ago(due: string, today: string): string {
  const days = dayNumber(today) - dayNumber(due);
  return days === 0 ? "today" : `${plural(days, "day")} ago`;
}

/** The earliest due day of `values` (not empty). */
const since = (values: readonly DueValue[]) => values.reduce((first, v) => (v.due < first ? v.due : first), values[0]?.due ?? "");

/** The issue's title: what is due since when. */
export function issueTitle(source: IndicatorSource, asked: readonly DueValue[]): string {
  return `Value due since ${since(asked)}: ${source.meta.id}, ${source.meta.title.en}`;
}

/**
 * The issue's body: the marker, what is due since when, where to look, and the
 * two ways to answer it (add the values, or record that nothing is published yet).
 * In English, as the project's pull requests are; the places to look are named in
 * both languages, Spanish first: the publishers' pages are in Spanish.
 */
export function issueBody(source: IndicatorSource, asked: readonly DueValue[], today: string): string {
  const { meta, folder } = source;
  const id = meta.id;
  const lines = [
    markerOf(id),
    `**${meta.title.en}** (\`${id}\`) is kept by hand, and its schedule (\`schedule\` in \`${folder}/indicator.json\`) says ${asked.length === 1 ? "a value is" : `${asked.length} values are`} due that the data does not have. As of ${today}:`,
    "",
    "| sub-series | newest in the data | value due, dated | due since |",
    "|---|---|---|---|",
    ...asked.map((v) => `| \`${v.series}\`: ${v.title} | ${v.newest} | ${v.dated} | ${v.due} (${ago(v.due, today)}) |`),
    "",
    "### Where to look",
    "",
    ...(meta.consult.length > 0
      ? meta.consult.map((c) => `- ${c.name.es === c.name.en ? c.name.es : `${c.name.es} / ${c.name.en}`}: ${c.url}`)
      : [`- ${meta.source.name.es === meta.source.name.en ? meta.source.name.es : `${meta.source.name.es} / ${meta.source.name.en}`}: ${meta.source.url} (the indicator's source: it declares no \`consult\`)`]),
    "",
    "### Published: add the values",
    "",
  ];
  // Each value goes into the file that holds its sub-series' newest point.
  const files = [...new Set(asked.map((v) => v.file))];
  const rows = asked.length === 1 ? "this row" : "these rows";
  const where = files.length === 1 ? ` to \`${files[0] ?? ""}\`` : "";
  lines.push(`1. Add ${rows}${where} (columns \`date,series,value,source,note\`), with the value and the address of the publication it is read from:`, "");
  for (const file of files) {
    if (files.length > 1) lines.push(`   to \`${file}\`:`, "");
    lines.push("   ```csv", ...asked.filter((v) => v.file === file).map((v) => `   ${v.dated},${v.series},<value>,<address of the publication>,`), "   ```", "");
  }
  lines.push(
    "2. `npm run validate`: it lists every fault as `file:line: column: reason`, then the change report; fix until it prints `ok`.",
    "3. Commit on a branch and open a pull request to `main`. Once it is merged, the watcher's next run closes this issue.",
    "",
    "### Not published yet: record the check",
    "",
    "```sh",
    `npm run check -- ${id} --source <the address you read> --note "…"`,
    "```",
    "",
    `then commit \`${folder}/indicator.json\` in a pull request to \`main\`. Once merged, a check on or after the day a value was due that found nothing new settles it: the watcher stops asking for it and closes this issue when nothing else is due (the pages show the value as overdue until it is added).`,
    "",
  );
  return lines.join("\n");
}

/** Why an indicator's issue closes: the check that settled what was due, and the newest points. */
function closingComment(source: IndicatorSource, settled: readonly DueValue[]): string {
  const { check } = source.meta;
  const parts: string[] = [];
  if (settled.length > 0 && check !== undefined) {
    const note = check.note === undefined ? "" : ` ("${check.note}")`;
    parts.push(
      `The check recorded on ${check.day} (by ${check.by === "person" ? "a person" : "the update"}, reading ${check.read})${note} found nothing new, on or after the day ` +
        `${settled.map((v) => `\`${v.series}\` ${v.dated}`).join(", ")} ${settled.length === 1 ? "was" : "were"} due (${since(settled)}): the watcher asks for ${settled.length === 1 ? "it" : "them"} no more.`,
    );
  }
  let newest = "";
  for (const row of source.rows) if (row.date > newest) newest = row.date;
  const latest = source.meta.series.filter((s) => source.rows.some((r) => r.series === s.id && r.date === newest)).map((s) => `\`${s.id}\``);
  parts.push(
    settled.length > 0
      ? `No other value is due and missing (newest points: ${newest}, ${latest.join(", ")}). Closing.`
      : `Every value due is in the data now (newest points: ${newest}, ${latest.join(", ")}). Closing.`,
  );
  return parts.join("\n\n");
}

/** Why nothing is asked of an indicator that has no issue open. */
function quietReason(source: IndicatorSource, due: Due): string {
  if (due.settled.length > 0) {
    return `due since ${since(due.settled)}, settled by the check of ${source.meta.check?.day ?? "?"} that found nothing new`;
  }
  const { nextDue } = indicatorFreshness(due.freshness);
  return nextDue === null ? "no value is expected (none of its sub-series expects one)" : `next value due ${nextDue}`;
}

/**
 * What to do for each watched indicator of `indicators` on `today` (`YYYY-MM-DD`),
 * given the open issues carrying the label (`issues`): open an issue, replace its
 * title and body, close it with a comment, or nothing. In the data's order.
 */
export function planWatch(indicators: readonly IndicatorSource[], today: string, issues: readonly FoundIssue[]): WatchAction[] {
  return watchedIndicators(indicators).map((source): WatchAction => {
    const indicator = source.meta.id;
    const due = dueValues(source, today);
    const open = issueOf(indicator, issues);
    if (due.asked.length > 0) {
      const title = issueTitle(source, due.asked);
      const body = issueBody(source, due.asked, today);
      if (open === undefined) return { kind: "open", indicator, title, body };
      if (open.title === title && open.body.trimEnd() === body.trimEnd()) return { kind: "nothing", indicator, reason: `issue #${open.number} is up to date` };
      return { kind: "update", indicator, issue: open.number, title, body };
    }
    if (open !== undefined) return { kind: "close", indicator, issue: open.number, comment: closingComment(source, due.settled) };
    return { kind: "nothing", indicator, reason: quietReason(source, due) };
  });
}
