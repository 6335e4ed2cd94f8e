/**
 * The unattended update (`npm run update`, run daily by .github/workflows/update.yml):
 * for every indicator whose `indicator.json` says where its newest publication
 * is (`publication`, src/source/metadata.ts), look at the publisher, and record
 * the look in indicator.json's `check` (src/core/time/schedule.ts `Check`: the day,
 * `by: "update"`, the address read, what it found).
 *
 * A publication on a page (`publication.page` and `.link`): the page is fetched,
 * its links matching the declaration are found and the newest taken
 * (src/source/links.ts), the file downloaded, imported with the indicator's
 * importer, the whole data folder validated with the new file in place and
 * compared with the committed data (the change report, src/source/changes.ts):
 *
 * - a point removed: refused, every removed point listed (a publisher that
 *   withdraws points needs a maintainer, not a robot); so is a file whose
 *   newest period is older than the data's newest point (an old release);
 * - the data file unchanged: a check only — `check` is written (`nothing-new`,
 *   the file's address, SHA-256 and newest period), and no point is touched;
 * - points added or revised (or the same points citing another address): the
 *   new data file and its `check`, and the pull request's title and body (the
 *   change report; revisions still need the `data-revision` label in CI).
 *
 * An indicator computed from the same publication (its importer reads the same
 * kind, `fedAlongside` in src/source/importers.ts: the UI from INE's CPI
 * workbook) is imported from the same downloaded bytes in the same run, so it
 * never lags behind the one the publication names, and gets a check recording
 * the same address.
 *
 * Editions in a repository's folder (`publication.editions`, src/source/editions.ts):
 * an edition newer than any the points cite is proposed in the pull request's
 * body, with the command a person runs once they know what the file does not
 * say (the month it applies from); nothing of it is imported here, only the
 * check (`new-data`) is written.
 *
 * Only an importer whose publications date their own points can take a page:
 * one that needs `--date` needs a person to say it.
 *
 * Every effect is passed in (`UpdateEffects`: fetch, clock, the data folder, the
 * committed data, the writes); everything is planned and validated in memory,
 * through a `SourceFiles` that overlays the planned files on the data folder,
 * and written only at the end, all files at once (`writeFilesAtomically`). Any
 * fault before that leaves the data folder as it was, and records no check.
 * Nothing here knows an indicator: the data names the pages, the patterns and
 * the importers.
 */
import { createHash } from "node:crypto";
import { basename, dirname, join } from "node:path";
import { dayOfTime } from "../core/time/dates.js";
import type { Check } from "../core/time/schedule.js";
import { changesMarkdown, diffData, formatChanges, hasRevisions, type IndicatorChanges } from "./changes.js";
import { findEditions, type Edition, type EditionsDeclaration } from "./editions.js";
import { DataError, UsageError, formatIssue, type DataIssue } from "./errors.js";
import { formatPointsCsv, keepNotes } from "./import-points.js";
import { IMPORTERS, chooseImporter, type ImportFiles, type UndatedImporter } from "./importers.js";
import { matchingLinks, newestLink, pageLinks, type LinkPattern } from "./links.js";
import { loadData, type CsvCache, type IndicatorSource, type SourceFiles } from "./load.js";

/** Where the update reports progress and warnings. */
export interface UpdateLog {
  info(line: string): void;
  warn(line: string): void;
}

/** Everything the update touches outside memory. */
export interface UpdateEffects {
  /** The web's `fetch` (Node's in the command line; it follows redirects). */
  fetch(url: string, init: { readonly signal: AbortSignal; readonly headers?: Readonly<Record<string, string>> }): Promise<Response>;
  /** The clock: a check's `day` is the UTC day of `now()`. */
  now(): Date;
  /** The data folder as it is. */
  readonly source: SourceFiles;
  /** The data folder as committed at `rev` (git), or `null` when there is no such revision. */
  publishedSource(dataDir: string, rev: string): Promise<SourceFiles | null>;
  /** Replaces the files (path → text) all at once, or none: `writeFilesAtomically` on disk. */
  writeFiles(files: ReadonlyMap<string, string>): Promise<void>;
  readonly log: UpdateLog;
}

