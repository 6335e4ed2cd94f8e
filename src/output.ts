/**
 * Writing the output folder atomically: the tree goes into a fresh sibling folder
 * `<out>.tmp-<pid>`, which replaces `<out>` only once every file is written. A build
 * that fails or is killed leaves the previous output as it was.
 */
import { basename, dirname, join } from "node:path";
import type { OutputTree } from "./build.js";

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

/** Writes `tree` to `outDir`, replacing its old contents only when every file is written. */
export async function writeOutput(tree: OutputTree, outDir: string, fx: FileEffects): Promise<void> {
  await recover(outDir, fx);
  const tmp = `${outDir}.tmp-${process.pid}`;
  const old = `${outDir}.old-${process.pid}`;
  await fx.mkdir(tmp);
  try {
    const dirs = new Set([...tree.keys()].map((p) => dirname(p)).filter((d) => d !== "."));
    for (const dir of [...dirs].sort()) await fx.mkdir(join(tmp, dir));
    for (const [path, body] of tree) await fx.writeFile(join(tmp, path), body);
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
}
