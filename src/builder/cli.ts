/**
 * The command line, `build` and `validate` (docs/DESIGN.md §6), as a function of its
 * arguments and its output streams: it parses options, calls `build` or
 * `validate`, and has one catch that prints the error and returns its exit code
 * (0 ok, 1 data or build error, 2 usage), with stack traces only under --debug.
 * scripts/cli.ts runs it with the process's; tests call it in process.
 */
import { join, relative } from "node:path";
import { Command, InvalidArgumentError } from "commander";
import { DEFAULT_LIMITS, DEFAULT_MAX_FILE_BYTES, DEFAULT_MAX_FILES, build, validate } from "./build.js";
import type { BuildEffects, Log } from "./effects.js";
import { LIMIT, SHARD_BYTES } from "../core/answer/contract.js";
import { isHttpUrl } from "../core/text/url.js";
import { runProgram, cliOutput } from "../source/errors.js";
import { parseSourceDateEpoch } from "../source/version.js";

/** Where the CLI runs: its output streams (one call per line), environment and folders. */
export interface CliContext {
  readonly out: (line: string) => void;
  readonly err: (line: string) => void;
  readonly env: Readonly<Record<string, string | undefined>>;
  /** The project folder (site.config.json, public/, src/). */
  readonly root: string;
  /** The working directory, for the paths shown in messages. */
  readonly cwd: string;
  /** The effects of a build whose log writes to `log`. */
  readonly effects: (log: Log) => Promise<BuildEffects>;
}

function parseLimits(text: string): number[] {
  const limits = text.split(",").map((part) => {
    const n = Number(part.trim());
    if (!/^\d+$/.test(part.trim()) || n < LIMIT.min || n > LIMIT.max) {
      throw new InvalidArgumentError(`expected integers from ${LIMIT.min} to ${LIMIT.max} separated by commas, got "${part}"`);
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
  if (!isHttpUrl(text)) throw new InvalidArgumentError(`expected an http(s) URL, got "${text}"`);
  return text;
}

interface ChangeFlags {
  base: string | false;
  allowRevisions?: boolean;
  summary?: string;
}

/** The change report's options, on `build` and `validate`. */
function changeOptions(command: Command): Command {
  return command
    .option("--base <rev>", "git revision of the published data to compare with", "HEAD")
    .option("--no-base", "skip the change report")
    .option("--allow-revisions", "let published points change or disappear (the source revised them)")
    .option("--summary <file>", "append the change report as Markdown to this file (CI job summary)");
}

const changes = (flags: ChangeFlags) => ({ base: flags.base === false ? undefined : flags.base, allowRevisions: flags.allowRevisions, summary: flags.summary });

interface BuildFlags extends ChangeFlags {
  data: string;
  out: string;
  siteUrl?: string;
  limits: number[];
  maxFiles: number;
  maxFileBytes: number;
  maxDownloadBytes?: number;
  seriesFiles: boolean;
  history: boolean;
  shardBytes: number;
  r2State: string | false;
}

/** Runs the CLI on `argv` (the arguments after the script's name) and returns the exit code. */
export async function runCli(argv: readonly string[], context: CliContext): Promise<number> {
  const log: Log = { info: context.out, warn: context.err };
  const program = new Command("open-series")
    .description("Build and validate the Open Series UY static API")
    .option("--debug", "print stack traces of errors")
    .exitOverride()
    .configureOutput(cliOutput(context));

  changeOptions(program.command("build"))
    .description("validate data/ and write the output folder")
    .option("--data <dir>", "data folder", "data")
    .option("--out <dir>", "output folder", "dist")
    .option("--site-url <url>", "public base URL of the site (overrides site.config.json)", parseSiteUrl)
    .option("--limits <list>", "prebuilt page limits, comma-separated", parseLimits, [...DEFAULT_LIMITS])
    .option("--max-files <n>", "file budget of the output folder", parsePositive, DEFAULT_MAX_FILES)
    .option("--max-file-bytes <n>", "largest file of the output folder, in bytes", parsePositive, DEFAULT_MAX_FILE_BYTES)
    .option("--max-download-bytes <n>", "largest whole-indicator download (data.csv, data.parquet, …) before it is split into yearly parts, in bytes (default and at most --max-file-bytes)", parsePositive)
    .option("--no-series-files", "do not write each sub-series' default answer as static files")
    .option("--shard-bytes <n>", "size each shard of an indicator's answers aims at, in bytes", parsePositive, SHARD_BYTES)
    .option("--no-history", "do not read the data's git history: as_of answers only the current version")
    .option("--r2-state <dir>", "wrangler's local state folder (--persist-to) to put the files moved to R2 into, for wrangler pages dev", join(context.root, ".wrangler/state"))
    .option("--no-r2-state", "do not put them there (a deploy uploads them from <out>.r2/)")
    .action(async (flags: BuildFlags) => {
      const sourceDateEpoch = parseSourceDateEpoch(context.env.SOURCE_DATE_EPOCH);
      const configFile = relative(context.cwd, join(context.root, "site.config.json")) || "site.config.json";
      const { data, out, siteUrl, limits, maxFiles, maxFileBytes, maxDownloadBytes, seriesFiles, history, shardBytes, r2State } = flags;
      await build({ data, out, siteUrl, limits, maxFiles, maxFileBytes, maxDownloadBytes, seriesFiles, history, shardBytes, r2State: r2State === false ? undefined : r2State, configFile, sourceDateEpoch, ...changes(flags) }, await context.effects(log));
    });

  changeOptions(program.command("validate"))
    .description("validate data/ only (for pull requests)")
    .option("--data <dir>", "data folder", "data")
    .action(async (flags: ChangeFlags & { data: string }) => {
      await validate({ data: flags.data, ...changes(flags) }, await context.effects(log));
    });

  return runProgram(program, argv, context.err, "nothing was written; the previous output is unchanged");
}
