/**
 * Table 5 of `npm run bench` (`--only=history`): what `as_of` and `/changes` cost the
 * function, in process (the handler workerd runs, `Api.fetch`, over the real data built
 * with its git history). Cold: a new isolate's first question for a past version (the
 * manifest, the history table's index and the shards of the sub-series asked fetched and
 * decoded, the version's points viewed), and every shard's decoding and a version's view alone. Warm: the median
 * of `runs` answers, body read, of each question once the isolate holds what it reads.
 * Single-threaded, so the time is the CPU the function spends (docs/performance.md).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { Api } from "../../src/api/handler.js";
import { decodeHistory, decodeHistoryIndex, versionView } from "../../src/core/history/history.js";
import { historyShardPath } from "../../src/core/file/paths.js";
import type { Manifest } from "../../src/core/file/manifest.js";
import { folderAssets } from "../lib/folder-assets.js";

const HIGH = { RATE_LIMIT_REQUESTS: "999999999" };

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;

async function timed(api: Api, assets: ReturnType<typeof folderAssets>, path: string): Promise<{ ms: number; status: number; bytes: number }> {
  const started = performance.now();
  const response = await api.fetch(new Request(`http://bench.test${path}`), { ASSETS: assets, ...HIGH });
  const bytes = (await response.arrayBuffer()).byteLength;
  return { ms: performance.now() - started, status: response.status, bytes };
}

/** The table of the history's costs over the output folder `dist` (the real data, built with history). */
export async function historyCosts(dist: string, runs: number): Promise<string> {
  const manifest = JSON.parse(readFileSync(join(dist, "_data/manifest.json"), "utf8")) as Manifest;
  const lines = ["5. as_of and changes (in process, real data with its git history)", ""];
  const h = "health-insurance-prices";
  const entry = manifest.indicators[h];
  if (entry === undefined) return `${lines.join("\n")}no ${h} in the build\n`;
  const days = entry.history.days;
  if (entry.history.path === null) return `${lines.join("\n")}${h} has one version in this build: no history table\n`;
  const indexPath = entry.history.path;
  const indexBytes = readFileSync(join(dist, indexPath));
  const shardBytes = decodeHistoryIndex(new Uint8Array(indexBytes)).shards.map((_, k) => readFileSync(join(dist, historyShardPath(h, k))));
  const first = days[0] as string;
  const mib = (n: number) => `${(n / 2 ** 20).toFixed(1)} MiB`;
  const tableBytes = shardBytes.reduce((sum, b) => sum + b.length, 0);
  const largest = Math.max(...shardBytes.map((b) => b.length));
  lines.push(
    `versions of ${h}: ${days.length} (${days.join(", ")}); history table ${mib(tableBytes)} in ${shardBytes.length} shards (largest ${mib(largest)}) and an index of ${(indexBytes.length / 1024).toFixed(0)} KB; answer index ${(readFileSync(join(dist, entry.answers)).length / 1024).toFixed(0)} KB`,
  );

  const decodes: number[] = [];
  const views: number[] = [];
  for (let i = 0; i < Math.min(runs, 20); i++) {
    const t0 = performance.now();
    const index = decodeHistoryIndex(new Uint8Array(indexBytes));
    const tables = new Map(shardBytes.map((b, k) => [k, decodeHistory(new Uint8Array(b))]));
    const t1 = performance.now();
    versionView(index, 0, tables);
    decodes.push(t1 - t0);
    views.push(performance.now() - t1);
  }
  lines.push(`cold, every shard of the table: decode ${median(decodes).toFixed(2)} ms, the oldest version's view ${median(views).toFixed(2)} ms (median of ${decodes.length})`);

  const assets = folderAssets(dist);
  for (const question of [`as_of=${first}&limit=1`, `as_of=${first}&series=casmu.*`]) {
    const colds: number[] = [];
    for (let i = 0; i < Math.min(runs, 10); i++) colds.push((await timed(new Api(), assets, `/api/v1/${h}?${question}`)).ms);
    lines.push(`cold, a new isolate's first ${question} of ${h} (manifest, the table's index, the shards it reads): ${median(colds).toFixed(1)} ms (median of ${colds.length})`);
  }
  lines.push("");

  const c = "consumer-price-index";
  const cFirst = manifest.indicators[c]?.history.days[0] ?? first;
  const questions = [
    `/api/v1/${h}?limit=1`,
    `/api/v1/${h}?as_of=${first}&limit=1`,
    `/api/v1/${h}?as_of=${first}`,
    `/api/v1/${h}?as_of=${first}&series=casmu.*&at=2025-03-01`,
    `/api/v1/${h}?as_of=${first}&series=casmu.*&real=2025-01&limit=5`,
    `/api/v1/${c}?as_of=${cFirst}&units=percent_change_a_year_ago&limit=5000`,
    `/api/v1/${h}/changes?since=${first}`,
    `/api/v1/${h}/changes?since=${first}&format=csv&limit=5000`,
    `/api/v1/${c}/changes?since=${cFirst}`,
  ];
  const api = new Api();
  lines.push("warm (ms, median)  status  bytes  question");
  for (const path of questions) {
    await timed(api, assets, path);
    const times: number[] = [];
    let last = { ms: 0, status: 0, bytes: 0 };
    for (let i = 0; i < runs; i++) times.push((last = await timed(api, assets, path)).ms);
    lines.push(`${median(times).toFixed(3).padStart(17)}  ${String(last.status).padStart(6)}  ${String(last.bytes).padStart(7)}  ${path}`);
  }
  return `${lines.join("\n")}\n`;
}
