/**
 * The history tables (src/core/history/history.ts) from the data's own git history:
 * every commit of the published branch that changed the data folder (first
 * parents from HEAD, src/source/git-files.ts `dataCommits`), each indicator
 * folder whose files changed loaded again as the change report loads a published
 * version (leniently: an `indicator.json` of an earlier format gives its
 * sub-series and what the rule of coverage reads, src/source/load.ts), then the
 * data of this build as the last version when it differs from the last commit's.
 */
import { encodeHistoryShards, versionDay, type HistoryEntry, type HistoryFiles, type HistoryVersion } from "../core/history/history.js";
import { dayOfTime } from "../core/time/dates.js";
import { diffData, type PointRef, type Revision } from "../source/changes.js";
import type { AnswerRow } from "../core/file/answers.js";
import type { Schedule } from "../core/time/schedule.js";
import { byCodeUnits } from "../core/text/order.js";
import { SHARD_BYTES } from "../core/answer/contract.js";
import { DataError, formatIssue } from "../source/errors.js";
import type { DataCommit } from "../source/git-files.js";
import { loadData, type CsvCache, type IndicatorSource, type SourceFiles } from "../source/load.js";
import type { BuiltIndicator } from "./dataset.js";
import { csvEsLine, csvLine } from "./dataset.js";
import type { Log } from "./effects.js";

/** What the history is read from: git in the data folder (src/builder/effects.ts), or nothing. */
export interface HistorySource {
  /** The commits of the published branch that changed the data folder, oldest first. */
  commits(dataDir: string): Promise<DataCommit[]>;
  /** The object name of each indicator folder at a commit. */
  trees(dataDir: string, commit: string): Promise<Map<string, string>>;
  /** The data folder's files at a commit. */
  files(dataDir: string, commit: string): Promise<SourceFiles>;
  /** The version time a build of that commit gives the folder (src/source/version.ts). */
  folderTime(dataDir: string, commit: string, folder: string): Promise<number>;
}

/** An indicator's table: its versions and the encoded file, and the versions that revised or removed published points. */
export interface IndicatorHistory {
  readonly versions: readonly HistoryVersion[];
  /**
   * The table's index and shards (src/core/history/history.ts), or `null` when there is
   * one version: every `as_of` then answers today's data and `/changes` lists
   * nothing, so no table is written (a copy of every point the answers hold already).
   */
  readonly table: HistoryFiles | null;
  readonly revisions: readonly Revisions[];
}

/** What a version did to the points of the version before it (the Atom feeds' revision entries). */
export interface Revisions {
  readonly version: HistoryVersion;
  /** The day of the version before: `/changes?since=` it lists these changes (and any later ones). */
  readonly since: string;
  readonly revised: readonly Revision[];
  readonly removed: readonly PointRef[];
}

/** One version of an indicator as loaded, before the table is made. */
export interface State {
  readonly commit: string | null;
  readonly published: number;
  readonly time: number;
  readonly checked: string | null;
  readonly unit: string;
  readonly rhythm: string;
  readonly stepwise: boolean;
  readonly schedule: Schedule | null;
  readonly ids: readonly string[];
  /** Its points by sub-series and date. */
  readonly rows: ReadonlyMap<string, AnswerRow>;
}

const key = (row: { series: string; date: string }) => `${row.series}\u0000${row.date}`;
const text = (row: AnswerRow) => `${row.value}\u0000${row.source}\u0000${row.note}`;

function stateOf(source: IndicatorSource, commit: string | null, published: number, time: number): State {
  const ids = [...new Set([...source.meta.series.map((s) => s.id), ...source.rows.map((r) => r.series)])].sort(byCodeUnits);
  const rows = new Map<string, AnswerRow>();
  for (const r of source.rows) rows.set(key(r), { date: r.date, series: r.series, value: r.value, source: r.source, note: r.note });
  const { unit, rhythm, stepwise, check, schedule } = source.meta;
  return { commit, published, time, checked: check?.day ?? null, unit, rhythm, stepwise, schedule, ids, rows };
}

/** Whether two versions publish the same answers: the same points, texts, sub-series and rule of coverage. */
function sameContent(a: State, b: State): boolean {
  if (a.unit !== b.unit || a.rhythm !== b.rhythm || a.stepwise !== b.stepwise || a.checked !== b.checked) return false;
  if (JSON.stringify(a.schedule) !== JSON.stringify(b.schedule)) return false;
  return a.ids.join("\n") === b.ids.join("\n") && samePoints(a, b);
}

