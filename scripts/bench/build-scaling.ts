/**
 * Table 1: the real CLI building synthetic indicators of growing size, in a child
 * process measured by /usr/bin/time (wall time, peak RSS).
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import fg from "fast-glob";
import { generateIndicator, type Shape } from "./generate.js";
import { fmt, table } from "./table.js";

const ROOT = resolve(import.meta.dirname, "../..");

export interface BuildRun {
  shape: Shape;
  points: number;
  /** The generated data folder, and the output. */
  data: string;
  out: string;
  /** The options the build needed to fit the file budget. */
  extra: string[];
  ok: boolean;
  seconds: number;
  rssMb: number;
  files: number;
  bytes: number;
  note: string;
}

/**
 * Builds `dataDir` into `out` with the CLI of the checkout at `root` (this one by default), timed;
 * `epoch` is the data version time (SOURCE_DATE_EPOCH) of every indicator.
 */
export function runBuild(dataDir: string, out: string, extra: string[], root = ROOT, epoch = "1700000000"): { ok: boolean; seconds: number; rssMb: number; stderr: string } {
  const started = performance.now();
  const result = spawnSync(
    "/usr/bin/time",
    ["-v", process.execPath, "--import", "tsx", "scripts/cli.ts", "build", "--data", dataDir, "--out", out, "--no-base", ...extra],
    { cwd: root, encoding: "utf8", env: { ...process.env, SOURCE_DATE_EPOCH: epoch }, maxBuffer: 64 * 1024 * 1024 },
  );
  const seconds = (performance.now() - started) / 1000;
  const rss = /Maximum resident set size \(kbytes\): (\d+)/.exec(result.stderr)?.[1];
  return { ok: result.status === 0, seconds, rssMb: Number(rss ?? NaN) / 1024, stderr: result.stderr };
}

/** The files of the output folder `dir`: how many, their bytes, and the largest (its path in the folder). */
export function measureTree(dir: string): { files: number; bytes: number; largest: { path: string; bytes: number } } {
  const files = fg.sync("**/*", { cwd: dir, dot: true, onlyFiles: true }).sort();
  let bytes = 0;
  let largest = { path: "", bytes: 0 };
  for (const path of files) {
    const size = statSync(join(dir, path)).size;
    bytes += size;
    if (size > largest.bytes) largest = { path, bytes: size };
  }
  return { files: files.length, bytes, largest };
}

/** Generates and builds each size × shape; returns the runs (their outputs feed table 2). */
export async function buildScaling(sizes: readonly number[], shapes: readonly Shape[]): Promise<{ text: string; runs: BuildRun[] }> {
  const runs: BuildRun[] = [];
  for (const shape of shapes) {
    for (const points of sizes) {
      const work = mkdtempSync(join(tmpdir(), "bench-build-"));
      const data = join(work, "data");
      await generateIndicator(data, points, shape);
      const out = join(work, "dist");
      let extra: string[] = [];
      let run = runBuild(data, out, extra);
      let note = "default limits";
      // Over the 20,000-file budget: leave out the sub-series files, then prebuild fewer limits.
      for (const fallback of [["--no-series-files"], ["--no-series-files", "--limits", "100,500,1000,5000"]]) {
        if (run.ok || !/over the budget/.test(run.stderr)) break;
        const files = /would hold (\d+) files/.exec(run.stderr)?.[1] ?? "?";
        extra = fallback;
        note = `over the 20,000-file budget with ${note} (${files} files): measured with ${fallback.join(" ")}`;
        run = runBuild(data, out, extra);
      }
      const tree = run.ok ? measureTree(out) : { files: 0, bytes: 0 };
      if (!run.ok) note = `failed: ${run.stderr.split("\n").find((l) => /error/i.test(l)) ?? run.stderr.slice(0, 200)}`;
      runs.push({ shape, points, data, out, extra, ok: run.ok, seconds: run.seconds, rssMb: run.rssMb, files: tree.files, bytes: tree.bytes, note });
    }
  }
  const rows = runs.map((r) => [
    r.shape,
    fmt(r.points),
    fmt(r.seconds, 2),
    fmt(r.rssMb),
    fmt(r.files),
    fmt(r.bytes / 1e6, 1),
    fmt(r.points / r.seconds),
    r.note,
  ]);
  const text = table("1. Build scaling (npm run build in a child process; wall time and peak RSS from /usr/bin/time)", ["shape", "points", "wall s", "peak RSS MB", "files", "MB written", "points/s", "note"], rows);
  return { text, runs };
}