/** GitHub's REST API, where `publication.editions` are listed. */
export const GITHUB_API = "https://api.github.com";

export interface UpdateOptions {
  /** The data folder. */
  readonly data: string;
  /** The git revision of the committed data the change report compares with (`HEAD`). */
  readonly base: string;
  /** How long a download may take, headers and body, in milliseconds. */
  readonly timeoutMs: number;
  /** The indicators to check (`npm run update -- <indicator>…`); empty: every one that declares a publication. */
  readonly only?: readonly string[];
  /** The base of GitHub's REST API (`GITHUB_API`; a stand-in in tests). */
  readonly githubApi?: string;
  /** A token for GitHub's API (its limit for anonymous requests is per address, shared on CI runners), or none. */
  readonly githubToken?: string | null;
}

/** What the check of one indicator's publication file found. */
export interface IndicatorCheck {
  readonly id: string;
  /** The address of the file read (the link found on the page). */
  readonly url: string;
  /** The importer's words for what it read, e.g. `1070 points, months 1937-07 to 2026-08`. */
  readonly imported: string;
  /** Its points added, revised and removed against the committed data. */
  readonly changes: IndicatorChanges;
  /** Points of unchanged value that now cite another address (a publication that moved). */
  readonly recited: number;
  /** Whether its data file changes: if not, the check only writes `check`. */
  readonly dataChanged: boolean;
  /** The notes dropped with their points (changed values), as `file:line: note: reason`. */
  readonly droppedNotes: readonly string[];
  /** The check recorded in its indicator.json. */
  readonly check: Check;
}

/** What the look at an indicator's editions found: the editions to import by hand, oldest first (none: nothing new). */
export interface EditionsCheck {
  readonly id: string;
  readonly declaration: EditionsDeclaration;
  /** The newest edition the data cites, or null. */
  readonly newestCited: string | null;
  /** What the importer needs that the file does not say (its `--date`), in its own words; null if nothing. */
  readonly needs: string | null;
  readonly editions: readonly Edition[];
  /** The check recorded in its indicator.json. */
  readonly check: Check;
}

