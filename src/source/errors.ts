/**
 * The errors of the command line, each knowing its exit code (0 ok, 1 data or
 * build error, 2 usage), so the CLI has one catch and tests need no child process.
 * Data faults are every fault found in the inputs, each located as
 * `file:line: column: reason`, collected before giving up so a maintainer sees
 * them all at once.
 */
import { CommanderError, type Command } from "commander";
import type { ZodError } from "zod";

/** One fault in an input file. `line` is 1-based; absent for whole-file faults. */
export interface DataIssue {
  readonly file: string;
  readonly line?: number;
  /** The column (CSV) or field path (JSON) at fault. */
  readonly column?: string;
  readonly reason: string;
}

/** Either the value read from an input or every issue found in it. */
export type Parsed<T> = { ok: true; value: T } | { ok: false; issues: DataIssue[] };

/**
 * The value of a parse that succeeded.
 * @throws DataError with every issue of one that did not.
 */
export function unwrap<T>(parsed: Parsed<T>): T {
  if (!parsed.ok) throw new DataError(parsed.issues);
  return parsed.value;
}

/**
 * A zod validation's issues as data issues of `file`: the column is the field
 * path joined by dots (under `prefix`, for a part validated on its own), or
 * `(root)` for the whole document.
 */
export function zodIssues(error: ZodError, file: string, prefix: readonly PropertyKey[] = []): DataIssue[] {
  return error.issues.map((issue) => {
    const path = [...prefix, ...issue.path].map(String);
    return { file, column: path.length > 0 ? path.join(".") : "(root)", reason: issue.message };
  });
}

/** `file:line: column: reason`, leaving out the parts an issue does not have. */
export function formatIssue(issue: DataIssue): string {
  const place = issue.line === undefined ? issue.file : `${issue.file}:${issue.line}`;
  return issue.column === undefined ? `${place}: ${issue.reason}` : `${place}: ${issue.column}: ${issue.reason}`;
}

/** An error the CLI reports by its message and exit code. */
export abstract class CliError extends Error {
  abstract readonly exitCode: number;
}

/** Bad arguments or environment (exit 2): nothing was attempted. */
export class UsageError extends CliError {
  override name = "UsageError";
  readonly exitCode = 2;
}

/** The inputs have faults (exit 1): every issue is listed. */
export class DataError extends CliError {
  override name = "DataError";
  readonly exitCode = 1;
  constructor(readonly issues: readonly DataIssue[]) {
    super(`${issues.length} data error${issues.length === 1 ? "" : "s"}:\n${issues.map(formatIssue).join("\n")}`);
  }
}

/** A build that cannot proceed for a reason other than the data, e.g. the file budget (exit 1). */
export class BuildError extends CliError {
  override name = "BuildError";
  readonly exitCode = 1;
}

/**
 * Where a command line program's own output goes (commander's `configureOutput`):
 * its help and messages to `out` and `err`, a line at a time (without the
 * trailing newline commander adds), its errors as they are.
 */
export function cliOutput(context: { readonly out: (line: string) => void; readonly err: (line: string) => void }) {
  const lines = (write: (line: string) => void) => (text: string) => write(text.replace(/\n$/, ""));
  return { writeOut: lines(context.out), writeErr: lines(context.err), outputError: (text: string, write: (text: string) => void) => write(text) };
}

/**
 * Runs a command line program and returns its exit code: the one catch of every
 * command (the build's and the import's). Commander's own exits are 0 for help,
 * 2 for a usage fault; any other error prints its message on `err` (its stack only
 * with `--debug`), then `nothingWritten` unless it is a usage error, and exits with
 * its code (2 usage, 1 data or build; a bug is 1 too).
 */
export async function runProgram(program: Command, argv: readonly string[], err: (line: string) => void, nothingWritten: string): Promise<number> {
  try {
    await program.parseAsync(argv, { from: "user" });
    return 0;
  } catch (error) {
    if (error instanceof CommanderError) {
      return ["commander.helpDisplayed", "commander.version", "commander.help"].includes(error.code) ? 0 : 2;
    }
    err(error instanceof DataError ? error.message : `error: ${(error as Error).message}`);
    if (program.opts().debug === true || argv.includes("--debug")) err(String((error as Error).stack));
    if (!(error instanceof UsageError)) err(nothingWritten);
    return error instanceof CliError ? error.exitCode : 1;
  }
}
