/**
 * Table 7 (`--only=workerd`): the function's CPU and memory in the real runtime,
 * measured from the operating system. `wrangler pages dev` runs workerd as a child
 * process; its inspector proxy does not answer the CPU profiler, but Linux counts
 * each thread's time on CPU (/proc/<pid>/task/<tid>/schedstat). The CPU of one
 * answer is the sum over workerd's threads read before the request is sent and
 * after its body is read to the end, with nothing else sent in between: an upper
 * bound on the isolate's CPU, since it also holds workerd's HTTP both ways,
 * miniflare's entry worker and the kernel's socket work for that request (the
 * calibration rows, a static file and two 404s, give that floor). And in pages
 * dev, `env.ASSETS` is a function of wrangler's Node process (wrangler's
 * src/miniflare-cli/assets.ts: it hashes and reads the whole file on every
 * request) that workerd reaches over a loopback socket: every file the function
 * reads is received over HTTP, a cost Cloudflare's asset service does not put
 * there. The last row of each indicator, its default page as the static file the
 * build also writes, shows what receiving and passing on those bytes costs
 * workerd. Memory: VmRSS and VmHWM of the same process, all of workerd, not the
 * isolate's heap alone.
 *
 * Two workerd processes run under wrangler: wrangler's dev proxy (ProxyWorker, on
 * the port the client calls; a Durable Object that forwards every request) and
 * the runtime of the function and its assets, which the proxy calls. Only the
 * second exists in production, and only it is measured; the proxy's CPU is
 * shown in the calibration rows for comparison. Requests ask for
 * `Accept-Encoding: identity`: Cloudflare compresses at its edge, outside the
 * Worker's CPU time, while workerd under wrangler would gzip for a client that
 * accepts it and count it here.
 *
 * wrangler turns the runtime inspector's Network domain on, for DevTools;
 * `startPagesDev` turns it off (scripts/lib/pages-dev.ts `networkEventsOff`), as
 * production has no inspector.
 *
 * Cold: the first answer after a fresh isolate, got by restarting wrangler pages
 * dev (about two seconds here: a cheaper reload was not needed), median of
 * `colds` restarts. Warm: the same isolate's later answers, `repeats` of them.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { commandLine, cpuNs, descendants, memory } from "../lib/proc.js";
import { answerOf, buildGrowthPoint, kinds, type Kind } from "./scale.js";
import type { Shape } from "./generate.js";
import { fmt, percentile, table } from "./table.js";
import { startPagesDev, type PagesDev } from "../lib/pages-dev.js";
import { CATALOG_PATH, defaultPagePath, endpointPath, metadataPath, outputFile, ROBOTS_PATH, SEARCH_PATH } from "../../src/core/file/paths.js";
import { foldedWords } from "../../src/core/answer/search.js";
import { changesPath } from "../../src/core/history/changes.js";
import { MANIFEST_PATH, type Manifest } from "../../src/core/file/manifest.js";

/** The usage limit the vars accept at most, as in tables 2 and 6: no answer is a 429. */
const BINDINGS = { RATE_LIMIT_REQUESTS: "999999999" };

/** The requests that give the floor: a static file, a static 404, the function's 404. */
const CALIBRATION: readonly Kind[] = [
  { name: `static file ${ROBOTS_PATH}`, path: ROBOTS_PATH },
  { name: "static 404", path: "/bench-no-such-page" },
  { name: "function 404", path: endpointPath("bench-no-such-indicator") },
];

/**
 * The indicator's default page as the static file the build also writes (where it
 * does), which _routes.json keeps from the function: what workerd spends to receive
 * those bytes from wrangler's asset server and pass them on, the dev-only cost the
 * function's own reads of the output folder pay too.
 */
function staticDefaultPage(dir: string, id: string): Kind[] {
  const path = defaultPagePath(id);
  return existsSync(join(dir, outputFile(path))) ? [{ name: "the default page as a static file", path }] : [];
}