/** The outcome of an update that found no fault. */
export interface UpdateResult {
  /** `changed`: some data file changed or an edition awaits a person (a pull request); `checked`: only checks were written. */
  readonly kind: "changed" | "checked";
  /** The day of the checks (UTC). */
  readonly today: string;
  readonly checks: readonly IndicatorCheck[];
  readonly editions: readonly EditionsCheck[];
  /** The files written, sorted; none when the same checks were already written today. */
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

/** GET `url` with one deadline for the headers and the body (a server that stalls mid-file fails too): its bytes, or why not. */
async function fetchBytes(
  url: string,
  effects: UpdateEffects,
  timeoutMs: number,
  headers: Readonly<Record<string, string>> = {},
): Promise<{ readonly bytes: Uint8Array } | { readonly reason: string }> {
  const signal = AbortSignal.timeout(timeoutMs);
  try {
    const response = await effects.fetch(url, { signal, headers });
    if (!response.ok) {
      await response.body?.cancel();
      return { reason: `HTTP ${response.status}${response.statusText === "" ? "" : ` ${response.statusText}`}` };
    }
    const bytes = new Uint8Array(await response.arrayBuffer());
    return bytes.length === 0 ? { reason: "an empty file" } : { bytes };
  } catch (error) {
    return { reason: networkReason(error, timeoutMs) };
  }
}

/** Where a fault of an indicator's publication is reported: its indicator.json and the key. */
interface Where {
  readonly indicatorFile: string;
  readonly column: string;
}

const fault = (where: Where, reason: string) => new DataError([{ file: where.indicatorFile, column: where.column, reason }]);

/**
 * The newest file the publisher's page links to, as the indicator declares its link.
 * @throws DataError at `publication.page` (the page cannot be downloaded) or
 *   `publication.link` (no link matches, or several with nothing to order them).
 */
async function findFile(page: string, link: LinkPattern, indicatorFile: string, effects: UpdateEffects, timeoutMs: number): Promise<string> {
  const got = await fetchBytes(page, effects, timeoutMs);
  if ("reason" in got) throw fault({ indicatorFile, column: "publication.page" }, `cannot download ${page}: ${got.reason}`);
  const links = pageLinks(new TextDecoder("utf-8").decode(got.bytes), page);
  const newest = newestLink(matchingLinks(links, link));
  if ("href" in newest) return newest.href;
  const declared = `href /${link.href}/${link.text === undefined ? "" : ` and text /${link.text}/i`}`;
  if (newest.reason === "none") {
    throw fault(
      { indicatorFile, column: "publication.link" },
      `no link on ${page} matches ${declared} (the page has ${links.length} link${links.length === 1 ? "" : "s"}): the file may have moved or been renamed; look at the page`,
    );
  }
  throw fault({ indicatorFile, column: "publication.link" }, `on ${page}, ${newest.reason}`);
}

/**
 * The publication file's bytes.
 * @throws DataError at `publication.link`, naming the address: a network error
 *   or timeout, a status other than 2xx, an empty body, an HTML page (a page
 *   about the file, or the publisher's error page) where a file was expected.
 */
async function download(url: string, where: Where & { readonly page: string }, effects: UpdateEffects, timeoutMs: number): Promise<Uint8Array> {
  const got = await fetchBytes(url, effects, timeoutMs);
  if ("reason" in got) throw fault(where, `cannot download ${url}: ${got.reason}`);
  if (looksLikeHtml(got.bytes)) {
    throw fault(where, `cannot download ${url}: got an HTML page${pageTitle(got.bytes)}, not the publication file: the link may lead to a page about the file, or the file may have moved (look for it on ${where.page})`);
  }
  return got.bytes;
}

/** A JSON answer of GitHub's API, or an Error with the reason. */
async function githubJson(url: string, options: UpdateOptions, effects: UpdateEffects): Promise<unknown> {
  const headers: Record<string, string> = { accept: "application/vnd.github+json", "x-github-api-version": "2022-11-28" };
  if (options.githubToken !== undefined && options.githubToken !== null && options.githubToken !== "") headers.authorization = `Bearer ${options.githubToken}`;
  const got = await fetchBytes(url, effects, options.timeoutMs, headers);
  if ("reason" in got) throw new Error(`cannot read ${url}: ${got.reason}`);
  try {
    return JSON.parse(new TextDecoder("utf-8").decode(got.bytes)) as unknown;
  } catch {
    throw new Error(`${url} did not answer JSON`);
  }
}

// ---------------------------------------------------------------------------
// Planning

/** Where a new check goes: after the first of these keys the file has (where the update looks, where a person looks, the source). */
const CHECK_AFTER = ["publication", "consult", "source"];

/**
 * `indicator.json`'s text with `check` set: in place, or right after
 * `publication` (else `consult`, else `source`); its keys in the order of
 * src/core/time/schedule.ts `Check`. The update and `npm run check` write it.
 */
export function withCheck(text: string, check: Check): string {
  const json = JSON.parse(text) as Record<string, unknown>;
  const keys = Object.keys(json);
  const entries: [string, unknown][] = Object.entries(json).filter(([key]) => key !== "check");
  const after = CHECK_AFTER.find((key) => keys.includes(key));
  const at = keys.includes("check") ? keys.indexOf("check") : after === undefined ? entries.length : entries.findIndex(([key]) => key === after) + 1;
  const ordered: Check = {
    day: check.day,
    by: check.by,
    read: check.read,
    outcome: check.outcome,
    ...(check.sha256 === undefined ? {} : { sha256: check.sha256 }),
    ...(check.newest === undefined ? {} : { newest: check.newest }),
    ...(check.note === undefined ? {} : { note: check.note }),
  };
  entries.splice(at, 0, ["check", ordered]);
  // The form every indicator.json has (test/unit/update.test.ts checks data/'s), so the diff is the check alone.
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
  readonly check: Check;
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

/** The newest date of a list of points, `""` for none. */
const newestOf = (points: readonly { readonly date: string }[]) => points.reduce((newest, p) => (p.date > newest ? p.date : newest), "");

/**
 * Imports one indicator's publication, downloaded (`bytes`) from `url`: its new
 * data file and indicator.json with the check recorded.
 * @throws DataError at `publication.link` when the file does not import, or holds
 *   nothing newer than the data's newest point's period (an older release).
 */
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
    const lead: DataIssue = { file: indicatorFile, column: "publication.link", reason: `the file downloaded from ${url} does not import (the faults below)` };
    throw new DataError([lead, ...error.issues]);
  }
  effects.log.info(`${meta.id}: imported ${imported.summary}`);
  const { points } = imported;
  // An older release (a page that still links last month's file): not a check of today's data.
  const newest = newestOf(points);
  const dataNewest = newestOf(source.rows);
  if (newest < dataNewest) {
    throw new DataError([
      {
        file: indicatorFile,
        column: "publication.link",
        reason: `the file at ${url} holds points to ${newest === "" ? "none" : newest}, before the data's newest point, ${dataNewest}: an older release than the one the data has (is the page's link out of date?)`,
      },
    ]);
  }
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
  // New data: a point the data folder does not have, or has with another value (a citation alone is not).
  const values = new Map(source.rows.map((r) => [`${r.series}\u0000${r.date}`, r.value]));
  const fresh = points.some((p) => values.get(`${p.series}\u0000${p.date}`) !== p.value);
  const check: Check = {
    day: today,
    by: "update",
    read: url,
    outcome: fresh ? "new-data" : "nothing-new",
    sha256: createHash("sha256").update(bytes).digest("hex"),
    ...(newest === "" ? {} : { newest }),
  };
  const metaText = (await readIfAny(effects.source, indicatorFile)) ?? "";
  const json = withCheck(metaText, check);
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
    check,
  };
}

