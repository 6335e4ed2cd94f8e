/**
 * The command line of `npm run check -- <indicator> --source <url> [--note "…"]`
 * (src/source/check.ts) as a function of its arguments and context: the clock
 * comes in, the file system is Node's resolved against `cwd`, git reads the
 * committed data. One catch prints the error and returns its exit code (0 ok,
 * 1 a fault: nothing was written, 2 usage).
 */
import { Command } from "commander";
import { recordCheck, type CheckOptions } from "./check.js";
import { runProgram, cliOutput } from "./errors.js";
import { dataFolderAt } from "./update-cli.js";

export interface CheckContext {
  readonly out: (line: string) => void;
  readonly err: (line: string) => void;
  /** The working directory: relative paths are resolved against it, and git runs in it. */
  readonly cwd: string;
  readonly now: () => Date;
}

interface Options {
  data: string;
  base: string;
  source: string;
  note?: string;
}

/** Runs `npm run check` on `argv` (the arguments after the script's name) and returns the exit code. */
export async function runCheck(argv: readonly string[], context: CheckContext): Promise<number> {
  const { cwd } = context;
  const program = new Command("check")
    .description("Record that a person consulted the publisher of an indicator today: the address read and a note, in its indicator.json (check)")
    .argument("<indicator>", "the indicator's id (its folder under data/)")
    .requiredOption("--source <url>", "the address consulted (the publisher's page or file)")
    .option("--note <text>", "what was consulted or found, in a few words")
    .option("--data <dir>", "data folder", "data")
    .option("--base <rev>", "git revision of the committed data the points are compared with", "HEAD")
    .option("--debug", "print stack traces of errors")
    .exitOverride()
    .configureOutput(cliOutput(context))
    .action(async (indicator: string, opts: Options) => {
      const options: CheckOptions = { data: opts.data, indicator, source: opts.source, note: opts.note, base: opts.base };
      const { check, file } = await recordCheck(options, { now: context.now, ...dataFolderAt(cwd) });
      context.out(`checked ${indicator} on ${check.day}: ${check.read} (${check.outcome}${check.note === undefined ? "" : `; ${check.note}`}), written to ${file}`);
    });
  return runProgram(program, argv, context.err, "nothing was written: the data folder is as it was");
}
