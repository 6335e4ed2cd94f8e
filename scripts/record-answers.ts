/**
 * Records a few thousand of the API's answers (status, the headers a client
 * relies on, the SHA-256 of the body) as JSON lines, so a refactor can prove that
 * every answer stays byte-identical: record before, record after, `--compare`.
 *
 *   node --import tsx scripts/record-answers.ts --out <file.jsonl> [--dist <built output folder>] [--keep]
 *   node --import tsx scripts/record-answers.ts --compare <a.jsonl> <b.jsonl>
 *
 * Without `--dist` it builds the real data fresh, in a child process, with the
 * tests' data version: the built folder is made by the build code of the checkout,
 * and a refactor that changes the build must be judged on its own build's output.
 * `--dist` reuses a folder (the data only: the answering code is always this
 * checkout's). `--keep` keeps the fresh build and prints where it is.
 *
 * The questions are a pure function of the built data (ids, sub-series, dates)
 * and of fixed seeds, one PRNG per section, so the list is the same every run and
 * a section growing (a new example URL in the README) shifts no other section.
 * The parameter names and values below are written out rather than read from
 * src/core/answer/contract.ts on purpose: the list must not move when the code under
 * test does. Answers go to the handler in process, as the tests call it, once
 * through the prebuilt pages and, for a share of the questions, again through
 * the same folder with no prebuilt page (`via: "computed"`).
 *
 * RateLimit headers are left out: they count requests and the clock's window.
 */