/** One indicator's look at its editions, and its indicator.json with the check recorded. */
interface PlannedEditions {
  readonly result: EditionsCheck;
  readonly indicatorFile: string;
  readonly text: string;
  readonly differs: boolean;
}

/**
 * Looks for editions newer than the data's (src/source/editions.ts).
 * @throws DataError at `publication.editions` when the listing cannot be read.
 */
async function planEditions(source: IndicatorSource, declaration: EditionsDeclaration, today: string, options: UpdateOptions, effects: UpdateEffects): Promise<PlannedEditions> {
  const indicatorFile = join(source.folder, "indicator.json");
  // The importer must exist, though a person runs it.
  const { importer } = await chooseImporter(source.meta.id, { file: indicatorFile, meta: source.meta }, () => Promise.resolve([]));
  const api = options.githubApi ?? GITHUB_API;
  effects.log.info(`${source.meta.id}: listing the editions of ${declaration.github} ${declaration.folder}`);
  let found;
  try {
    found = await findEditions(
      declaration,
      source.rows.map((r) => r.source),
      api,
      (url) => githubJson(url, options, effects),
    );
  } catch (error) {
    if (error instanceof DataError || !(error instanceof Error)) throw error;
    throw fault({ indicatorFile, column: "publication.editions" }, `cannot read the editions of ${declaration.github} ${declaration.folder}: ${error.message}`);
  }
  for (const edition of found.newer) effects.log.info(`${source.meta.id}: a new edition, ${edition.name}: ${edition.source}`);
  const check: Check = { day: today, by: "update", read: found.listing, outcome: found.newer.length > 0 ? "new-data" : "nothing-new" };
  const metaText = (await readIfAny(effects.source, indicatorFile)) ?? "";
  const text = withCheck(metaText, check);
  return {
    result: { id: source.meta.id, declaration, newestCited: found.newestCited, needs: importer.date, editions: found.newer, check },
    indicatorFile,
    text,
    differs: text !== metaText,
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

/** A check in words: `nothing-new, read <url> (SHA-256 …, newest 2026-08-01)`. */
function checkWords(check: Check): string {
  const more = [check.sha256 === undefined ? null : `SHA-256 ${check.sha256}`, check.newest === undefined ? null : `newest ${check.newest}`].filter((m) => m !== null);
  return `${check.outcome}, read ${check.read}${more.length === 0 ? "" : ` (${more.join(", ")})`}`;
}

/**
 * The section of the pull request's body for an indicator whose new edition
 * awaits a person: where it is, and the commands that import it once its month is known.
 */
function editionsMarkdown(found: EditionsCheck): string[] {
  const { id, declaration, editions, newestCited, needs } = found;
  if (editions.length === 0) return [];
  const dated = needs !== null;
  const lines = [
    `### \`${id}\`: ${editions.length === 1 ? "a new edition" : `${editions.length} new editions`} to import by hand`,
    "",
    `${declaration.github} lists ${editions.map((e) => `\`${declaration.folder}/${e.name}\``).join(", ")}, ` +
      `newer than any edition the data cites${newestCited === null ? "" : ` (the newest, \`${newestCited}\`)`}. Nothing of it is in this pull request` +
      (dated ? `: its importer needs ${needs}, which a person reads off the publisher's announcement. **Which month does it apply from?** Then import it:` : ": import it:"),
    "",
  ];
  for (const edition of editions) {
    lines.push(
      `- edition \`${edition.name}\` (${edition.page}), its file at commit ${edition.commit}: ${edition.source}`,
      "",
      "  ```sh",
      `  curl -fL -o ${declaration.file} '${edition.download}'`,
      `  npm run import -- ${id} ${declaration.file}${dated ? " --date YYYY-MM" : ""} --source ${edition.source}`,
      "  npm run validate",
      "  ```",
      "",
    );
  }
  lines.push(
    (dated ? "with `YYYY-MM` the month it applies from. " : "") +
      "Commit the file it writes and open a pull request of it from `main` (the scheduled run replaces this branch every day). " +
      "Until the data cites the edition, every run proposes it again.",
    "",
  );
  return lines;
}