/** Whether two versions hold the same points (dates, values, sources and notes): if so, the later changed none. */
function samePoints(a: State, b: State): boolean {
  if (a.rows.size !== b.rows.size) return false;
  for (const [k, row] of a.rows) {
    const other = b.rows.get(k);
    if (other === undefined || text(other) !== text(row)) return false;
  }
  return true;
}

/**
 * Of the commits, oldest first, the last of each UTC day, each with its time
 * raised to its parent's when earlier (a commit is not published before its
 * parent): `as_of` names days, so a day's earlier commits are never answered and
 * need not be read.
 */
function lastOfEachDay(commits: readonly DataCommit[]): DataCommit[] {
  const kept: DataCommit[] = [];
  let running = -Infinity;
  for (const c of commits) {
    running = Math.max(running, c.time);
    const last = kept.at(-1);
    const published = { commit: c.commit, time: running };
    if (last !== undefined && dayOfTime(last.time) === dayOfTime(running)) kept[kept.length - 1] = published;
    else kept.push(published);
  }
  return kept;
}

/**
 * Every indicator's versions in git, by folder name, oldest first, one per day
 * at most. A folder is loaded again only at a day's last commit when it changed
 * its files; a version that does not
 * load even leniently is left out with a warning (the version before stays in
 * force for `as_of`); a folder removed by a commit gets a version without points.
 */
async function gitStates(dataDir: string, source: HistorySource, cache: CsvCache, log: Log): Promise<Map<string, State[]>> {
  const states = new Map<string, State[]>();
  let before = new Map<string, string>();
  for (const { commit, time } of lastOfEachDay(await source.commits(dataDir))) {
    const trees = await source.trees(dataDir, commit);
    const changed = [...new Set([...trees.keys(), ...before.keys()])].filter((name) => trees.get(name) !== before.get(name)).sort(byCodeUnits);
    before = trees;
    if (changed.length === 0) continue;
    const files = await source.files(dataDir, commit);
    for (const name of changed) {
      const list = states.get(name) ?? [];
      const published = time;
      if (!trees.has(name)) {
        if (list.length > 0) list.push({ ...(list.at(-1) as State), commit, published, ids: [], rows: new Map() });
        continue;
      }
      let loaded: IndicatorSource | undefined;
      try {
        loaded = (await loadData(dataDir, { ...files, folders: (dir) => (dir === dataDir ? Promise.resolve([name]) : files.folders(dir)) }, true, cache)).indicators[0];
      } catch (error) {
        if (!(error instanceof DataError)) throw error;
        log.warn(`warning: ${dataDir}/${name} at ${commit.slice(0, 12)} does not load (${error.issues.length} faults, first: ${formatIssue(error.issues[0] as never)}): left out of its history`);
        continue;
      }
      if (loaded === undefined) continue;
      list.push(stateOf(loaded, commit, published, await source.folderTime(dataDir, commit, name)));
      states.set(name, list);
    }
  }
  return states;
}

/** The table's entries: each point once per stretch of consecutive versions holding it with the same texts. */
export function entriesOf(states: readonly Pick<State, "rows">[]): HistoryEntry[] {
  const entries: HistoryEntry[] = [];
  let open = new Map<string, { row: AnswerRow; from: number }>();
  states.forEach((state, v) => {
    const next = new Map<string, { row: AnswerRow; from: number }>();
    for (const [k, row] of state.rows) {
      const was = open.get(k);
      if (was !== undefined && text(was.row) === text(row)) next.set(k, was);
      else next.set(k, { row, from: v });
    }
    for (const [k, was] of open) if (next.get(k) !== was) entries.push({ ...was.row, from: was.from, to: v });
    open = next;
  });
  for (const was of open.values()) entries.push({ ...was.row, from: was.from, to: states.length });
  return entries;
}

/**
 * Every indicator's committed versions, by folder name, oldest first (`gitStates`);
 * none when `source` is `null`, a build asked for no history (`--no-history`):
 * each table then holds the current version alone, as a build without git
 * history (a shallow clone holds the commits it has).
 */
export async function committedStates(dataDir: string, source: HistorySource | null, cache: CsvCache, log: Log): Promise<Map<string, State[]>> {
  return source === null ? new Map<string, State[]>() : await gitStates(dataDir, source, cache, log);
}