import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import { mkdtemp, readFile, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { Api } from "../src/api/handler.js";
import { computedOnly, folderAssets } from "./lib/folder-assets.js";

const ROOT = resolve(fileURLToPath(import.meta.url), "../..");
/** The tests' data version (test/epoch.ts): the answers' Last-Modified and the end of every coverage. */
const EPOCH = "1795132800";
const ORIGIN = "http://api.test";
/** Recorded in this order, lowercase; RateLimit and RateLimit-Policy are not (they depend on counts and the clock). */
const RECORDED_HEADERS = ["content-type", "etag", "last-modified", "link", "x-total-count", "cache-control", "retry-after", "allow", "content-disposition"] as const;
/**
 * A usage limit no run reaches. Nine digits: rateLimitConfig reads at most nine
 * and keeps the default (300) for "1000000000", which would make most answers 429s.
 */
const NO_LIMIT = "999999999";
const MCP_HEADERS = { "content-type": "application/json", accept: "application/json, text/event-stream" };

type Via = "prebuilt" | "computed";

/** One request to make. `both`: recorded through the prebuilt pages and through the computed-only folder. */
interface Question {
  readonly kind: string;
  readonly method: string;
  readonly path: string;
  readonly headers?: Readonly<Record<string, string>>;
  readonly body?: string;
  readonly both?: boolean;
}

/** One line of the record. */
export interface AnswerRecord {
  i: number;
  method: string;
  path: string;
  via: Via;
  kind: string;
  request?: { headers?: Record<string, string>; body?: string };
  status: number;
  headers: Record<string, string>;
  sha256: string;
  bytes: number;
}

/** What the questions are made of: an indicator of the built output as the API publishes it. */
interface Indicator {
  readonly id: string;
  readonly unit: string;
  /** Sub-series ids, from its metadata document. */
  readonly series: readonly string[];
  /** Its data dates, ascending, from its data.csv. */
  readonly dates: readonly string[];
  /** The prebuilt pages' `limit/offset` keys, from the manifest. */
  readonly pages: readonly string[];
}

// ---------------------------------------------------------------------------
// Seeded randomness: mulberry32, one generator per section, seeded by its name.

type Random = () => number;

/** mulberry32: a small seeded PRNG (the same as scripts/bench/generate.ts), copied so the list never follows a change there. */
function mulberry32(seed: number): Random {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A generator seeded by a section's name (FNV-1a), so each section's questions depend on nothing else. */
function seeded(name: string): Random {
  let h = 0x811c9dc5;
  for (const c of `record-answers:2026-11-20:${name}`) h = Math.imul(h ^ c.charCodeAt(0), 0x01000193);
  return mulberry32(h);
}

const pick = <T>(random: Random, xs: readonly T[]): T => xs[Math.floor(random() * xs.length)] as T;
const int = (random: Random, min: number, max: number): number => min + Math.floor(random() * (max - min + 1));

/** The same xs in a seeded order. */
function shuffled<T>(random: Random, xs: readonly T[]): T[] {
  const out = [...xs];
  for (let k = out.length - 1; k > 0; k--) {
    const j = Math.floor(random() * (k + 1));
    [out[k], out[j]] = [out[j] as T, out[k] as T];
  }
  return out;
}

// ---------------------------------------------------------------------------
// Query strings.

type Pairs = readonly (readonly [string, string])[];

/** A query string as a client would write it: percent-encoded, but `,` `:` and `*` left readable, as the API's own URLs are. */
function qs(pairs: Pairs): string {
  const enc = (s: string) => encodeURIComponent(s).replaceAll("%2C", ",").replaceAll("%3A", ":");
  return pairs.map(([k, v]) => `${enc(k)}=${enc(v)}`).join("&");
}

const endpoint = (id: string, pairs: Pairs = []): string => (pairs.length === 0 ? `/api/v1/${id}` : `/api/v1/${id}?${qs(pairs)}`);

/** A date as people write one: a data date, its month or year, a day between data dates, now and then one outside the data. */
function dateText(random: Random, dates: readonly string[]): string {
  const base = pick(random, dates);
  const roll = random();
  if (roll < 0.3) return base;
  if (roll < 0.5) return base.slice(0, 7);
  if (roll < 0.6) return base.slice(0, 4);
  if (roll < 0.92) return new Date(Date.parse(base) + Math.round((random() - 0.5) * 800) * 86_400_000).toISOString().slice(0, 10);
  return pick(random, ["1900-01-01", "1999", "2030-06", "2026-11-20", "2026-11-21", "2024-02-29"]);
}

/** The first day a date text means (`from`), for ordering windows. */
const startOf = (d: string): string => (d.length === 4 ? `${d}-01-01` : d.length === 7 ? `${d}-01` : d);
const endOf = (d: string): string => (d.length === 4 ? `${d}-12-31` : d.length === 7 ? `${d}-31` : d);

/** One `series` item: an id or a pattern (`casmu.*`, `*.fonasa`, `*.item.*`, `ca*`). */
function seriesItem(random: Random, ids: readonly string[]): string {
  const parts = pick(random, ids).split(".");
  const roll = random();
  if (roll < 0.45 || parts.length === 1) return roll < 0.05 ? `${(parts[0] as string).slice(0, 3)}*` : parts.join(".");
  if (roll < 0.65) return `${parts[0] as string}.*`;
  if (roll < 0.85) return `*.${parts[parts.length - 1] as string}`;
  return parts.length > 2 ? `*.${parts[1] as string}.*` : `${(parts[0] as string).slice(0, 2)}*`;
}

/** A `series` list of 1 to `max` items. */
const selection = (random: Random, ids: readonly string[], max = 3): string => Array.from({ length: int(random, 1, max) }, () => seriesItem(random, ids)).join(",");

// ---------------------------------------------------------------------------
// The built output.

/** The indicators of a built output folder, in the manifest's order (the catalog's if there is no manifest). */
async function readIndicators(dist: string): Promise<{ indicators: Indicator[]; deflated: Set<string> }> {
  const json = async <T>(path: string): Promise<T> => JSON.parse(await readFile(join(dist, path), "utf8")) as T;
  let ids: string[];
  let pages = new Map<string, string[]>();
  const deflated = new Set<string>();
  if (existsSync(join(dist, "_data/manifest.json"))) {
    const manifest = await json<{ indicators: Record<string, { pages?: Record<string, unknown> }>; deflators?: Record<string, unknown> }>("_data/manifest.json");
    ids = Object.keys(manifest.indicators);
    // "limit/offset" of each prebuilt page: the manifest lists each limit's page sizes (0: none), or, before, the keys themselves.
    const keysOf = (pages: Record<string, unknown>) =>
      Object.entries(pages).flatMap(([limit, v]) => (Array.isArray(v) ? (v as number[]).flatMap((bytes, k) => (bytes > 0 ? [`${limit}/${k * Number(limit)}`] : [])) : [limit]));
    pages = new Map(ids.map((id) => [id, keysOf(manifest.indicators[id]?.pages ?? {})]));
    for (const unit of Object.keys(manifest.deflators ?? {})) deflated.add(unit);
  } else {
    const catalog = existsSync(join(dist, "api/v1/catalog.json")) ? "api/v1/catalog.json" : "api/v1/index.json";
    ids = (await json<{ indicators: { id: string }[] }>(catalog)).indicators.map((i) => i.id);
    deflated.add("UYU");
  }
  const indicators: Indicator[] = [];
  for (const id of ids) {
    const metadata = await json<{ unit: string; series: { id: string }[] }>(`api/v1/${id}/metadata.json`);
    // The first two columns of data.csv (date, series id) are never quoted.
    const lines = (await readFile(join(dist, `api/v1/${id}/data.csv`), "utf8")).split("\n").slice(1);
    const dates = [...new Set(lines.filter((l) => l !== "").map((l) => l.slice(0, l.indexOf(","))))].sort();
    indicators.push({ id, unit: metadata.unit, series: metadata.series.map((s) => s.id), dates, pages: pages.get(id) ?? [] });
  }
  return { indicators, deflated };
}

/** Builds the real data as the tests do, in a child process; returns the output folder. */
async function build(): Promise<string> {
  const out = join(await mkdtemp(join(tmpdir(), "record-answers-")), "dist");
  const started = performance.now();
  const code = await new Promise<number | null>((done, fail) => {
    const child = spawn(process.execPath, ["--import", "tsx", "scripts/cli.ts", "build", "--out", out, "--no-base"], {
      cwd: ROOT,
      env: { ...process.env, SOURCE_DATE_EPOCH: EPOCH },
      stdio: ["ignore", "inherit", "inherit"],
    });
    child.on("error", fail);
    child.on("exit", done);
  });
  if (code !== 0) throw new Error(`the build exited with ${code}`);
  console.log(`built ${out} in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  return out;
}

// ---------------------------------------------------------------------------
// The questions.

/** Every `/api/v1/…` and `/mcp` URL path of README.md and docs/*.md, without placeholders; sorted, so their order is not the documents'. */
async function documentedPaths(): Promise<string[]> {
  const files = ["README.md", ...(await readdir(join(ROOT, "docs"))).filter((f) => f.endsWith(".md")).sort().map((f) => `docs/${f}`)];
  const found = new Set<string>();
  // `/mcp` only as a path of its own: not the file names mcp.ts or mcp.test.ts.
  const pattern = /\/(?:api\/v1\/[^\s`"'<>()[\]|]*|mcp(?![\w-]|\.\w)(?:\?[^\s`"'<>()[\]|]*)?)/g;
  for (const file of files) {
    for (const [match] of (await readFile(join(ROOT, file), "utf8")).matchAll(pattern)) {
      const path = match.replace(/[.,;:!?]+$/, "");
      if (/[{}<>…]/.test(path)) continue;
      found.add(path);
    }
  }
  return [...found].sort();
}

/** Per indicator: default pages, prebuilt pages, limit/offset, windows, selections, CSV, and random questions about time. */
function indicatorQuestions(indicators: readonly Indicator[], deflated: ReadonlySet<string>): Question[] {
  const questions: Question[] = [];
  const add = (kind: string, path: string, random: Random, share = 0.3) => questions.push({ kind, method: "GET", path, both: random() < share });
  const cpi = indicators.find((i) => i.unit === "index" && i.series.includes("general")) ?? indicators[0];
  const cpiMonths = cpi === undefined ? ["2026-01"] : [...new Set(cpi.dates.map((d) => d.slice(0, 7)))];

  for (const ind of indicators) {
    const { id, series, dates } = ind;
    const random = seeded(`indicator:${id}`);
    // The default answer, however it is spelled.
    for (const path of [endpoint(id), `${endpoint(id)}/`, `${endpoint(id)}?`, endpoint(id, [["limit", "500"]]), endpoint(id, [["offset", "0"]]), endpoint(id, [["format", "json"]])]) {
      questions.push({ kind: "default", method: "GET", path, both: true });
    }
    // Every prebuilt page, both ways: the computed answer must be the page's bytes.
    for (const key of ind.pages) {
      const [limit, offset] = key.split("/") as [string, string];
      questions.push({ kind: "page", method: "GET", path: endpoint(id, [["limit", limit], ["offset", offset]]), both: true });
      if (random() < 0.1) add("page", endpoint(id, [["offset", offset], ["limit", limit]]), random, 1);
    }
    for (let k = 0; k < 30; k++) {
      const limit = pick(random, ["1", "2", "3", "7", "10", "24", "50", "99", "100", "500", "1000", "4999", "5000", "010", String(int(random, 1, 60))]);
      const offset = pick(random, ["0", "1", limit, String(int(random, 0, 40)), String(int(random, 0, dates.length + 5)), "999999999999999"]);
      add("limit-offset", endpoint(id, random() < 0.5 ? [["limit", limit], ["offset", offset]] : [["offset", offset]]), random);
    }
    for (let k = 0; k < 50; k++) {
      let from = random() < 0.8 ? dateText(random, dates) : undefined;
      let to = random() < 0.8 ? dateText(random, dates) : undefined;
      // Mostly in order; the rest stay reversed, a 400.
      if (from !== undefined && to !== undefined && startOf(from) > endOf(to) && random() < 0.85) [from, to] = [to, from];
      const pairs: [string, string][] = [];
      if (from !== undefined) pairs.push(["from", from]);
      if (to !== undefined) pairs.push(["to", to]);
      if (random() < 0.5) pairs.push(["limit", pick(random, ["1", "5", "12", "100", "5000"])]);
      if (random() < 0.3) pairs.push(["offset", String(int(random, 0, 30))]);
      add("window", endpoint(id, pairs), random);
    }
    // Each sub-series by id (a sample of the health insurance's 1,554), then patterns and lists.
    const ids = series.length <= 12 ? series : shuffled(random, series).slice(0, 40);
    for (const s of ids) add("series-id", endpoint(id, [["series", s]]), random);
    for (let k = 0; k < 40; k++) {
      const pairs: [string, string][] = [["series", selection(random, series, 4)]];
      if (random() < 0.4) pairs.push(["from", dateText(random, dates)]);
      if (random() < 0.4) pairs.push(["limit", String(int(random, 1, 30))]);
      if (random() < 0.2) pairs.push(["offset", String(int(random, 0, 10))]);
      add("series-pattern", endpoint(id, pairs), random);
    }
    // CSV, both dialects, with and without a selection and a window.
    const csv = (dialect: boolean): [string, string][] => (dialect ? [["format", "csv"], ["dialect", "es"]] : [["format", "csv"]]);
    for (const dialect of [false, true]) {
      add(dialect ? "csv-es" : "csv", endpoint(id, csv(dialect)), random, 1);
      add(dialect ? "csv-es" : "csv", endpoint(id, [...csv(dialect), ["limit", "5000"]]), random, 1);
      for (let k = 0; k < 12; k++) {
        const pairs: [string, string][] = [];
        if (random() < 0.6) pairs.push(["series", selection(random, series, 2)]);
        if (random() < 0.5) pairs.push(["from", dateText(random, dates)]);
        if (random() < 0.6) pairs.push(["limit", String(int(random, 1, 40))]);
        if (random() < 0.2) pairs.push(["offset", String(int(random, 1, 10))]);
        add(dialect ? "csv-es" : "csv", endpoint(id, [...pairs, ...csv(dialect)]), random);
      }
    }
    for (let k = 0; k < 320; k++) add("time", endpoint(id, timeQuestion(random, ind, indicators, cpiMonths, deflated)), random);
  }
  return questions;
}

/** A random question about time: at, frequency (+aggregation), per, real, units (+base), with or without a selection and a window; many are 400s, as intended. */
function timeQuestion(random: Random, ind: Indicator, indicators: readonly Indicator[], cpiMonths: readonly string[], deflated: ReadonlySet<string>): [string, string][] {
  const { series, dates } = ind;
  const pairs: [string, string][] = [];
  // Every health insurance sub-series at once is mostly over the derived limits: select, nearly always.
  if (random() < (series.length > 12 ? 0.92 : 0.6)) pairs.push(["series", selection(random, series)]);
  if (random() < 0.3) {
    pairs.push(["at", dateText(random, dates)]);
    if (random() < 0.05) pairs.push([pick(random, ["from", "to", "frequency"]), pick(random, ["2020", "month"])]);
  } else {
    if (random() < 0.45) {
      pairs.push(["frequency", pick(random, ["month", "quarter", "semester", "year", "year", "week"])]);
      if (random() < 0.6) pairs.push(["aggregation", pick(random, ["mean", "end", "min", "max"])]);
    } else if (random() < 0.05) {
      pairs.push(["aggregation", "end"]);
    }
    if (random() < 0.4) pairs.push(["from", dateText(random, dates)]);
    if (random() < 0.2) pairs.push(["to", dateText(random, dates)]);
  }
  const per = random() < 0.2;
  if (per) {
    const other = pick(random, indicators);
    const s = random() < 0.07 ? "zz" : pick(random, other.series);
    pairs.push(["per", random() < 0.04 ? pick(random, ["x", "x:y", other.id]) : `${other.id}:${s}`]);
  }
  if (random() < (deflated.has(ind.unit) ? 0.3 : 0.06) && (!per || random() < 0.1)) {
    const month = random() < 0.9 ? pick(random, cpiMonths) : pick(random, ["2030-01", "1900-01", "2026-13", "2026"]);
    pairs.push(["real", month]);
  }
  if (random() < 0.55) {
    const units = pick(random, ["change", "percent_change", "change_a_year_ago", "percent_change_a_year_ago", "index", "index", "level", "ratio"]);
    pairs.push(["units", units]);
    if (units === "index" ? random() < 0.9 : random() < 0.04) pairs.push(["base", dateText(random, dates)]);
  }
  if (random() < 0.6) pairs.push(["limit", pick(random, ["1", "2", "4", "12", "24", "100", "500", "2000"])]);
  if (random() < 0.15) pairs.push(["offset", String(int(random, 1, 12))]);
  if (random() < 0.12) pairs.push(["format", "csv"]);
  if (random() < 0.05) pairs.push(["format", "csv"], ["dialect", "es"]);
  return random() < 0.3 ? shuffled(random, pairs) : pairs;
}

/** Faulty parameters, each a 400 (or, for a few, the surprise of a 200): names, repetitions, dates, integers, selections, the questions' rules. */
function badQuestions(indicators: readonly Indicator[]): Question[] {
  const raw = [
    "provider=CASMU", "Limit=1", "LIMIT=1", "limit=1&limit=2", "offset=0&offset=0", "from=2020&from=2021", "series=general&series=general",
    "from=2023-02-30", "from=2024-1-5", "from=2024-05-01T00:00", "from=2024-W01", "from=", "to=", "from=20240101", "from=2024-00", "from=0000",
    "to=2024-13-01", "from=2024-05&to=2024-01", "limit=0", "limit=5001", "limit=-1", "limit=1e3", "limit=%D9%A1%D9%A0", "limit=010", "limit=",
    "limit=1.5", "limit=%201", "offset=-0", "offset=1000000000000000", "offset=999999999999999", "offset=1e2", "format=xml", "format=CSV",
    "format=json&dialect=es", "dialect=es", "format=csv&dialect=fr", "series=", "series=,", "series=a,,b", "series=nope", "series=**",
    `series=${Array.from({ length: 101 }, (_, k) => `s${k}`).join(",")}`, "a%20b=1", "%ZZ=1", "=1", "&&", "limit", "from=2020&", "%E2%82%AC=1",
    "at=2025&from=2024", "at=2025&frequency=year", "aggregation=mean", "units=index", "base=2020", "units=index&base=", "frequency=week",
    "frequency=Month", "units=foo", "aggregation=median&frequency=year", "per=x", "per=x:y", "per=consumer-price-index:zz", "real=2030-01",
    "real=2026-13", "real=2026", "real=2026-07&per=domestic-worker-wages:hourly", "at=", "at=2025-02-29", "base=1900-01-01&units=index",
  ];
  const questions: Question[] = [];
  const random = seeded("bad");
  for (const ind of indicators) {
    for (const q of raw) questions.push({ kind: "bad", method: "GET", path: `/api/v1/${ind.id}?${q}`, both: random() < 0.25 });
  }
  // The derived limits: every sub-series monthly, every change, too many points.
  const wide = indicators.find((i) => i.series.length > 100);
  if (wide !== undefined) {
    const prefix = (wide.series[0] ?? "x").split(".")[0] as string;
    for (const q of ["frequency=month", "units=change", "frequency=month&from=2015", `series=${prefix}.*&frequency=month&limit=100`, `series=${prefix}.*&units=change&limit=2000`, "at=2026-01-01"]) {
      questions.push({ kind: "bad", method: "GET", path: `/api/v1/${wide.id}?${q}`, both: true });
    }
  }
  return questions;
}

/** Seeded junk query strings, as the tests' property does: odd characters, encodings, names and values. */
function junkQuestions(indicators: readonly Indicator[]): Question[] {
  const random = seeded("junk");
  const names = ["from", "to", "at", "series", "frequency", "aggregation", "per", "real", "units", "base", "limit", "offset", "format", "dialect", "x", "", "Series", "from[]"];
  const values = ["", "2024", "2024-05", "2024-05-31", "1", "0", "-1", "csv", "json", "es", "month", "index", "*", "a*b", "%", "%25", "%00", "%C3%A9", "+", "%2B", "..", "a,b", "☃", "1e2", " 1"];
  const questions: Question[] = [];
  for (let k = 0; k < 120; k++) {
    const parts = Array.from({ length: int(random, 1, 4) }, () => `${pick(random, names)}${random() < 0.9 ? "=" : ""}${pick(random, values)}`);
    questions.push({ kind: "junk", method: "GET", path: `/api/v1/${pick(random, indicators).id}?${parts.join(pick(random, ["&", "&", "&", ";", "&&"]))}` });
  }
  return questions;
}

/** Search: found, folded, filtered, paged, and its faults. */
function searchQuestions(indicators: readonly Indicator[]): Question[] {
  const ids = indicators.map((i) => i.id);
  const queries = [
    "q=casmu%20gineco", "q=casmu%20gynaecology", "q=M%C3%A9dica%20Uruguaya", "q=medica%20uruguaya", "q=medica+urug+gineco", "q=salario%20minimo",
    "q=ipc", "q=a&limit=100", "q=a&limit=100&offset=100", "q=casmu&facet=regime:fonasa&limit=100", "q=casmu&facet=provider:casmu,regime:sin%20fonasa",
    "q=consulta&facet=regime:FONASA,regime:NO%20FONASA&limit=5", "q=hourly", "q=CASMU", "q=casmu&limit=1&offset=3", "q=zzzzzz", "q=1",
    ...ids.map((id) => `q=a&indicator=${id}`), ...ids.map((id) => `q=${id.split("-")[0] as string}`),
    "", "q=", "q=%20", "q=-", `q=${"a".repeat(201)}`, `q=${"a".repeat(200)}`, "q=x&provider=CASMU", "q=x&q=y", "q=x&indicator=gdp", "q=x&facet=provider",
    "q=x&facet=nope:x", "q=x&limit=0", "q=x&limit=101", "q=x&offset=-1", "q=x&offset=1000000000000000", "q=x&limit=1e1",
  ];
  return queries.map((q) => ({ kind: "search", method: "GET", path: q === "" ? "/api/v1/search" : `/api/v1/search?${q}`, both: true }));
}

/** Paths the function may be handed: the static files' paths (in production the CDN answers most), near-misses and unknown ones. */
function pathQuestions(indicators: readonly Indicator[]): Question[] {
  const paths: string[] = [];
  for (const { id } of indicators) {
    for (const suffix of ["/metadata.json", "/metadata.json/", "/metadata.json/x", "/index.json", "/data.csv", "/data.es.csv", "/limit-10/offset-0.json", "/series", "//", "/x"]) paths.push(`/api/v1/${id}${suffix}`);
    paths.push(`/api/v1/${id.toUpperCase()}`, `/api/v1/${encodeURIComponent(id).replace("-", "%2D")}`, `/api/v1/${id}%2F`);
  }
  paths.push(
    "/api/v1/gdp", "/api/v1/search/", "/api/v1/search/x", "/api/v1/index.json", "/api/v1/index.json/x", "/api/v1/openapi.json", "/api/v1/catalog.json",
    "/api/v1/catalog.jsonld", "/api/v1", "/api/v1/", "/api/v1//x", "/api/", "/api", "/api/v2/consumer-price-index", "/api/v1/%00", "/api/v1/%",
    "/api/v1/..", "/api/v1/.%2E/x", "/api/v1/%E2%98%83", "/api/v1/a%20b", "/mcp/", "/mcp/x", "/api/mcp", "/api/v1/mcp",
  );
  const questions: Question[] = paths.map((path) => ({ kind: "path", method: "GET", path }));
  // Methods: the preflight, and the ones that are a 405 with Allow.
  const first = indicators[0]?.id ?? "x";
  for (const method of ["OPTIONS", "POST", "PUT", "DELETE", "PATCH"]) {
    for (const path of [`/api/v1/${first}`, "/api/v1/search?q=a", "/api/v1/gdp", "/mcp"]) questions.push({ kind: "method", method, path });
  }
  questions.push({ kind: "method", method: "GET", path: "/mcp" }, { kind: "method", method: "HEAD", path: "/mcp" });
  return questions;
}

/** MCP: JSON-RPC posts to `/mcp`, the handshake, the tool list and each tool with a few arguments, good and bad. */
function mcpQuestions(indicators: readonly Indicator[]): Question[] {
  const rpc = (id: number, method: string, params?: unknown) => JSON.stringify({ jsonrpc: "2.0", id, method, ...(params === undefined ? {} : { params }) });
  const call = (id: number, name: string, args: unknown) => rpc(id, "tools/call", { name, arguments: args });
  const bodies: string[] = [
    rpc(1, "initialize", { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "record-answers", version: "1" } }),
    rpc(2, "initialize", { protocolVersion: "2024-11-05", capabilities: {}, clientInfo: { name: "record-answers", version: "1" } }),
    rpc(3, "initialize", { protocolVersion: "1999-01-01", capabilities: {}, clientInfo: { name: "record-answers", version: "1" } }),
    JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }),
    rpc(4, "tools/list", {}),
    rpc(5, "tools/list"),
    rpc(6, "ping"),
    rpc(7, "resources/list", {}),
    rpc(8, "prompts/list", {}),
    rpc(9, "no/such/method", {}),
    call(10, "no_such_tool", {}),
    call(11, "search_series", { query: "casmu gineco" }),
    call(12, "search_series", { query: "Médica Uruguaya" }),
    call(13, "search_series", { query: "ipc" }),
    call(14, "search_series", { query: "a" }),
    call(15, "search_series", { query: "" }),
    call(16, "search_series", { query: "zzzzzz" }),
    call(17, "search_series", { query: "x".repeat(201) }),
    call(18, "search_series", {}),
    call(19, "get_metadata", { indicator: "gdp" }),
    call(20, "get_metadata", {}),
    call(21, "get_values", { indicator: "consumer-price-index", series: [] }),
    call(22, "get_values", { indicator: "consumer-price-index", series: ["general"], limit: 0 }),
    "{not json",
    "",
    JSON.stringify([JSON.parse(rpc(23, "tools/list", {})), JSON.parse(rpc(24, "ping"))]),
    JSON.stringify({ jsonrpc: "1.0", id: 25, method: "tools/list" }),
  ];
  let id = 100;
  for (const ind of indicators) {
    const s = ind.series;
    const first = s[0] ?? "x";
    const dates = ind.dates;
    const newest = dates[dates.length - 1] ?? "2026-01-01";
    const prefix = first.includes(".") ? `${first.split(".")[0] as string}.*` : first;
    bodies.push(
      call(id++, "search_series", { query: ind.id.split("-")[0], indicator: ind.id }),
      call(id++, "get_metadata", { indicator: ind.id }),
      call(id++, "get_values", { indicator: ind.id, series: [first] }),
      call(id++, "get_values", { indicator: ind.id, series: [prefix], limit: 100 }),
      call(id++, "get_values", { indicator: ind.id, series: [prefix], limit: 5000 }),
      call(id++, "get_values", { indicator: ind.id, series: [first], at: newest.slice(0, 7) }),
      call(id++, "get_values", { indicator: ind.id, series: s.slice(0, 3), from: dates[Math.floor(dates.length / 2)] ?? "2020", to: newest }),
      call(id++, "get_values", { indicator: ind.id, series: [first], frequency: "year", aggregation: "end", limit: 5 }),
      call(id++, "get_values", { indicator: ind.id, series: [first], frequency: "quarter", units: "percent_change_a_year_ago" }),
      call(id++, "get_values", { indicator: ind.id, series: [first], units: "index", base: dates[Math.floor(dates.length / 3)] ?? "2020" }),
      call(id++, "get_values", { indicator: ind.id, series: [first], units: "index" }),
      call(id++, "get_values", { indicator: ind.id, series: [first], real: "2026-07", units: "change" }),
      call(id++, "get_values", { indicator: ind.id, series: [first], per: "domestic-worker-wages:hourly", at: "2026-03-01" }),
      call(id++, "get_values", { indicator: ind.id, series: ["nope"] }),
      call(id++, "get_values", { indicator: ind.id, series: [first], frequency: "week" }),
    );
  }
  const questions: Question[] = bodies.map((body) => ({ kind: "mcp", method: "POST", path: "/mcp", headers: MCP_HEADERS, body, both: true }));
  // The transport's own checks: what the client must send.
  const list = rpc(200, "tools/list", {});
  questions.push(
    { kind: "mcp", method: "POST", path: "/mcp", headers: { "content-type": "application/json" }, body: list },
    { kind: "mcp", method: "POST", path: "/mcp", headers: { "content-type": "application/json", accept: "application/json" }, body: list },
    { kind: "mcp", method: "POST", path: "/mcp", headers: { "content-type": "text/plain", accept: MCP_HEADERS.accept }, body: list },
    { kind: "mcp", method: "POST", path: "/mcp?x=1", headers: MCP_HEADERS, body: list },
    { kind: "mcp", method: "POST", path: "/mcp", headers: { ...MCP_HEADERS, "mcp-session-id": "abc" }, body: list },
    { kind: "mcp", method: "POST", path: "/mcp", headers: { ...MCP_HEADERS, "mcp-protocol-version": "2025-06-18" }, body: list },
    { kind: "mcp", method: "POST", path: "/mcp", headers: { ...MCP_HEADERS, "mcp-protocol-version": "1999-01-01" }, body: list },
  );
  return questions;
}

