/**
 * `npm run bench [-- --quick] [--only=build|function|start|http|history|scale|workerd|many] [--sizes=1000,10000] [--shapes=few-long]
 * [--compare=<git revision>]`: the performance tables (docs/performance.md). The growth curves
 * (`--only=scale`, not in a run of every table: its 1M builds take minutes) have their own
 * sizes (10k, 100k, 1M; --quick: 10k, 100k) and shapes (daily-100, wide-100) unless given.
 * The function in workerd (`--only=workerd [--dir=<built folder> [--indicator=a,b]] [--colds=3]
 * [--repeats=20]`, not in a run of every table: it restarts wrangler for every cold answer)
 * measures a built folder's indicator of most points, or builds a synthetic one (10k, daily-100
 * and wide-100 unless --sizes and --shapes say otherwise).
 * The growth curves by indicator count (`--only=many [--counts=10,100,1000]`, not in a run of
 * every table: its 1,000-indicator build takes minutes) build the real data beside small ones.
 * With --compare, table 2 also runs that revision's handler over its own build of
 * the same data, side by side (a temporary git worktree). Not part of `npm test`:
 * nothing here asserts a speed.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, symlinkSync } from "node:fs";
import { cpus, tmpdir, totalmem } from "node:os";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { buildScaling, runBuild, type BuildRun } from "./build-scaling.js";
import type * as Generate from "./generate.js";
import type { Shape } from "./generate.js";
import { functionCpu, loadHandler, syntheticRuns, type FunctionRun, type Handler } from "./function-cpu.js";
import { functionStart } from "./function-start.js";
import { httpThroughRuntime } from "./http.js";
import { historyCosts } from "./history.js";
import { growthCurves } from "./scale.js";
import { manyIndicators } from "./many.js";
import { workerdCosts } from "./workerd.js";

const ROOT = resolve(import.meta.dirname, "../..");
const quick = process.argv.includes("--quick");
const only = process.argv.find((a) => a.startsWith("--only="))?.slice(7);
const option = (name: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
const sizes = option("sizes")?.split(",").map(Number) ?? (quick ? [1_000, 10_000] : [1_000, 10_000, 100_000, 1_000_000]);
const shapes = (option("shapes")?.split(",") ?? ["few-long", "many-short"]) as Shape[];
const compare = option("compare");

console.log(`Open Series UY benchmark${quick ? " (quick)" : ""}: ${new Date().toISOString()}`);
console.log(`machine: ${cpus()[0]?.model ?? "?"}, ${cpus().length} cores, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}`);
const head = execFileSync("git", ["-C", ROOT, "rev-parse", "--short", "HEAD"], { encoding: "utf8" }).trim();
console.log(`code: ${head}${compare === undefined ? "" : `, compared with ${compare}`}\n`);

/** A checkout of `rev` beside this one, sharing node_modules; removed at exit. */
function worktree(rev: string): string {
  const dir = join(mkdtempSync(join(tmpdir(), "bench-compare-")), "tree");
  execFileSync("git", ["-C", ROOT, "worktree", "add", "--detach", dir, rev], { stdio: "ignore" });
  symlinkSync(join(ROOT, "node_modules"), join(dir, "node_modules"));
  process.on("exit", () => {
    execFileSync("git", ["-C", ROOT, "worktree", "remove", "--force", dir], { stdio: "ignore" });
  });
  return dir;
}

/**
 * The data version time of the real data as deployed: the newest commit touching
 * data/ (src/source/version.ts), so that the coverage of the questions about time
 * ends where it does in production, not at the synthetic runs' fixed epoch.
 */
function dataEpoch(root: string): string {
  try {
    const time = execFileSync("git", ["-C", root, "log", "-1", "--format=%ct", "--", "data"], { encoding: "utf8" }).trim();
    return /^\d+$/.test(time) ? time : "1700000000";
  } catch {
    return "1700000000"; // no git: the synthetic runs' epoch
  }
}

/** The real data built by a checkout's CLI. */
function buildReal(root: string, extra: string[] = []): string {
  const out = join(mkdtempSync(join(tmpdir(), "bench-real-")), "dist");
  const run = runBuild(join(ROOT, "data"), out, extra, root, dataEpoch(ROOT));
  if (!run.ok) throw new Error(`build of the real data at ${root} failed:\n${run.stderr}`);
  return out;
}

