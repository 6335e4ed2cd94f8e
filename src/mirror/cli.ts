/**
 * The command line of `npm run mirror` (src/mirror/sync.ts) as a function of its
 * arguments and context (fetch and output come in):
 *
 *   npm run mirror -- <base-url> <dir>     bring <dir> to the site at <base-url>
 *   npm run mirror -- --check <dir>        check <dir> against its own manifest
 *
 * One catch prints the error and returns its exit code: 0 ok, 1 a fault (the
 * folder as it was; for --check, what differs), 2 usage.
 */
import { Command } from "commander";
import { isHttpUrl } from "../core/text/url.js";
import { UsageError, runProgram, cliOutput } from "../source/errors.js";
import { checkMirror, syncMirror } from "./sync.js";

export interface MirrorContext {
  readonly out: (line: string) => void;
  readonly err: (line: string) => void;
  readonly fetch: typeof fetch;
}

interface Options {
  check?: boolean;
}

/** Runs `npm run mirror` on `argv` (the arguments after the script's name) and returns the exit code. */
export async function runMirror(argv: readonly string[], context: MirrorContext): Promise<number> {
  const program = new Command("mirror")
    .description("Copy the site at <base-url> into <dir>, fetching only the files its manifest.json lists as missing or changed; or, with --check, check <dir> against its manifest")
    .argument("<base-url-or-dir>", "the site's base URL (http or https); with --check, the folder")
    .argument("[dir]", "the mirror's folder, made if missing")
    .option("--check", "check the folder against its manifest.json: exit 1 naming every file missing, changed or extra")
    .option("--debug", "print stack traces of errors")
    .exitOverride()
    .configureOutput(cliOutput(context))
    .action(async (first: string, dir: string | undefined, opts: Options) => {
      if (opts.check === true) {
        if (dir !== undefined) throw new UsageError(`--check takes one folder, got ${first} and ${dir}`);
        await checkMirror(first, { log: context.out });
        return;
      }
      if (dir === undefined) throw new UsageError("expected <base-url> <dir> (or --check <dir>)");
      if (!isHttpUrl(first)) throw new UsageError(`<base-url>: expected an http(s) URL, got ${first}`);
      await syncMirror(first, dir, { fetch: context.fetch, log: context.out });
    });
  return runProgram(program, argv, context.err, "the folder is as it was");
}
