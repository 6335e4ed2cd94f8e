/**
 * Growth curves by indicator count (`npm run bench -- --only=many [--counts=10,100,1000]`):
 * the real data beside N small synthetic indicators (three monthly sub-series of ten
 * years each, scripts/bench/generate.ts `generateSmall`), built by the CLI in a child
 * process (wall time and peak RSS from /usr/bin/time), its files on Pages and in R2
 * (src/builder/host-plan.ts) and the Pages configuration's rules; then, through
 * `wrangler pages dev` serving the largest count's build with its local R2 state,
 * the cost of a request for a file served by Pages directly (a head indicator's),
 * by the function from the static assets and by the function from R2 (tail
 * indicators'), requested in turn, side by side in one run.
 */
import { mkdtempSync, readFileSync, readdirSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { runBuild, measureTree } from "./build-scaling.js";
import { generateMany } from "./generate.js";
import { fmt, percentile, table } from "./table.js";
import { startPagesDev } from "../lib/pages-dev.js";
import type { FileIndex } from "../../src/core/file/hosted.js";
import type { Manifest } from "../../src/core/file/manifest.js";

const ROOT = resolve(import.meta.dirname, "../..");

interface ManyRun {
  count: number;
  out: string;
  state: string;
  seconds: number;
  rssMb: number;
  pages: { files: number; bytes: number };
  r2: { files: number; bytes: number };
  head: number;
  tail: number;
  headerRules: number;
  routeRules: number;
  note: string;
}

/** The objects of `<out>.r2/`: how many, their bytes. */
function r2Tree(out: string): { files: number; bytes: number } {
  let names: string[] = [];
  try {
    names = readdirSync(`${out}.r2`);
  } catch {
    return { files: 0, bytes: 0 };
  }
  return { files: names.length, bytes: names.reduce((sum, name) => sum + statSync(join(`${out}.r2`, name)).size, 0) };
}

/** Generates and builds the real data beside `count` small indicators. */
async function buildMany(count: number, epoch: string): Promise<ManyRun> {
  const work = mkdtempSync(join(tmpdir(), "bench-many-"));
  const data = join(work, "data");
  await generateMany(data, count, join(ROOT, "data"));
  const out = join(work, "dist");
  const state = join(work, "state");
  const run = runBuild(data, out, ["--r2-state", state], ROOT, epoch);
  if (!run.ok) return { count, out, state, seconds: run.seconds, rssMb: run.rssMb, pages: { files: 0, bytes: 0 }, r2: { files: 0, bytes: 0 }, head: 0, tail: 0, headerRules: 0, routeRules: 0, note: `failed: ${run.stderr.slice(-300)}` };
  const manifest = JSON.parse(readFileSync(join(out, "_data/manifest.json"), "utf8")) as Manifest;
  const tail = Object.values(manifest.indicators).filter((entry) => entry.files !== undefined).length;
  const routes = JSON.parse(readFileSync(join(out, "_routes.json"), "utf8")) as { include: string[]; exclude: string[] };
  const headerRules = readFileSync(join(out, "_headers"), "utf8")
    .split("\n")
    .filter((line) => line !== "" && !line.startsWith(" ") && !line.startsWith("#")).length;
  const moved = Object.values(manifest.indicators).reduce((n, entry) => {
    if (entry.files === undefined) return n;
    return n + Object.values(JSON.parse(readFileSync(join(out, entry.files), "utf8")) as FileIndex).filter(([, inR2]) => inR2 === 1).length;
  }, 0);
  return {
    count,
    out,
    state,
    seconds: run.seconds,
    rssMb: run.rssMb,
    pages: measureTree(out),
    r2: r2Tree(out),
    head: Object.keys(manifest.indicators).length - tail,
    tail,
    headerRules,
    routeRules: routes.include.length + routes.exclude.length,
    note: `${moved} files in R2`,
  };
}

/**
 * Three files of the same kind in `out`: a head indicator's on Pages, and tail
 * indicators' served by the function from the assets and from R2 (the first kind,
 * in the order files move to R2, that the tail has in both places).
 */
function threeFiles(out: string): { label: string; path: string }[] {
  const manifest = JSON.parse(readFileSync(join(out, "_data/manifest.json"), "utf8")) as Manifest;
  const ids = Object.keys(manifest.indicators);
  const records = ids.flatMap((id) => {
    const files = manifest.indicators[id]?.files;
    return files === undefined ? [] : Object.entries(JSON.parse(readFileSync(join(out, files), "utf8")) as FileIndex);
  });
  const name = (path: string) => path.slice(path.lastIndexOf("/") + 1);
  const where = (kind: string, inR2: 0 | 1) => records.find(([path, [, r2]]) => name(path) === kind && r2 === inR2)?.[0];
  const kind = ["datapackage.json", "feed.atom", "data.es.csv", "data.csv", "metadata.json", "index.json"].find((k) => where(k, 0) !== undefined && where(k, 1) !== undefined) ?? "index.json";
  // A head indicator of the synthetic ones (the files of the same size), else any.
  const heads = ids.filter((id) => manifest.indicators[id]?.files === undefined);
  const head = heads.find((id) => id.startsWith("small-")) ?? (heads.at(-1));
  const files = [
    { label: `Pages (static, a head indicator's ${kind})`, path: `/api/v1/${head}/${kind}` },
    { label: `function from the assets (a tail ${kind})`, path: where(kind, 0) },
    { label: `function from R2 (a tail ${kind})`, path: where(kind, 1) },
  ];
  return files.filter((f): f is { label: string; path: string } => f.path !== undefined);
}

/** Milliseconds per request of each file, requested in turn `repeats` times (after one warm-up each), through `wrangler pages dev`. */
export async function requestCosts(run: Pick<ManyRun, "count" | "out" | "state">, repeats: number): Promise<string> {
  const files = threeFiles(run.out);
  const server = await startPagesDev(run.out, { RATE_LIMIT_REQUESTS: "1000000" }, ROOT, run.state);
  try {
    const times = files.map(() => [] as number[]);
    const bytes = files.map(() => 0);
    for (let r = -1; r < repeats; r++) {
      for (const [i, file] of files.entries()) {
        const started = performance.now();
        const response = await fetch(server.url + file.path);
        const body = await response.arrayBuffer();
        if (response.status !== 200) throw new Error(`${file.path}: ${response.status}`);
        if (r >= 0) (times[i] as number[]).push(performance.now() - started);
        bytes[i] = body.byteLength;
      }
    }
    const rows = files.map((file, i) => [file.label, fmt(bytes[i] as number), fmt(percentile(times[i] as number[], 50), 2), fmt(percentile(times[i] as number[], 90), 2)]);
    return table(`Requests through wrangler pages dev, ${run.count} small indicators' build (${repeats} each, in turn, after a warm-up)`, ["served by", "bytes", "p50 ms", "p90 ms"], rows);
  } finally {
    await server.stop();
  }
}

/**
 * Asks every indicator of `run`'s build, through `wrangler pages dev`, its page, its default
 * answer, its metadata, a computed answer and a search; says how many answered 200 with a body.
 */
export async function everyAnswer(run: Pick<ManyRun, "out" | "state">): Promise<string> {
  const manifest = JSON.parse(readFileSync(join(run.out, "_data/manifest.json"), "utf8")) as Manifest;
  const ids = Object.keys(manifest.indicators);
  const server = await startPagesDev(run.out, { RATE_LIMIT_REQUESTS: "1000000" }, ROOT, run.state);
  const failed: string[] = [];
  const started = performance.now();
  try {
    for (const id of ids) {
      for (const path of [`/series/${id}/`, `/api/v1/${id}`, `/api/v1/${id}/metadata.json`, `/api/v1/${id}?from=2020-01-01&limit=10`, `/api/v1/search?indicator=${id}&q=a`]) {
        const response = await fetch(server.url + path);
        const body = await response.arrayBuffer();
        if (response.status !== 200 || body.byteLength === 0) failed.push(`${path}: ${response.status}`);
      }
    }
  } finally {
    await server.stop();
  }
  const seconds = (performance.now() - started) / 1000;
  return `Every indicator (${ids.length}) through wrangler pages dev: page, default answer, metadata, ?from=2020-01-01&limit=10, a search: ${ids.length * 5 - failed.length} of ${ids.length * 5} answered 200 in ${seconds.toFixed(0)} s${failed.length === 0 ? "" : `; failed: ${failed.slice(0, 5).join(", ")}`}\n`;
}

/** The growth table by indicator count, and the request costs of the largest count's build. */
export async function manyIndicators(counts: readonly number[], epoch: string, repeats: number): Promise<string> {
  const runs: ManyRun[] = [];
  for (const count of counts) runs.push(await buildMany(count, epoch));
  const rows = runs.map((r) => [
    fmt(r.count),
    fmt(r.seconds, 1),
    fmt(r.rssMb),
    `${r.head} / ${r.tail}`,
    fmt(r.pages.files),
    fmt(r.pages.bytes / 1e6, 1),
    fmt(r.r2.files),
    fmt(r.r2.bytes / 1e6, 1),
    String(r.headerRules),
    String(r.routeRules),
    r.note,
  ]);
  const growth = table(
    "Growth by indicator count: the real six beside N small indicators (3 monthly sub-series × 10 years), npm run build in a child process (/usr/bin/time)",
    ["small", "wall s", "peak RSS MB", "head / tail", "Pages files", "Pages MB", "R2 objects", "R2 MB", "_headers rules", "_routes rules", "note"],
    rows,
  );
  const largest = runs.filter((r) => !r.note.startsWith("failed")).at(-1);
  return largest === undefined ? growth : `${growth}\n${await requestCosts(largest, repeats)}\n${await everyAnswer(largest)}`;
}
