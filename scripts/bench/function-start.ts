/**
 * Table "the function's start": what a fresh isolate pays before and for its first
 * answer, and what MCP costs beyond the API call it makes, for this checkout and,
 * with `--compare=<rev>`, that revision, side by side in one run.
 *
 * - bundle: the Pages Functions' entry (src/api/instance.ts, what both functions
 *   import) bundled and minified by esbuild as `wrangler pages deploy` does;
 * - module load: evaluating that bundle in a fresh Node process (V8, the engine of
 *   workerd), median of several processes;
 * - first answer: the same fresh process's first request to a fresh `Api` over the
 *   real build (manifest, answer file, index, answer), after the load;
 * - MCP: warm CPU of `tools/list`, and of a typical `tools/call` (get_values, one
 *   sub-series, `at`) minus the CPU of the API call it makes, medians.
 * Nothing here asserts a speed.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { build } from "esbuild";
import { fmt, percentile, table } from "./table.js";

/** The Pages Functions' shared entry of the checkout at `root`, bundled and minified; its path and size. */
async function bundle(root: string): Promise<{ file: string; bytes: number }> {
  const file = join(mkdtempSync(join(tmpdir(), "bench-start-")), "instance.mjs");
  const result = await build({
    entryPoints: [join(root, "src/api/instance.ts")],
    bundle: true,
    format: "esm",
    platform: "browser",
    conditions: ["workerd", "worker", "browser"],
    minify: true,
    outfile: file,
    metafile: true,
    logLevel: "error",
    absWorkingDir: root,
  });
  const bytes = Object.values(result.metafile.outputs).reduce((sum, o) => sum + o.bytes, 0);
  return { file, bytes };
}

/** A script run in a fresh process: load the bundle, answer once over `dist`, then time MCP warm. */
const PROBE = String.raw`
import { readFileSync } from "node:fs";
import { join } from "node:path";
const [file, dist] = process.argv.slice(2);
const assets = { fetch: async (url) => { try { return new Response(readFileSync(join(dist, new URL(url).pathname))); } catch { return new Response(null, { status: 404 }); } } };
const env = { ASSETS: assets, RATE_LIMIT_REQUESTS: "999999999" };
let t = performance.now();
const { api } = await import(file);
const load = performance.now() - t;
t = performance.now();
const first = await api.fetch(new Request("http://bench.test/api/v1/domestic-worker-wages?series=monthly&at=2025-03-15"), env);
await first.arrayBuffer();
const answer = performance.now() - t;
const mcp = (body) => api.fetch(new Request("http://bench.test/mcp", { method: "POST", headers: { "content-type": "application/json", accept: "application/json, text/event-stream" }, body: JSON.stringify(body) }), env).then((r) => r.text());
const cpu = async (f, n = 200) => { const out = []; for (let i = 0; i < 30; i++) await f(); for (let i = 0; i < n; i++) { const c = process.cpuUsage(); await f(); const u = process.cpuUsage(c); out.push(u.user + u.system); } return out.sort((a, b) => a - b)[Math.floor(n / 2)]; };
const list = await cpu(() => mcp({ jsonrpc: "2.0", id: 1, method: "tools/list" }));
const call = await cpu(() => mcp({ jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "get_values", arguments: { indicator: "domestic-worker-wages", series: ["monthly"], at: "2025-03-15" } } }));
const direct = await cpu(() => api.fetch(new Request("http://bench.test/api/v1/domestic-worker-wages?series=monthly&at=2025-03-15&limit=24"), env).then((r) => r.text()));
console.log(JSON.stringify({ load, answer, list, call, direct }));
`;

interface Probe {
  load: number;
  answer: number;
  list: number;
  call: number;
  direct: number;
}

/** Runs the probe in `runs` fresh processes. */
function probe(file: string, dist: string, runs: number): Probe[] {
  const script = join(mkdtempSync(join(tmpdir(), "bench-probe-")), "probe.mjs");
  writeFileSync(script, PROBE);
  return Array.from({ length: runs }, () => JSON.parse(execFileSync(process.execPath, [script, file, dist], { encoding: "utf8" })) as Probe);
}

/** The table for this checkout (`after`) and optionally a compared one, each with its own build of the real data. */
export async function functionStart(after: { label: string; root: string; dist: string }, before: { label: string; root: string; dist: string } | undefined, runs: number): Promise<string> {
  const rows: string[][] = [];
  const measured: { label: string; bytes: number; probes: Probe[] }[] = [];
  for (const side of before === undefined ? [after] : [before, after]) {
    const { file, bytes } = await bundle(side.root);
    measured.push({ label: side.label, bytes, probes: probe(file, side.dist, runs) });
  }
  const median = (probes: Probe[], key: keyof Probe) => percentile(probes.map((p) => p[key]), 50);
  for (const m of measured) {
    rows.push([
      m.label,
      fmt(m.bytes / 1024, 1),
      fmt(median(m.probes, "load"), 2),
      fmt(median(m.probes, "answer"), 2),
      fmt(median(m.probes, "list") / 1000, 3),
      fmt((median(m.probes, "call") - median(m.probes, "direct")) / 1000, 3),
    ]);
  }
  return table(
    `The function's start and MCP (${runs} fresh Node processes each; load and first answer wall ms, MCP warm CPU ms, medians)`,
    ["code", "bundle KB (minified)", "module load ms", "first answer ms", "MCP tools/list CPU ms", "MCP tools/call CPU ms beyond the API call"],
    rows,
  );
}
