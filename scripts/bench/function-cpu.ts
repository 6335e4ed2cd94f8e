/**
 * Table 2: time per request of the handler workerd runs (`Api.fetch`,
 * src/api/handler.ts) in Node, over built outputs held in memory (`env.ASSETS` is
 * an in-memory map of the files: the times are our code's CPU, no disk or
 * network). Cold = the first request of a fresh `Api` (a fresh isolate: fetch the
 * manifest and the answer file, index them, answer); warm = later requests.
 *
 * Each request is timed in wall time and in CPU time (`process.cpuUsage()`, user +
 * system: the figure Cloudflare limits; the machine may be busy with other work),
 * median and 90th percentile. Each JSON answer is measured next to the floor, in
 * the same run: the CPU time of `JSON.stringify` of the same body (parsed once,
 * outside the timing) and the time of a plain copy of its bytes. Over the real
 * data, the questions about time (./time-questions.ts) are timed beside the plain
 * widest answer, refusals included, each with the values the CPU budget counts
 * (`derivedWork`) and the points it wrote; a least-squares fit of their CPU time
 * on those two gives the cost per computed value and per written point. With
 * `--compare=<rev>`, the same queries are run by that revision's handler over its
 * own build of the same data, side by side.
 */
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { pathToFileURL } from "node:url";
import { build } from "esbuild";
import { SEARCH_PATH } from "../../src/core/file/paths.js";
import { join } from "node:path";
import { filesInMemory, memoryAssets } from "../lib/folder-assets.js";
import type { BuildRun } from "./build-scaling.js";
import { fmt, percentile, table } from "./table.js";
import { timeQuestions, type Catalog } from "./time-questions.js";

/** What the bench needs of a revision's `Api` (src/api/handler.ts). */
export interface ApiLike {
  fetch(request: Request, env: Record<string, unknown>): Promise<Response>;
}
export interface Handler {
  readonly label: string;
  readonly create: () => ApiLike;
  /** An `Api` of a fresh instance of the module: a new isolate's, whose code has not run yet. */
  readonly fresh: () => Promise<ApiLike>;
}

/**
 * The `Api` of the checkout at `root`, bundled by esbuild as wrangler bundles the
 * Pages Function (ES module, browser platform, names kept): the code V8 runs in
 * workerd, not tsx's per-file transform (which measured about twice as slow).
 */
export async function loadHandler(root: string, label: string): Promise<Handler> {
  const outfile = join(mkdtempSync(join(tmpdir(), "bench-handler-")), "handler.mjs");
  await build({
    entryPoints: [join(root, "src/api/handler.ts")],
    bundle: true,
    format: "esm",
    platform: "browser",
    keepNames: true,
    outfile,
    logLevel: "error",
    absWorkingDir: root,
  });
  type Module = { Api: new () => ApiLike };
  const href = pathToFileURL(outfile).href;
  const module = (await import(href)) as Module;
  // Another URL of the same file is another module instance: its code compiled and its module state made anew.
  let instances = 0;
  const fresh = async () => new ((await import(`${href}?instance=${++instances}`)) as Module).Api();
  return { label, create: () => new module.Api(), fresh };
}

/** A row of the table: a query; `expect` is set for a question about time, whose status is shown rather than required to be 200. */
interface Query {
  readonly name: string;
  readonly path: string;
  readonly computed: boolean;
  readonly expect?: number;
}

