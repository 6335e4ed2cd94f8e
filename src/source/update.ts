/**
 * The unattended update (`npm run update`, run daily by .github/workflows/update.yml):
 * for every indicator whose `indicator.json` names the publisher's file
 * (`publication.url`) and the importer that reads it (`importer`), download the
 * file, import it, validate the whole data folder with the new file in place and
 * compare it with the committed data (the change report, src/source/changes.ts).
 *
 * - a point removed: refused, every removed point listed (a publisher that
 *   withdraws points needs a maintainer, not a robot);
 * - the data file unchanged: a check only — `checked` moves to today in
 *   indicator.json, and no point is touched;
 * - points added or revised (or the same points citing another address): the
 *   new data file and `checked`, and the pull request's title and body (the
 *   change report; revisions still need the `data-revision` label in CI).
 *
 * An indicator computed from the same publication (its importer reads the same
 * kind, `fedAlongside` in src/source/importers.ts: the UI from INE's CPI
 * workbook) is imported from the same downloaded bytes in the same run, so it
 * never lags behind the one the publication names, and its `checked` moves too.
 *
 * Only an importer whose publications date their own points can run
 * unattended: one that needs `--date` (the month a publication applies from,
 * which the file does not say) needs a person to say it.
 *
 * Every effect is passed in (`UpdateEffects`: fetch, clock, the data folder, the
 * committed data, the writes); everything is planned and validated in memory,
 * through a `SourceFiles` that overlays the planned files on the data folder,
 * and written only at the end, all files at once (`writeFilesAtomically`). Any
 * fault before that leaves the data folder as it was. Nothing here knows an
 * indicator: the data names the files and the importers.
 */
import { basename, dirname, join } from "node:path";
import { dayOfTime } from "../core/dates.js";
import { changesMarkdown, diffData, formatChanges, hasRevisions, type IndicatorChanges } from "./changes.js";
import { DataError, UsageError, formatIssue, type DataIssue } from "./errors.js";
import { formatPointsCsv, keepNotes } from "./import-points.js";
import { IMPORTERS, chooseImporter, type ImportFiles, type UndatedImporter } from "./importers.js";
import { loadData, type IndicatorSource, type SourceFiles } from "./load.js";

/** Where the update reports progress and warnings. */
export interface UpdateLog {
  info(line: string): void;
  warn(line: string): void;
}

/** Everything the update touches outside memory. */
export interface UpdateEffects {
  /** The web's `fetch` (Node's in the command line; it follows redirects). */
  fetch(url: string, init: { readonly signal: AbortSignal }): Promise<Response>;
  /** The clock: `checked` is the UTC day of `now()`. */
  now(): Date;
  /** The data folder as it is. */
  readonly source: SourceFiles;
  /** The data folder as committed at `rev` (git), or `null` when there is no such revision. */
  publishedSource(dataDir: string, rev: string): Promise<SourceFiles | null>;
  /** Replaces the files (path → text) all at once, or none: `writeFilesAtomically` on disk. */
  writeFiles(files: ReadonlyMap<string, string>): Promise<void>;
  readonly log: UpdateLog;
}

export interface UpdateOptions {
  /** The data folder. */
  readonly data: string;
  /** The git revision of the committed data the change report compares with (`HEAD`). */
  readonly base: string;
  /** How long a download may take, headers and body, in milliseconds. */
  readonly timeoutMs: number;
}

/** What the check of one indicator found. */
export interface IndicatorCheck {
  readonly id: string;
  /** The publication's address (`publication.url`). */
  readonly url: string;
  /** The importer's words for what it read, e.g. `1070 points, months 1937-07 to 2026-08`. */
  readonly imported: string;
  /** Its points added, revised and removed against the committed data. */
  readonly changes: IndicatorChanges;
  /** Points of unchanged value that now cite another address (a publication that moved). */
  readonly recited: number;
  /** Whether its data file changes: if not, the check only moves `checked`. */
  readonly dataChanged: boolean;
  /** The notes dropped with their points (changed values), as `file:line: note: reason`. */
  readonly droppedNotes: readonly string[];
}

/** The outcome of an update that found no fault. */
export interface UpdateResult {
  /** `changed`: some data file changed (a pull request); `checked`: only `checked` moved. */
  readonly kind: "changed" | "checked";
  /** The day written as `checked` (UTC). */
  readonly today: string;
  readonly checks: readonly IndicatorCheck[];
  /** The files written, sorted; none when the data was already checked today. */
  readonly written: readonly string[];
  /** The commit's subject and body. */
  readonly commit: { readonly subject: string; readonly body: string };
  /** The pull request's title and Markdown body, for `changed`. */
  readonly pullRequest: { readonly title: string; readonly body: string } | null;
}

