/**
 * The command line of `npm run watch -- [--dry-run]` (src/source/watch.ts): loads
 * the data folder, finds the watcher's open issues, plans, and runs the plan with
 * the GitHub CLI, passed in as one `run` effect (gh finds the repository as it
 * always does: `GH_REPO`, else the checkout's remote). With --dry-run it only
 * lists the issues and prints what it would do, titles and bodies included. One
 * catch prints the error and returns its exit code (0 ok, 1 a fault, 2 usage).
 * scripts/watch.ts runs it with the process's; tests pass a stand-in for gh.
 */
import { Command } from "commander";
import { nodeSourceFiles } from "../builder/effects.js";
import { runProgram, cliOutput } from "./errors.js";
import { loadData } from "./load.js";
import type { Run } from "./publish.js";
import { sourceFilesAt } from "./update-cli.js";
import { planWatch, WATCH_LABEL, WATCH_LABEL_DESCRIPTION, type FoundIssue, type WatchAction } from "./watch.js";

/** Where the watcher runs, and gh. */
export interface WatchContext {
  readonly out: (line: string) => void;
  readonly err: (line: string) => void;
  /** The working directory: the data folder is resolved against it, and gh runs in it. */
  readonly cwd: string;
  /** The clock: today is the UTC day of `now()`. */
  readonly now: () => Date;
  /** gh (git is not used), run in `cwd`. */
  readonly run: Run;
}

interface Options {
  data: string;
  dryRun?: boolean;
}

/** The label's colour on GitHub (yellow: waiting for a person). */
const LABEL_COLOR = "FBCA04";

/** The open issues carrying the label, from `gh issue list --json`; anything else is a fault of gh's answer. */
function parseIssues(text: string): FoundIssue[] {
  const json: unknown = JSON.parse(text);
  const ok = (x: unknown): x is FoundIssue => {
    const i = x as Partial<Record<keyof FoundIssue, unknown>> | null;
    return typeof i === "object" && i !== null && Number.isInteger(i.number) && typeof i.title === "string" && typeof i.body === "string";
  };
  if (!Array.isArray(json) || !json.every(ok)) throw new Error(`gh issue list: expected a list of {number, title, body}, got ${text.slice(0, 200)}`);
  return json;
}

/** Runs one action through gh and says what was done. */
async function act(action: WatchAction, run: Run, labelReady: { done: boolean }): Promise<string> {
  const { indicator } = action;
  switch (action.kind) {
    case "open": {
      // `gh issue create --label` fails on a label the repository lacks: create it first (--force: or update it).
      if (!labelReady.done) await run("gh", ["label", "create", WATCH_LABEL, "--description", WATCH_LABEL_DESCRIPTION, "--color", LABEL_COLOR, "--force"]);
      labelReady.done = true;
      const url = (await run("gh", ["issue", "create", "--title", action.title, "--body", action.body, "--label", WATCH_LABEL])).trim();
      return `${indicator}: opened ${url === "" ? "an issue" : url}: ${action.title}`;
    }
    case "update":
      await run("gh", ["issue", "edit", String(action.issue), "--title", action.title, "--body", action.body]);
      return `${indicator}: updated #${action.issue}: ${action.title}`;
    case "close":
      await run("gh", ["issue", "close", String(action.issue), "--comment", action.comment]);
      return `${indicator}: closed #${action.issue}: ${action.comment.split("\n")[0] ?? ""}`;
    case "nothing":
      return `${indicator}: nothing to do: ${action.reason}`;
  }
}

/** What a dry run would do, with the text it would send. */
function wouldDo(action: WatchAction): string[] {
  const { indicator } = action;
  switch (action.kind) {
    case "open":
      return [`${indicator}: would open: ${action.title}`, "", action.body];
    case "update":
      return [`${indicator}: would update #${action.issue}: ${action.title}`, "", action.body];
    case "close":
      return [`${indicator}: would close #${action.issue} with the comment:`, "", action.comment, ""];
    case "nothing":
      return [`${indicator}: nothing to do: ${action.reason}`];
  }
}

async function watchCommand(opts: Options, context: WatchContext): Promise<void> {
  const { run } = context;
  const { indicators } = await loadData(opts.data, sourceFilesAt(context.cwd, nodeSourceFiles()));
  const today = context.now().toISOString().slice(0, 10);
  const issues = parseIssues(await run("gh", ["issue", "list", "--label", WATCH_LABEL, "--state", "open", "--limit", "500", "--json", "number,title,body"]));
  const plan = planWatch(indicators, today, issues);
  if (plan.length === 0) context.out(`no indicator is kept by hand (every indicator.json names an importer): nothing to watch`);
  const labelReady = { done: false };
  for (const action of plan) {
    if (opts.dryRun === true) for (const line of wouldDo(action)) context.out(line);
    else context.out(await act(action, run, labelReady));
  }
}

/** Runs the watcher on `argv` (the arguments after the script's name) and returns the exit code. */
export async function runWatch(argv: readonly string[], context: WatchContext): Promise<number> {
  const program = new Command("watch")
    .description(
      "For each indicator kept by hand (no importer in its indicator.json): open a GitHub issue when its schedule says a value is due " +
        `and the data lacks it, update that issue on later runs, close it when the value arrives or a check finds nothing new (label ${WATCH_LABEL})`,
    )
    .option("--data <dir>", "data folder", "data")
    .option("--dry-run", "list the issues and print what would be done, changing nothing")
    .option("--debug", "print stack traces of errors")
    .exitOverride()
    .configureOutput(cliOutput(context))
    .action((opts: Options) => watchCommand(opts, context));
  return runProgram(program, argv, context.err, "the watcher stopped: what the lines above say was done is done, nothing after it");
}