/** The pull request's Markdown body: what was read, the change report, the editions awaiting a person, and what CI will ask. */
export function pullRequestBody(checks: readonly IndicatorCheck[], editions: readonly EditionsCheck[], today: string, base: string): string {
  const changes = checks.map((c) => c.changes);
  const revised = changes.reduce((n, c) => n + c.revised.length, 0);
  const added = checks.flatMap((c) => {
    const lines = c.changes.added.slice(0, MAX_ADDED).map((p) => `- added \`${c.id}\` \`${p.series}\` ${p.date}: ${p.value}`);
    if (c.changes.added.length > MAX_ADDED) lines.push(`- … and ${c.changes.added.length - MAX_ADDED} more added to \`${c.id}\``);
    return lines;
  });
  const recited = checks.filter((c) => c.recited > 0).map((c) => `- \`${c.id}\`: ${plural(c.recited, "point")} of unchanged value now cite ${c.url}`);
  const dropped = checks.flatMap((c) => c.droppedNotes.map((d) => `- ${d}`));
  const imports =
    checks.length === 0
      ? []
      : [
          "`npm run update` (`.github/workflows/update.yml`) found the newest file each publisher's page links to " +
            "(`publication.page` and `publication.link`), imported it with the indicator's `importer` and validated the data folder.",
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
        ];
  const recorded = [...checks.map((c) => ({ id: c.id, check: c.check })), ...editions.map((e) => ({ id: e.id, check: e.check }))];
  return [
    `## Data update of ${today}`,
    "",
    ...imports,
    ...editions.flatMap(editionsMarkdown),
    "#### Checks recorded (`check` in indicator.json)",
    "",
    ...recorded.map((r) => `- \`${r.id}\`: ${checkWords(r.check)}`),
    "",
  ].join("\n");
}

// ---------------------------------------------------------------------------
// The update

/**
 * The indicators to check: every one that declares a publication, or those named.
 * @throws UsageError for a name that is no indicator of the data folder, or one that declares no publication.
 */
