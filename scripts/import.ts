/**
 * `npm run import -- <indicator> <file> --source <url> [--date YYYY-MM]`: imports
 * one publication into `<data>/<indicator>/` with the importer the indicator's
 * `indicator.json` names (its `importer` key; the importers are registered in
 * `src/source/importers.ts`, and nothing here knows an indicator). A thin
 * wrapper: parse options, read indicator.json, run the importer, keep the notes
 * of a replaced file, write atomically; one top-level catch maps errors to exit
 * codes (0 ok, 1 data error, 2 usage) with stack traces only under --debug.
 * Nothing is written on error.
 */
import { mkdir, readFile, readdir, rename, rm, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { Command, CommanderError, InvalidArgumentError } from "commander";
import { isHttpUrl } from "../src/core/url.js";
import { CliError, DataError, UsageError, formatIssue, unwrap } from "../src/source/errors.js";
import { formatPointsCsv, keepNotes, type NotesKept } from "../src/source/import-points.js";
import {
  IMPORTERS,
  chooseImporter,
  isMonth,
  planImport,
  type ImportFiles,
  type ImportableIndicator,
  type IndicatorFound,
} from "../src/source/importers.js";
import { INDICATOR_ID_PATTERN, parseIndicatorMeta } from "../src/source/metadata.js";

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

/** A file's bytes, or a DataError naming it. */
async function readBytes(file: string): Promise<Uint8Array> {
  try {
    return await readFile(file);
  } catch (error) {
    throw new DataError([{ file, reason: `cannot read: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}` }]);
  }
}

/** The text of a UTF-8 file, or a DataError naming it: the build reads UTF-8 only. */
async function readUtf8(file: string): Promise<string> {
  const bytes = await readBytes(file);
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    throw new DataError([{ file, reason: "not valid UTF-8 (save the file as UTF-8)" }]);
  }
}

const FILES: ImportFiles = { text: readUtf8, bytes: readBytes };

async function exists(path: string): Promise<boolean> {
  try {
    await stat(path);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return false;
    throw error;
  }
}

/**
 * Writes `text` to `target` through a temporary file in the same folder and a
 * rename, so a reader (or a build) sees the old file or the new one, never half
 * of one. The temporary name does not end in `.csv`: the build globs `*.csv`.
 */
async function writeAtomically(target: string, text: string): Promise<void> {
  const temporary = `${target}.${process.pid}.tmp`;
  try {
    await writeFile(temporary, text, { flag: "wx" });
    await rename(temporary, target);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
}

/** An indicator's validated indicator.json, or `meta: null` when the folder has none. */
async function readIndicator(folder: string, indicator: string): Promise<IndicatorFound> {
  const file = join(folder, "indicator.json");
  if (!(await exists(file))) return { file, meta: null };
  return { file, meta: unwrap(parseIndicatorMeta(await readUtf8(file), file, indicator)) };
}

/**
 * The indicators of the data folder whose indicator.json names a registered
 * importer, sorted: only for the usage error, so a folder that cannot be read
 * or validated is left out rather than reported.
 */
async function importableIndicators(data: string): Promise<ImportableIndicator[]> {
  const folders = (await readdir(data, { withFileTypes: true }).catch(() => [])).filter((d) => d.isDirectory()).map((d) => d.name);
  const found: ImportableIndicator[] = [];
  for (const indicator of folders.sort()) {
    const meta = await readIndicator(join(data, indicator), indicator).then((f) => f.meta).catch(() => null);
    if (meta?.importer !== undefined && IMPORTERS.has(meta.importer)) found.push({ indicator, importer: meta.importer });
  }
  return found;
}

async function importCommand(indicator: string, file: string, opts: Options): Promise<void> {
  const folder = join(opts.data, indicator);
  const found = await readIndicator(folder, indicator);
  const chosen = await chooseImporter(indicator, found, () => importableIndicators(opts.data));
  const plan = planImport(indicator, chosen, opts.date);
  if (!(await exists(file))) throw new UsageError(`cannot read ${file}: no such file`);
  const outDir = opts.outDir ?? folder;
  const target = join(outDir, plan.outputFile);
  const replacing = await exists(target);
  if (replacing && opts.force !== true) {
    throw new UsageError(`${target} already exists: pass --force to replace it (the notes of points whose value is unchanged are kept)`);
  }

  const imported = await plan.run({ file, sourceUrl: opts.source, folder, indicatorFile: found.file, meta: chosen.meta }, FILES);
  const kept: NotesKept = replacing
    ? unwrap(keepNotes(imported.points, { text: await readUtf8(target), file: target }))
    : { rows: imported.points.map((p) => ({ ...p, note: "" })), dropped: [] };

  await mkdir(outDir, { recursive: true });
  await writeAtomically(target, formatPointsCsv(kept.rows));
  for (const issue of kept.dropped) console.warn(`warning: ${formatIssue(issue)}`);
  const notes = kept.rows.filter((r) => r.note !== "").length;
  console.log(
    `${replacing ? "replaced" : "wrote"} ${target}: ${imported.summary}` +
      `${replacing ? `; notes kept: ${notes}, dropped: ${kept.dropped.length}` : ""}`,
  );
}

const program = new Command("import")
  .description(
    "Import a publication into data/ with the importer the indicator's indicator.json names " +
      `("importer": ${[...IMPORTERS.keys()].join(", ")})`,
  )
  .argument("<indicator>", "indicator id: a folder of the data folder whose indicator.json names an importer", parseIndicator)
  .argument("<file>", "the publication file")
  .requiredOption("--source <url>", "the http(s) URL of the publication file, cited with a #fragment by every point", parseSource)
  .option("--date <YYYY-MM>", "the month the publication applies from, for an importer that needs one", parseDate)
  .option("--data <dir>", "data folder (read: indicator.json and the importer's files; written: the CSV)", "data")
  .option("--out-dir <dir>", "write the CSV into this folder instead of <data>/<indicator>/")
  .option("--force", "replace an existing file, keeping the notes of points whose value is unchanged")
  .option("--debug", "print stack traces of errors")
  .exitOverride()
  .configureOutput({ outputError: (text, write) => write(text) })
  .action(importCommand);

try {
  await program.parseAsync(process.argv);
} catch (error) {
  if (error instanceof CommanderError) {
    const ok = error.code === "commander.helpDisplayed" || error.code === "commander.version" || error.code === "commander.help";
    process.exitCode = ok ? 0 : 2;
  } else {
    // Errors know their exit code (src/source/errors.ts): 2 usage, 1 data; a bug is 1 too.
    console.error(error instanceof DataError ? error.message : `error: ${(error as Error).message}`);
    if (process.argv.includes("--debug")) console.error((error as Error).stack);
    if (!(error instanceof UsageError)) console.error("nothing was written");
    process.exitCode = error instanceof CliError ? error.exitCode : 1;
  }
}