/** The queries of the table for an indicator: [name, path, computed?]. */
function queries(catalog: Catalog, real: boolean): [string, string, boolean][] {
  const indicator = real ? catalog.indicators.find((i) => i.id === "health-insurance-prices") : catalog.indicators[0];
  if (indicator === undefined) return [];
  const { id, series } = indicator;
  const first = series.reduce((m, s) => (s.first < m ? s.first : m), "9999");
  const last = series.reduce((m, s) => (s.last > m ? s.last : m), "0000");
  const longest = series.reduce((m, s) => Math.max(m, s.points), 0);
  const t0 = Date.parse(first);
  const t1 = Date.parse(last);
  const at = (f: number) => new Date(t0 + (t1 - t0) * f).toISOString().slice(0, 10);
  const endpoint = `/api/v1/${id}`;
  const one = series.find((s) => s.points === longest)?.id ?? series[0]?.id ?? "";
  const common: [string, string, boolean][] = [
    ["prebuilt (default page)", endpoint, false],
    ["computed window, limit 100", `${endpoint}?from=${at(1 / 3)}&to=${at(2 / 3)}&limit=100`, true],
    ["deep offset, limit 10", `${endpoint}?from=${first}&limit=10&offset=${Math.max(0, longest - 13)}`, true],
    ["narrow from/to", `${endpoint}?from=${at(0.5)}&to=${at(0.52)}`, true],
    ["every point, computed", `${endpoint}?from=${first}&limit=5000`, true],
  ];
  if (!real) return common;
  return [
    ...common,
    ["one sub-series", `${endpoint}?series=${one}`, true],
    ["one sub-series, CSV", `${endpoint}?series=${one}&format=csv`, true],
    ["pattern casmu.*, limit 1", `${endpoint}?series=casmu.*&limit=1`, true],
    ["every point as CSV", `${endpoint}?from=${first}&limit=5000&format=csv`, true],
  ];
}

/** Median time of `f` over up to `n` calls (at least 5, at most ~2 s), in µs. */
async function median(n: number, f: () => unknown): Promise<number> {
  const times: number[] = [];
  const until = performance.now() + 2_000;
  for (let i = 0; i < n && (i < 5 || performance.now() < until); i++) {
    const t = performance.now();
    await f();
    times.push((performance.now() - t) * 1000);
  }
  return percentile(times, 50);
}

/** Wall and CPU time of each of up to `n` calls of `f` (at least 5, at most ~2 s of wall time), in µs: medians and 90th percentiles. */
export async function sample(n: number, f: () => unknown): Promise<{ wall: number; wallHigh: number; cpu: number; cpuHigh: number }> {
  const wall: number[] = [];
  const cpu: number[] = [];
  const until = performance.now() + 2_000;
  for (let i = 0; i < n && (i < 5 || performance.now() < until); i++) {
    const c = process.cpuUsage();
    const t = performance.now();
    await f();
    const w = (performance.now() - t) * 1000;
    const used = process.cpuUsage(c);
    wall.push(w);
    cpu.push(used.user + used.system);
  }
  return { wall: percentile(wall, 50), wallHigh: percentile(wall, 90), cpu: percentile(cpu, 50), cpuHigh: percentile(cpu, 90) };
}

/** The environment of the handler over the output `dir`. */
function handlerEnv(dir: string) {
  // The largest usage limit the vars accept (9 digits; a longer value falls back to the default 300).
  return { ASSETS: memoryAssets(filesInMemory(dir, ["_data/**/*", "api/v1/*/index.json", "api/v1/*/limit-*/offset-0.json"])), RATE_LIMIT_REQUESTS: "999999999" };
}

/** Cold and warm times of a query through `handler` over the output `dir`; the body of the warm answer. */
async function timeQuery(handler: Handler, dir: string, path: string, repetitions: number) {
  const env = handlerEnv(dir);
  let body = new Uint8Array(0);
  let status = 0;
  const answer = async (api: ApiLike) => {
    const response = await api.fetch(new Request(`http://bench.test${path}`), env);
    status = response.status;
    body = new Uint8Array(await response.arrayBuffer());
  };
  const t = performance.now();
  await answer(handler.create());
  const cold = (performance.now() - t) * 1000;
  const api = handler.create();
  // Warm up the code paths (JIT) before measuring, and start from a collected heap
  // (npm run bench runs node with --expose-gc), so that no query pays for the
  // garbage of the one before.
  for (let i = 0; i < 20; i++) await answer(api);
  (globalThis as { gc?: () => void }).gc?.();
  const times = await sample(repetitions, () => answer(api));
  return { cold, warm: times.wall, times, body, status };
}

/**
 * The values a question about time computes as the CPU budget counts them
 * (src/core/time/derived-answer.ts `derivedWork`, with the inputs src/api/endpoint.ts
 * gives it), or `undefined` for a query that is not derived.
 */
