/**
 * The command line of `npm run import -- <indicator> <file> --source <url> [--date YYYY-MM]`
 * as a function of its arguments and its context: it imports one publication into
 * `<data>/<indicator>/` with the importer the indicator's `indicator.json` names
 * (its `importer` key; the importers are registered in `importers.ts`, and nothing
 * here knows an indicator), and into every other indicator of the data folder
 * whose importer reads the same kind of publication (INE's CPI workbook feeds
 * the CPI and the UI). It parses options, reads indicator.json, runs the
 * importers, keeps the notes of replaced files and writes each atomically; one
 * catch prints the error and returns its exit code (0 ok, 1 data error, 2
 * usage), with stack traces only under --debug. Nothing is written on error:
 * every importer runs before any file is written.
 * scripts/import.ts runs it with the process's streams; tests call it in process.
 */
import { mkdir, readFile, readdir, rename, rm, stat, writeFile } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";
import { Command, InvalidArgumentError } from "commander";
import { isHttpUrl } from "../core/text/url.js";
import { DataError, UsageError, formatIssue, runProgram, unwrap, type DataIssue, cliOutput } from "./errors.js";
import { formatPointsCsv, keepNotes, type NotesKept } from "./import-points.js";
import {
  IMPORTERS,
  chooseImporter,
  fedAlongside,
  isMonth,
  planImport,
  type Chosen,
  type ImportFiles,
  type ImportableIndicator,
  type ImportPlan,
  type Imported,
  type IndicatorFound,
} from "./importers.js";
import { INDICATOR_ID_PATTERN, parseIndicatorMeta } from "./metadata.js";

/** Where the import runs: its output streams (one call per line) and working directory. */
export interface ImportContext {
  readonly out: (line: string) => void;
  readonly err: (line: string) => void;
  /** The working directory: relative paths of the arguments are resolved against it (messages show them as given). */
  readonly cwd: string;
}

interface Options {
  date?: string;
  source: string;
  data: string;
  outDir?: string;
  force?: boolean;
}

function parseIndicator(text: string): string {
  // The id is a folder name under --data: nothing else may reach the path.
  if (!INDICATOR_ID_PATTERN.test(text)) throw new InvalidArgumentError(`expected an indicator id (a folder of the data folder), got "${text}"`);
  return text;
}

function parseDate(text: string): string {
  if (!isMonth(text)) throw new InvalidArgumentError(`expected the month YYYY-MM, got "${text}"`);
  return text;
}

function parseSource(text: string): string {
  if (!isHttpUrl(text)) throw new InvalidArgumentError(`expected the http(s) URL of the publication file, got "${text}"`);
  // Every point cites `<url>#<where>` (#L<line>, #B<row>): a fragment of its own would make that ambiguous.
  if (text.includes("#")) throw new InvalidArgumentError(`expected a URL without #fragment (the importer adds one per point), got "${text}"`);
  return text;
}

/**
 * The files an import touches, with relative paths resolved against `cwd`:
 * errors and messages keep the paths as the user gave them.
 */
interface ImportDisk extends ImportFiles {
  exists(path: string): Promise<boolean>;
  folders(path: string): Promise<string[]>;
  mkdir(path: string): Promise<void>;
  /**
   * Writes `text` to `target` through a temporary file in the same folder and a
   * rename, so a reader (or a build) sees the old file or the new one, never half
   * of one. The temporary name does not end in `.csv`: the build globs `*.csv`.
   */
  writeAtomically(target: string, text: string): Promise<void>;
}

