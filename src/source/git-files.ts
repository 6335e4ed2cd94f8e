/**
 * The data folder as it is in a git revision: the published version the change
 * report compares with (src/source/changes.ts). Read with `git ls-tree` and
 * `git show`, through the same `SourceFiles` interface as the working tree, so the
 * published version is loaded and validated by the same code.
 */
import { execFile } from "node:child_process";
import { relative } from "node:path";
import { promisify } from "node:util";
import type { SourceFiles } from "./load.js";

const run = promisify(execFile);

/**
 * The files of `dataDir` at revision `rev`, or `null` when there is no such
 * revision (not a git checkout, or an unknown revision). A revision without the
 * folder gives a source with no indicator folders.
 */
export async function gitSourceFiles(dataDir: string, rev: string): Promise<SourceFiles | null> {
  const git = (args: string[]) => run("git", ["-C", dataDir, ...args], { maxBuffer: 256 * 2 ** 20, encoding: "buffer" });
  try {
    await git(["rev-parse", "--verify", "--quiet", `${rev}^{commit}`]);
  } catch {
    return null;
  }
  // Paths relative to dataDir (ls-tree prints them relative to the working directory).
  const { stdout } = await git(["ls-tree", "-r", "--name-only", "-z", rev, "--", "."]);
  const paths = stdout.toString("utf8").split("\0").filter((p) => p !== "");
  const within = (dir: string) => relative(dataDir, dir);
  return {
    folders: (dir) => Promise.resolve(within(dir) === "" ? [...new Set(paths.filter((p) => p.includes("/")).map((p) => p.split("/")[0] as string))] : []),
    csvNames(dir) {
      const prefix = `${within(dir)}/`;
      return Promise.resolve(paths.filter((p) => p.startsWith(prefix) && !p.slice(prefix.length).includes("/") && p.endsWith(".csv")).map((p) => p.slice(prefix.length)));
    },
    async read(file) {
      const path = within(file);
      if (!paths.includes(path)) throw Object.assign(new Error(`${path} is not in ${rev}`), { code: "ENOENT" });
      return new Uint8Array((await git(["show", `${rev}:./${path}`])).stdout);
    },
  };
}
