/**
 * The tests' light helpers on files and folders: the project's root, temporary
 * folders, an output tree's digest, its pages. Apart from test/helpers.ts (which
 * re-exports them), so that a unit test reading a file does not import the whole
 * CLI and build (exceljs, zod, the importers) just for `ROOT`.
 */
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import fg from "fast-glob";

export const ROOT = resolve(import.meta.dirname, "..");

/** A fresh temporary folder. */
export function tempDir(prefix = "open-series-"): Promise<string> {
  return mkdtemp(join(tmpdir(), prefix));
}

/** Every file under `dir` (dot files included), sorted, with the SHA-256 of its bytes. */
export function treeDigest(dir: string): Map<string, string> {
  const files = fg.sync("**/*", { cwd: dir, dot: true, onlyFiles: true }).sort();
  return new Map(files.map((f) => [f, createHash("sha256").update(readFileSync(join(dir, f))).digest("hex")]));
}

/**
 * Every HTML page of an output folder: its file and the path a browser asks for
 * (`series/x/index.html` → `/series/x/`). `404.html` has no address of its own: Pages
 * serves it, with status 404, at any path that matches no file, such as `/no-such-page`.
 */
export function sitePages(dir: string): { readonly file: string; readonly path: string }[] {
  return fg
    .sync("**/*.html", { cwd: dir })
    .sort()
    .map((file) => ({ file, path: file === "404.html" ? "/no-such-page" : `/${file.replace(/(^|\/)index\.html$/, "$1").replace(/\.html$/, "")}` }));
}
