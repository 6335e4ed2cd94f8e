/**
 * A cold answer, measured in a fresh Node process per sample: the function's
 * code has never run there (V8 compiles and runs it from scratch, as in a new
 * isolate), while Node's own machinery (Request, Response, URL, a body read) is
 * used once first on a 404 and a file, since a Workers isolate has its runtime's
 * natively. Only the files the question reads are in memory (read from the disk
 * before the clock starts): the process holds what an isolate would, so its
 * garbage collection is not that of a harness holding a whole output folder.
 *
 *   node --expose-gc --import tsx scripts/bench/cold.ts record <dist> <path>    the files the question reads, one a line
 *   node --expose-gc --import tsx scripts/bench/cold.ts measure <dist> <path> <file,file,…> [code-warm]
 *
 * `coldAnswer` runs both as children and gives the medians.
 */
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { folderAssets, memoryAssets } from "../lib/folder-assets.js";
import type { Assets } from "../../src/api/data-store.js";
import { threadNs } from "../lib/proc.js";
import { percentile } from "./table.js";

const ROOT = resolve(import.meta.dirname, "../..");
const HIGH = { RATE_LIMIT_REQUESTS: "999999999" };

/** One cold sample: CPU (user + system) and wall time of the request, the memory it holds after (collected), and the answer. */
export interface ColdSample {
  readonly cpuMs: number;
  /** CPU of the JavaScript thread alone (Linux: /proc's schedstat), without V8's compiler and collector threads; NaN elsewhere. */
  readonly threadMs: number;
  readonly wallMs: number;
  readonly memoryMb: number;
  readonly status: number;
  readonly bytes: number;
  /** The bytes of the files it read (the manifest aside), and how many. */
  readonly readBytes: number;
  readonly files: number;
}

function child(args: readonly string[]): string {
  const run = spawnSync(process.execPath, ["--expose-gc", "--import", "tsx", join(ROOT, "scripts/bench/cold.ts"), ...args], { cwd: ROOT, encoding: "utf8", maxBuffer: 64 * 2 ** 20 });
  if (run.status !== 0) throw new Error(`cold ${args[0]} of ${args[2]} failed:\n${run.stderr}`);
  return run.stdout;
}

/**
 * The medians of `runs` fresh processes' first answers to `path` over the output
 * folder `dist`. `codeWarm`: the same question is answered once before the clock by
 * another instance of the function (its own store), so that the code has run and
 * the data has not been read: what a later request of an isolate pays for a shard
 * it has not read yet.
 */
export function coldAnswer(dist: string, path: string, runs = 3, codeWarm = false): ColdSample {
  const files = child(["record", dist, path]).trim().split("\n").filter(Boolean).join(",");
  const samples = Array.from({ length: runs }, () => JSON.parse(child(["measure", dist, path, files, ...(codeWarm ? ["code-warm"] : [])])) as ColdSample);
  const median = (f: (s: ColdSample) => number) => percentile(samples.map(f), 50);
  const first = samples[0] as ColdSample;
  return { ...first, cpuMs: median((s) => s.cpuMs), threadMs: median((s) => s.threadMs), wallMs: median((s) => s.wallMs), memoryMb: median((s) => s.memoryMb) };
}

const pause = new Int32Array(new SharedArrayBuffer(4));

/**
 * Nanoseconds the main thread has run on a CPU (Linux's /proc/self/task/<pid>/schedstat,
 * first field); NaN where there is none. The kernel brings a running thread's figure
 * up to date when it leaves the CPU, so the thread first sleeps for 50 µs (a futex wait).
 */
function threadCpuNs(): number {
  Atomics.wait(pause, 0, 0, 0.05);
  try {
    return threadNs(process.pid, process.pid);
  } catch {
    return NaN;
  }
}

const held = () => {
  const m = process.memoryUsage();
  return m.heapUsed + m.arrayBuffers;
};

async function main(): Promise<void> {
  const [mode, dist, path, list, warm] = process.argv.slice(2) as [string, string, string, string | undefined, string | undefined];
  const { Api } = await import("../../src/api/handler.js");
  if (mode === "record") {
    const read = new Set<string>();
    const disk = folderAssets(dist);
    const assets: Assets = { fetch: (url) => (read.add(new URL(url).pathname), disk.fetch(url)) };
    await (await new Api().fetch(new Request(`http://bench.test${path}`), { ASSETS: assets, ...HIGH })).arrayBuffer();
    process.stdout.write([...read].join("\n"));
    return;
  }
  const paths = (list ?? "").split(",").filter(Boolean);
  const files = new Map(paths.map((p) => [p, new Uint8Array(readFileSync(join(dist, p)))]));
  const manifest = "/_data/manifest.json";
  if (!files.has(manifest)) files.set(manifest, new Uint8Array(readFileSync(join(dist, manifest))));
  const env = { ASSETS: memoryAssets(files), ...HIGH };
  // Node's own first uses, on what no answer reads: a 404 of the function (its routing runs, no data code), a body
  // read and a WebCrypto digest (Node loads its WebCrypto on first use; an isolate's is native).
  await (await new Api().fetch(new Request("http://bench.test/api/v1/bench-no-such-indicator"), env)).arrayBuffer();
  await new Response(new Uint8Array(1024)).arrayBuffer();
  await crypto.subtle.digest("SHA-256", new Uint8Array(1024));
  // The code run once on the same question, by an instance whose store is then dropped.
  if (warm === "code-warm") await (await new Api().fetch(new Request(`http://bench.test${path}`), env)).arrayBuffer();
  const gc = (globalThis as { gc?: () => void }).gc;
  gc?.();
  const before = held();
  const cpu = process.cpuUsage();
  const thread = threadCpuNs();
  const started = performance.now();
  const api = new Api();
  const response = await api.fetch(new Request(`http://bench.test${path}`), env);
  // The function's work ends with its Response (a body of bytes, or a file's stream): the runtime sends it.
  const wallMs = performance.now() - started;
  const threadMs = (threadCpuNs() - thread) / 1e6;
  const used = process.cpuUsage(cpu);
  const bytes = (await response.arrayBuffer()).byteLength;
  gc?.();
  // Held until here, so that what the isolate keeps (indexes, shards, views) is counted.
  (globalThis as { kept?: unknown }).kept = api;
  const readBytes = paths.filter((p) => p !== manifest).reduce((sum, p) => sum + (files.get(p)?.length ?? 0), 0);
  const sample: ColdSample = {
    cpuMs: (used.user + used.system) / 1000,
    threadMs,
    wallMs,
    memoryMb: (held() - before) / 2 ** 20,
    status: response.status,
    bytes,
    readBytes,
    files: paths.filter((p) => p !== manifest).length,
  };
  process.stdout.write(JSON.stringify(sample));
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === resolve(import.meta.filename)) await main();
