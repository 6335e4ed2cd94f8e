/**
 * The data errors of the build: every fault found in `data/`, each located as
 * `file:line: column: reason`, collected before the build gives up so a maintainer
 * sees them all at once.
 */

/** One fault in a source file. `line` is 1-based; absent for whole-file faults. */
export interface DataIssue {
  readonly file: string;
  readonly line?: number;
  /** The column (CSV) or field path (JSON) at fault. */
  readonly column?: string;
  readonly reason: string;
}

/** `file:line: column: reason`, leaving out the parts an issue does not have. */
export function formatIssue(issue: DataIssue): string {
  const place = issue.line === undefined ? issue.file : `${issue.file}:${issue.line}`;
  return issue.column === undefined ? `${place}: ${issue.reason}` : `${place}: ${issue.column}: ${issue.reason}`;
}

/** Thrown when the data has faults; the CLI prints every issue and exits 1. */
export class DataError extends Error {
  constructor(readonly issues: readonly DataIssue[]) {
    super(`${issues.length} data error${issues.length === 1 ? "" : "s"}:\n${issues.map(formatIssue).join("\n")}`);
    this.name = "DataError";
  }
}

/** Thrown for a build that cannot proceed for a reason other than the data (e.g. file budget). */
export class BuildError extends Error {
  override name = "BuildError";
}

/** Shortens and JSON-escapes a value for an error message, so any input echoes safely. */
export function quote(value: string, max = 40): string {
  const short = value.length > max ? `${value.slice(0, max)}…` : value;
  return JSON.stringify(short);
}