/**
 * The history table of each indicator of this build from its committed versions
 * (`committedStates`). `times` are the build's version times (`SOURCE_DATE_EPOCH` or git's).
 */
export function buildHistories(
  indicators: readonly BuiltIndicator[],
  times: ReadonlyMap<string, number>,
  committed: ReadonlyMap<string, readonly State[]>,
  shardBytes: number = SHARD_BYTES,
): Map<string, IndicatorHistory> {
  return new Map(indicators.map((built) => [built.source.meta.id, historyOf(built, times.get(built.source.meta.id) ?? 0, committed.get(built.source.meta.id) ?? [], shardBytes)]));
}

/** The versions a table holds: the committed ones, then the build's when it publishes other answers; the last of each day. */
function tableStates(committed: readonly State[], current: State): State[] {
  const all = [...committed];
  const last = all.at(-1);
  if (last === undefined || !sameContent(last, current)) all.push(current);
  // `as_of` names a day: of the versions published the same day, the last is the day's.
  return all.filter((s, i) => i === all.length - 1 || dayOfTime(s.published) !== dayOfTime((all[i + 1] as State).published));
}

/**
 * The day each version's points last changed: its own (a committed version's
 * time; the build's, `current`), unless it holds the same points as the version
 * before (it changed metadata, a schedule, a check, a file's name: not a point).
 */
function changedDays(states: readonly State[], current: string): string[] {
  const days: string[] = [];
  states.forEach((s, i) => days.push(i > 0 && samePoints(states[i - 1] as State, s) ? (days[i - 1] as string) : s.commit === null ? current : dayOfTime(s.time)));
  return days;
}

/**
 * The day the points of the build's data last changed (src/core/time/schedule.ts
 * `Look`), by the same rule as its table's versions: `pointsTime` (the version
 * time of its CSV files, src/source/version.ts) when they differ from the last
 * committed version's, else that version's day.
 */
export function currentChanged(committed: readonly State[], source: IndicatorSource, time: number, pointsTime: number): string {
  const states = tableStates(committed, stateOf(source, null, Math.max(time, committed.at(-1)?.published ?? time), time));
  return changedDays(states, dayOfTime(pointsTime)).at(-1) as string;
}

/**
 * An indicator's table from its versions in git (none: the current version
 * alone) and its data in this build, at version time `time`: the last commit's
 * version is the current one when the data are as it has them, else the build's
 * data come after it, published at `time` (or with the last commit, if later).
 * The table's shards aim at `shardBytes` each, as the answers' do.
 */
export function historyOf(built: BuiltIndicator, time: number, committed: readonly State[] = [], shardBytes: number = SHARD_BYTES): IndicatorHistory {
  const states = tableStates(committed, stateOf(built.source, null, Math.max(time, committed.at(-1)?.published ?? time), time));
  const ids = [...new Set(states.flatMap((s) => s.ids))].sort(byCodeUnits);
  const index = new Map(ids.map((s, i) => [s, i]));
  const changed = changedDays(states, built.answerFields.changed ?? dayOfTime(time));
  const versions: HistoryVersion[] = states.map((s, i) => ({
    commit: s.commit,
    published: s.published,
    bound: { time: s.time, checked: s.checked, changed: changed[i] as string },
    unit: s.unit,
    rhythm: s.rhythm,
    stepwise: s.stepwise,
    schedule: s.schedule,
    series: s.ids.map((id) => index.get(id) as number),
  }));
  const table = versions.length === 1 ? null : encodeHistoryShards({ fields: built.answers, ids, versions, entries: entriesOf(states), csvLine, csvEsLine }, shardBytes);
  return { versions, table, revisions: revisionsOf(built.source.meta.id, states, versions) };
}

/** The versions that revised or removed points of the one before, by the build's change report (src/source/changes.ts). */
function revisionsOf(id: string, states: readonly State[], versions: readonly HistoryVersion[]): Revisions[] {
  const asSource = (state: State) => ({ meta: { id }, rows: [...state.rows.values()] }) as unknown as IndicatorSource;
  const found: Revisions[] = [];
  for (let v = 1; v < states.length; v++) {
    const [change] = diffData([asSource(states[v - 1] as State)], [asSource(states[v] as State)]);
    if (change !== undefined && (change.revised.length > 0 || change.removed.length > 0)) {
      found.push({ version: versions[v] as HistoryVersion, since: versionDay(versions[v - 1] as HistoryVersion), revised: change.revised, removed: change.removed });
    }
  }
  return found;
}
