/**
 * Table 3: HTTP through the real runtime. The real data built and served by
 * `wrangler pages dev` (workerd), loaded with autocannon on loopback; every route
 * is compared with the same JSON file fetched as a plain static asset in the same
 * run, and the questions about time (./time-questions.ts) are loaded beside them,
 * refusals included. Besides latency, each route's CPU time in workerd per
 * request: the workerd processes' user + system time (/proc, Linux) over the
 * route's run divided by its requests (HTTP and the runtime's own work included).
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import autocannon from "autocannon";
import { runBuild } from "./build-scaling.js";
import { startPagesDev } from "../lib/pages-dev.js";
import { fmt, table } from "./table.js";
import { timeQuestions, type Catalog } from "./time-questions.js";

function load(url: string, seconds: number, headers: Record<string, string> = {}): Promise<autocannon.Result> {
  return autocannon({ url, connections: 10, duration: seconds, headers });
}

/** Clock ticks per second of /proc's times. */
function clockTicks(): number {
  try {
    return Number(execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).trim()) || 100;
  } catch {
    return 100;
  }
}

/** The CPU seconds so far of the workerd processes descended from this one, or `undefined` where /proc cannot say. */
function workerdCpu(ticks: number): number | undefined {
  try {
    const procs = new Map<number, { parent: number; name: string; cpu: number }>();
    for (const entry of readdirSync("/proc")) {
      if (!/^\d+$/.test(entry)) continue;
      let stat: string;
      try {
        stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      } catch {
        continue; // ended meanwhile
      }
      const close = stat.lastIndexOf(")");
      const fields = stat.slice(close + 2).split(" ");
      procs.set(Number(entry), { parent: Number(fields[1]), name: stat.slice(stat.indexOf("(") + 1, close), cpu: (Number(fields[11]) + Number(fields[12])) / ticks });
    }
    const mine = (pid: number): boolean => {
      for (let p = procs.get(pid)?.parent, depth = 0; p !== undefined && p > 1 && depth < 20; p = procs.get(p)?.parent, depth++) if (p === process.pid) return true;
      return false;
    };
    const workerd = [...procs].filter(([pid, p]) => p.name.startsWith("workerd") && mine(pid));
    return workerd.length === 0 ? undefined : workerd.reduce((sum, [, p]) => sum + p.cpu, 0);
  } catch {
    return undefined;
  }
}

export async function httpThroughRuntime(seconds: number, epoch = "1700000000"): Promise<string> {
  const out = join(mkdtempSync(join(tmpdir(), "bench-http-")), "dist");
  const built = runBuild("data", out, [], undefined, epoch);
  if (!built.ok) throw new Error(built.stderr);
  const server = await startPagesDev(out, { RATE_LIMIT_REQUESTS: "999999999" });
  try {
    const small = "/api/v1/domestic-worker-wages?limit=10&offset=10";
    const large = "/api/v1/health-insurance-prices?limit=10&offset=10";
    const etag = (await fetch(server.url + small)).headers.get("ETag") ?? "";
    const routes: [string, string, Record<string, string>][] = [
      ["static file, 2 KB (no function)", "/api/v1/domestic-worker-wages/limit-10/offset-10.json", {}],
      ["same page via function (prebuilt)", small, {}],
      ["304 via function", small, { "If-None-Match": etag }],
      ["computed window via function", "/api/v1/domestic-worker-wages?from=2010&to=2020&limit=5", {}],
      ["default page via function, 25 KB", "/api/v1/domestic-worker-wages", {}],
      ["static file, 690 KB (no function)", "/api/v1/health-insurance-prices/limit-10/offset-10.json", {}],
      ["same page via function (prebuilt)", large, {}],
      ["computed window, 1,554 sub-series", "/api/v1/health-insurance-prices?from=2020&to=2023&limit=1", {}],
      ["widest plain answer: default page via function", "/api/v1/health-insurance-prices", {}],
    ];
    const catalog = JSON.parse(readFileSync(join(out, "api/v1/index.json"), "utf8")) as Catalog;
    const status = async (path: string) => {
      const response = await fetch(server.url + path);
      await response.arrayBuffer();
      return response.status;
    };
    for (const q of await timeQuestions(catalog, status)) routes.push([`time: ${q.name}`, q.path, {}]);
    // Warm every route once (isolate start, data load) before measuring; note each one's status and size.
    const answers: { status: number; bytes: number }[] = [];
    for (const [, path, headers] of routes) {
      const response = await fetch(server.url + path, { headers });
      answers.push({ status: response.status, bytes: (await response.arrayBuffer()).byteLength });
    }
    const ticks = clockTicks();
    const results: [string, autocannon.Result, number][] = [];
    for (const [name, path, headers] of routes) {
      const before = workerdCpu(ticks);
      const result = await load(server.url + path, seconds, headers);
      const after = workerdCpu(ticks);
      results.push([name, result, before === undefined || after === undefined ? NaN : ((after - before) * 1e3) / Math.max(1, result.requests.total)]);
    }
    // Each route is compared with the static file of its size class measured in this run.
    const rows = results.map(([name, r, cpu], i) => [
      name,
      String(answers[i]?.status ?? "?"),
      fmt((answers[i]?.bytes ?? NaN) / 1e3, (answers[i]?.bytes ?? 0) < 10_000 ? 1 : 0),
      fmt(r.requests.average),
      fmt(r.latency.p50, 1),
      fmt(r.latency.p99, 1),
      Number.isNaN(cpu) ? "—" : fmt(cpu, 2),
      fmt(r.requests.average / ((i < 5 ? results[0] : results[5])?.[1].requests.average ?? NaN), 2),
      String(r.non2xx),
      String(r.errors),
    ]);
    return table(
      `3. HTTP through wrangler pages dev (workerd), autocannon, 10 connections, ${seconds} s per route, loopback; ` +
        "workerd CPU ms per request from /proc (10 ms ticks over the route's run)",
      ["route", "status", "body KB", "req/s", "p50 ms", "p99 ms", "workerd CPU ms/req", "× static file", "non-2xx", "errors"],
      rows,
    );
  } finally {
    await server.stop();
  }
}
