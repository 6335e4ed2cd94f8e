/**
 * Table 3: HTTP through the real runtime. The real data built and served by
 * `wrangler pages dev` (workerd), loaded with autocannon on loopback; every route
 * is compared with the same JSON file fetched as a plain static asset in the same run.
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import autocannon from "autocannon";
import { runCli } from "../../test/helpers.js";
import { startPagesDev } from "../../test/e2e/pages-dev.js";
import { fmt, table } from "./table.js";

function load(url: string, seconds: number, headers: Record<string, string> = {}): Promise<autocannon.Result> {
  return autocannon({ url, connections: 10, duration: seconds, headers });
}

export async function httpThroughRuntime(seconds: number): Promise<string> {
  const out = join(mkdtempSync(join(tmpdir(), "bench-http-")), "dist");
  const built = await runCli(["build", "--out", out], { SOURCE_DATE_EPOCH: "1700000000" });
  if (built.code !== 0) throw new Error(built.stderr);
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
    ];
    // Warm every route once (isolate start, data load) before measuring.
    for (const [, path, headers] of routes) await fetch(server.url + path, { headers }).then((r) => r.arrayBuffer());
    const results: [string, autocannon.Result][] = [];
    for (const [name, path, headers] of routes) results.push([name, await load(server.url + path, seconds, headers)]);
    // Each route is compared with the static file of its size class measured in this run.
    const rows = results.map(([name, r], i) => [
      name,
      fmt(r.requests.average),
      fmt(r.latency.p50, 1),
      fmt(r.latency.p99, 1),
      fmt(r.requests.average / ((i < 5 ? results[0] : results[5])?.[1].requests.average ?? NaN), 2),
      String(r.non2xx),
      String(r.errors),
    ]);
    return table(
      `3. HTTP through wrangler pages dev (workerd), autocannon, 10 connections, ${seconds} s per route, loopback`,
      ["route", "req/s", "p50 ms", "p99 ms", "× static file", "non-2xx", "errors"],
      rows,
    );
  } finally {
    await server.stop();
  }
}
