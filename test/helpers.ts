/** Shared helpers of the tests: running the real CLI and reading output trees. */
import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import fg from "fast-glob";

export const ROOT = resolve(import.meta.dirname, "..");

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs `scripts/cli.ts` with the given arguments in a child process, as npm scripts do. */
export function runCli(args: readonly string[], env: Record<string, string> = {}): Promise<CliResult> {
  return new Promise((done) => {
    execFile(
      process.execPath,
      ["--import", "tsx", "scripts/cli.ts", ...args],
      { cwd: ROOT, env: { ...process.env, ...env }, maxBuffer: 64 * 1024 * 1024 },
      (error, stdout, stderr) => {
        const code = error === null ? 0 : typeof error.code === "number" ? error.code : -1;
        done({ code, stdout, stderr });
      },
    );
  });
}

/** A fresh temporary folder. */
export function tempDir(prefix = "open-series-"): Promise<string> {
  return mkdtemp(join(tmpdir(), prefix));
}

/** Every file under `dir` (dot files included), sorted, with the SHA-256 of its bytes. */
export function treeDigest(dir: string): Map<string, string> {
  const files = fg.sync("**/*", { cwd: dir, dot: true, onlyFiles: true }).sort();
  return new Map(files.map((f) => [f, createHash("sha256").update(readFileSync(join(dir, f))).digest("hex")]));
}
