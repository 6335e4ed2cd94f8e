/**
 * Writing the output folder atomically: files go into a fresh sibling folder
 * `<out>.tmp-<pid>` as the build produces them (so the whole output never has to
 * sit in memory), and that folder replaces `<out>` only once every file is
 * written. A build that fails or is killed leaves the previous output as it was.
 */
import { basename, dirname, join } from "node:path";

/** Writes one file of the output: a POSIX path relative to the output folder, and its contents. */
export type WriteFile = (path: string, body: string | Uint8Array) => Promise<void>;

/** The file system operations the writer uses: passed in so tests can inject faults. */
export interface FileEffects {
  mkdir(path: string): Promise<void>;
  writeFile(path: string, data: string | Uint8Array): Promise<void>;
  rename(from: string, to: string): Promise<void>;
  remove(path: string): Promise<void>;
  exists(path: string): Promise<boolean>;
  /** Names of the entries of a folder. */
  list(path: string): Promise<string[]>;
}

/** The real file system. */
export async function nodeFileEffects(): Promise<FileEffects> {
  const fs = await import("node:fs/promises");
  return {
    mkdir: async (path) => void (await fs.mkdir(path, { recursive: true })),
    writeFile: (path, data) => fs.writeFile(path, data),
    rename: (from, to) => fs.rename(from, to),
    remove: (path) => fs.rm(path, { recursive: true, force: true }),
    exists: (path) =>
      fs.access(path).then(
        () => true,
        () => false,
      ),
    list: (path) => fs.readdir(path),
  };
}

/**
 * Clears what an interrupted earlier build left beside `outDir`: a lost output is
 * restored from `<out>.old-*` (a build killed between its two renames), and
 * `<out>.tmp-*` / `<out>.old-*` leftovers are removed.
 */
async function recover(outDir: string, fx: FileEffects): Promise<void> {
  const parent = dirname(outDir);
  const name = basename(outDir);
  const siblings = (await fx.exists(parent)) ? (await fx.list(parent)).sort() : [];
  const leftovers = siblings.filter((s) => s.startsWith(`${name}.tmp-`) || s.startsWith(`${name}.old-`));
  const old = leftovers.find((s) => s.startsWith(`${name}.old-`));
  if (old !== undefined && !(await fx.exists(outDir))) await fx.rename(join(parent, old), outDir);
  for (const s of leftovers) if (await fx.exists(join(parent, s))) await fx.remove(join(parent, s));
}

/**
 * Runs `produce`, which writes the output's files through the function it is
 * given, into a temporary folder; when it resolves, the folder replaces `outDir`.
 * When it throws, the temporary folder is removed and `outDir` is untouched.
 */
export async function writeOutput<T>(outDir: string, fx: FileEffects, produce: (write: WriteFile) => Promise<T>): Promise<T> {
  await recover(outDir, fx);
  const tmp = `${outDir}.tmp-${process.pid}`;
  const old = `${outDir}.old-${process.pid}`;
  await fx.mkdir(tmp);
  const made = new Set<string>();
  let result: T;
  try {
    result = await produce(async (path, body) => {
      const dir = dirname(path);
      if (dir !== "." && !made.has(dir)) {
        await fx.mkdir(join(tmp, dir));
        made.add(dir);
      }
      await fx.writeFile(join(tmp, path), body);
    });
  } catch (error) {
    await fx.remove(tmp);
    throw error;
  }
  if (await fx.exists(outDir)) {
    await fx.rename(outDir, old);
    await fx.rename(tmp, outDir);
    await fx.remove(old);
  } else {
    await fx.rename(tmp, outDir);
  }
  return result;
}