async function valuesComputed(dir: string, path: string): Promise<{ values: number; read: number } | undefined> {
  const { parseQuery } = await import("../../src/api/query.js");
  const { isDerived } = await import("../../src/core/indicator/model.js");
  const { decodeAnswers } = await import("../../src/core/file/answers.js");
  const { decodeAnswerIndex, shardView } = await import("../../src/core/file/answer-index.js");
  const { answerShardPath } = await import("../../src/core/file/paths.js");
  const { timeSource } = await import("../../src/api/time.js");
  const { resolveSelection } = await import("../../src/core/answer/selection.js");
  const { derivedWork } = await import("../../src/core/time/derived-answer.js");
  const url = new URL(path, "http://bench.test");
  // Only an indicator's questions have values to count (not the search).
  if (url.pathname === SEARCH_PATH) return undefined;
  const query = parseQuery(url.searchParams);
  if (!isDerived(query)) return undefined;
  const manifest = JSON.parse(readFileSync(join(dir, "_data/manifest.json"), "utf8")) as { indicators: Record<string, { answers: string; lastModified: string }> };
  const load = (id: string) => {
    const entry = manifest.indicators[id];
    if (entry === undefined) throw new Error(`${path}: no indicator ${id} in ${dir}`);
    // Every shard read (src/core/file/answer-index.ts): the values counted do not depend on which are.
    const index = decodeAnswerIndex(new Uint8Array(readFileSync(join(dir, entry.answers))));
    const data = shardView(index, new Map(index.shards.map((_, k) => [k, decodeAnswers(new Uint8Array(readFileSync(join(dir, answerShardPath(id, k)))))])));
    return { data, source: timeSource(data, entry.lastModified) };
  };
  const self = load(url.pathname.split("/").at(-1) ?? "");
  const chosen = query.series === null ? null : resolveSelection(self.data.ids, query.series).indices;
  let divisor = null;
  if (query.per !== null) {
    const other = load(query.per.indicator);
    divisor = { source: other.source, series: resolveSelection(other.data.ids, [query.per.series]).indices[0] ?? 0 };
  }
  // Of which points read (the rest: periods made).
  let read = (chosen ?? self.data.ids.map((_, s) => s)).reduce((sum, s) => sum + (self.data.series[s]?.length ?? 0), 0);
  if (divisor !== null) read += divisor.source.series[divisor.series]?.length ?? 0;
  return { values: derivedWork({ source: self.source, chosen, query, divisor, deflator: null }), read };
}

/** The points of an answer's body: JSON `data`, or CSV lines after the header. */
function pointsWritten(body: Uint8Array, csv: boolean): number {
  const text = new TextDecoder().decode(body);
  if (csv) return text.split("\n").filter((l) => l !== "").length - 1;
  const parsed = JSON.parse(text) as { data?: unknown[] };
  return parsed.data?.length ?? 0;
}

/**
 * Least squares of y ≈ c₀ + c₁·x₁ + … (the normal equations, by Gaussian elimination):
 * the coefficients, or `undefined` with too few rows or a singular system.
 */
function leastSquares(xs: readonly (readonly number[])[], y: readonly number[]): number[] | undefined {
  const rows = xs.map((x) => [1, ...x]);
  const k = rows[0]?.length ?? 0;
  if (rows.length <= k) return undefined;
  const dot = (i: number, j: number) => rows.reduce((sum, r) => sum + (r[i] ?? 0) * (r[j] ?? 0), 0);
  // The augmented matrix [XᵀX | Xᵀy].
  const m = Array.from({ length: k }, (_, i) => [...Array.from({ length: k }, (_, j) => dot(i, j)), rows.reduce((sum, r, n) => sum + (r[i] ?? 0) * (y[n] ?? 0), 0)]);
  const get = (i: number, j: number) => m[i]?.[j] ?? 0;
  for (let c = 0; c < k; c++) {
    let pivot = c;
    for (let r = c + 1; r < k; r++) if (Math.abs(get(r, c)) > Math.abs(get(pivot, c))) pivot = r;
    [m[c], m[pivot]] = [m[pivot] ?? [], m[c] ?? []];
    const p = get(c, c);
    if (Math.abs(p) < 1e-9 * Math.max(1, ...m.map((row) => Math.abs(row[c] ?? 0)))) return undefined;
    for (let r = 0; r < k; r++) {
      if (r === c) continue;
      const f = get(r, c) / p;
      m[r] = (m[r] ?? []).map((v, j) => v - f * get(c, j));
    }
  }
  return m.map((row, i) => (row[k] ?? NaN) / (row[i] ?? NaN));
}

export interface FunctionRun {
  /** Name of the data: a synthetic shape or the real data. */
  readonly name: string;
  readonly points: number;
  readonly out: string;
  /** The same data built by the compared revision, when there is one. */
  readonly compareOut?: string;
}

