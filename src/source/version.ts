/**
 * The data version time of an indicator (docs/DESIGN.md §4), in seconds since the
 * epoch, when `SOURCE_DATE_EPOCH` is not set: the time of the newest git commit
 * touching its folder when the folder has no uncommitted change, else the newest
 * modification time of its files.
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

async function gitTime(folder: string): Promise<number | undefined> {
  try {
    const { stdout: dirty } = await run("git", ["status", "--porcelain", "--", folder]);
    if (dirty.trim() !== "") return undefined;
    const { stdout } = await run("git", ["log", "-1", "--format=%ct", "--", folder]);
    return /^\d+$/.test(stdout.trim()) ? Number(stdout.trim()) : undefined;
  } catch {
    return undefined; // not a git checkout, or git missing: fall back to file times
  }
}

async function newestMtime(folder: string): Promise<number> {
  const files = await fg("*", { cwd: folder, onlyFiles: true });
  let newest = 0;
  for (const f of files) newest = Math.max(newest, (await stat(join(folder, f))).mtimeMs);
  return Math.floor(newest / 1000);
}

/** The version time of the indicator whose files are in `folder`, from git or the file times. */
export async function folderVersion(folder: string): Promise<number> {
  return (await gitTime(folder)) ?? (await newestMtime(folder));
}