/**
 * Questions about the indicator's first published version (`as_of`, `/changes`),
 * when the build holds more than one (its history table, src/core/history/history.ts):
 * the narrow kind as of then (one shard of the table), the first point of every
 * sub-series as of then (every shard), and what changed since.
 */
function pastKinds(dir: string, id: string, kinds: readonly Kind[]): Kind[] {
  const manifest = JSON.parse(readFileSync(join(dir, outputFile(MANIFEST_PATH)), "utf8")) as Manifest;
  const days = manifest.indicators[id]?.history.days ?? [];
  const first = days[0];
  if (days.length < 2 || first === undefined) return [];
  const narrow = kinds.find((k) => k.name.startsWith("narrow"));
  return [
    ...(narrow === undefined ? [] : [{ name: `${narrow.name}, as_of its first version`, path: `${narrow.path}&as_of=${first}` }]),
    { name: "every sub-series' first point, as_of its first version", path: `${endpointPath(id)}?limit=1&as_of=${first}` },
    { name: "changes since its first version", path: `${changesPath(id)}?since=${first}` },
  ];
}

/** A running `wrangler pages dev` and its two workerd processes. */
interface Runtime {
  readonly dev: PagesDev;
  /** The workerd that runs the function and serves the assets. */
  readonly workerd: number;
  /** wrangler's dev proxy, the workerd on the port the client calls. */
  readonly proxy: number;
}

/**
 * The workerd processes below wrangler (`dev.pid`): the proxy is the one whose
 * entry socket is the port of `dev.url`, the runtime the other one. Throws, naming
 * what it found, unless there is exactly one of each.
 */
function findWorkerd(dev: PagesDev): { workerd: number; proxy: number } {
  const port = new URL(dev.url).port;
  const found = descendants(dev.pid).map((pid) => ({ pid, args: commandLine(pid) }));
  const workerds = found.filter((p) => /(^|\/)workerd$/.test(p.args[0] ?? ""));
  const listensOnPort = (args: readonly string[]) => args.some((a) => a.startsWith("--socket-addr=entry=") && a.endsWith(`:${port}`));
  const proxies = workerds.filter((p) => listensOnPort(p.args));
  const runtimes = workerds.filter((p) => !listensOnPort(p.args));
  if (proxies.length !== 1 || runtimes.length !== 1 || proxies[0] === undefined || runtimes[0] === undefined) {
    const seen = found.map((p) => `  ${p.pid}: ${p.args.join(" ").slice(0, 160)}`).join("\n");
    throw new Error(`expected two workerd processes below wrangler (pid ${dev.pid}), the proxy on port ${port} and the runtime; found:\n${seen || "  nothing"}`);
  }
  return { workerd: runtimes[0].pid, proxy: proxies[0].pid };
}

/**
 * Stops `dev` if this process is interrupted: wrangler runs in its own process
 * group, which a Ctrl-C does not reach. Returns the function that forgets it.
 */
function stopOnInterrupt(dev: PagesDev): () => void {
  const handler = (signal: NodeJS.Signals) => {
    // Stopped, the signal is sent again, and with no handler left it ends this process.
    void dev.stop().finally(() => process.kill(process.pid, signal));
  };
  process.once("SIGINT", handler);
  process.once("SIGTERM", handler);
  return () => {
    process.off("SIGINT", handler);
    process.off("SIGTERM", handler);
  };
}

/** Runs `use` with `wrangler pages dev` on `dir` and its workerd processes found, and stops it after, whatever happened. */
async function withRuntime<T>(dir: string, use: (runtime: Runtime) => Promise<T>): Promise<T> {
  const dev = await startPagesDev(dir, BINDINGS);
  const forget = stopOnInterrupt(dev);
  try {
    return await use({ dev, ...findWorkerd(dev) });
  } finally {
    await dev.stop();
    forget();
  }
}

const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

/**
 * Waits until `pid` has spent under 0.1 ms of CPU in 25 ms (at most 3 s), so that
 * the work a previous answer left (collection, compilation on V8's threads) is not
 * counted in the next one.
 */