/** The HTTP-date of `ms` in the three formats of RFC 9110 §5.6.7. */
function httpDates(ms: number): [string, string, string] {
  const d = new Date(ms);
  const days = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"];
  const months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
  const p = (n: number) => String(n).padStart(2, "0");
  const time = `${p(d.getUTCHours())}:${p(d.getUTCMinutes())}:${p(d.getUTCSeconds())}`;
  const [day, month] = [days[d.getUTCDay()] as string, months[d.getUTCMonth()] as string];
  return [
    d.toUTCString(),
    `${day}, ${p(d.getUTCDate())}-${month}-${p(d.getUTCFullYear() % 100)} ${time} GMT`,
    `${day.slice(0, 3)} ${month} ${String(d.getUTCDate()).padStart(2, " ")} ${time} ${d.getUTCFullYear()}`,
  ];
}

/**
 * HEAD and conditional requests, on a seeded sample of the questions asked so far
 * (chosen by position, not by answer, so the list does not follow the answers):
 * If-None-Match with the answer's own ETag, weak, in a list, `*`, another;
 * If-Modified-Since at, before and after its Last-Modified, in each date format.
 */
function followUps(pool: readonly Question[], answers: ReadonlyMap<Question, AnswerRecord>): Question[] {
  const random = seeded("follow-ups");
  const out: Question[] = [];
  const gets = pool.filter((q) => q.method === "GET");
  for (const q of shuffled(random, gets).slice(0, 250)) out.push({ kind: "head", method: "HEAD", path: q.path, both: q.both === true && random() < 0.5 });
  const fallbackModified = Number(EPOCH) * 1000;
  let k = 0;
  for (const q of shuffled(random, gets).slice(0, 320)) {
    const answer = answers.get(q);
    const etag = answer?.headers.etag ?? '"no-etag-here"';
    const modified = answer?.headers["last-modified"] === undefined ? fallbackModified : Date.parse(answer.headers["last-modified"]);
    const [imf, rfc850, asctime] = httpDates(modified);
    const variants: Record<string, string>[] = [
      { "if-none-match": etag },
      { "if-none-match": `W/${etag}` },
      { "if-none-match": `"other", ${etag}` },
      { "if-none-match": "*" },
      { "if-none-match": '"other"' },
      { "if-none-match": etag, "if-modified-since": httpDates(modified - 86_400_000)[0] },
      { "if-none-match": '"other"', "if-modified-since": imf },
      { "if-modified-since": imf },
      { "if-modified-since": rfc850 },
      { "if-modified-since": asctime },
      { "if-modified-since": httpDates(modified - 1000)[0] },
      { "if-modified-since": httpDates(modified + 86_400_000)[0] },
      { "if-modified-since": "yesterday" },
    ];
    const headers = variants[k++ % variants.length] as Record<string, string>;
    out.push({ kind: "conditional", method: random() < 0.2 ? "HEAD" : "GET", path: q.path, headers, both: q.both === true && random() < 0.5 });
  }
  return out;
}

