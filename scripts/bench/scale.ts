/**
 * Table 6, the growth curves (`--only=scale`): a synthetic indicator of each size
 * (10k, 100k and 1M points by default) and shape (daily-100, wide-100:
 * scripts/bench/generate.ts) built beside a copy of the real data by the CLI in a
 * child process, then asked each kind of question by the handler (`Api.fetch`
 * over the built folder, scripts/lib/folder-assets.ts): cold in fresh processes
 * (scripts/bench/cold.ts), warm in this one. A build the
 * limits refuse (the file budget, a file over 25 MiB) is recorded with its message
 * and built again past them, so that the curves go on. Each figure
 * is shown with its ratio to the smallest size's: linear growth is a ratio equal
 * to the points', a step is one above it. Written against the handler's public
 * behaviour only (the answers it gives over a built folder), so that it measures
 * any layout of the answer files.
 */
import { cpSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { measureTree, runBuild } from "./build-scaling.js";
import { type ApiLike, type Handler, sample } from "./function-cpu.js";
import { generateIndicator, groupWord, layout, type Shape } from "./generate.js";
import { coldAnswer } from "./cold.js";
import { fmt, table } from "./table.js";
import { SEARCH_PATH } from "../../src/core/file/paths.js";
import { folderAssets } from "../lib/folder-assets.js";

const ROOT = resolve(import.meta.dirname, "../..");

/** A kind of answer: its name and the request's path and query. */
export interface Kind {
  readonly name: string;
  readonly path: string;
}

/** What one kind of answer measured. */
interface Answered {
  readonly status: number;
  /** The first 80 characters of a refusal's detail, or "". */
  readonly detail: string;
  readonly bytes: number;
  readonly coldCpuMs: number;
  /** The JavaScript thread's share of `coldCpuMs` (scripts/bench/cold.ts). */
  readonly coldThreadMs: number;
  /** The same, the code having run once before on the same question, its data not read (`coldAnswer`'s `codeWarm`). */
  readonly dataColdThreadMs: number;
  readonly coldWallMs: number;
  /** Growth of heapUsed + arrayBuffers of a fresh isolate after this answer, collected. */
  readonly memoryMb: number;
  /** What its first answer read of the output folder (the manifest aside), MB. */
  readonly readMb: number;
  readonly warmCpuUs: number;
}

/** One size of one shape: the build, or its refusal, and the answers. */
interface Point {
  readonly points: number;
  readonly refusal?: string;
  readonly seconds: number;
  readonly rssMb: number;
  readonly files: number;
  readonly bytes: number;
  readonly largest: { path: string; bytes: number };
  readonly answers: ReadonlyMap<string, Answered>;
}

/**
 * The kinds of answer asked of the synthetic indicator of `points` points: the
 * default page, a month of one sub-series, a pattern over a 1% group, one
 * sub-series as CSV, a day over every sub-series, a question about time of one
 * sub-series, and a search for the group's word.
 */
export function kinds(points: number, shape: Shape): Kind[] {
  const endpoint = `/api/v1/synthetic-${shape}-${points}`;
  const { series } = layout(points, shape);
  const one = series[Math.floor(series.length / 2)] ?? "";
  const word = groupWord(42);
  return [
    { name: "default page", path: endpoint },
    { name: "narrow (a month)", path: `${endpoint}?series=${one}&from=2025-12-01&to=2025-12-31` },
    { name: `pattern ${word}.* (1%)`, path: `${endpoint}?series=${word}.*` },
    { name: "CSV, one sub-series", path: `${endpoint}?format=csv&series=${one}` },
    { name: "at a day, every sub-series", path: `${endpoint}?at=2025-12-15` },
    shape === "wide-100"
      ? { name: "percent change, one", path: `${endpoint}?units=percent_change&series=${one}` }
      : { name: "monthly, one", path: `${endpoint}?series=${one}&frequency=month` },
    { name: `search ${word}`, path: `${SEARCH_PATH}?q=${word}` },
  ];
}

/** The status, refusal detail and bytes of one answer of `api`. */
async function ask(api: ApiLike, env: Record<string, unknown>, path: string): Promise<{ status: number; detail: string; bytes: number }> {
  return answerOf(await api.fetch(new Request(`http://bench.test${path}`), env));
}

/** The status, the first 80 characters of a refusal's detail (the API's error object) and the body's bytes of `response`, read to its end. */
export async function answerOf(response: Response): Promise<{ status: number; detail: string; bytes: number }> {
  const body = new Uint8Array(await response.arrayBuffer());
  if (response.status === 200) return { status: 200, detail: "", bytes: body.length };
  const text = new TextDecoder().decode(body);
  let detail = text;
  try {
    detail = (JSON.parse(text) as { error?: { detail?: string } }).error?.detail ?? text;
  } catch {
    // not the API's error object: its text as it is
  }
  return { status: response.status, detail: detail.slice(0, 80), bytes: body.length };
}

/**
 * Cold: a fresh isolate's first answer, in a fresh Node process per sample
 * (scripts/bench/cold.ts: the function's code run for the first time, only the
 * files it reads in memory), its CPU and wall time and the memory it holds after,
 * medians of three; data cold: the same once the code has run, the data not read.
 * Warm: the CPU of one isolate's later answers, median of up to `repetitions`
 * after a warm-up.
 */
async function measureKind(handler: Handler, dir: string, path: string, repetitions: number): Promise<Answered> {
  const cold = coldAnswer(dir, path);
  const dataCold = coldAnswer(dir, path, 3, true);
  // The largest usage limit the vars accept, as in table 2.
  const env = { ASSETS: folderAssets(dir), RATE_LIMIT_REQUESTS: "999999999" };
  const api = await handler.fresh();
  const first = await ask(api, env, path);
  const until = performance.now() + 2_000;
  for (let i = 0; i < 20 && (i < 3 || performance.now() < until); i++) await ask(api, env, path);
  (globalThis as { gc?: () => void }).gc?.();
  const warm = await sample(repetitions, () => ask(api, env, path));
  return { ...first, coldCpuMs: cold.cpuMs, coldThreadMs: cold.threadMs, dataColdThreadMs: dataCold.threadMs, coldWallMs: cold.wallMs, memoryMb: cold.memoryMb, readMb: cold.readBytes / 1e6, warmCpuUs: warm.cpu };
}

/** The CLI's options of a build past the limits of Cloudflare Pages (the file budget, 25 MiB a file). */
const BEYOND_LIMITS = ["--max-files", "1000000", "--max-file-bytes", String(2 ** 31)];

/** The refusal in the CLI's error output (the lines before /usr/bin/time's report). */
function refusalOf(stderr: string): string {
  const lines = stderr.split("\n");
  const end = lines.findIndex((l) => /^\s*(Command (being timed|exited|terminated))/.test(l));
  const text = (end < 0 ? lines : lines.slice(0, end)).map((l) => l.trim()).filter((l) => l !== "");
  const at = Math.max(0, text.findIndex((l) => /error|over the|budget|limit/i.test(l)));
  // "N data errors:" is followed by the first of them.
  const message = text[at]?.endsWith(":") === true ? `${text[at]} ${text[at + 1] ?? ""}` : (text[at] ?? "failed without a message");
  return message.slice(0, 300);
}

/** A growth-curve build: the indicator's id, its output folder (none when even a build past the limits failed), the limits' refusal, its wall time and peak RSS. */
export interface GrowthBuild {
  readonly id: string;
  readonly out?: string;
  readonly refusal?: string;
  readonly seconds: number;
  readonly rssMb: number;
}

/**
 * Generates `points` of `shape` beside a copy of the real data under `work` and
 * builds it into `work`/dist with data version time `epoch`; a build the limits
 * refuse is built again past them, its refusal kept.
 */
export async function buildGrowthPoint(work: string, shape: Shape, points: number, epoch: string): Promise<GrowthBuild> {
  const data = join(work, "data");
  cpSync(join(ROOT, "data"), data, { recursive: true });
  const id = await generateIndicator(data, points, shape);
  const out = join(work, "dist");
  let run = runBuild(data, out, [], ROOT, epoch);
  if (run.ok) return { id, out, seconds: run.seconds, rssMb: run.rssMb };
  // Refused (the file budget, a file over 25 MiB): built again past the limits, to measure what the curves would be.
  let refusal = `${refusalOf(run.stderr)} (after ${fmt(run.seconds, 1)} s, peak RSS ${fmt(run.rssMb)} MB)`;
  run = runBuild(data, out, BEYOND_LIMITS, ROOT, epoch);
  if (run.ok) return { id, out, refusal, seconds: run.seconds, rssMb: run.rssMb };
  refusal += `; with ${BEYOND_LIMITS.join(" ")}: ${refusalOf(run.stderr)}`;
  return { id, refusal, seconds: run.seconds, rssMb: run.rssMb };
}

/** Builds `points` of `shape` beside the real data and measures the answers; the work folder is removed after. */
async function measurePoint(handler: Handler, shape: Shape, points: number, epoch: string, repetitions: number): Promise<Point> {
  const work = mkdtempSync(join(tmpdir(), "bench-scale-"));
  try {
    const { out, refusal, seconds, rssMb } = await buildGrowthPoint(work, shape, points, epoch);
    const built = { points, ...(refusal === undefined ? {} : { refusal }), seconds, rssMb };
    if (out === undefined) return { ...built, files: NaN, bytes: NaN, largest: { path: "", bytes: NaN }, answers: new Map() };
    const tree = measureTree(out);
    const answers = new Map<string, Answered>();
    for (const kind of kinds(points, shape)) answers.set(kind.name, await measureKind(handler, out, kind.path, repetitions));
    return { ...built, ...tree, answers };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

const size = (n: number) => (n >= 1e6 && n % 1e6 === 0 ? `${n / 1e6}M` : n >= 1e3 && n % 1e3 === 0 ? `${n / 1e3}k` : fmt(n));

/** A shape's table: a row per figure, a column per size, each beside its ratio to the first size's. */
function shapeTable(shape: Shape, runs: readonly Point[]): string {
  const base = runs[0];
  const label = size(base?.points ?? 0);
  const header = ["figure", ...runs.flatMap((r, i) => (i === 0 ? [size(r.points)] : [size(r.points), `× ${label}`]))];
  const rows: string[][] = [];
  const row = (name: string, value: (p: Point) => number, digits: number) => {
    const first = base === undefined ? NaN : value(base);
    rows.push([
      name,
      ...runs.flatMap((r, i) => {
        const v = value(r);
        const cell = Number.isNaN(v) ? "—" : fmt(v, digits);
        if (i === 0) return [cell];
        return [cell, Number.isNaN(v) || !(first > 0) ? "—" : `${fmt(v / first, 1)}×`];
      }),
    ]);
  };
  row("points", (p) => p.points, 0);
  row("build wall s", (p) => p.seconds, 1);
  row("build peak RSS MB", (p) => p.rssMb, 0);
  row("output MB", (p) => p.bytes / 1e6, 1);
  row("files", (p) => p.files, 0);
  row("largest file MB", (p) => p.largest.bytes / 1e6, 2);
  const names = kinds(base?.points ?? 0, shape).map((k) => k.name);
  const of = (name: string, figure: (a: Answered) => number) => (p: Point) => {
    const a = p.answers.get(name);
    return a === undefined ? NaN : figure(a);
  };
  for (const name of names) {
    row(`${name}: status`, of(name, (a) => a.status), 0);
    row(`${name}: body KB`, of(name, (a) => a.bytes / 1e3), 1);
    row(`${name}: read MB`, of(name, (a) => a.readMb), 2);
    row(`${name}: cold thread ms`, of(name, (a) => a.coldThreadMs), 1);
    row(`${name}: data cold thread ms`, of(name, (a) => a.dataColdThreadMs), 1);
    row(`${name}: cold CPU ms`, of(name, (a) => a.coldCpuMs), 1);
    row(`${name}: cold wall ms`, of(name, (a) => a.coldWallMs), 1);
    row(`${name}: memory MB`, of(name, (a) => a.memoryMb), 2);
    row(`${name}: warm CPU µs`, of(name, (a) => a.warmCpuUs), 0);
  }
  const notes: string[] = [];
  for (const p of runs) {
    if (p.refusal !== undefined) notes.push(`  ${size(p.points)}: the build refused: ${p.refusal}`);
    if (p.refusal !== undefined && p.files > 0) notes.push(`  ${size(p.points)}: its column measured past the limits (${BEYOND_LIMITS.join(" ")}): not deployable as it is`);
    if (p.files > 0) notes.push(`  ${size(p.points)}: largest file ${p.largest.path} (${fmt(p.largest.bytes)} bytes)`);
    for (const [name, a] of p.answers) if (a.status !== 200) notes.push(`  ${size(p.points)}, ${name}: ${a.status}: ${a.detail}`);
  }
  const last = runs.at(-1)?.points ?? 0;
  notes.push(`  the questions (${size(last)}): ${kinds(last, shape).map((k) => `${k.name}: ${k.path}`).join("; ")}`);
  return `${table(`6. Growth curves, ${shape}`, header, rows)}${notes.join("\n")}\n`;
}

/**
 * The growth curves of each shape over `sizes` (ascending; the first is the ratios'
 * base), built with the data version time `epoch`, warm figures the median of up to
 * `repetitions` answers. One size is built and measured at a time.
 */
export async function growthCurves(handler: Handler, sizes: readonly number[], shapes: readonly Shape[], epoch: string, repetitions: number): Promise<string> {
  const parts = [
    "6. Growth curves: a synthetic indicator built beside the real data (the CLI in a child process; wall time and peak RSS from /usr/bin/time), " +
      "then each kind of answer by the handler over the built folder (cold: a fresh Node process's first answer, median of three, scripts/bench/cold.ts: " +
      "the function's code run for the first time, Node's own machinery used once before, only the files it reads in memory, their bodies read as a copy; " +
      "thread = the JavaScript thread's CPU, /proc schedstat; CPU = process.cpuUsage user + system, V8's compiler and collector threads included; " +
      "data cold = the thread's CPU once the code has answered the same question in another instance, the data not read; " +
      "read: the files it read, the manifest aside; memory: heapUsed + arrayBuffers it holds after, collected; warm: CPU median after a warm-up); × = the figure over the first size's\n",
  ];
  for (const shape of shapes) {
    const runs: Point[] = [];
    for (const points of sizes) {
      const point = await measurePoint(handler, shape, points, epoch, repetitions);
      runs.push(point);
      process.stderr.write(`scale: ${shape} ${size(points)} ${point.refusal === undefined ? "built" : point.files > 0 ? "refused, built past the limits" : "refused"} in ${fmt(point.seconds, 1)} s\n`);
    }
    parts.push(shapeTable(shape, runs));
  }
  return parts.join("\n");
}
