/**
 * Table 2: time per request of the handler workerd runs (`Api.fetch`,
 * src/api/handler.ts) in Node, over built outputs held in memory (`env.ASSETS` is
 * an in-memory map of the files: the times are our code's CPU, no disk or
 * network). Cold = the first request of a fresh `Api` (a fresh isolate: fetch the
 * manifest and the answer file, index them, answer); warm = later requests.
 *
 * Each computed query is measured next to the floor, in the same run: the time
 * of `JSON.stringify` of the same body (parsed once, outside the timing) and of
 * a plain copy of its bytes. With `--compare=<rev>`, the same queries are run by
 * that revision's handler over its own build of the same data, side by side.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import fg from "fast-glob";
import type { BuildRun } from "./build-scaling.js";
import { fmt, percentile, table } from "./table.js";

/** What the bench needs of a revision's `Api` (src/api/handler.ts). */
interface ApiLike {
  fetch(request: Request, env: Record<string, unknown>): Promise<Response>;
}
export interface Handler {
  readonly label: string;
  readonly create: () => ApiLike;
}

/** The `Api` of the checkout at `root`, loaded through tsx. */
export async function loadHandler(root: string, label: string): Promise<Handler> {
  const module = (await import(join(root, "src/api/handler.ts"))) as { Api: new () => ApiLike };
  return { label, create: () => new module.Api() };
}

function memoryAssets(dir: string): { fetch(url: string): Promise<Response> } {
  const files = new Map<string, Uint8Array<ArrayBuffer>>();
  for (const path of fg.sync(["_data/*", "api/v1/*/index.json", "api/v1/*/limit-*/offset-0.json"], { cwd: dir })) {
    files.set(`/${path}`, new Uint8Array(readFileSync(join(dir, path))));
  }
  return {
    fetch(url: string) {
      const body = files.get(new URL(url).pathname);
      return Promise.resolve(body === undefined ? new Response(null, { status: 404 }) : new Response(body));
    },
  };
}

interface Catalog {
  indicators: { id: string; series: { id: string; first: string; last: string; points: number }[] }[];
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

/** Cold and warm times of a query through `handler` over the output `dir`; the body of the warm answer. */
async function timeQuery(handler: Handler, dir: string, path: string, repetitions: number) {
  // The largest usage limit the vars accept (9 digits; a longer value falls back to the default 300).
  const env = { ASSETS: memoryAssets(dir), RATE_LIMIT_REQUESTS: "999999999" };
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
  const warm = await median(repetitions, () => answer(api));
  return { cold, warm, body, status };
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
  const { decodeAnswers } = await import("../../src/core/answers.js");
  for (const run of runs) {
    const catalog = JSON.parse(readFileSync(join(run.out, "api/v1/index.json"), "utf8")) as Catalog;
    const manifestText = readFileSync(join(run.out, "_data/manifest.json"), "utf8");
    for (const indicator of run.name === "real data" ? catalog.indicators : catalog.indicators.slice(0, 1)) {
      const file = new Uint8Array(readFileSync(join(run.out, `_data/${indicator.id}.api.bin`)));
      coldRows.push([
        run.name === "real data" ? indicator.id : run.name,
        fmt(run.points),
        fmt(file.length / 1e6, 1),
        fmt(await median(15, () => decodeAnswers(file)), 0),
        fmt(manifestText.length / 1e3),
        fmt(await median(15, () => JSON.parse(manifestText)), 0),
      ]);
    }
    for (const [name, path, computed] of queries(catalog, run.name === "real data")) {
      const now = await timeQuery(after, run.out, path, repetitions);
      if (now.status !== 200) throw new Error(`${path}: ${now.status}`);
      const then = before === undefined || run.compareOut === undefined ? undefined : await timeQuery(before, run.compareOut, path, repetitions);
      const isJson = !path.includes("format=csv");
      const parsed = isJson ? (JSON.parse(new TextDecoder().decode(now.body)) as unknown) : undefined;
      const stringify = computed && isJson ? await median(repetitions, () => JSON.stringify(parsed)) : NaN;
      const copy = computed ? await median(repetitions, () => now.body.slice()) : NaN;
      const cell = (n: number) => (Number.isNaN(n) ? "—" : fmt(n, n < 10 ? 1 : 0));
      rows.push([
        run.name,
        fmt(run.points),
        name,
        ...(before === undefined ? [] : [then === undefined || then.status !== 200 ? "—" : cell(then.warm)]),
        cell(now.cold),
        cell(now.warm),
        ...(before === undefined ? [] : [then === undefined || then.status !== 200 ? "—" : `${fmt(then.warm / now.warm, 1)}×`]),
        cell(stringify),
        cell(copy),
        Number.isNaN(stringify) ? "—" : fmt(now.warm / stringify, 2),
        fmt(now.body.length / 1e3),
      ]);
    }
  }
  const cold = table(
    "2b. Cold start of the isolate's own work: decoding the answer file and parsing the manifest (median of 15, µs)",
    ["data", "points", "answer file MB", "decode µs", "manifest KB", "parse µs"],
    coldRows,
  );
  const compared = before === undefined ? [] : [`${before.label} warm p50 µs`];
  return `${cold}\n${table(
    `2. Function time per request in Node (Api.fetch over in-memory output files; µs, warm = median of up to ${repetitions}); ` +
      "the floor in the same run: JSON.stringify of the same body and a copy of its bytes",
    [
      "data",
      "points",
      "query",
      ...compared,
      "cold µs",
      `${after.label} warm p50 µs`,
      ...(before === undefined ? [] : ["faster"]),
      "JSON.stringify µs",
      "byte copy µs",
      "ours ÷ stringify",
      "body KB",
    ],
    rows,
  )}`;
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