// ---------------------------------------------------------------------------
// Asking and recording.

type Assets = ReturnType<typeof folderAssets>;

/** Asks `api` one question and makes its record. */
async function ask(api: Api, assets: Assets, q: Question, via: Via, i: number): Promise<AnswerRecord> {
  const init: RequestInit = { method: q.method };
  if (q.headers !== undefined) init.headers = q.headers;
  if (q.body !== undefined) init.body = q.body;
  const response = await api.fetch(new Request(ORIGIN + q.path, init), { ASSETS: assets, RATE_LIMIT_REQUESTS: NO_LIMIT });
  const body = Buffer.from(await response.arrayBuffer());
  const headers: Record<string, string> = {};
  for (const name of RECORDED_HEADERS) {
    const value = response.headers.get(name);
    if (value !== null) headers[name] = value;
  }
  // The question first (the request beside it), then the answer.
  const question: Omit<AnswerRecord, "status" | "headers" | "sha256" | "bytes"> = { i, method: q.method, path: q.path, via, kind: q.kind };
  if (q.headers !== undefined || q.body !== undefined) {
    question.request = {};
    if (q.headers !== undefined) question.request.headers = { ...q.headers };
    if (q.body !== undefined) question.request.body = q.body;
  }
  return { ...question, status: response.status, headers, sha256: createHash("sha256").update(body).digest("hex"), bytes: body.length };
}

