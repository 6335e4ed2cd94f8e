/**
 * `npm run import -- health-insurance-prices <precios.csv> --date YYYY-MM --source <url>`:
 * imports one price publication of the Ministry of Public Health into
 * `<data>/health-insurance-prices/<YYYY-MM>.csv`. A thin wrapper: parse options,
 * read the files, call `src/source/import-atuservicio.ts`, write atomically; one
 * top-level catch maps errors to exit codes (0 ok, 1 data error, 2 usage) with
 * stack traces only under --debug. Nothing is written on error.
 */
import { mkdir, readFile, rename, rm, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { Command, CommanderError, InvalidArgumentError } from "commander";
import { CliError, DataError, UsageError, formatIssue } from "../src/source/errors.js";
import { parseIndicatorMeta } from "../src/source/metadata.js";
import {
  INDICATOR_ID,
  MAPPING_FILE_NAME,
  formatPricesCsv,
  importPrices,
  isHttpUrl,
  isMonth,
  keepNotes,
  parseMapping,
  type NotesKept,
  type Result,
} from "../src/source/import-atuservicio.js";

interface Options {
  date: string;
  source: string;
  data: string;
  outDir?: string;
  force?: boolean;
}

function parseIndicator(text: string): string {
  if (text !== INDICATOR_ID) throw new InvalidArgumentError(`no importer for "${text}" (only ${INDICATOR_ID} has one)`);
  return text;
}

function parseDate(text: string): string {
  if (!isMonth(text)) throw new InvalidArgumentError(`expected the month YYYY-MM from which the prices apply, got "${text}"`);
  return text;
}

function parseSource(text: string): string {
  if (!isHttpUrl(text)) throw new InvalidArgumentError(`expected the http(s) URL of the publication file, got "${text}"`);
  // Every point cites `<url>#L<line>`: a fragment of its own would make that ambiguous.
  if (text.includes("#")) throw new InvalidArgumentError(`expected a URL without #fragment (the importer adds #L<line>), got "${text}"`);
  return text;
}

function unwrap<T>(result: Result<T>): T {
  if (!result.ok) throw new DataError(result.issues);
  return result.value;
}

/** The text of a UTF-8 file, or a DataError naming it: the build reads UTF-8 only. */
async function readUtf8(file: string): Promise<string> {
  let bytes: Uint8Array;
  try {
    bytes = await readFile(file);
  } catch (error) {
    throw new DataError([{ file, reason: `cannot read: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}` }]);
  }
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    throw new DataError([{ file, reason: "not valid UTF-8 (save the file as UTF-8)" }]);
  }
}

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

async function importCommand(indicator: string, file: string, opts: Options): Promise<void> {
  if (!(await exists(file))) throw new UsageError(`cannot read ${file}: no such file`);
  const folder = join(opts.data, indicator);
  const outDir = opts.outDir ?? folder;
  const target = join(outDir, `${opts.date}.csv`);
  const replacing = await exists(target);
  if (replacing && opts.force !== true) {
    throw new UsageError(`${target} already exists: pass --force to replace it (the notes of points whose value is unchanged are kept)`);
  }

  const indicatorFile = join(folder, "indicator.json");
  const mappingFile = join(folder, MAPPING_FILE_NAME);
  const meta = unwrap(parseIndicatorMeta(await readUtf8(indicatorFile), indicatorFile, indicator));
  const mapping = unwrap(parseMapping(await readUtf8(mappingFile), mappingFile));
  const imported = unwrap(
    importPrices(
      { text: await readUtf8(file), file, month: opts.date, sourceUrl: opts.source },
      { mapping, mappingFile, declared: new Set(meta.series.map((s) => s.id)), indicatorFile },
    ),
  );
  const kept: NotesKept = replacing
    ? unwrap(keepNotes(imported.points, { text: await readUtf8(target), file: target }))
    : { rows: imported.points.map((p) => ({ ...p, note: "" })), dropped: [] };

  await mkdir(outDir, { recursive: true });
  await writeAtomically(target, formatPricesCsv(kept.rows));
  for (const issue of kept.dropped) console.warn(`warning: ${formatIssue(issue)}`);
  const providers = new Set(kept.rows.map((r) => r.source)).size;
  const leftOut = imported.leftOut.map((l) => `${l.id} (line ${l.line})`).join(", ");
  const notes = kept.rows.filter((r) => r.note !== "").length;
  console.log(
    `${replacing ? "replaced" : "wrote"} ${target}: ${kept.rows.length} points of ${providers} providers` +
      `${leftOut === "" ? "" : `; left out: ${leftOut}`}` +
      `${replacing ? `; notes kept: ${notes}, dropped: ${kept.dropped.length}` : ""}`,
  );
}

const program = new Command("import")
  .description("Import a publication into data/ (only health-insurance-prices has an importer)")
  .argument("<indicator>", "indicator id: health-insurance-prices", parseIndicator)
  .argument("<file>", "the publication file (precios.csv)")
  .requiredOption("--date <YYYY-MM>", "the month from which the prices apply", parseDate)
  .requiredOption("--source <url>", "the http(s) URL of the publication file, cited with #L<line> by every point", parseSource)
  .option("--data <dir>", "data folder (read: indicator.json and the mapping; written: the CSV)", "data")
  .option("--out-dir <dir>", "write the CSV into this folder instead of <data>/<indicator>/")
  .option("--force", "replace an existing YYYY-MM.csv, keeping the notes of points whose value is unchanged")
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
