/**
 * Replacing several files of the data folder as one change: every new text is
 * written to a temporary file beside its target first, and only when all are
 * written are they renamed over their targets. A failure while writing (a full
 * disk, a missing folder) removes the temporaries and leaves every target as it
 * was; a rename within a folder is atomic (POSIX rename(2)), so a reader, or a
 * build, sees each file old or new, never half of one. The temporary names end
 * in `.tmp`, not `.csv`: the build reads `*.csv` only.
 */
import { rename, rm, writeFile } from "node:fs/promises";

/** The temporary file a target is written to before its rename. */
export const temporaryOf = (target: string): string => `${target}.${process.pid}.tmp`;

/**
 * Writes every file (path → text) or none.
 * @throws the first write's error, after removing every temporary file.
 */
export async function writeFilesAtomically(files: ReadonlyMap<string, string>): Promise<void> {
  const written: string[] = [];
  try {
    for (const [target, text] of files) {
      // Listed before the write: a write that fails halfway leaves a file to remove too.
      written.push(target);
      await writeFile(temporaryOf(target), text, { flag: "wx" });
    }
  } catch (error) {
    await Promise.all(written.map((target) => rm(temporaryOf(target), { force: true })));
    throw error;
  }
  for (const target of written) await rename(temporaryOf(target), target);
}
