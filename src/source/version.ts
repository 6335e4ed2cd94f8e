/**
 * The data version time of an indicator (docs/DESIGN.md §4), in seconds since the
 * epoch, when `SOURCE_DATE_EPOCH` is not set: the time of the newest git commit
 * touching its folder when the folder has no uncommitted change, else the newest
 * modification time of its files. The same of its CSV files alone is the last
 * change of its points.
 */
import { execFile } from "node:child_process";
import { stat } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";
import fg from "fast-glob";
import { UsageError } from "./errors.js";

const run = promisify(execFile);

/**
 * Parses `SOURCE_DATE_EPOCH` (reproducible-builds.org/specs/source-date-epoch/):
 * a non-negative whole number of seconds, or `undefined` when unset.
 * @throws UsageError for anything else.
 */
export function parseSourceDateEpoch(value: string | undefined): number | undefined {
  if (value === undefined || value === "") return undefined;
  if (!/^\d{1,12}$/.test(value)) throw new UsageError(`SOURCE_DATE_EPOCH must be whole seconds since 1970, got ${JSON.stringify(value)}`);
  return Number(value);
}

async function gitTime(folder: string, files: string): Promise<number | undefined> {
  // git runs in the folder: the repository holding it, wherever the build runs from.
  const paths = files === "*" ? "." : files;
  try {
    const { stdout: dirty } = await run("git", ["status", "--porcelain", "--", paths], { cwd: folder });
    if (dirty.trim() !== "") return undefined;
    const { stdout } = await run("git", ["log", "-1", "--format=%ct", "--", paths], { cwd: folder });
    return /^\d+$/.test(stdout.trim()) ? Number(stdout.trim()) : undefined;
  } catch {
    return undefined; // not a git checkout, or git missing: fall back to file times
  }
}

async function newestMtime(folder: string, pattern: string): Promise<number> {
  const files = await fg(pattern, { cwd: folder, onlyFiles: true });
  let newest = 0;
  for (const f of files) newest = Math.max(newest, (await stat(join(folder, f))).mtimeMs);
  return Math.floor(newest / 1000);
}

/**
 * The version time of the indicator whose files are in `folder`, from git or the
 * file times: of all its files, or of those matching `files` (`*.csv`, its points:
 * the last change of points, which a change of `indicator.json` alone is not).
 */
export async function folderVersion(folder: string, files = "*"): Promise<number> {
  return (await gitTime(folder, files)) ?? (await newestMtime(folder, files));
}