if (only === undefined || only === "build" || only === "function") {
  const { text, runs } = await buildScaling(sizes, shapes);
  if (only !== "function") console.log(text);
  if (only === undefined || only === "function") {
    const after: Handler = await loadHandler(ROOT, head);
    let before: Handler | undefined;
    const compared = new Map<BuildRun, string>();
    let realBefore: string | undefined;
    if (compare !== undefined) {
      const root = worktree(compare);
      before = await loadHandler(root, compare);
      // The compared revision reads its own indicator.json format: the same points (same generator
      // seed), written by its own generator, and its own data folder (data v2 in either format).
      const then = (await import(pathToFileURL(join(root, "scripts/bench/generate.ts")).href)) as typeof Generate;
      // The compared revision knows neither --no-base nor --no-series-files: build with its defaults, or fewer limits.
      for (const run of runs.filter((r) => r.ok)) {
        const data = mkdtempSync(join(tmpdir(), "bench-data-before-"));
        await then.generateIndicator(data, run.points, run.shape);
        const out = join(mkdtempSync(join(tmpdir(), "bench-before-")), "dist");
        const limits = run.extra.includes("--limits") ? ["--limits", "100,500,1000,5000"] : [];
        const built = runBuildCompat(data, out, limits, root);
        rmSync(data, { recursive: true, force: true });
        if (built) compared.set(run, out);
      }
      realBefore = runBuildCompat(join(root, "data"), join(mkdtempSync(join(tmpdir(), "bench-real-before-")), "dist"), [], root, dataEpoch(root));
    }
    const real: FunctionRun = { name: "real data", points: 22_960, out: buildReal(ROOT), ...(realBefore === undefined ? {} : { compareOut: realBefore }) };
    console.log(await functionCpu([real, ...syntheticRuns(runs, compared)], after, before, quick ? 50 : 200));
  }
}
if (only === undefined || only === "start") {
  // The compared revision's own build of the same real data, or this checkout's alone.
  const root = compare === undefined ? undefined : worktree(compare);
  const compared = root === undefined ? undefined : { label: compare as string, root, dist: runBuildCompat(join(root, "data"), join(mkdtempSync(join(tmpdir(), "bench-start-before-")), "dist"), [], root, dataEpoch(root)) ?? "" };
  console.log(await functionStart({ label: head, root: ROOT, dist: buildReal(ROOT) }, compared, quick ? 5 : 15));
}
if (only === undefined || only === "http") console.log(await httpThroughRuntime(quick ? 3 : 10, dataEpoch(ROOT)));
if (only === undefined || only === "history") console.log(await historyCosts(buildReal(ROOT), quick ? 20 : 100));
if (only === "scale") {
  const scaleSizes = option("sizes") === undefined ? (quick ? [10_000, 100_000] : [10_000, 100_000, 1_000_000]) : sizes;
  const scaleShapes = option("shapes") === undefined ? (["daily-100", "wide-100"] as Shape[]) : shapes;
  console.log(await growthCurves(await loadHandler(ROOT, head), scaleSizes, scaleShapes, dataEpoch(ROOT), quick ? 50 : 200));
}

if (only === "many") {
  const counts = option("counts")?.split(",").map(Number) ?? (quick ? [10, 100] : [10, 100, 1000]);
  console.log(await manyIndicators(counts, dataEpoch(ROOT), quick ? 20 : 100));
}

if (only === "workerd") {
  const dir = option("dir");
  const indicators = option("indicator")?.split(",");
  console.log(
    await workerdCosts({
      ...(dir === undefined ? {} : { dir: resolve(dir) }),
      ...(indicators === undefined ? {} : { indicators }),
      sizes: option("sizes") === undefined ? [10_000] : sizes,
      shapes: option("shapes") === undefined ? (["daily-100", "wide-100"] as Shape[]) : shapes,
      epoch: dataEpoch(ROOT),
      colds: Number(option("colds") ?? (quick ? 1 : 3)),
      repeats: Number(option("repeats") ?? (quick ? 5 : 20)),
    }),
  );
}

/** Builds with an older CLI, whose options may be fewer; the output folder, or undefined when it failed. */
function runBuildCompat(data: string, out: string, extra: string[], root: string, epoch = "1700000000"): string | undefined {
  const result = execFileSyncSafe(process.execPath, ["--import", "tsx", "scripts/cli.ts", "build", "--data", data, "--out", out, ...extra], root, epoch);
  if (!result) rmSync(out, { recursive: true, force: true });
  return result ? out : undefined;
}

function execFileSyncSafe(command: string, args: string[], cwd: string, epoch: string): boolean {
  try {
    execFileSync(command, args, { cwd, stdio: "ignore", env: { ...process.env, SOURCE_DATE_EPOCH: epoch }, maxBuffer: 64 * 2 ** 20 });
    return true;
  } catch {
    return false;
  }
}