async function quiet(pid: number): Promise<void> {
  const until = performance.now() + 3_000;
  let last = cpuNs(pid).ns;
  while (performance.now() < until) {
    await sleep(25);
    const now = cpuNs(pid).ns;
    if (now - last < 100_000) return;
    last = now;
  }
}

/** One answer through the runtime: status, detail, bytes, and the CPU each workerd spent on it. */
interface Measured {
  readonly status: number;
  readonly detail: string;
  readonly bytes: number;
  readonly cpuMs: number;
  readonly proxyCpuMs: number;
  /** A thread of the runtime began or ended meanwhile (an ended one takes its time with it). */
  readonly threadsChanged: boolean;
}

/** Asks `path` once, after the runtime is quiet, reading both workerd's CPU around it. */
async function measure(runtime: Runtime, path: string): Promise<Measured> {
  await quiet(runtime.workerd);
  const before = cpuNs(runtime.workerd);
  const proxyBefore = cpuNs(runtime.proxy).ns;
  const response = await fetch(`${runtime.dev.url}${path}`, { headers: { "accept-encoding": "identity" } });
  const answer = await answerOf(response);
  const after = cpuNs(runtime.workerd);
  const proxyAfter = cpuNs(runtime.proxy).ns;
  return {
    ...answer,
    cpuMs: (after.ns - before.ns) / 1e6,
    proxyCpuMs: (proxyAfter - proxyBefore) / 1e6,
    threadsChanged: after.threads.join() !== before.threads.join(),
  };
}

/** What one kind of answer measured. */
interface KindFigures {
  readonly kind: Kind;
  readonly status: number;
  readonly detail: string;
  readonly bytes: number;
  /** Each fresh isolate's first answer, ms. */
  readonly colds: readonly number[];
  readonly warmMs: readonly number[];
  readonly proxyWarmMs: readonly number[];
  /** The runtime's memory, bytes: idle before the first request (median), after the cold answer (median), after the warm ones, and its peak. */
  readonly idleRss: number;
  readonly coldRss: number;
  readonly endRss: number;
  readonly peak: number;
  /** The runtime's CPU from its start until quiet before the first request (median), ms. */
  readonly startMs: number;
  readonly threadsChanged: boolean;
}

/**
 * `kind` over `dir`: `colds` fresh runtimes, each asked once; the last one then
 * asked `repeats` times more. One wrangler at a time, always stopped.
 */
async function measureKind(dir: string, kind: Kind, colds: number, repeats: number): Promise<KindFigures> {
  const firsts: Measured[] = [];
  const idle: number[] = [];
  const afterCold: number[] = [];
  const starts: number[] = [];
  const warm: Measured[] = [];
  let end = { rss: NaN, peak: NaN };
  for (let i = 0; i < colds; i++) {
    await withRuntime(dir, async (runtime) => {
      await quiet(runtime.workerd);
      starts.push(cpuNs(runtime.workerd).ns / 1e6);
      idle.push(memory(runtime.workerd).rss);
      firsts.push(await measure(runtime, kind.path));
      afterCold.push(memory(runtime.workerd).rss);
      if (i === colds - 1) {
        for (let r = 0; r < repeats; r++) warm.push(await measure(runtime, kind.path));
        end = memory(runtime.workerd);
      }
    });
  }
  const first = firsts[0];
  if (first === undefined) throw new Error("no cold answer: colds must be at least 1");
  return {
    kind,
    status: first.status,
    detail: first.detail,
    bytes: first.bytes,
    colds: firsts.map((m) => m.cpuMs),
    warmMs: warm.map((m) => m.cpuMs),
    proxyWarmMs: warm.map((m) => m.proxyCpuMs),
    idleRss: percentile(idle, 50),
    coldRss: percentile(afterCold, 50),
    endRss: end.rss,
    peak: end.peak,
    startMs: percentile(starts, 50),
    threadsChanged: [...firsts, ...warm].some((m) => m.threadsChanged),
  };
}

