/**
 * The command line of `npm run update -- [--publish]` (src/source/update.ts) as a
 * function of its arguments and its context: the effects that reach outside
 * (fetch, the clock, git and gh) come in `UpdateContext`, the file system is
 * Node's, resolved against `cwd`. One catch prints the error and returns its exit
 * code (0 ok, 1 a fault: nothing was written, 2 usage), stack traces only under
 * --debug. scripts/update.ts runs it with the process's; tests call it in process
 * against a local server.
 */
import { appendFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { Command, InvalidArgumentError } from "commander";
import { nodeSourceFiles } from "../builder/effects.js";
import { runProgram, cliOutput } from "./errors.js";
import { gitSourceFiles } from "./git-files.js";
import type { SourceFiles } from "./load.js";
import { preflight, publish, type Run } from "./publish.js";
import { GITHUB_API, update, type UpdateEffects, type UpdateResult } from "./update.js";
import { writeFilesAtomically } from "./write-files.js";

/** Where the update runs, and what it reaches outside the file system through. */
export interface UpdateContext {
  readonly out: (line: string) => void;
  readonly err: (line: string) => void;
  /** The working directory: relative paths are resolved against it (messages show them as given), and git and gh run in it. */
  readonly cwd: string;
  readonly fetch: UpdateEffects["fetch"];
  readonly now: () => Date;
  /** git and gh, run in `cwd` (used with --publish only). */
  readonly run: Run;
  /**
   * The environment's `GITHUB_API_URL` (the base of GitHub's API, which GitHub
   * Actions sets; `--github-api` overrides it) and `GH_TOKEN` or `GITHUB_TOKEN`
   * (sent to that API: its limit for anonymous requests is per address).
   */
  readonly env?: Readonly<Record<string, string | undefined>>;
}

interface Options {
  data: string;
  base: string;
  timeout: number;
  summary?: string;
  publish?: boolean;
  dispatchDeploy?: boolean;
  bodyFile?: string;
  githubApi?: string;
}

/** The branch deployed, the job's pull-request branch and the deploy workflow (.github/workflows/). */
export const PUBLISH = { main: "main", branch: "data-update", deployWorkflow: "deploy.yml" } as const;

function parseBase(text: string): string {
  if (!/^https?:\/\/[^\s]+$/.test(text)) throw new InvalidArgumentError(`expected the http(s) URL of GitHub's API, got "${text}"`);
  return text;
}

function parseSeconds(text: string): number {
  if (!/^\d+(\.\d+)?$/.test(text) || Number(text) <= 0) throw new InvalidArgumentError(`expected a number of seconds, got "${text}"`);
  return Number(text);
}

/** A `SourceFiles` whose paths are resolved against `cwd` (the paths loaded, and shown, stay as given). */
export function sourceFilesAt(cwd: string, files: SourceFiles): SourceFiles {
  return {
    folders: (dir) => files.folders(resolve(cwd, dir)),
    csvNames: (dir) => files.csvNames(resolve(cwd, dir)),
    read: (file) => files.read(resolve(cwd, file)),
  };
}

/** The lines printed after a run that found no fault. */
function outcome(result: UpdateResult): string[] {
  if (result.pullRequest !== null) return [`changed: ${result.pullRequest.title}`, "", result.pullRequest.body];
  const again = result.written.length === 0 ? " (already written today: nothing to write)" : "";
  const ids = [...result.checks.map((c) => c.id), ...result.editions.map((e) => e.id)];
  return [`check only: ${ids.join(", ")} unchanged; checked ${result.today}${again}`];
}

/**
 * The data folder as a command sees it from `cwd`: its files (Node's), the
 * committed data at a revision (git), and writes of several files at once or none.
 */
export function dataFolderAt(cwd: string): Pick<UpdateEffects, "source" | "publishedSource" | "writeFiles"> {
  return {
    source: sourceFilesAt(cwd, nodeSourceFiles()),
    async publishedSource(data, rev) {
      const files = await gitSourceFiles(resolve(cwd, data), rev);
      return files === null ? null : sourceFilesAt(cwd, files);
    },
    writeFiles: (files) => writeFilesAtomically(new Map([...files].map(([path, text]) => [resolve(cwd, path), text]))),
  };
}

async function updateCommand(indicators: readonly string[], opts: Options, context: UpdateContext): Promise<void> {
  const { cwd } = context;
  const log = { info: context.out, warn: context.err };
  if (opts.publish === true) await preflight(opts.data, PUBLISH, context.run);
  const effects: UpdateEffects = {
    fetch: context.fetch,
    now: context.now,
    ...dataFolderAt(cwd),
    log,
  };
  const env = context.env ?? {};
  const githubApi = opts.githubApi ?? env.GITHUB_API_URL ?? GITHUB_API;
  const githubToken = env.GH_TOKEN ?? env.GITHUB_TOKEN ?? null;
  const result = await update({ data: opts.data, base: opts.base, timeoutMs: opts.timeout * 1000, only: indicators, githubApi, githubToken }, effects);
  for (const line of outcome(result)) context.out(line);
  if (opts.summary !== undefined) {
    const text = result.pullRequest?.body ?? `### Checked ${result.today}\n\n${result.commit.body}\n`;
    await appendFile(resolve(cwd, opts.summary), text);
  }
  const bodyFile = opts.bodyFile ?? join(tmpdir(), `open-series-update-${process.pid}.md`);
  const writeText = (file: string, text: string) => writeFile(resolve(cwd, file), text);
  if (opts.bodyFile !== undefined && result.pullRequest !== null) await writeText(bodyFile, result.pullRequest.body);
  if (opts.publish === true) {
    const deployWorkflow = opts.dispatchDeploy === true ? PUBLISH.deployWorkflow : null;
    await publish(result, { ...PUBLISH, deployWorkflow, bodyFile }, { run: context.run, writeText, log });
  }
}

/** Runs the update on `argv` (the arguments after the script's name) and returns the exit code. */
export async function runUpdate(argv: readonly string[], context: UpdateContext): Promise<number> {
  const program = new Command("update")
    .description(
      "Look at each publisher an indicator.json names (publication): follow the page's link to the newest file, import it with " +
        "its importer, validate, and write the new data and the check (check); propose editions a person imports",
    )
    .argument("[indicators...]", "check only these indicators (default: every one whose indicator.json declares a publication)")
    .option("--data <dir>", "data folder", "data")
    .option("--base <rev>", "git revision of the committed data the change report compares with", "HEAD")
    .option("--timeout <seconds>", "longest a download may take", parseSeconds, 60)
    .option("--github-api <url>", `base of GitHub's API, where publication.editions are listed (default: $GITHUB_API_URL, else ${GITHUB_API})`, parseBase)
    .option("--summary <file>", "append the report as Markdown to this file (the job summary)")
    .option("--body-file <file>", "write the pull request's body to this file when data changed")
    .option("--publish", `commit and push: data changed → a pull request from ${PUBLISH.branch}; a check only → ${PUBLISH.main}`)
    .option("--dispatch-deploy", `with --publish, run ${PUBLISH.deployWorkflow} after pushing a check to ${PUBLISH.main} (a push with the workflow's own token starts no workflow)`)
    .option("--debug", "print stack traces of errors")
    .exitOverride()
    .configureOutput(cliOutput(context))
    .action((indicators: string[], opts: Options) => updateCommand(indicators, opts, context));
  return runProgram(program, argv, context.err, "nothing was written: the data folder is as it was");
}
