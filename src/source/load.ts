/**
 * Reading `data/`: one folder per indicator, found with fast-glob, each holding an
 * `indicator.json` and `*.csv` files (docs/DESIGN.md §3). Every fault of every file is
 * collected; the caller gets either all indicators or a `DataError` listing them all.
 */
import { join } from "node:path";
import { parseCsvFile, type ParsedCsv, type SourceRow } from "./csv.js";
import { DataError, type DataIssue } from "./errors.js";
import { parseIndicatorMeta, type IndicatorMeta } from "./metadata.js";
import { byCodeUnits } from "../core/text/order.js";
import { LICENSE } from "../core/answer/contract.js";
import { RHYTHMS } from "../core/time/coverage.js";
import { NEUTRAL_DISPLAY } from "../core/indicator/display.js";
import { LANGS } from "../core/text/i18n.js";
import { sourceKindOf } from "../core/answer/provenance.js";
import { CHECKERS, CHECK_OUTCOMES, type Check } from "../core/time/schedule.js";

/** A validated indicator: its metadata and every point with its provenance. */
export interface IndicatorSource {
  readonly meta: IndicatorMeta;
  /** The indicator's folder, as a path the user can open (e.g. `data/x`). */
  readonly folder: string;
  /** Its CSV files, sorted by name. */
  readonly files: readonly string[];
  readonly rows: readonly SourceRow[];
}

/** What loading found: the indicators and the warnings that do not stop a build. */
export interface LoadResult {
  readonly indicators: readonly IndicatorSource[];
  readonly warnings: readonly DataIssue[];
}

/**
 * What loading reads, passed in (docs/DESIGN.md §4: the build's effects): the real
 * file system in the CLI (`nodeSourceFiles`), anything else in a test.
 */
export interface SourceFiles {
  /** Names of the sub-folders of `dir`, any order; none when `dir` does not exist. */
  folders(dir: string): Promise<string[]>;
  /** Names of the entries of `dir` ending in `.csv`, files or not, any order. */
  csvNames(dir: string): Promise<string[]>;
  /** A file's bytes; rejects with a Node-style error (`code`) when it cannot be read. */
  read(file: string): Promise<Uint8Array>;
}

const utf8 = new TextDecoder("utf-8", { fatal: true });

async function readText(files: SourceFiles, file: string, issues: DataIssue[]): Promise<string | null> {
  let bytes: Uint8Array;
  try {
    bytes = await files.read(file);
  } catch (error) {
    issues.push({ file, reason: `cannot read: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}` });
    return null;
  }
  try {
    return utf8.decode(bytes);
  } catch {
    issues.push({ file, reason: "not valid UTF-8 (save the file as UTF-8)" });
    return null;
  }
}

/**
 * For the points of a published version only (the change report, the history
 * table of src/builder/history.ts): the id and the sub-series ids of an
 * `indicator.json` in any earlier format, and what the rule of coverage reads
 * (`unit`, `rhythm`, `stepwise`, `checked`) when the file has them with a value
 * of the right kind; every other field left at a neutral value.
 */
/** A version's `check` when it has today's form (what the rule of coverage reads of it), else `undefined`. */
function lenientCheck(raw: unknown): Check | undefined {
  const c = raw as Partial<Record<keyof Check, unknown>> | null;
  if (typeof c !== "object" || c === null || typeof c.day !== "string" || !/^\d{4}-\d{2}-\d{2}$/.test(c.day)) return undefined;
  if (!(CHECKERS as readonly unknown[]).includes(c.by) || typeof c.read !== "string" || !(CHECK_OUTCOMES as readonly unknown[]).includes(c.outcome)) return undefined;
  return { day: c.day, by: c.by as Check["by"], read: c.read, outcome: c.outcome as Check["outcome"] };
}

function pointsOnlyMeta(text: string, name: string): IndicatorMeta | null {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return null;
  }
  const series = (json as { series?: unknown }).series;
  if (!Array.isArray(series)) return null;
  const ids = series.map((s: unknown) => (s as { id?: unknown } | null)?.id).filter((id): id is string => typeof id === "string");
  const none = { es: name, en: name };
  const raw = json as { unit?: unknown; rhythm?: unknown; stepwise?: unknown; check?: unknown };
  const check = lenientCheck(raw.check);
  return {
    id: name,
    title: none,
    description: none,
    unit: typeof raw.unit === "string" ? raw.unit : "",
    rhythm: typeof raw.rhythm === "string" && (RHYTHMS as readonly string[]).includes(raw.rhythm) ? (raw.rhythm as IndicatorMeta["rhythm"]) : "irregular",
    stepwise: raw.stepwise === true,
    ...(check === undefined ? {} : { check }),
    license: LICENSE,
    source: { name: none, url: "https://invalid/" },
    notes: [],
    facets: [],
    view: { default: {}, ratios: [] },
    glossary: [],
    schedule: null,
    deflates: [],
    adjusts: [],
    noteTranslations: {},
    sourceKinds: [],
    consult: [],
    search: { keywords: { es: [], en: [] }, equivalents: {} },
    display: NEUTRAL_DISPLAY,
    series: ids.map((id) => ({ id, title: { es: id, en: id }, facets: {} })),
  };
}

