/**
 * What a search (`/api/v1/search`) costs the function, in process (`Api.fetch`, the entry
 * workerd calls), over a built output folder: per query, the files and bytes a new isolate
 * reads (the manifest aside), the CPU of its first search (cold: the index read and
 * parsed; the manifest already in) and of the same search again (warm), medians. The
 * files are served from memory, so the time is the function's own, not the disk's.
 *
 *   node --import tsx scripts/bench/search.ts <dist> [query …]   (a query: `q=casmu%20gineco&limit=100`)
 *
 * Without queries it asks a typical one, a one-letter one and one that finds nothing.
 * The answering code is this checkout's; run it in another checkout to compare.
 */
import { parseArgs } from "node:util";
import { Api } from "../../src/api/handler.js";
import { fmt, percentile, table } from "./table.js";
import { filesInMemory, memoryAssets } from "../lib/folder-assets.js";

const RUNS = 15;

/** The search table over the output folder `dist`. */
export async function searchCosts(dist: string, queries: readonly string[]): Promise<string> {
  const files = filesInMemory(dist, ["_data/**/*"]);
  let read: string[] = [];
  const assets = memoryAssets(files, (path) => read.push(path));
  const env = { ASSETS: assets, RATE_LIMIT_REQUESTS: "999999999" };
  const ask = async (api: Api, query: string) => {
    const cpu = process.cpuUsage();
    const response = await api.fetch(new Request(`http://bench.test/api/v1/search?${query}`), env);
    const body = await response.text();
    const used = process.cpuUsage(cpu);
    return { ms: (used.user + used.system) / 1000, body };
  };
  /** A new isolate with the manifest in (an unknown indicator's 404 reads it and nothing else). */
  const fresh = async () => {
    const api = new Api();
    await (await api.fetch(new Request("http://bench.test/api/v1/no-such-indicator"), env)).text();
    read = [];
    return api;
  };
  for (const query of queries) await ask(await fresh(), query);
  const rows = [];
  for (const query of queries) {
    const cold: number[] = [];
    const warm: number[] = [];
    let first = { files: 0, bytes: 0, total: 0 };
    for (let k = 0; k < RUNS; k++) {
      const api = await fresh();
      const answer = await ask(api, query);
      cold.push(answer.ms);
      const total = (JSON.parse(answer.body) as { meta?: { total: number } }).meta?.total ?? 0;
      first = { files: read.length, bytes: read.reduce((sum, path) => sum + (files.get(path)?.length ?? 0), 0), total };
      warm.push((await ask(api, query)).ms);
    }
    rows.push([query, fmt(first.total), fmt(first.files), fmt(first.bytes / 1024, 1), fmt(percentile(cold, 50), 2), fmt(percentile(warm, 50), 2)]);
  }
  return table(`search over ${dist} (CPU: median of ${RUNS})`, ["query", "total", "files read", "KB read", "cold ms", "warm ms"], rows);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { positionals } = parseArgs({ allowPositionals: true });
  const [dist, ...queries] = positionals;
  if (dist === undefined) throw new Error("usage: scripts/bench/search.ts <dist> [query …]");
  console.log(await searchCosts(dist, queries.length > 0 ? queries : ["q=casmu%20gineco", "q=a&limit=100", "q=zzzzzz"]));
}