/** What the bench reads of an indicator's metadata (`/api/v1/<id>/metadata.json`). */
interface IndicatorMeta {
  readonly id: string;
  readonly rhythm: string;
  /** The newest date of any sub-series. */
  readonly newest: string;
  readonly series: readonly { readonly id: string; readonly title: { readonly es: string; readonly en: string } }[];
}

/** The fields the kinds are derived from, checked once; throws naming the field. */
export function parseMetadata(raw: unknown): IndicatorMeta {
  const m = raw as { id?: unknown; rhythm?: unknown; freshness?: { newest?: unknown }; series?: unknown };
  if (typeof m.id !== "string") throw new Error("metadata: id is not a string");
  const id = m.id;
  if (typeof m.rhythm !== "string") throw new Error(`metadata of ${id}: rhythm is not a string`);
  const newest = m.freshness?.newest;
  if (typeof newest !== "string" || !/^\d{4}-\d{2}-\d{2}$/.test(newest)) throw new Error(`metadata of ${id}: freshness.newest is not a date: ${String(newest)}`);
  if (!Array.isArray(m.series) || m.series.length === 0) throw new Error(`metadata of ${id}: series is not a non-empty list`);
  const series = (m.series as { id?: unknown; title?: { es?: unknown; en?: unknown } }[]).map((s, i) => {
    if (typeof s.id !== "string" || typeof s.title?.es !== "string" || typeof s.title.en !== "string") throw new Error(`metadata of ${id}: series[${i}] has no id or title`);
    return { id: s.id, title: { es: s.title.es, en: s.title.en } };
  });
  return { id, rhythm: m.rhythm, newest, series };
}

/**
 * The shortest prefix of `id` that begins at most `most` of the sorted `ids`
 * (at least `id` itself), carried past a separator that follows it when that
 * names the same ones (`p042` → `p042.`), and how many it begins.
 */
function narrowPrefix(ids: readonly string[], id: string, most: number): { prefix: string; count: number } {
  const count = (prefix: string) => ids.filter((s) => s.startsWith(prefix)).length;
  for (let length = 1; length <= id.length; length++) {
    const prefix = id.slice(0, length);
    const n = count(prefix);
    if (n > most && length < id.length) continue;
    const next = id.slice(0, length + 1);
    return /[.-]$/.test(next) && count(next) === n ? { prefix: next, count: n } : { prefix, count: n };
  }
  return { prefix: id, count: 1 };
}

/**
 * The seven kinds of answer of scripts/bench/scale.ts `kinds`, for a built indicator
 * of any ids, derived from its metadata: the default page; a month of the middle
 * sub-series (the month before the newest date's); a pattern over about 1% of the
 * sub-series (the shortest prefix of the middle id that names at most that many);
 * the middle sub-series as CSV; `at` the 15th of that month over every sub-series;
 * a question about time of the middle one (daily: monthly averages; else percent
 * change); and a search for the word of the middle title that begins the fewest
 * sub-series' titles.
 */
