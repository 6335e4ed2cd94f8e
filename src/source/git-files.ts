/**
 * The data folder as it is in a git revision: the published version the change
 * report compares with (src/source/changes.ts), and every version the history
 * table holds (src/builder/history.ts). Read with `git ls-tree` and `git cat-file`,
 * through the same `SourceFiles` interface as the working tree, so a published
 * version is loaded and validated by the same code.
 */
import { execFile } from "node:child_process";
import { relative } from "node:path";
import { promisify } from "node:util";
import type { SourceFiles } from "./load.js";

const run = promisify(execFile);

/** Git in the data folder, its output as bytes. */
const gitIn = (dataDir: string) => (args: string[]) => run("git", ["-C", dataDir, ...args], { maxBuffer: 256 * 2 ** 20, encoding: "buffer" });

/** Blobs already read, by object name: the history reads many versions sharing most files. */
export type BlobCache = Map<string, Uint8Array>;

/**
 * The files of `dataDir` at revision `rev`, or `null` when there is no such
 * revision (not a git checkout, or an unknown revision). A revision without the
 * folder gives a source with no indicator folders. `blobs` keeps the files read,
 * by object name, across calls.
 */
export async function gitSourceFiles(dataDir: string, rev: string, blobs: BlobCache = new Map()): Promise<SourceFiles | null> {
  const git = gitIn(dataDir);
  try {
    await git(["rev-parse", "--verify", "--quiet", `${rev}^{commit}`]);
  } catch {
    return null;
  }
  // Paths relative to dataDir (ls-tree prints them relative to the working directory),
  // each with its object name: "<mode> blob <name>\t<path>".
  const { stdout } = await git(["ls-tree", "-r", "-z", rev, "--", "."]);
  const objects = new Map<string, string>();
  for (const entry of stdout.toString("utf8").split("\0")) {
    const tab = entry.indexOf("\t");
    if (tab > 0) objects.set(entry.slice(tab + 1), entry.slice(0, tab).split(" ")[2] as string);
  }
  const paths = [...objects.keys()];
  /** Per indicator folder, the read of its files not yet in `blobs`. */
  const folderReads = new Map<string, Promise<void>>();
  const within = (dir: string) => relative(dataDir, dir);
  return {
    folders: (dir) => Promise.resolve(within(dir) === "" ? [...new Set(paths.filter((p) => p.includes("/")).map((p) => p.split("/")[0] as string))] : []),
    csvNames(dir) {
      const prefix = `${within(dir)}/`;
      return Promise.resolve(paths.filter((p) => p.startsWith(prefix) && !p.slice(prefix.length).includes("/") && p.endsWith(".csv")).map((p) => p.slice(prefix.length)));
    },
    async read(file) {
      const path = within(file);
      const object = objects.get(path);
      if (object === undefined) throw Object.assign(new Error(`${path} is not in ${rev}`), { code: "ENOENT" });
      if (!blobs.has(object)) {
        // The folder's files read together, in one git process: a folder is loaded whole.
        const folder = path.split("/")[0] as string;
        let reading = folderReads.get(folder);
        if (reading === undefined) {
          const wanted = [...objects].filter(([p, o]) => p.split("/")[0] === folder && !blobs.has(o)).map(([, o]) => o);
          folderReads.set(folder, (reading = readBlobs(dataDir, wanted).then((read) => read.forEach((bytes, name) => blobs.set(name, bytes)))));
        }
        await reading;
      }
      return blobs.get(object) as Uint8Array;
    },
  };
}

/**
 * The blobs named, read by one `git cat-file --batch` (one process for a folder's
 * files, not one each: a build reads every file of every data version it publishes).
 */
async function readBlobs(dataDir: string, names: readonly string[]): Promise<Map<string, Uint8Array>> {
  const reading = gitIn(dataDir)(["cat-file", "--batch"]);
  reading.child.stdin?.end(names.map((name) => `${name}\n`).join(""));
  const { stdout } = await reading;
  // Each blob: "<name> blob <size>\n", its bytes, "\n".
  const blobs = new Map<string, Uint8Array>();
  let at = 0;
  for (const name of names) {
    const end = stdout.indexOf(10, at);
    const header = stdout.subarray(at, end).toString("utf8");
    const [, type, size] = header.split(" ");
    if (type !== "blob" || size === undefined) throw new Error(`git cat-file --batch in ${dataDir}: ${name} is not a blob (${header})`);
    blobs.set(name, new Uint8Array(stdout.subarray(end + 1, end + 1 + Number(size))));
    at = end + 1 + Number(size) + 1;
  }
  return blobs;
}

/** A commit of the published branch that changed the data folder. */
export interface DataCommit {
  /** Full object name. */
  readonly commit: string;
  /** Its committer time, seconds since the epoch: when the change reached the branch. */
  readonly time: number;
}

/**
 * The commits that changed `dataDir`, oldest first, following first parents from
 * HEAD: the published branch's own steps (a merged branch's commits count once, as
 * their merge, when it landed). Empty when `dataDir` is not in a git checkout. A
 * shallow clone has only the commits it fetched.
 */
export async function dataCommits(dataDir: string): Promise<DataCommit[]> {
  let out: string;
  try {
    out = (await gitIn(dataDir)(["log", "--first-parent", "--format=%H %ct", "HEAD", "--", "."])).stdout.toString("utf8");
  } catch {
    return []; // not a git checkout, no commit yet, or git missing
  }
  return out
    .split("\n")
    .filter((line) => /^[0-9a-f]{40,64} \d+$/.test(line))
    .map((line) => ({ commit: line.split(" ")[0] as string, time: Number(line.split(" ")[1]) }))
    .reverse();
}

/** The object name of each folder directly under `dataDir` at `commit`: a folder whose name is unchanged has the same files. */
export async function folderTrees(dataDir: string, commit: string): Promise<Map<string, string>> {
  const { stdout } = await gitIn(dataDir)(["ls-tree", "-z", commit, "--", "."]);
  const trees = new Map<string, string>();
  for (const entry of stdout.toString("utf8").split("\0")) {
    const [info, path] = entry.split("\t") as [string, string | undefined];
    const [, type, object] = info.split(" ");
    if (path !== undefined && type === "tree" && object !== undefined) trees.set(path, object);
  }
  return trees;
}

/**
 * The data version time of `folder` (relative to `dataDir`) at `commit`, as a build
 * of that commit computes it (src/source/version.ts): the newest commit touching it.
 */
export async function folderTimeAt(dataDir: string, commit: string, folder: string): Promise<number> {
  const out = (await gitIn(dataDir)(["log", "-1", "--format=%ct", commit, "--", folder])).stdout.toString("utf8").trim();
  return Number(out);
}