function chooseTargets(indicators: readonly IndicatorSource[], options: UpdateOptions): IndicatorSource[] {
  const declaring = indicators.filter((i) => i.meta.publication !== undefined);
  const only = options.only ?? [];
  if (declaring.length === 0) {
    throw new UsageError(`no indicator of ${options.data} declares a publication ("publication" in its indicator.json): nothing to update`);
  }
  const list = declaring.map((i) => i.meta.id).join(", ");
  for (const id of only) {
    const found = indicators.find((i) => i.meta.id === id);
    if (found === undefined) throw new UsageError(`unknown indicator "${id}": no folder of ${options.data} has that id; the indicators the update checks are ${list}`);
    if (found.meta.publication === undefined) {
      const kind = IMPORTERS.get(found.meta.importer ?? "")?.publication;
      const feeder = declaring.find((d) => kind !== undefined && IMPORTERS.get(d.meta.importer ?? "")?.publication === kind);
      throw new UsageError(
        feeder === undefined
          ? `"${id}" declares no publication in its indicator.json: the indicators the update checks are ${list}`
          : `"${id}" declares no publication of its own: it is computed from ${feeder.meta.id}'s and checked with it (name ${feeder.meta.id})`,
      );
    }
  }
  return only.length === 0 ? declaring : declaring.filter((d) => only.includes(d.meta.id));
}

/**
 * Asks the publisher of each of `targets`, one after the other (a publisher is
 * asked once per run, and the first fault stops the run): the plans of the
 * indicators whose file was downloaded (with those fed from the same
 * publication, `indicators` being all of them) and of those whose editions await a person.
 */
async function planTargets(targets: readonly IndicatorSource[], indicators: readonly IndicatorSource[], today: string, options: UpdateOptions, effects: UpdateEffects): Promise<{ plans: Planned[]; editionPlans: PlannedEditions[] }> {
  const plans: Planned[] = [];
  const editionPlans: PlannedEditions[] = [];
  for (const source of targets) {
    const publication = source.meta.publication;
    const indicatorFile = join(source.folder, "indicator.json");
    if (publication?.editions !== undefined) {
      editionPlans.push(await planEditions(source, publication.editions, today, options, effects));
      continue;
    }
    if (publication?.page === undefined || publication.link === undefined) continue; // metadata.ts allows no other form
    // An importer that needs a person (a --date) is refused before anything is asked of the publisher.
    await unattendedImporter(source, indicatorFile);
    effects.log.info(`${source.meta.id}: looking for the file on ${publication.page}`);
    const url = await findFile(publication.page, publication.link, indicatorFile, effects, options.timeoutMs);
    effects.log.info(`${source.meta.id}: downloading ${url}`);
    const bytes = await download(url, { indicatorFile, column: "publication.link", page: publication.page }, effects, options.timeoutMs);
    plans.push(await planIndicator(source, url, bytes, today, effects));
    // The indicators computed from the same publication (an importer reading its kind, src/source/importers.ts
    // `fedAlongside`) are imported from the same bytes, so that none lags behind it.
    const kind = IMPORTERS.get(source.meta.importer ?? "")?.publication;
    for (const other of indicators) {
      const fed = other !== source && other.meta.publication === undefined && kind !== undefined && IMPORTERS.get(other.meta.importer ?? "")?.publication === kind;
      if (fed && !plans.some((p) => p.id === other.meta.id)) plans.push(await planIndicator(other, url, bytes, today, effects));
    }
  }
  return { plans, editionPlans };
}

/** What the run found of each planned indicator: its changes against the published data, the points recited, whether its data file changed, its check. */
function checksOf(plans: readonly Planned[], changes: readonly IndicatorChanges[], published: readonly IndicatorSource[], candidates: readonly IndicatorSource[]): IndicatorCheck[] {
  return plans.map((plan) => {
    const after = candidates.find((i) => i.meta.id === plan.id) as IndicatorSource;
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
      check: plan.check,
    };
  });
}

/**
 * Checks every indicator that declares a publication (or those `options.only`
 * names), and writes the result: the new data files and the checks
 * (`changed`, also when an edition awaits a person), or the checks alone (`checked`).
 * @throws UsageError when no indicator declares a publication, a named one is
 *   unknown or declares none, or the committed data cannot be read; DataError
 *   for any fault (the data folder as it is, the page, the file, an import, the
 *   data folder with the new files, a removed point, the editions' listing).
 *   Nothing is written then, and no check recorded.
 */