/** Records every question into `out`; prints counts by status, kind and way. */
async function record(out: string, distOption: string | undefined, keep: boolean): Promise<void> {
  const dist = distOption === undefined ? await build() : resolve(distOption);
  if (!existsSync(join(dist, "_data/manifest.json")) && !existsSync(join(dist, "api/v1/index.json"))) throw new Error(`${dist} is not a built output folder`);
  const started = performance.now();
  const { indicators, deflated } = await readIndicators(dist);
  const assets = { prebuilt: folderAssets(dist), computed: computedOnly(folderAssets(dist)) };
  const apis = { prebuilt: new Api(), computed: new Api() };
  const records: AnswerRecord[] = [];
  const answers = new Map<Question, AnswerRecord>();
  const run = async (questions: readonly Question[]) => {
    for (const q of questions) {
      const first = await ask(apis.prebuilt, assets.prebuilt, q, "prebuilt", records.length);
      records.push(first);
      answers.set(q, first);
      if (q.both === true) records.push(await ask(apis.computed, assets.computed, q, "computed", records.length));
    }
  };
  const docs = (await documentedPaths()).map((path): Question => ({ kind: "docs", method: "GET", path, both: true }));
  const generated = [...indicatorQuestions(indicators, deflated), ...badQuestions(indicators), ...junkQuestions(indicators), ...searchQuestions(indicators)];
  await run(generated);
  await run([...pathQuestions(indicators), ...mcpQuestions(indicators)]);
  await run(followUps(generated, answers));
  // Last: the documents may gain or lose an example without moving any record before them.
  await run(docs);
  await writeFile(out, records.map((r) => JSON.stringify(r)).join("\n") + "\n");
  console.log(`recorded ${records.length} answers from ${dist} into ${out} in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  const tally = (key: (r: AnswerRecord) => string) => {
    const counts = new Map<string, number>();
    for (const r of records) counts.set(key(r), (counts.get(key(r)) ?? 0) + 1);
    return [...counts].sort(([a], [b]) => a.localeCompare(b)).map(([k, n]) => `${k}: ${n}`).join(", ");
  };
  console.log(`by status: ${tally((r) => String(r.status))}`);
  console.log(`by way: ${tally((r) => r.via)}`);
  console.log(`by kind: ${tally((r) => r.kind)}`);
  if (distOption === undefined) {
    if (keep) console.log(`kept the build at ${dist}`);
    else await rm(resolve(dist, ".."), { recursive: true, force: true });
  }
}

// ---------------------------------------------------------------------------
// Comparing two records.

/** A record's question, to pair records of two files even if one has a record the other lacks. */
const questionKey = (r: AnswerRecord): string => JSON.stringify([r.method, r.path, r.via, r.request ?? null]);

/**
 * Compares two records, pairing lines by their question (method, path, way,
 * request headers and body; repeats in order). Prints the counts and the first 20
 * differences. @returns whether every answer is the same and no question is missing.
 */
export async function compare(a: string, b: string): Promise<boolean> {
  const load = async (file: string) => {
    const lines = (await readFile(file, "utf8")).split("\n").filter((l) => l !== "");
    const map = new Map<string, AnswerRecord>();
    for (const line of lines) {
      const r = JSON.parse(line) as AnswerRecord;
      let key = questionKey(r);
      for (let n = 2; map.has(key); n++) key = `${questionKey(r)}#${n}`;
      map.set(key, r);
    }
    return map;
  };
  const [left, right] = [await load(a), await load(b)];
  let equal = 0;
  const differences: string[] = [];
  const onlyLeft = [...left.keys()].filter((k) => !right.has(k));
  const onlyRight = [...right.keys()].filter((k) => !left.has(k));
  for (const [key, x] of left) {
    const y = right.get(key);
    if (y === undefined) continue;
    const fields: string[] = [];
    for (const field of ["status", "sha256", "bytes", "kind"] as const) if (x[field] !== y[field]) fields.push(`${field} ${String(x[field])} → ${String(y[field])}`);
    for (const name of new Set([...Object.keys(x.headers), ...Object.keys(y.headers)])) {
      if (x.headers[name] !== y.headers[name]) fields.push(`headers.${name} ${x.headers[name] ?? "(none)"} → ${y.headers[name] ?? "(none)"}`);
    }
    if (fields.length === 0) equal++;
    else differences.push(`#${x.i}/#${y.i} ${x.method} ${x.path} [${x.via}]${x.request?.headers === undefined ? "" : ` ${JSON.stringify(x.request.headers)}`}\n    ${fields.join("\n    ")}`);
  }
  console.log(`${a}: ${left.size} records; ${b}: ${right.size} records`);
  console.log(`paired: ${left.size - onlyLeft.length}; equal: ${equal}; different: ${differences.length}; only in the first: ${onlyLeft.length}; only in the second: ${onlyRight.length}`);
  for (const d of differences.slice(0, 20)) console.log(`  ${d}`);
  for (const k of onlyLeft.slice(0, 10)) console.log(`  only in ${a}: ${k}`);
  for (const k of onlyRight.slice(0, 10)) console.log(`  only in ${b}: ${k}`);
  return differences.length === 0 && onlyLeft.length === 0 && onlyRight.length === 0;
}

// ---------------------------------------------------------------------------

const { values, positionals } = parseArgs({
  options: { out: { type: "string" }, dist: { type: "string" }, keep: { type: "boolean" }, compare: { type: "boolean" } },
  allowPositionals: true,
});
if (values.compare === true) {
  const [a, b] = positionals;
  if (a === undefined || b === undefined || positionals.length !== 2) throw new Error("usage: record-answers.ts --compare <a.jsonl> <b.jsonl>");
  process.exitCode = (await compare(a, b)) ? 0 : 1;
} else {
  if (values.out === undefined || positionals.length > 0) throw new Error("usage: record-answers.ts --out <file.jsonl> [--dist <built output folder>] [--keep]");
  await record(resolve(values.out), values.dist, values.keep === true);
}