export function metadataKinds(meta: IndicatorMeta): Kind[] {
  const endpoint = endpointPath(meta.id);
  const ids = meta.series.map((s) => s.id).sort();
  const middle = meta.series[Math.floor(meta.series.length / 2)] ?? meta.series[0];
  if (middle === undefined) throw new Error(`${meta.id} has no sub-series`);
  const one = middle.id;
  const [year, month] = meta.newest.split("-").map(Number) as [number, number];
  const before = new Date(Date.UTC(year, month - 2, 1));
  const ym = before.toISOString().slice(0, 7);
  const lastDay = new Date(Date.UTC(before.getUTCFullYear(), before.getUTCMonth() + 1, 0)).getUTCDate();
  const { prefix, count } = narrowPrefix(ids, one, Math.max(1, Math.floor(ids.length / 100)));
  const share = (count / ids.length) * 100;
  const titles = meta.series.map((s) => ` ${foldedWords(s.title.en, s.title.es)} `);
  const words = foldedWords(middle.title.en, middle.title.es).split(" ");
  const begins = (word: string) => titles.filter((t) => t.includes(` ${word}`)).length;
  const word = words.reduce((best, w) => (begins(w) < begins(best) ? w : best), words[0] ?? one);
  return [
    { name: "default page", path: endpoint },
    { name: "narrow (a month)", path: `${endpoint}?series=${one}&from=${ym}-01&to=${ym}-${lastDay}` },
    { name: `pattern ${prefix}* (${fmt(share, share < 1 ? 2 : 0)}%)`, path: `${endpoint}?series=${prefix}*` },
    { name: "CSV, one sub-series", path: `${endpoint}?format=csv&series=${one}` },
    { name: "at a day, every sub-series", path: `${endpoint}?at=${ym}-15` },
    meta.rhythm === "daily"
      ? { name: "monthly, one", path: `${endpoint}?series=${one}&frequency=month` }
      : { name: "percent change, one", path: `${endpoint}?units=percent_change&series=${one}` },
    { name: `search ${word}`, path: `${SEARCH_PATH}?q=${encodeURIComponent(word)}` },
  ];
}

/** The indicator ids and points a built folder lists (its catalog, /api/v1/index.json). */
function listed(dir: string): { id: string; points: number }[] {
  const index = JSON.parse(readFileSync(join(dir, outputFile(CATALOG_PATH)), "utf8")) as { indicators?: { id?: unknown; points?: unknown }[] };
  return (index.indicators ?? []).map((i) => ({ id: String(i.id), points: Number(i.points) }));
}

const mb = (bytes: number) => fmt(bytes / 2 ** 20, 1);
const ms = (n: number) => fmt(n, 2);

/** A table of the kinds measured over one indicator (or the calibration), with its notes. */
function kindTable(title: string, figures: readonly KindFigures[], proxy: boolean): string {
  const header = ["answer", "status", "bytes", "cold CPU ms", "cold range ms", "warm CPU ms", "warm max ms", "RSS after cold MB", "RSS end MB", "peak MB", ...(proxy ? ["dev proxy warm ms"] : [])];
  const rows = figures.map((f) => [
    f.kind.name,
    String(f.status),
    fmt(f.bytes),
    ms(percentile(f.colds, 50)),
    `${ms(Math.min(...f.colds))}–${ms(Math.max(...f.colds))}`,
    ms(percentile(f.warmMs, 50)),
    ms(Math.max(...f.warmMs)),
    mb(f.coldRss),
    mb(f.endRss),
    mb(f.peak),
    ...(proxy ? [ms(percentile(f.proxyWarmMs, 50))] : []),
  ]);
  const notes = [
    `  workerd idle RSS ${mb(percentile(figures.map((f) => f.idleRss), 50))} MB; its CPU from its start until quiet (its own start, miniflare's workers, the function's module, the readiness request for ${CATALOG_PATH}) ${ms(percentile(figures.map((f) => f.startMs), 50))} ms: medians over the starts`,
    // A static 404 is an HTML page: its start on one line.
    ...figures.filter((f) => f.status !== 200).map((f) => `  ${f.kind.name}: ${f.status}: ${f.detail.replace(/\s+/g, " ")}`),
    ...figures.filter((f) => f.threadsChanged).map((f) => `  ${f.kind.name}: a workerd thread began or ended during a measure: that figure may miss the ended thread's time`),
    `  the requests: ${figures.map((f) => `${f.kind.name}: ${f.kind.path}`).join("; ")}`,
  ];
  return `${table(title, header, rows)}${notes.join("\n")}\n`;
}