/**
 * Every point's note should have a translation into each of the site's other
 * languages (\`noteTranslations\` in \`indicator.json\`). A missing one is a warning
 * at the note's row, never a stop: an update must not wait for a translation, and
 * the page shows the note as written, marked with its language
 * (src/builder/site-model.ts). A translation no note uses is a warning too.
 */
function checkNoteTranslations(meta: IndicatorMeta, metaFile: string, rows: readonly SourceRow[], warnings: DataIssue[]): void {
  const used = new Set<string>();
  const written = meta.display.noteLanguage;
  for (const row of rows) {
    if (row.note === "") continue;
    used.add(row.note);
    for (const lang of LANGS) {
      if (lang === written || meta.noteTranslations[lang]?.[row.note] !== undefined) continue;
      warnings.push({
        file: row.file,
        line: row.line,
        column: "note",
        reason: `no ${lang} translation of this note in ${metaFile} noteTranslations.${lang}: the ${lang} pages show it in ${written}, as written`,
      });
    }
  }
  for (const [lang, translations] of Object.entries(meta.noteTranslations)) {
    for (const note of Object.keys(translations ?? {})) {
      if (!used.has(note)) warnings.push({ file: metaFile, column: `noteTranslations.${lang}`, reason: `translates a note no point has: "${note.slice(0, 60)}…"` });
    }
  }
}

/**
 * Every point that cites a source has a kind (\`sourceKinds\` in \`indicator.json\`,
 * src/core/answer/provenance.ts): a source no declared prefix covers stops the build at
 * its row, so no value is shown as official, or as anything, by default. A
 * declaration no point uses is not a fault: the address an unattended update will
 * cite (the file `publication.link` finds on the publisher's page) is declared before any point cites it.
 */
function checkSourceKinds(meta: IndicatorMeta, metaFile: string, rows: readonly SourceRow[], issues: DataIssue[]): void {
  for (const row of rows) {
    if (row.source !== "" && sourceKindOf(meta.sourceKinds, row.source) === null) {
      issues.push({ file: row.file, line: row.line, column: "source", reason: `no kind declared for ${row.source}: add a prefix of it to sourceKinds in ${metaFile}` });
    }
  }
}

/**
 * The day the source was last checked (`checked` in `indicator.json`) is not
 * before the newest point of an indicator whose points are periods
 * (`display.date` `period`: a month's index is measured after the month began).
 * Others may hold points dated after a check: a tariff or a legal minimum is
 * announced before it applies (`effective`), and a value fixed ahead by a rule
 * (the UI of the days to the 5th of next month, computed from a published change)
 * is known before its day. The day is not compared with the clock: validation
 * gives the same answer on any day (the update that writes it takes it from its clock).
 */
function checkChecked(meta: IndicatorMeta, metaFile: string, rows: readonly SourceRow[], issues: DataIssue[]): void {
  if (meta.check === undefined || meta.display.date !== "period") return;
  let newest = "";
  for (const row of rows) if (row.date > newest) newest = row.date;
  if (newest > meta.check.day) {
    issues.push({
      file: metaFile,
      column: "check.day",
      reason: `${meta.check.day} is before the newest point, ${newest}: a check cannot predate the period of a point it found (display.date "period")`,
    });
  }
}

/**
 * Parsed CSV files by file, declared sub-series and text: the history table
 * (src/builder/history.ts) loads many versions of the data folder, most of whose
 * files are the same text as in the version before or in the working tree.
 */
export type CsvCache = Map<string, ParsedCsv>;

function parseCached(text: string, file: string, declared: ReadonlySet<string>, cache: CsvCache | undefined): ParsedCsv {
  if (cache === undefined) return parseCsvFile(text, file, declared);
  const key = `${file}\u0000${[...declared].join(",")}\u0000${text}`;
  let parsed = cache.get(key);
  if (parsed === undefined) cache.set(key, (parsed = parseCsvFile(text, file, declared)));
  return parsed;
}

