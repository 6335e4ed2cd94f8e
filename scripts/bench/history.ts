/**
 * Table 5 of `npm run bench` (`--only=history`): what `as_of` and `/changes` cost the
 * function, in process (the handler workerd runs, `Api.fetch`, over the real data built
 * with its git history). Cold: a new isolate's first question for a past version (the
 * manifest, the answer file and the history table fetched and decoded, the version's
 * points viewed), and the table's decoding and a version's view alone. Warm: the median
 * of `runs` answers, body read, of each question once the isolate holds what it reads.
 * Single-threaded, so the time is the CPU the function spends (docs/performance.md).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { Api } from "../../src/api/handler.js";
import { decodeHistory, versionAnswers } from "../../src/core/history.js";
import type { Manifest } from "../../src/core/manifest.js";
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
  const tablePath = entry.history.path;
  const first = days[0] as string;
  lines.push(`versions of ${h}: ${days.length} (${days.join(", ")}); history table ${(readFileSync(join(dist, tablePath)).length / 2 ** 20).toFixed(1)} MiB, answer file ${(readFileSync(join(dist, entry.answers)).length / 2 ** 20).toFixed(1)} MiB`);

  const bytes = readFileSync(join(dist, tablePath));
  const decodes: number[] = [];
  const views: number[] = [];
  for (let i = 0; i < Math.min(runs, 20); i++) {
    const t0 = performance.now();
    const history = decodeHistory(new Uint8Array(bytes).buffer);
    const t1 = performance.now();
    versionAnswers(history, 0);
    decodes.push(t1 - t0);
    views.push(performance.now() - t1);
  }
  lines.push(`cold, the table alone: decode ${median(decodes).toFixed(2)} ms, the oldest version's view ${median(views).toFixed(2)} ms (median of ${decodes.length})`);

  const assets = folderAssets(dist);
  const colds: number[] = [];
  for (let i = 0; i < Math.min(runs, 10); i++) colds.push((await timed(new Api(), assets, `/api/v1/${h}?as_of=${first}&limit=1`)).ms);
  lines.push(`cold, a new isolate's first as_of=${first} of ${h} (manifest, answer file, table): ${median(colds).toFixed(1)} ms (median of ${colds.length})`, "");

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