/** What to measure: a built folder and its indicators (kinds from their metadata), or synthetic builds. */
export interface WorkerdOptions {
  /** A built output folder; without it, a synthetic indicator of each size × shape is built (scale.ts). */
  readonly dir?: string;
  /** Indicators of `dir` to ask (default: the one of most points). */
  readonly indicators?: readonly string[];
  readonly sizes: readonly number[];
  readonly shapes: readonly Shape[];
  /** The data version time of the synthetic builds. */
  readonly epoch: string;
  /** Fresh runtimes per kind (the cold figure is their median). */
  readonly colds: number;
  /** Warm answers per kind. */
  readonly repeats: number;
}

/** Table 7: the calibration, then one table per indicator. */
export async function workerdCosts(options: WorkerdOptions): Promise<string> {
  const parts = [
    "7. The function in workerd (wrangler pages dev): CPU of the workerd process that runs the function, the sum of its threads' " +
      "/proc/<pid>/task/<tid>/schedstat time on CPU read before the request and after its body (Accept-Encoding: identity): an upper bound " +
      "on the isolate's CPU (workerd's HTTP, miniflare's entry worker and the kernel's socket work are in it: the calibration gives that floor; " +
      "and every file the function reads comes from wrangler's Node asset server over a loopback socket: the static default page shows that cost; " +
      "the inspector's Network domain, which writes a DevTools event per 4 KB of every body the function fetches, turned off). " +
      `Cold: a fresh runtime's first answer (wrangler restarted), median of ${options.colds}; warm: ${options.repeats} more answers of the last one. ` +
      "Memory: VmRSS and VmHWM of that process (all of workerd)\n",
  ];
  const targets: { dir: string; title: string; kinds: Kind[]; cleanup?: () => void }[] = [];
  if (options.dir !== undefined) {
    const dir = options.dir;
    const all = listed(dir);
    const ids = options.indicators ?? [all.reduce((a, b) => (b.points > a.points ? b : a)).id];
    for (const id of ids) {
      const points = all.find((i) => i.id === id)?.points;
      if (points === undefined) throw new Error(`${id} is not listed in ${join(dir, outputFile(CATALOG_PATH))} (${all.map((i) => i.id).join(", ")})`);
      const meta = parseMetadata(JSON.parse(readFileSync(join(dir, outputFile(metadataPath(id))), "utf8")));
      const kinds = metadataKinds(meta);
      targets.push({ dir, title: `7. ${id} (${fmt(points)} points) in ${dir}`, kinds: [...kinds, ...pastKinds(dir, id, kinds), ...staticDefaultPage(dir, id)] });
    }
  } else {
    for (const shape of options.shapes) {
      for (const points of options.sizes) {
        const work = mkdtempSync(join(tmpdir(), "bench-workerd-"));
        const built = await buildGrowthPoint(work, shape, points, options.epoch);
        if (built.out === undefined) {
          rmSync(work, { recursive: true, force: true });
          parts.push(`7. synthetic ${shape} ${fmt(points)}: not built: ${built.refusal ?? ""}\n`);
          continue;
        }
        const past = built.refusal === undefined ? "" : ` (refused by the limits, built past them: ${built.refusal})`;
        targets.push({ dir: built.out, title: `7. ${built.id} (${fmt(points)} points), a synthetic build${past}`, kinds: [...kinds(points, shape), ...staticDefaultPage(built.out, built.id)], cleanup: () => rmSync(work, { recursive: true, force: true }) });
      }
    }
  }
  try {
    const first = targets[0];
    if (first !== undefined) {
      const floor: KindFigures[] = [];
      for (const kind of CALIBRATION) floor.push(await measureKind(first.dir, kind, options.colds, options.repeats));
      parts.push(kindTable(`7. Calibration: the floor of a request, over ${first.dir}`, floor, true));
    }
    for (const target of targets) {
      const figures: KindFigures[] = [];
      for (const kind of target.kinds) {
        figures.push(await measureKind(target.dir, kind, options.colds, options.repeats));
        process.stderr.write(`workerd: ${target.title.slice(3)}: ${kind.name} measured\n`);
      }
      parts.push(kindTable(target.title, figures, false));
    }
  } finally {
    for (const target of targets) target.cleanup?.();
  }
  return parts.join("\n");
}