async function loadIndicator(fs: SourceFiles, dataDir: string, name: string, issues: DataIssue[], warnings: DataIssue[], pointsOnly: boolean, cache: CsvCache | undefined) {
  const folder = join(dataDir, name);
  const metaFile = join(folder, "indicator.json");
  // Every entry named *.csv, files or not: a folder or a broken link by that name is
  // reported ("cannot read"), never silently skipped.
  const csvNames = (await fs.csvNames(folder)).sort(byCodeUnits);
  const metaText = await readText(fs, metaFile, []);
  if (metaText === null) {
    issues.push({ file: metaFile, reason: "missing or unreadable: every folder under the data folder is an indicator and needs one" });
    return null;
  }
  const parsed = parseIndicatorMeta(metaText, metaFile, name);
  const lenient = !parsed.ok && pointsOnly ? pointsOnlyMeta(metaText, name) : null;
  if (!parsed.ok && lenient === null) {
    issues.push(...parsed.issues);
    return null;
  }
  const meta = parsed.ok ? parsed.value : (lenient as IndicatorMeta);
  const declared = new Set(meta.series.map((s) => s.id));
  const rows: SourceRow[] = [];
  const files = csvNames.map((n) => join(folder, n));
  for (const file of files) {
    const text = await readText(fs, file, issues);
    if (text === null) continue;
    const result = parseCached(text, file, declared, cache);
    // Loops, not push(...array): a file of a million rows would overflow the call stack.
    for (const issue of result.issues) issues.push(issue);
    for (const row of result.rows) rows.push(row);
  }

  // A (series, date) pair may appear once across all files of the indicator. Rows
  // are grouped by series and stably sorted by date, so a duplicate sits right
  // after its first occurrence (the earlier in file and line order).
  const bySeries = new Map<string, SourceRow[]>();
  for (const row of rows) {
    let list = bySeries.get(row.series);
    if (list === undefined) bySeries.set(row.series, (list = []));
    list.push(row);
  }
  const duplicates: DataIssue[] = [];
  for (const list of bySeries.values()) {
    list.sort((a, b) => byCodeUnits(a.date, b.date));
    for (let i = 1, first = list[0]; i < list.length; i++) {
      const row = list[i] as SourceRow;
      if (first !== undefined && row.date === first.date) {
        duplicates.push({
          file: row.file,
          line: row.line,
          column: "series",
          reason: `duplicate point ${row.series} ${row.date}: already at ${first.file}:${first.line}`,
        });
      } else first = row;
    }
  }
  const fileOrder = new Map(files.map((f, i) => [f, i]));
  duplicates.sort((a, b) => (fileOrder.get(a.file) ?? 0) - (fileOrder.get(b.file) ?? 0) || (a.line ?? 0) - (b.line ?? 0));
  for (const issue of duplicates) issues.push(issue);
  if (!pointsOnly) checkNoteTranslations(meta, metaFile, rows, warnings);
  if (!pointsOnly) checkChecked(meta, metaFile, rows, issues);
  if (!pointsOnly) checkSourceKinds(meta, metaFile, rows, issues);
  meta.series.forEach((s, i) => {
    if (!bySeries.has(s.id)) warnings.push({ file: metaFile, column: `series.${i}`, reason: `sub-series "${s.id}" has no points` });
  });
  if (files.length === 0) warnings.push({ file: folder, reason: "no CSV files" });
  return { meta, folder, files, rows };
}

/**
 * Loads and validates every indicator under `dataDir`. With `pointsOnly` (a
 * published version, for the change report), an `indicator.json` of an earlier
 * format is read for its sub-series ids only; the CSV files are validated as ever.
 * `cache` keeps parsed CSV files across calls (see `CsvCache`).
 * @throws DataError listing every fault found, when there is any.
 */
export async function loadData(dataDir: string, fs: SourceFiles, pointsOnly = false, cache?: CsvCache): Promise<LoadResult> {
  const issues: DataIssue[] = [];
  const warnings: DataIssue[] = [];
  let names: string[];
  try {
    names = (await fs.folders(dataDir)).sort(byCodeUnits);
  } catch (error) {
    throw new DataError([{ file: dataDir, reason: `cannot read the data folder: ${(error as Error).message}` }]);
  }
  if (names.length === 0) throw new DataError([{ file: dataDir, reason: "no indicator folders (is this the data folder?)" }]);
  const indicators: IndicatorSource[] = [];
  for (const name of names) {
    const indicator = await loadIndicator(fs, dataDir, name, issues, warnings, pointsOnly, cache);
    if (indicator !== null) indicators.push(indicator);
  }
  // One deflator per unit: `real` must name one deflator.
  const deflators = new Map<string, string>();
  for (const { meta } of indicators) {
    for (const d of meta.deflates) {
      const other = deflators.get(d.unit);
      if (other !== undefined) issues.push({ file: join(dataDir, meta.id, "indicator.json"), reason: `deflates: "${d.unit}" is already deflated by ${other}; one deflator per unit` });
      deflators.set(d.unit, meta.id);
    }
  }
  // A ratio the page offers names a sub-series of another indicator; a data folder without it
  // (a copy of one indicator) still builds, its page without that ratio.
  for (const { meta } of indicators) {
    meta.view.ratios.forEach((r, i) => {
      const [id, series] = r.per.split(":") as [string, string];
      const other = indicators.find((x) => x.meta.id === id);
      if (other === undefined || !other.meta.series.some((s) => s.id === series)) {
        warnings.push({ file: join(dataDir, meta.id, "indicator.json"), column: `view.ratios.${i}.per`, reason: `"${r.per}" names no sub-series of an indicator of this data folder: the page does not offer this ratio` });
      }
    });
  }
  if (issues.length > 0) throw new DataError(issues);
  return { indicators, warnings };
}
