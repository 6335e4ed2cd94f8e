/**
 * Table 2: time per request of the runtime-agnostic handler (src/api/handler.ts: the code
 * workerd runs) in Node, over the built synthetic outputs. `env.ASSETS` is played
 * by an in-memory map of the output files, so the times are our code's CPU: no
 * disk or network. Cold = the first request of a fresh isolate (fetch the manifest
 * and the dataset, index them, answer); warm = later requests.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import fg from "fast-glob";
import type { Assets } from "../../src/api/data-store.js";
import { Api } from "../../src/api/handler.js";
import { decodeDataset } from "../../src/core/columnar.js";
import { MANIFEST_PATH, type Manifest } from "../../src/core/manifest.js";
import { CATALOG_PATH, datasetPath, endpointPath, outputFile } from "../../src/core/paths.js";
import type { BuildRun } from "./build-scaling.js";
import { fmt, percentile, table } from "./table.js";

function memoryAssets(dir: string): Assets {
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

/** The queries of the table, for an indicator whose points span `first`…`last` with `longest` per sub-series. */
function queries(id: string, first: string, last: string, longest: number): [string, string][] {
  const t0 = Date.parse(first);
  const t1 = Date.parse(last);
  const at = (f: number) => new Date(t0 + (t1 - t0) * f).toISOString().slice(0, 10);
  const deep = Math.max(0, longest - 13);
  return [
    ["prebuilt (default page)", endpointPath(id)],
    ["computed window, limit 100", `${endpointPath(id)}?from=${at(1 / 3)}&to=${at(2 / 3)}&limit=100`],
    ["deep offset, limit 10", `${endpointPath(id)}?from=${first}&limit=10&offset=${deep}`],
    ["narrow from/to", `${endpointPath(id)}?from=${at(0.5)}&to=${at(0.52)}`],
  ];
}

async function time(f: () => Promise<unknown>): Promise<number> {
  const t = performance.now();
  await f();
  return (performance.now() - t) * 1000;
}

/** Median time of `f` over `n` calls, in µs. */
function median(n: number, f: () => unknown): number {
  const times: number[] = [];
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    f();
    times.push((performance.now() - t) * 1000);
  }
  return percentile(times, 50);
}

export async function functionCpu(runs: readonly BuildRun[], repetitions: number): Promise<string> {
  const rows: string[][] = [];
  const coldRows: string[][] = [];
  for (const run of runs.filter((r) => r.ok)) {
    const assets = memoryAssets(run.out);
    const manifestText = readFileSync(join(run.out, outputFile(MANIFEST_PATH)), "utf8");
    const manifest = JSON.parse(manifestText) as Manifest;
    const id = Object.keys(manifest.indicators)[0] as string;
    const catalog = JSON.parse(readFileSync(join(run.out, outputFile(CATALOG_PATH)), "utf8")) as {
      indicators: { series: { first: string; last: string; points: number }[] }[];
    };
    const series = catalog.indicators[0]?.series ?? [];
    const first = series.reduce((m, s) => (s.first < m ? s.first : m), "9999");
    const last = series.reduce((m, s) => (s.last > m ? s.last : m), "0000");
    const longest = series.reduce((m, s) => Math.max(m, s.points), 0);
    // The isolate's own cold-start work, without the transport of the bytes.
    const bin = new Uint8Array(readFileSync(join(run.out, outputFile(datasetPath(id)))));
    coldRows.push([
      run.shape,
      fmt(run.points),
      fmt(bin.length / 1e6, 1),
      fmt(median(9, () => decodeDataset(bin)), 0),
      fmt(manifestText.length / 1e3),
      fmt(median(9, () => JSON.parse(manifestText)), 0),
    ]);
    for (const [name, path] of queries(id, first, last, longest)) {
      const request = () => new Request(`http://bench.test${path}`);
      let bodyBytes = 0;
      // The entry workerd calls; a fresh `Api` is a fresh isolate.
      const env = { ASSETS: assets, RATE_LIMIT_REQUESTS: "1000000000" };
      const answer = async (api: Api) => {
        const response = await api.fetch(request(), env);
        bodyBytes = (await response.arrayBuffer()).byteLength;
        if (response.status !== 200) throw new Error(`${path}: ${response.status}`);
      };
      const cold = await time(() => answer(new Api()));
      const api = new Api();
      await answer(api);
      // Up to `repetitions` requests, but at most ~3 s per query (at least 5): a
      // query answering a million points takes long enough to need fewer.
      const warm: number[] = [];
      const until = performance.now() + 3_000;
      for (let i = 0; i < repetitions && (i < 5 || performance.now() < until); i++) warm.push(await time(() => answer(api)));
      rows.push([run.shape, fmt(run.points), name, fmt(cold), fmt(percentile(warm, 50)), fmt(percentile(warm, 99)), String(warm.length), fmt(bodyBytes / 1e3)]);
    }
  }
  const cold = table(
    "2b. Cold start of the isolate's own work: decoding the dataset file and parsing the manifest (median of 9, µs)",
    ["shape", "points", "dataset MB", "decode µs", "manifest KB", "parse µs"],
    coldRows,
  );
  return `${cold}\n` + table(
    `2. Function time per request in Node (src/api/handler.ts over in-memory output files; µs; warm over n requests, up to ${repetitions})`,
    ["shape", "points", "query", "cold µs", "warm p50 µs", "warm p99 µs", "n", "body KB"],
    rows,
  );
}