export async function functionCpu(runs: readonly FunctionRun[], after: Handler, before: Handler | undefined, repetitions: number): Promise<string> {
  const rows: string[][] = [];
  const coldRows: string[][] = [];
  const legend: string[] = [];
  const derived: { name: string; values: number; read: number; points: number; cpu: number }[] = [];
  const { decodeAnswers } = await import("../../src/core/file/answers.js");
  const { decodeAnswerIndex } = await import("../../src/core/file/answer-index.js");
  const { answerShardPath } = await import("../../src/core/file/paths.js");
  for (const run of runs) {
    const real = run.name === "real data";
    const catalog = JSON.parse(readFileSync(join(run.out, "api/v1/index.json"), "utf8")) as Catalog;
    const manifestText = readFileSync(join(run.out, "_data/manifest.json"), "utf8");
    for (const indicator of real ? catalog.indicators : catalog.indicators.slice(0, 1)) {
      // The index, and the largest of the shards it lists (src/core/file/answer-index.ts).
      const file = new Uint8Array(readFileSync(join(run.out, `_data/${indicator.id}.api.bin`)));
      const index = decodeAnswerIndex(file);
      const largest = index.shards.reduce((best, shard, k) => (shard.bytes > (index.shards[best]?.bytes ?? 0) ? k : best), 0);
      const shard = new Uint8Array(readFileSync(join(run.out, answerShardPath(indicator.id, largest))));
      coldRows.push([
        real ? indicator.id : run.name,
        fmt(run.points),
        fmt(file.length / 1e6, 2),
        fmt(await median(15, () => decodeAnswerIndex(file)), 0),
        `${index.shards.length}`,
        fmt(shard.length / 1e6, 2),
        fmt(await median(15, () => decodeAnswers(shard)), 0),
        fmt(manifestText.length / 1e3),
        fmt(await median(15, () => JSON.parse(manifestText)), 0),
      ]);
    }
    const list: Query[] = queries(catalog, real).map(([name, path, computed]) => ({ name, path, computed }));
    if (real) {
      // The questions about time, and the widest admitted ones the handler under test admits.
      const api = after.create();
      const env = handlerEnv(run.out);
      const status = async (path: string) => (await api.fetch(new Request(`http://bench.test${path}`), env)).status;
      for (const q of await timeQuestions(catalog, status)) list.push({ name: `time: ${q.name}`, path: q.path, computed: true, expect: q.expect });
    }
    for (const { name, path, computed, expect } of list) {
      const now = await timeQuery(after, run.out, path, repetitions);
      if (expect === undefined && now.status !== 200) throw new Error(`${path}: ${now.status}`);
      const then = before === undefined || run.compareOut === undefined ? undefined : await timeQuery(before, run.compareOut, path, repetitions);
      const csv = path.includes("format=csv");
      const ok = now.status === 200;
      const parsed = ok && !csv ? (JSON.parse(new TextDecoder().decode(now.body)) as unknown) : undefined;
      // The yardstick of every JSON answer: JSON.stringify of the same body (the plain widest answer's too).
      const stringify = parsed === undefined ? undefined : await sample(repetitions, () => JSON.stringify(parsed));
      const copy = computed && ok ? await median(repetitions, () => now.body.slice()) : NaN;
      const work = expect === undefined ? undefined : await valuesComputed(run.out, path);
      const values = work?.values;
      const points = ok ? pointsWritten(now.body, csv) : 0;
      // A refusal's reason: over the values a request may compute (refused before computing) or the points an answer may hold (after).
      const detail = ok ? "" : ((JSON.parse(new TextDecoder().decode(now.body)) as { error?: { detail?: string } }).error?.detail ?? "");
      // The fit takes the answers and the refusals after the whole computation (their points: none written).
      if (work !== undefined && (ok || detail.startsWith("limit:"))) derived.push({ name, ...work, points, cpu: now.times.cpu });
      const cell = (n: number) => (Number.isNaN(n) ? "—" : fmt(n, n < 10 ? 1 : 0));
      // The status as it is: which questions the budget refuses follows the constants (src/core/answer/contract.ts).
      const statusCell = String(now.status);
      rows.push([
        run.name,
        fmt(run.points),
        name,
        ...(before === undefined ? [] : [then === undefined || then.status !== 200 ? "—" : cell(then.warm)]),
        statusCell,
        fmt(now.body.length / 1e3, now.body.length < 10_000 ? 1 : 0),
        cell(now.cold),
        cell(now.times.wall),
        cell(now.times.wallHigh),
        cell(now.times.cpu),
        cell(now.times.cpuHigh),
        ...(before === undefined ? [] : [then === undefined || then.status !== 200 ? "—" : `${fmt(then.warm / now.warm, 1)}×`]),
        stringify === undefined ? "—" : cell(stringify.cpu),
        cell(copy),
        stringify === undefined ? "—" : fmt(now.times.cpu / stringify.cpu, 2),
        values === undefined ? "—" : fmt(values),
        ok ? fmt(points) : "—",
        values === undefined || values === 0 || !derived.some((d) => d.name === name) ? "—" : fmt(now.times.cpu / values, 2),
      ]);
      if (real) legend.push(`  ${name}: ${path}${ok ? "" : `\n      → ${now.status}: ${detail.length > 140 ? `${detail.slice(0, 140)}…` : detail}`}`);
    }
  }
  const cold = table(
    "2b. Cold start of the isolate's own work: decoding the answer index, the largest shard, and parsing the manifest (median of 15, µs)",
    ["data", "points", "index MB", "decode µs", "shards", "largest shard MB", "decode µs", "manifest KB", "parse µs"],
    coldRows,
  );
  const compared = before === undefined ? [] : [`${before.label} warm p50 µs`];
  const cpu = derived.map((d) => d.cpu);
  const model = leastSquares(derived.map((d) => [d.values, d.points]), cpu);
  // The budget counts a point read and a period made alike: the same fit with them apart.
  const split = leastSquares(derived.map((d) => [d.read, d.values - d.read, d.points]), cpu);
  const us = (n: number | undefined, digits: number) => fmt(n ?? NaN, digits);
  const heaviest = derived.reduce<(typeof derived)[number] | undefined>((m, d) => (m === undefined || d.cpu > m.cpu ? d : m), undefined);
  const summary = [
    "The real data's queries (a question about time's values computed: what MAX_DERIVED_VALUES caps, src/core/time/derived-answer.ts derivedWork):",
    ...legend,
    model === undefined
      ? "Too few questions about time computed in full, or too alike, for a fit of their CPU time."
      : `Least squares over the ${derived.length} questions about time computed in full (admitted, or refused for their points after), CPU p50 ≈ ` +
        `${us(model[0], 0)} µs + ${us(model[1], 3)} µs × values computed + ${us(model[2], 3)} µs × points written` +
        (split === undefined ? "" : `; apart: ${us(split[0], 0)} µs + ${us(split[1], 3)} µs × points read + ${us(split[2], 3)} µs × periods made + ${us(split[3], 3)} µs × points written`) +
        (heaviest === undefined ? "." : `; the heaviest: ${fmt(heaviest.cpu / 1000, 1)} ms CPU (${heaviest.name}).`),
    "",
  ];
  return `${cold}\n${table(
    `2. Function time per request in Node (Api.fetch over in-memory output files; µs; warm: up to ${repetitions} requests after 20, ` +
      "wall and CPU time (process.cpuUsage, user + system) at the median and the 90th percentile); " +
      "the floor in the same run: the CPU time of JSON.stringify of the same body and a copy of its bytes",
    [
      "data",
      "points",
      "query",
      ...compared,
      "status",
      "body KB",
      "cold µs",
      `${after.label} wall p50`,
      "wall p90",
      "CPU p50",
      "CPU p90",
      ...(before === undefined ? [] : ["faster"]),
      "stringify CPU µs",
      "byte copy µs",
      "CPU ÷ stringify",
      "values computed",
      "points written",
      "CPU µs per value",
    ],
    rows,
  )}${summary.join("\n")}`;
}

/** The synthetic runs of table 1 as function runs. */
export function syntheticRuns(runs: readonly BuildRun[], compared: ReadonlyMap<BuildRun, string> = new Map()): FunctionRun[] {
  return runs
    .filter((r) => r.ok)
    .map((r) => {
      const compareOut = compared.get(r);
      return { name: r.shape, points: r.points, out: r.out, ...(compareOut === undefined ? {} : { compareOut }) };
    });
}