// ---------------------------------------------------------------------------
// Downloading

/**
 * Whether bytes are an HTML page, by the WHATWG MIME Sniffing Standard's HTML
 * patterns (§7.1, "identifying a resource with an unknown MIME type"): after
 * white space, `<!DOCTYPE HTML`, `<HTML`, `<HEAD`, `<BODY`, `<TITLE`, … followed by
 * a space or `>`, case ignored. The `Content-Type` header is not trusted either
 * way: a publisher's error page comes as 200 or as `application/octet-stream`
 * as often as a workbook comes labelled wrongly.
 */
export function looksLikeHtml(bytes: Uint8Array): boolean {
  const start = new TextDecoder("latin1").decode(bytes.subarray(0, 512)).replace(/^\u00ef\u00bb\u00bf/, "").trimStart().toLowerCase();
  const tags = ["!doctype html", "html", "head", "script", "iframe", "h1", "div", "font", "table", "a", "style", "title", "b", "body", "br", "p"];
  if (start.startsWith("<!--")) return true;
  return tags.some((tag) => start.startsWith(`<${tag}`) && /^[ \t\n\f\r>]/.test(start.slice(tag.length + 1)));
}

/** The `<title>` of an HTML page, for the message (`""` when it has none). */
function pageTitle(bytes: Uint8Array): string {
  const text = new TextDecoder("utf-8").decode(bytes.subarray(0, 65_536));
  const title = /<title[^>]*>([^<]*)<\//i.exec(text)?.[1]?.replace(/\s+/g, " ").trim() ?? "";
  return title === "" ? "" : ` (its title: ${JSON.stringify(title.slice(0, 100))})`;
}

/** Why a fetch failed, in words: a timeout, or the network's error code. */
function networkReason(error: unknown, timeoutMs: number): string {
  const e = error as Error & { cause?: { code?: string; message?: string } };
  if (e.name === "TimeoutError" || e.name === "AbortError") return `no complete answer within ${timeoutMs / 1000} s`;
  return e.cause?.code ?? e.cause?.message ?? e.message;
}

/**
 * The publication's bytes.
 * @throws DataError at the indicator's `publication.url`, naming the address:
 *   a network error or timeout, a status other than 2xx, an empty body, an
 *   HTML page (the publisher's error or moved-file page) where a file was expected.
 */
async function download(url: string, where: { indicatorFile: string; page: string }, effects: UpdateEffects, timeoutMs: number): Promise<Uint8Array> {
  const fault = (reason: string) => new DataError([{ file: where.indicatorFile, column: "publication.url", reason: `cannot download ${url}: ${reason}` }]);
  // One deadline for the headers and the body: a server that stalls mid-file fails too.
  const signal = AbortSignal.timeout(timeoutMs);
  let bytes: Uint8Array;
  try {
    const response = await effects.fetch(url, { signal });
    if (!response.ok) {
      await response.body?.cancel();
      throw fault(`HTTP ${response.status}${response.statusText === "" ? "" : ` ${response.statusText}`}`);
    }
    bytes = new Uint8Array(await response.arrayBuffer());
  } catch (error) {
    if (error instanceof DataError) throw error;
    throw fault(networkReason(error, timeoutMs));
  }
  if (bytes.length === 0) throw fault("an empty file");
  if (looksLikeHtml(bytes)) {
    throw fault(`got an HTML page${pageTitle(bytes)}, not the publication file: the file may have moved (look for it on ${where.page})`);
  }
  return bytes;
}

// ---------------------------------------------------------------------------
// Planning

/** `indicator.json`'s text with `checked` set to `day`: in place, or right after `publication`. */
export function withChecked(text: string, day: string): string {
  const json = JSON.parse(text) as Record<string, unknown>;
  const keys = Object.keys(json);
  const entries: [string, unknown][] = Object.entries(json).filter(([key]) => key !== "checked");
  const at = keys.includes("checked") ? keys.indexOf("checked") : keys.indexOf("publication") + 1;
  entries.splice(at, 0, ["checked", day]);
  // The form every indicator.json has (test/unit/update.test.ts checks data/'s), so the diff is the date alone.
  return `${JSON.stringify(Object.fromEntries(entries), null, 2)}\n`;
}

/** The UTC day of a time, `YYYY-MM-DD`. */
export function utcDay(time: Date): string {
  return dayOfTime(Math.floor(time.getTime() / 1000));
}

