/**
 * The command line: `build` and `validate` (DESIGN §6). A thin wrapper: parse
 * options, call `src/`, print a summary; one top-level catch maps errors to exit
 * codes (0 ok, 1 data or build error, 2 usage) with stack traces only under --debug.
 */
import { readFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { Command, CommanderError, InvalidArgumentError } from "commander";
import fg from "fast-glob";
import { DEFAULT_LIMITS, DEFAULT_MAX_FILES, renderOutput, type IndicatorStats } from "../src/build/build.js";
import { parseSiteConfig } from "../src/core/config.js";
import { DataError, formatIssue } from "../src/source/errors.js";
import { loadData, type LoadResult } from "../src/source/load.js";
import { MAX_LIMIT } from "../src/core/model.js";
import { nodeFileEffects, writeOutput } from "../src/build/output.js";
import { PAGE_SCRIPT } from "../src/site/site.js";
import { dataVersion, parseSourceDateEpoch } from "../src/source/version.js";
import { bundleClient } from "../src/build/bundle-client.js";

const root = resolve(fileURLToPath(import.meta.url), "../..");

class UsageError extends Error {}

function parseLimits(text: string): number[] {
  const limits = text.split(",").map((part) => {
    const n = Number(part.trim());
    if (!/^\d+$/.test(part.trim()) || n < 1 || n > MAX_LIMIT) {
      throw new InvalidArgumentError(`expected integers from 1 to ${MAX_LIMIT} separated by commas, got "${part}"`);
    }
    return n;
  });
  return [...new Set(limits)].sort((a, b) => a - b);
}

function parsePositive(text: string): number {
  if (!/^\d+$/.test(text) || Number(text) < 1) throw new InvalidArgumentError(`expected a positive integer, got "${text}"`);
  return Number(text);
}

function parseSiteUrl(text: string): string {
  if (!URL.canParse(text) || !/^https?:$/.test(new URL(text).protocol)) {
    throw new InvalidArgumentError(`expected an http(s) URL, got "${text}"`);
  }
  return text;
}

/** The files of `public/` and the bundled page script, copied into the output as they are. */
async function readPublicFiles(): Promise<Map<string, Uint8Array>> {
  const dir = join(root, "public");
  const paths = (await fg("**/*", { cwd: dir, dot: true, onlyFiles: true })).sort();
  const files = new Map<string, Uint8Array>();
  for (const path of paths) files.set(path, await readFile(join(dir, path)));
  files.set(PAGE_SCRIPT, await bundleClient(root));
  return files;
}

function printWarnings(load: LoadResult): void {
  for (const warning of load.warnings) console.warn(`warning: ${formatIssue(warning)}`);
}

function printSummary(stats: readonly IndicatorStats[], totalFiles: number, seconds: number, outDir: string): void {
  const rows = stats.map((s) => [s.id, String(s.series), String(s.points), String(s.files), String(s.bytes)]);
  const header = ["indicator", "sub-series", "points", "files", "bytes"];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] as string).length)));
  const line = (cells: string[]) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i] as number) : c.padStart(widths[i] as number))).join("  ");
  console.log(line(header));
  for (const row of rows) console.log(line(row));
  console.log(`${totalFiles} files written to ${outDir} in ${seconds.toFixed(2)} s`);
}

async function build(opts: { data: string; out: string; siteUrl?: string; limits: number[]; maxFiles: number }) {
  const started = performance.now();
  let sourceDateEpoch: number | undefined;
  try {
    sourceDateEpoch = parseSourceDateEpoch(process.env.SOURCE_DATE_EPOCH);
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const rawConfig = JSON.parse(await readFile(join(root, "site.config.json"), "utf8")) as Record<string, unknown>;
  const config = parseSiteConfig(opts.siteUrl === undefined ? rawConfig : { ...rawConfig, baseUrl: opts.siteUrl });
  const load = await loadData(opts.data);
  printWarnings(load);
  const versions = new Map<string, number>();
  for (const indicator of load.indicators) versions.set(indicator.meta.id, await dataVersion(indicator.folder, sourceDateEpoch));
  const options = { config, limits: opts.limits, maxFiles: opts.maxFiles, versions, publicFiles: await readPublicFiles() };
  const { stats, files } = await writeOutput(resolve(opts.out), await nodeFileEffects(), (write) =>
    renderOutput(load.indicators, options, write),
  );
  printSummary(stats, files, (performance.now() - started) / 1000, opts.out);
}

async function validate(opts: { data: string }) {
  const load = await loadData(opts.data);
  printWarnings(load);
  const points = load.indicators.reduce((sum, i) => sum + i.rows.length, 0);
  console.log(`ok: ${load.indicators.length} indicators, ${points} points in ${opts.data}`);
}

const program = new Command("open-series")
  .description("Build and validate the Open Series UY static API")
  .option("--debug", "print stack traces of errors")
  .exitOverride()
  .configureOutput({ outputError: (text, write) => write(text) });

program
  .command("build")
  .description("validate data/ and write the output folder")
  .option("--data <dir>", "data folder", "data")
  .option("--out <dir>", "output folder", "dist")
  .option("--site-url <url>", "public base URL of the site (overrides site.config.json)", parseSiteUrl)
  .option("--limits <list>", "prebuilt page limits, comma-separated", parseLimits, [...DEFAULT_LIMITS])
  .option("--max-files <n>", "file budget of the output folder", parsePositive, DEFAULT_MAX_FILES)
  .action(build);

program
  .command("validate")
  .description("validate data/ only (for pull requests)")
  .option("--data <dir>", "data folder", "data")
  .action(validate);

try {
  await program.parseAsync(process.argv);
} catch (error) {
  const debug = program.opts().debug === true || process.argv.includes("--debug");
  if (error instanceof CommanderError) {
    const ok = error.code === "commander.helpDisplayed" || error.code === "commander.version" || error.code === "commander.help";
    process.exitCode = ok ? 0 : 2;
  } else if (error instanceof UsageError) {
    console.error(`error: ${error.message}`);
    process.exitCode = 2;
  } else {
    if (error instanceof DataError) console.error(error.message);
    else console.error(`error: ${(error as Error).message}`);
    if (debug) console.error((error as Error).stack);
    console.error("nothing was written; the previous output is unchanged");
    process.exitCode = 1;
  }
}