function importDisk(cwd: string): ImportDisk {
  const at = (path: string) => resolve(cwd, path);

  /** A file's bytes, or a DataError naming it. */
  async function bytes(file: string): Promise<Uint8Array> {
    try {
      return await readFile(at(file));
    } catch (error) {
      throw new DataError([{ file, reason: `cannot read: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}` }]);
    }
  }

  /** The text of a UTF-8 file, or a DataError naming it: the build reads UTF-8 only. */
  async function text(file: string): Promise<string> {
    const read = await bytes(file);
    try {
      return new TextDecoder("utf-8", { fatal: true }).decode(read);
    } catch {
      throw new DataError([{ file, reason: "not valid UTF-8 (save the file as UTF-8)" }]);
    }
  }

  return {
    bytes,
    text,
    async exists(path) {
      try {
        await stat(at(path));
        return true;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === "ENOENT") return false;
        throw error;
      }
    },
    async folders(path) {
      return (await readdir(at(path), { withFileTypes: true }).catch(() => [])).filter((d) => d.isDirectory()).map((d) => d.name);
    },
    async mkdir(path) {
      await mkdir(at(path), { recursive: true });
    },
    async writeAtomically(target, content) {
      const temporary = at(`${target}.${process.pid}.tmp`);
      try {
        await writeFile(temporary, content, { flag: "wx" });
        await rename(temporary, at(target));
      } catch (error) {
        await rm(temporary, { force: true });
        throw error;
      }
    },
  };
}

/** An indicator's validated indicator.json, or `meta: null` when the folder has none. */
async function readIndicator(disk: ImportDisk, folder: string, indicator: string): Promise<IndicatorFound> {
  const file = join(folder, "indicator.json");
  if (!(await disk.exists(file))) return { file, meta: null };
  return { file, meta: unwrap(parseIndicatorMeta(await disk.text(file), file, indicator)) };
}

/** An indicator of the data folder whose indicator.json names a registered importer, as read. */
interface Importable extends ImportableIndicator {
  readonly found: IndicatorFound;
}

/**
 * The indicators of the data folder whose indicator.json names a registered
 * importer, sorted: for the usage error and to find the indicators fed by the
 * same publication, so a folder that cannot be read or validated is left out
 * rather than reported (the build and `npm run validate` report it).
 */
async function importableIndicators(disk: ImportDisk, data: string): Promise<Importable[]> {
  const importable: Importable[] = [];
  for (const indicator of (await disk.folders(data)).sort()) {
    const found = await readIndicator(disk, join(data, indicator), indicator).catch(() => null);
    const importer = found?.meta?.importer;
    if (found !== null && importer !== undefined && IMPORTERS.has(importer)) importable.push({ indicator, importer, found });
  }
  return importable;
}

/** One indicator an import writes: its importer with the options applied, and where it writes. */
interface ImportJob {
  readonly folder: string;
  readonly indicatorFile: string;
  readonly chosen: Chosen;
  readonly plan: ImportPlan;
  readonly target: string;
}

/**
 * The indicators the import writes, the named one first, then those fed by the
 * same publication in the data folder's order; each with its options applied
 * (`--date`) and its target file.
 * @throws UsageError for the named indicator's faults as `chooseImporter` and
 *   `planImport` find them, a missing publication file, two indicators writing
 *   one file (`--out-dir`), an existing file without `--force`.
 */
async function planJobs(disk: ImportDisk, indicator: string, file: string, opts: Options): Promise<ImportJob[]> {
  const job = (id: string, found: IndicatorFound, chosen: Chosen): ImportJob => {
    const folder = join(opts.data, id);
    const plan = planImport(id, chosen, opts.date);
    return { folder, indicatorFile: found.file, chosen, plan, target: join(opts.outDir ?? folder, plan.outputFile) };
  };
  const found = await readIndicator(disk, join(opts.data, indicator), indicator);
  const chosen = await chooseImporter(indicator, found, () => importableIndicators(disk, opts.data));
  const jobs = [job(indicator, found, chosen)];
  if (!(await disk.exists(file))) throw new UsageError(`cannot read ${file}: no such file`);
  const importable = await importableIndicators(disk, opts.data);
  for (const other of fedAlongside(indicator, chosen, importable)) {
    jobs.push(job(other.indicator, other.found, await chooseImporter(other.indicator, other.found, () => Promise.resolve(importable))));
  }
  const targets = new Set<string>();
  for (const { target } of jobs) {
    if (targets.has(target)) throw new UsageError(`--out-dir: two indicators fed by ${file} write ${target}; import into the data folder instead`);
    targets.add(target);
    if (opts.force !== true && (await disk.exists(target))) {
      throw new UsageError(`${target} already exists: pass --force to replace it (the notes of points whose value is unchanged are kept)`);
    }
  }
  return jobs;
}