const utf8 = new TextDecoder("utf-8", { fatal: true });

/** The fault of a file that cannot be read. */
const unreadable = (file: string, error: unknown) =>
  new DataError([{ file, reason: `cannot read: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}` }]);

/** A file's text, or `null` when it does not exist. */
async function readIfAny(source: SourceFiles, file: string): Promise<string | null> {
  let read: Uint8Array;
  try {
    read = await source.read(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw unreadable(file, error);
  }
  try {
    return utf8.decode(read);
  } catch {
    throw new DataError([{ file, reason: "not valid UTF-8 (save the file as UTF-8)" }]);
  }
}

/** The data folder with planned files (path → text) in place of, or beside, its own. */
export function overlaySource(base: SourceFiles, planned: ReadonlyMap<string, string>): SourceFiles {
  const encoder = new TextEncoder();
  return {
    folders: (dir) => base.folders(dir),
    async csvNames(dir) {
      const names = new Set(await base.csvNames(dir));
      for (const path of planned.keys()) if (dirname(path) === dir && path.endsWith(".csv")) names.add(basename(path));
      return [...names];
    },
    read(file) {
      const text = planned.get(file);
      return text === undefined ? base.read(file) : Promise.resolve(encoder.encode(text));
    },
  };
}

/** One indicator's planned files, before the whole folder is validated. */
interface Planned {
  readonly id: string;
  readonly url: string;
  readonly imported: string;
  readonly dataFile: string;
  /** path → new text, and whether it differs from the file as it is. */
  readonly files: ReadonlyMap<string, { readonly text: string; readonly differs: boolean }>;
  readonly droppedNotes: readonly string[];
}

/**
 * The importer an indicator's publication is read with, if it can run unattended.
 * @throws DataError at `publication` when its importer needs a `--date`.
 */
async function unattendedImporter(source: IndicatorSource, indicatorFile: string): Promise<UndatedImporter> {
  const { name, importer } = await chooseImporter(source.meta.id, { file: indicatorFile, meta: source.meta }, () => Promise.resolve([]));
  if (importer.date !== null) {
    throw new DataError([
      {
        file: indicatorFile,
        column: "publication",
        reason: `the importer ${name} cannot run unattended: it needs ${importer.date}, which a person gives with npm run import --date`,
      },
    ]);
  }
  return importer;
}

/** Imports one indicator's publication, downloaded (`bytes`) from `url`: its new data file and indicator.json. */
async function planIndicator(source: IndicatorSource, url: string, bytes: Uint8Array, today: string, effects: UpdateEffects): Promise<Planned> {
  const { meta, folder } = source;
  const indicatorFile = join(folder, "indicator.json");
  const importer = await unattendedImporter(source, indicatorFile);
  // The importer locates its faults in `file`: the address, so a message names it (`<url>!B12: …`).
  const files: ImportFiles = {
    bytes: (file) => (file === url ? Promise.resolve(bytes) : effects.source.read(file).catch((error: unknown) => Promise.reject(unreadable(file, error)))),
    async text(file) {
      const text = await readIfAny(effects.source, file);
      if (text === null) throw unreadable(file, Object.assign(new Error(file), { code: "ENOENT" }));
      return text;
    },
  };
  let imported;
  try {
    imported = await importer.run({ file: url, sourceUrl: url, folder, indicatorFile, meta }, files);
  } catch (error) {
    if (!(error instanceof DataError)) throw error;
    const lead: DataIssue = { file: indicatorFile, column: "publication.url", reason: `the file downloaded from ${url} does not import (the faults below)` };
    throw new DataError([lead, ...error.issues]);
  }
  effects.log.info(`${meta.id}: imported ${imported.summary}`);
  const { points } = imported;
  const dataFile = join(folder, importer.outputFile);
  const existing = await readIfAny(effects.source, dataFile);
  let rows = points.map((p) => ({ ...p, note: "" }));
  let droppedNotes: string[] = [];
  if (existing !== null) {
    const kept = keepNotes(points, { text: existing, file: dataFile });
    if (!kept.ok) throw new DataError(kept.issues);
    rows = [...kept.value.rows];
    droppedNotes = kept.value.dropped.map(formatIssue);
  }
  const csv = formatPointsCsv(rows);
  const metaText = (await readIfAny(effects.source, indicatorFile)) ?? "";
  const json = withChecked(metaText, today);
  return {
    id: meta.id,
    url,
    imported: imported.summary,
    dataFile,
    files: new Map([
      [dataFile, { text: csv, differs: csv !== existing }],
      [indicatorFile, { text: json, differs: json !== metaText }],
    ]),
    droppedNotes,
  };
}

/** Points whose value is unchanged but whose `source` is another address. */
function recitedCount(before: IndicatorSource | undefined, after: IndicatorSource): number {
  const sources = new Map((before?.rows ?? []).map((r) => [`${r.series}\u0000${r.date}`, r]));
  return after.rows.filter((r) => {
    const old = sources.get(`${r.series}\u0000${r.date}`);
    return old !== undefined && old.value === r.value && old.source !== r.source;
  }).length;
}

// ---------------------------------------------------------------------------
// The report

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;

/** `3 added, 1 revised` (and `, 1069 cite a new address`), the words of titles and commits. */
function counts(check: IndicatorCheck): string {
  const parts = [`${check.changes.added.length} added`, `${check.changes.revised.length} revised`];
  if (check.recited > 0) parts.push(`${check.recited} cite a new address`);
  return parts.join(", ");
}

/** The most added points listed one by one per indicator; the table always has the count. */
const MAX_ADDED = 50;

/** The pull request's Markdown body: what was read, the change report, and what CI will ask. */
export function pullRequestBody(checks: readonly IndicatorCheck[], today: string, base: string): string {
  const changes = checks.map((c) => c.changes);
  const revised = changes.reduce((n, c) => n + c.revised.length, 0);
  const added = checks.flatMap((c) => {
    const lines = c.changes.added.slice(0, MAX_ADDED).map((p) => `- added \`${c.id}\` \`${p.series}\` ${p.date}: ${p.value}`);
    if (c.changes.added.length > MAX_ADDED) lines.push(`- … and ${c.changes.added.length - MAX_ADDED} more added to \`${c.id}\``);
    return lines;
  });
  const recited = checks.filter((c) => c.recited > 0).map((c) => `- \`${c.id}\`: ${plural(c.recited, "point")} of unchanged value now cite ${c.url}`);
  const dropped = checks.flatMap((c) => c.droppedNotes.map((d) => `- ${d}`));
  return [
    `## Data update of ${today}`,
    "",
    "`npm run update` (`.github/workflows/update.yml`) downloaded the publications that `indicator.json` names " +
      "(`publication.url`), imported them with the indicator's `importer` and validated the data folder.",
    "",
    "| indicator | publication | imported |",
    "|---|---|---|",
    ...checks.map((c) => `| \`${c.id}\` | ${c.url} | ${c.imported} |`),
    "",
    changesMarkdown(changes, base, hasRevisions(changes)).trimEnd(),
    "",
    ...(added.length > 0 ? ["#### Added", "", ...added, ""] : []),
    ...(recited.length > 0 ? ["#### Citations", "", ...recited, ""] : []),
    ...(dropped.length > 0 ? ["#### Notes dropped (their points changed: rewrite them if they still apply)", "", ...dropped, ""] : []),
    revised > 0
      ? `**${plural(revised, "published point")} revised.** CI refuses revisions unless the pull request has the label \`data-revision\`: ` +
        "add it only after checking that the publisher itself revised these values (docs/data.md, \"Updating the data\")."
      : "No published point is revised. (Revisions would need the label `data-revision`, added by a maintainer after checking that the publisher revised them.)",
    "",
    `\`checked\` moves to ${today} in ${checks.map((c) => `\`${c.id}\``).join(", ")}.`,
    "",
  ].join("\n");
}

// ---------------------------------------------------------------------------
// The update

/**
 * Checks every indicator that names a publication, and writes the result: the
 * new data files and `checked` (`changed`), or `checked` alone (`checked`).
 * @throws UsageError when no indicator names a publication or the committed
 *   data cannot be read; DataError for any fault (the data folder as it is, a
 *   download, an import, the data folder with the new files, a removed point).
 *   Nothing is written then.
 */
export async function update(options: UpdateOptions, effects: UpdateEffects): Promise<UpdateResult> {
  const today = utcDay(effects.now());
  const current = await loadData(options.data, effects.source);
  const targets = current.indicators.flatMap((source) => (source.meta.publication === undefined ? [] : [{ source, url: source.meta.publication.url }]));
  if (targets.length === 0) {
    throw new UsageError(`no indicator of ${options.data} names a publication ("publication": {"url": …} in its indicator.json): nothing to update`);
  }
  const committed = await effects.publishedSource(options.data, options.base);
  if (committed === null) {
    throw new UsageError(`${options.base} is not a git revision of ${options.data}: the update compares with the committed data, so it runs in a git checkout`);
  }
  const published = (await committed.folders(options.data)).length === 0 ? [] : (await loadData(options.data, committed, true)).indicators;

  const plans: Planned[] = [];
  // One after the other: a publisher is asked once per run, and the first fault stops the run.
  for (const { source, url } of targets) {
    // An importer that needs a person (a --date) is refused before anything is asked of the publisher.
    await unattendedImporter(source, join(source.folder, "indicator.json"));
    effects.log.info(`${source.meta.id}: downloading ${url}`);
    const bytes = await download(url, { indicatorFile: join(source.folder, "indicator.json"), page: source.meta.source.url }, effects, options.timeoutMs);
    plans.push(await planIndicator(source, url, bytes, today, effects));
    // The indicators computed from the same publication (an importer reading its kind, src/source/importers.ts
    // `fedAlongside`) are imported from the same bytes, so that none lags behind it.
    const kind = IMPORTERS.get(source.meta.importer ?? "")?.publication;
    for (const other of current.indicators) {
      const fed = other !== source && other.meta.publication === undefined && kind !== undefined && IMPORTERS.get(other.meta.importer ?? "")?.publication === kind;
      if (fed && !plans.some((p) => p.id === other.meta.id)) plans.push(await planIndicator(other, url, bytes, today, effects));
    }
  }

  // The whole data folder validated with the new files in place (a date, a
  // sub-series not declared, `checked` before the newest point…).
  const planned = new Map(plans.flatMap((p) => [...p.files].map(([path, { text }]) => [path, text] as const)));
  const candidate = await loadData(options.data, overlaySource(effects.source, planned));
  for (const warning of candidate.warnings) effects.log.warn(`warning: ${formatIssue(warning)}`);

  const ids = new Set(plans.map((p) => p.id));
  const changes = diffData(
    published.filter((i) => ids.has(i.meta.id)),
    candidate.indicators.filter((i) => ids.has(i.meta.id)),
  );
  for (const line of formatChanges(changes, options.base)) effects.log.info(line);
  const removed: DataIssue[] = plans.flatMap((plan) =>
    (changes.find((c) => c.id === plan.id)?.removed ?? []).map((r) => ({
      file: plan.dataFile,
      reason: `would remove ${r.series} ${r.date} (was ${r.value}): the file at ${plan.url} no longer has it`,
    })),
  );
  if (removed.length > 0) throw new DataError(removed);

  const checks: IndicatorCheck[] = plans.map((plan) => {
    const after = candidate.indicators.find((i) => i.meta.id === plan.id) as IndicatorSource;
    return {
      id: plan.id,
      url: plan.url,
      imported: plan.imported,
      changes: changes.find((c) => c.id === plan.id) as IndicatorChanges,
      recited: recitedCount(
        published.find((i) => i.meta.id === plan.id),
        after,
      ),
      dataChanged: plan.files.get(plan.dataFile)?.differs === true,
      droppedNotes: plan.droppedNotes,
    };
  });
  const writes = new Map(plans.flatMap((p) => [...p.files].filter(([, f]) => f.differs).map(([path, { text }]) => [path, text] as const)));
  await effects.writeFiles(writes);
  const written = [...writes.keys()].sort();
  return checks.some((c) => c.dataChanged) ? changed(checks, today, written, options.base) : checkedOnly(checks, today, written);
}

function changed(checks: readonly IndicatorCheck[], today: string, written: readonly string[], base: string): UpdateResult {
  const what = checks.filter((c) => c.dataChanged).map((c) => `${c.id} ${counts(c)}`).join("; ");
  return {
    kind: "changed",
    today,
    checks,
    written,
    commit: {
      subject: `Data update from the publishers' files, checked ${today}: ${what}`,
      body: checks.map((c) => `${c.id}: ${c.url} (${c.imported}): ${counts(c)}, ${c.changes.removed.length} removed`).join("\n"),
    },
    pullRequest: { title: `Data update: ${what} (checked ${today})`, body: pullRequestBody(checks, today, base) },
  };
}

function checkedOnly(checks: readonly IndicatorCheck[], today: string, written: readonly string[]): UpdateResult {
  return {
    kind: "checked",
    today,
    checks,
    written,
    commit: {
      subject: `Checked ${today}: ${checks.map((c) => c.id).join(", ")} unchanged`,
      body: checks.map((c) => `${c.id}: ${c.url} holds the same points (${c.imported}): only "checked" moves`).join("\n"),
    },
    pullRequest: null,
  };
}