export async function update(options: UpdateOptions, effects: UpdateEffects): Promise<UpdateResult> {
  const today = utcDay(effects.now());
  // The folder is loaded three times (as it is, as committed, with the new files): a file
  // whose text is the same in two is parsed once.
  const csvCache: CsvCache = new Map();
  const current = await loadData(options.data, effects.source, false, csvCache);
  const targets = chooseTargets(current.indicators, options);
  const committed = await effects.publishedSource(options.data, options.base);
  if (committed === null) {
    throw new UsageError(`${options.base} is not a git revision of ${options.data}: the update compares with the committed data, so it runs in a git checkout`);
  }
  const published = (await committed.folders(options.data)).length === 0 ? [] : (await loadData(options.data, committed, true, csvCache)).indicators;

  const { plans, editionPlans } = await planTargets(targets, current.indicators, today, options, effects);

  // The whole data folder validated with the new files in place (a date, a
  // sub-series not declared, a source no kind covers, a check before the newest point…).
  const planned = new Map([
    ...plans.flatMap((p) => [...p.files].map(([path, { text }]) => [path, text] as const)),
    ...editionPlans.map((e) => [e.indicatorFile, e.text] as const),
  ]);
  const candidate = await loadData(options.data, overlaySource(effects.source, planned), false, csvCache);
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

  const checks = checksOf(plans, changes, published, candidate.indicators);
  const editions = editionPlans.map((e) => e.result);
  const writes = new Map([
    ...plans.flatMap((p) => [...p.files].filter(([, f]) => f.differs).map(([path, { text }]) => [path, text] as const)),
    ...editionPlans.filter((e) => e.differs).map((e) => [e.indicatorFile, e.text] as const),
  ]);
  await effects.writeFiles(writes);
  const written = [...writes.keys()].sort();
  const proposed = editions.some((e) => e.editions.length > 0);
  return checks.some((c) => c.dataChanged) || proposed ? changed(checks, editions, today, written, options.base) : checkedOnly(checks, editions, today, written);
}

/** `<indicator> edition 2026-3 to import`: the words of titles and commits for editions awaiting a person. */
const editionWords = (e: EditionsCheck) => `${e.id} ${e.editions.length === 1 ? "edition" : "editions"} ${e.editions.map((x) => x.name).join(", ")} to import`;

function changed(checks: readonly IndicatorCheck[], editions: readonly EditionsCheck[], today: string, written: readonly string[], base: string): UpdateResult {
  const what = [...checks.filter((c) => c.dataChanged).map((c) => `${c.id} ${counts(c)}`), ...editions.filter((e) => e.editions.length > 0).map(editionWords)].join("; ");
  return {
    kind: "changed",
    today,
    checks,
    editions,
    written,
    commit: {
      subject: `Data update from the publishers' files, checked ${today}: ${what}`,
      body: [
        ...checks.map((c) => `${c.id}: ${c.url} (${c.imported}): ${counts(c)}, ${c.changes.removed.length} removed`),
        ...editions.map((e) => `${e.id}: ${checkWords(e.check)}${e.editions.length === 0 ? "" : `: ${e.editions.map((x) => x.source).join(", ")} (not imported: the month it applies from is needed)`}`),
      ].join("\n"),
    },
    pullRequest: { title: `Data update: ${what} (checked ${today})`, body: pullRequestBody(checks, editions, today, base) },
  };
}

function checkedOnly(checks: readonly IndicatorCheck[], editions: readonly EditionsCheck[], today: string, written: readonly string[]): UpdateResult {
  const ids = [...checks.map((c) => c.id), ...editions.map((e) => e.id)];
  return {
    kind: "checked",
    today,
    checks,
    editions,
    written,
    commit: {
      subject: `Checked ${today}: ${ids.join(", ")} unchanged`,
      body: [
        ...checks.map((c) => `${c.id}: ${c.url} holds the same points (${c.imported}): only "check" is written (${checkWords(c.check)})`),
        ...editions.map((e) => `${e.id}: no edition newer than ${e.newestCited ?? "none"} (${checkWords(e.check)})`),
      ].join("\n"),
    },
    pullRequest: null,
  };
}