/**
 * Runs every job before anything is written. Their data faults are listed
 * together, each once: importers of one publication find the same faults in it.
 * @throws DataError with the faults of every job.
 */
async function runJobs(disk: ImportDisk, jobs: readonly ImportJob[], file: string, sourceUrl: string): Promise<Imported[]> {
  const imported: Imported[] = [];
  const issues = new Map<string, DataIssue>();
  for (const { plan, folder, indicatorFile, chosen } of jobs) {
    try {
      imported.push(await plan.run({ file, sourceUrl, folder, indicatorFile, meta: chosen.meta }, disk));
    } catch (error) {
      if (!(error instanceof DataError)) throw error;
      for (const issue of error.issues) issues.set(formatIssue(issue), issue);
    }
  }
  if (issues.size > 0) throw new DataError([...issues.values()]);
  return imported;
}

async function importCommand(indicator: string, file: string, opts: Options, context: ImportContext): Promise<void> {
  const disk = importDisk(context.cwd);
  const jobs = await planJobs(disk, indicator, file, opts);
  const imported = await runJobs(disk, jobs, file, opts.source);
  const outputs: { target: string; summary: string; replacing: boolean; kept: NotesKept }[] = [];
  for (const [i, { target }] of jobs.entries()) {
    const { points, summary } = imported[i] as Imported;
    const replacing = await disk.exists(target);
    const kept: NotesKept = replacing
      ? unwrap(keepNotes(points, { text: await disk.text(target), file: target }))
      : { rows: points.map((p) => ({ ...p, note: "" })), dropped: [] };
    outputs.push({ target, summary, replacing, kept });
  }
  for (const { target, summary, replacing, kept } of outputs) {
    await disk.mkdir(dirname(target));
    await disk.writeAtomically(target, formatPointsCsv(kept.rows));
    for (const issue of kept.dropped) context.err(`warning: ${formatIssue(issue)}`);
    const notes = kept.rows.filter((r) => r.note !== "").length;
    context.out(`${replacing ? "replaced" : "wrote"} ${target}: ${summary}${replacing ? `; notes kept: ${notes}, dropped: ${kept.dropped.length}` : ""}`);
  }
}

/** Runs the import on `argv` (the arguments after the script's name) and returns the exit code. */
export async function runImport(argv: readonly string[], context: ImportContext): Promise<number> {
  const program = new Command("import")
    .description(
      "Import a publication into data/ with the importer the indicator's indicator.json names " +
        `("importer": ${[...IMPORTERS.keys()].join(", ")}), and into every other indicator whose importer reads the same kind of publication`,
    )
    .argument("<indicator>", "indicator id: a folder of the data folder whose indicator.json names an importer", parseIndicator)
    .argument("<file>", "the publication file")
    .requiredOption("--source <url>", "the http(s) URL of the publication file, cited with a #fragment by every point", parseSource)
    .option("--date <YYYY-MM>", "the month the publication applies from, for an importer that needs one", parseDate)
    .option("--data <dir>", "data folder (read: indicator.json and the importer's files; written: the CSV)", "data")
    .option("--out-dir <dir>", "write the CSV files into this folder instead of <data>/<indicator>/")
    .option("--force", "replace existing files, keeping the notes of points whose value is unchanged")
    .option("--debug", "print stack traces of errors")
    .exitOverride()
    .configureOutput(cliOutput(context))
    .action((indicator: string, file: string, opts: Options) => importCommand(indicator, file, opts, context));

  return runProgram(program, argv, context.err, "nothing was written");
}
