/**
 * The questions about time (`at`, `frequency`, `aggregation`, `per`, `real`, `units`,
 * `base`) checked against an independent oracle: test/python/time_oracle.py, written
 * from the specification alone with Debian's pandas (it reads data/ and nothing of
 * src/). Seeded random queries over the four indicators, valid ones mostly and some
 * the specification makes a 400, are fetched as JSON from `wrangler pages dev`
 * serving the real build (test/e2e/global-setup.ts), and all of them are answered by
 * one Python process; then each answer is compared: the same status, the same
 * (date, sub-series) list in order, the same `meta.total`, values equal up to the
 * API's rounding to 8 significant digits. A few are also fetched as CSV and read by
 * `pd.read_csv`: the same rows as the JSON.
 *
 * Beyond the specification, two budgets of docs/time.md: a derived answer of more than
 * MAX_DERIVED_POINTS points is a 400 naming `limit`, which the oracle models exactly (given the
 * cap, the one number this file takes from src/); and a question estimated to compute more than
 * MAX_DERIVED_VALUES values is a 400 too, an estimate of the API's own work that the oracle does
 * not model: such a refusal skips its comparison (shown as skipped, with the API's detail), and
 * at most a tenth of the queries may be skipped so.
 *
 * Each test is named by its query's URL; a failure prints both answers.
 */
import { readFileSync } from "node:fs";
import { rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { beforeAll, describe, expect, inject, it } from "vitest";
import { MAX_DERIVED_POINTS } from "../../src/core/answer/contract.js";
import { ROOT, runProcess, tempDir } from "../helpers.js";
import { EPOCH } from "./global-setup.js";

const server = inject("system").urls.main;

const CPI = "consumer-price-index";
const DWW = "domestic-worker-wages";
const NMW = "national-minimum-wage";
const HIP = "health-insurance-prices";

const idsOf = (indicator: string): string[] =>
  (JSON.parse(readFileSync(join(ROOT, "data", indicator, "indicator.json"), "utf8")) as { series: { id: string }[] }).series.map((s) => s.id).sort();
const HIP_IDS = idsOf(HIP);
const DWW_IDS = idsOf(DWW);

interface Query {
  readonly indicator: string;
  readonly params: Record<string, string>;
}

const pathOf = (q: Query, extra: Record<string, string> = {}) => `/api/v1/${q.indicator}?${new URLSearchParams({ ...q.params, ...extra }).toString()}`;

/** mulberry32: a small seeded PRNG, so every run draws the same queries. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const random = prng(20_251_120);
const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)] as T;
const chance = (p: number) => random() < p;
const int = (lo: number, hi: number) => lo + Math.floor(random() * (hi - lo + 1));
const pad = (n: number) => String(n).padStart(2, "0");

/** Years to draw dates from, per indicator: its data and a little around. */
const YEARS: Record<string, [number, number]> = { [CPI]: [1985, 2027], [DWW]: [2002, 2027], [NMW]: [1990, 2027], [HIP]: [2014, 2027] };
/** Years most of its sub-series cover: where an index's base mostly falls. */
const CORE: Record<string, [number, number]> = { [CPI]: [1940, 2025], [DWW]: [2011, 2025], [NMW]: [1991, 2025], [HIP]: [2015, 2025] };

/** A date in one of the accepted forms (YYYY, YYYY-MM, YYYY-MM-DD; now and then the 29th of February or a 31st). */
function dateText(indicator: string, years = YEARS): string {
  const [lo, hi] = years[indicator] as [number, number];
  const year = indicator === CPI && years === YEARS && chance(0.1) ? int(1938, 1984) : int(lo, hi);
  const roll = random();
  if (roll < 0.2) return String(year);
  const month = int(1, 12);
  if (roll < 0.55) return `${year}-${pad(month)}`;
  if (roll < 0.6) return `${[2016, 2020, 2024][int(0, 2)] as number}-02-29`;
  if (roll < 0.65) return `${year}-${pick(["01", "03", "05", "07", "08", "10", "12"])}-31`;
  return `${year}-${pad(month)}-${pad(int(1, 28))}`;
}

/** A date's first day, to order two of them. */
const firstDay = (text: string) => (text.length === 4 ? `${text}-01-01` : text.length === 7 ? `${text}-01` : text);

/** The `series` parameter: for health insurance a few ids or a pattern, never the whole 1,554. */
function selection(indicator: string): string | undefined {
  switch (indicator) {
    case CPI:
      return chance(0.5) ? "general" : undefined;
    case NMW:
      return chance(0.5) ? "monthly" : undefined;
    case DWW: {
      const roll = random();
      if (roll < 0.25) return undefined;
      if (roll < 0.45) return pick(["monthly*", "hourly*", "*-montevideo", "*-interior"]);
      return [...new Set(Array.from({ length: int(1, 3) }, () => pick(DWW_IDS)))].join(",");
    }
    default: {
      const roll = random();
      const one = pick(HIP_IDS).split(".");
      if (roll < 0.45) return [...new Set(Array.from({ length: int(1, 4) }, () => pick(HIP_IDS)))].join(",");
      if (roll < 0.7) return `${one[0] as string}.*`;
      if (roll < 0.85) return `*.${one[1] as string}.${one[2] as string}`;
      return `${one[0] as string}.${one[1] as string}.*`;
    }
  }
}

const PER = [`${DWW}:hourly`, `${DWW}:monthly`, `${NMW}:monthly`, `${CPI}:general`];
const UNITS = ["level", "change", "percent_change", "change_a_year_ago", "percent_change_a_year_ago", "index"];

/** A valid query, most of the time: a selection, one time window (or none), transforms. */
function validQuery(indicator: string): Query {
  const params: Record<string, string> = {};
  const series = selection(indicator);
  if (series !== undefined) params.series = series;
  const time = random();
  if (time < 0.25) {
    params.at = dateText(indicator);
  } else if (time < 0.8) {
    let from = chance(0.8) ? dateText(indicator) : undefined;
    let to = chance(0.6) ? dateText(indicator) : undefined;
    if (from !== undefined && to !== undefined && firstDay(from) > firstDay(to)) [from, to] = [to, from]; // then from ≤ to
    if (from !== undefined) params.from = from;
    if (to !== undefined) params.to = to;
  }
  if (params.at === undefined && chance(0.45)) {
    params.frequency = pick(["month", "quarter", "semester", "year"]);
    const aggregation = pick([undefined, "mean", "end", "min", "max"]);
    if (aggregation !== undefined) params.aggregation = aggregation;
  }
  if (chance(0.25)) params.per = chance(0.15) ? `${HIP}:${pick(HIP_IDS)}` : pick(PER);
  else if (indicator !== CPI && chance(0.35)) params.real = `${int(2010, 2026)}-${pad(int(1, 12))}`.replace(/^2026-(0[89]|1[0-2])$/, "2026-07");
  if (chance(0.55)) {
    const units = pick(UNITS);
    params.units = units;
    if (units === "index") params.base = dateText(indicator, chance(0.85) ? CORE : YEARS);
  }
  if (chance(0.3)) params.limit = String(pick([1, 2, 3, 5, 12, int(1, 40)]));
  if (chance(params.at === undefined ? 0.2 : 0.05)) params.offset = String(pick([0, 1, 2, int(0, 10)]));
  // A pattern of health insurance sub-series (37 or 42 of them) transformed is mostly a few points each: under the cap.
  const derived = ["frequency", "per", "real"].some((k) => k in params) || (params.units ?? "level") !== "level";
  if (indicator === HIP && derived && params.series?.includes("*") && params.limit === undefined && chance(0.7)) params.limit = String(int(1, 40));
  return { indicator, params };
}

/** A query the specification makes a 400 (a valid one with one fault added). */
function invalidQuery(indicator: string): Query {
  const { params } = validQuery(indicator);
  delete params.base;
  if (params.units === "index") delete params.units;
  const fault = pick([
    () => Object.assign(params, { at: "2020-05", from: "2019" }),
    () => Object.assign(params, { at: "2021-03-04", frequency: "quarter" }),
    () => {
      delete params.frequency;
      Object.assign(params, { aggregation: "end" });
    },
    () => Object.assign(params, { base: "2020-01" }),
    () => Object.assign(params, { units: "index" }),
    () => Object.assign(params, { per: `${NMW}:monthly`, real: "2020-01" }),
    () => {
      delete params.per;
      Object.assign(params, { real: pick(["2026-08", "1930-01", "2024-13", "2024"]) });
    },
    () => {
      delete params.real;
      Object.assign(params, { per: pick(["gross-domestic-product:general", `${NMW}:hourly`, `${CPI}:monthly`, `${DWW}:*`]) });
    },
    () => Object.assign(params, { frequency: pick(["week", "day", "Month"]) }),
    () => Object.assign(params, { frequency: "year", aggregation: pick(["median", "sum", "last"]) }),
    () => Object.assign(params, { units: pick(["percent", "levels", "pct_change"]) }),
    () => Object.assign(params, { units: "index", base: pick(["1900-01", "2099-06-01", "2024-02-30"]) }),
  ]);
  fault();
  if (indicator === CPI && params.per === undefined && chance(0.3)) Object.assign(params, { real: "2020-01" }); // the CPI is not deflated
  return { indicator, params };
}

/** Fixed queries first (the examples worked by hand), then the seeded random ones. */
const QUERIES: Query[] = [
  { indicator: DWW, params: { series: "monthly", at: "2025-03-15" } },
  { indicator: CPI, params: { units: "percent_change_a_year_ago", from: "2025-01", to: "2025-12" } },
  { indicator: DWW, params: { series: "monthly", frequency: "year", from: "2022" } },
  { indicator: NMW, params: { units: "index", base: "2020-06", from: "2018" } },
  { indicator: CPI, params: { real: "2024-01" } },
  { indicator: HIP, params: { series: "casmu.*", per: `${CPI}:general`, frequency: "year", limit: "2" } },
  // The coverage bound max(V, newest point) + 1 day: July 2026 is covered one day only, so no month point.
  { indicator: CPI, params: { frequency: "month", from: "2026" } },
  { indicator: DWW, params: { series: "monthly-interior", frequency: "quarter", to: "2004" } },
  { indicator: DWW, params: { series: "monthly", units: "change" } },
  { indicator: HIP, params: { series: "amecom.test-basic-lab-routine.fonasa", frequency: "year", aggregation: "max" } },
  { indicator: NMW, params: { frequency: "semester", aggregation: "min", units: "percent_change", real: "2020-02", limit: "4", offset: "1" } },
  // Every one of the 1,554 sub-series: the irregular rule (the next publication of any of them) for each.
  { indicator: HIP, params: { at: "2019-09-15" } },
  // The newest CPI point covers one day (V is older): in force on 2026-07-01, not on the 2nd; no 2026 Q3.
  { indicator: CPI, params: { at: "2026-07-01" } },
  { indicator: CPI, params: { at: "2026-07-02" } },
  { indicator: CPI, params: { frequency: "quarter", aggregation: "end", from: "2025" } },
  // Zeros: no percent change from 0, no ratio to a divisor of 0, no index on a base value of 0.
  { indicator: HIP, params: { series: "amsj.consult-paediatrics.fonasa,camcel.consult-reference-physician.fonasa", units: "percent_change" } },
  { indicator: DWW, params: { series: "monthly", per: `${HIP}:camcel.consult-reference-physician.fonasa` } },
  { indicator: HIP, params: { series: "amsj.consult-paediatrics.*,camcel.consult-reference-physician.fonasa", units: "index", base: "2020-03" } },
  { indicator: HIP, params: { series: "casmu.consult-general-medicine.fonasa", per: `${HIP}:casmu.consult-general-medicine.fonasa` } },
  // The base is covered by the level but not by a complete year (2026 ends with the data): a 400.
  { indicator: NMW, params: { frequency: "year", units: "index", base: "2026-03" } },
  { indicator: NMW, params: { frequency: "year", units: "index", base: "2025-03", from: "2020" } },
  // The parameters that were there before.
  { indicator: NMW, params: { limit: "0", units: "change" } },
  { indicator: NMW, params: { offset: "-1", frequency: "year" } },
  { indicator: DWW, params: { from: "2024-02", to: "2024-01-31", real: "2020-01" } },
  { indicator: DWW, params: { series: "monthly,nope", frequency: "year" } },
  { indicator: DWW, params: { at: "2023-02-29" } },
  // A wide ratio: CASMU's 42 sub-series per CPI, under docs/time.md's cap on a derived answer's points (the
  // cap's edge, exactly MAX_DERIVED_POINTS and one more, is test/integration/time-questions.test.ts's: the
  // oracle's day-by-day join of 168 sub-series for it took half a minute of a two-core test run).
  { indicator: HIP, params: { series: "casmu.*", per: `${CPI}:general` } },
];
const INDICATORS = [CPI, DWW, NMW, HIP];
for (let i = 0; i < 144; i++) {
  const indicator = INDICATORS[i % 4] as string;
  QUERIES.push(chance(0.15) ? invalidQuery(indicator) : validQuery(indicator));
}

interface ApiAnswer {
  status: number;
  points: [string, string, number][];
  total: number | null;
  /** A refusal's `detail`, to show. */
  detail?: string;
}
interface OracleAnswer {
  error?: number;
  /** "points": refused by docs/time.md's cap (MAX_DERIVED_POINTS) of a derived answer (not by the specification). */
  why?: string;
  points?: [string, string, number][];
  total?: number;
}

/** The API's answer; one that takes over 30 s is a failure of its own query, not a hang of the whole file. */
async function fetchAnswer(q: Query): Promise<ApiAnswer> {
  let response: Response;
  let text: string;
  try {
    response = await fetch(server + pathOf(q), { signal: AbortSignal.timeout(30_000) });
    text = await response.text();
  } catch (error) {
    return { status: -1, points: [], total: null, detail: `no answer: ${String(error)}` };
  }
  if (response.status !== 200) {
    let detail = text.slice(0, 300);
    try {
      detail = (JSON.parse(text) as { error?: { detail?: string } }).error?.detail ?? detail;
    } catch {
      // not JSON: its text as it is
    }
    return { status: response.status, points: [], total: null, detail };
  }
  const body = JSON.parse(text) as { data: { date: string; series: string; value: number }[]; meta: { total: number } };
  return { status: 200, points: body.data.map((p) => [p.date, p.series, p.value]), total: body.meta.total };
}

/** Equal up to the API's rounding: 1e-7 relative (8 significant digits round by at most 5e-8), 1e-9 absolute near zero. */
const close = (a: number, b: number) => typeof a === "number" && (a === b || Math.abs(a - b) <= 1e-7 * Math.max(Math.abs(a), Math.abs(b)) || Math.abs(a - b) <= 1e-9);

/** A refusal by docs/time.md's budget on the values a question computes (not modelled by the oracle). */
const overValues = (api: ApiAnswer) => api.status === 400 && /^(frequency|series): this question computes about [\d,]+ values, over the /.test(api.detail ?? "");

/** What differs between the two answers (empty: none). */
function differences(api: ApiAnswer, oracle: OracleAnswer): string[] {
  if (oracle.error !== undefined) {
    if (api.status !== oracle.error) return [`status: API ${api.status}, oracle ${oracle.error}${oracle.why === undefined ? "" : ` (${oracle.why})`}`];
    if (oracle.why === "points" && !(api.detail ?? "").startsWith("limit: ")) return [`the 5,000-point cap: the API's detail does not name limit`];
    return [];
  }
  if (api.status !== 200) return [`status: API ${api.status}, oracle 200`];
  const found: string[] = [];
  const expected = oracle.points ?? [];
  if (api.total !== oracle.total) found.push(`total: API ${api.total}, oracle ${oracle.total}`);
  const keys = (ps: [string, string, number][]) => ps.map(([d, s]) => `${d} ${s}`);
  const [a, o] = [keys(api.points), keys(expected)];
  if (a.join("|") !== o.join("|")) {
    const k = a.findIndex((key, i) => key !== o[i]);
    const at = k < 0 ? Math.min(a.length, o.length) : k;
    found.push(`points: API ${a.length}, oracle ${o.length}; first difference at #${at}: API ${a[at] ?? "none"}, oracle ${o[at] ?? "none"}`);
  } else {
    api.points.forEach(([d, s, v], i) => {
      const w = (expected[i] as [string, string, number])[2];
      if (!close(v, w)) found.push(`value of ${d} ${s}: API ${v}, oracle ${w}`);
    });
  }
  return found;
}

const shown = (x: unknown) => {
  const text = JSON.stringify(x);
  return text.length > 4000 ? `${text.slice(0, 4000)}…` : text;
};

let apiAnswers: ApiAnswer[] = [];
let oracleAnswers: OracleAnswer[] = [];
let version = "";

beforeAll(async () => {
  const ensured = await runProcess("bash", [join(ROOT, "scripts/ensure-python.sh")]);
  expect(ensured.code, ensured.stderr).toBe(0);
  apiAnswers = new Array<ApiAnswer>(QUERIES.length);
  for (let i = 0; i < QUERIES.length; i += 8) {
    await Promise.all(QUERIES.slice(i, i + 8).map(async (q, j) => (apiAnswers[i + j] = await fetchAnswer(q))));
  }
  // V: the UTC date of the answers' Last-Modified (the build's SOURCE_DATE_EPOCH).
  const plain = await fetch(`${server}/api/v1/${CPI}?limit=1`);
  await plain.arrayBuffer();
  version = new Date(plain.headers.get("last-modified") as string).toISOString().slice(0, 10);
  oracleAnswers = await runOracle(QUERIES);
}, 300_000);

/** Runs the oracle once on every query (stdin through a temporary file: runProcess takes no input). */
async function runOracle(queries: readonly Query[]): Promise<OracleAnswer[]> {
  const dir = await tempDir("time-oracle-");
  try {
    const input = join(dir, "queries.json");
    await writeFile(input, JSON.stringify(queries));
    const run = await runProcess("bash", [
      "-c",
      'exec /usr/bin/python3 test/python/time_oracle.py data "$0" --max-points "$1" < "$2"',
      version,
      String(MAX_DERIVED_POINTS),
      input,
    ]);
    expect(run.code, run.stderr).toBe(0);
    const answers = JSON.parse(run.stdout) as OracleAnswer[];
    expect(answers).toHaveLength(queries.length);
    return answers;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

describe("questions about time: the API against the pandas oracle", () => {
  it("draws at least 120 queries over the four indicators, valid ones mostly, 400s too", () => {
    expect(QUERIES.length).toBeGreaterThanOrEqual(120);
    expect(new Set(QUERIES.map((q) => q.indicator)).size).toBe(4);
    const refused = oracleAnswers.filter((a) => a.error !== undefined).length;
    expect(refused).toBeGreaterThan(5);
    expect(refused).toBeLessThan(QUERIES.length / 3);
    // The values budget may skip a few comparisons, not hollow the test out.
    const skipped = QUERIES.filter((_, i) => overValues(apiAnswers[i] as ApiAnswer) && (oracleAnswers[i] as OracleAnswer).error === undefined);
    expect(skipped.length, skipped.map((q) => pathOf(q)).join("\n")).toBeLessThanOrEqual(QUERIES.length / 10);
    // V is the build's SOURCE_DATE_EPOCH (2026-11-20, test/e2e/global-setup.ts): the wages, due again on 2026-07-01, have ended before it.
    expect(version).toBe(new Date(Number(EPOCH) * 1000).toISOString().slice(0, 10));
  });

  // Named by the full URL (it.each would shorten it).
  QUERIES.forEach((q, i) => {
    const url = pathOf(q);
    it(`#${i} ${url}`, (context) => {
      const api = apiAnswers[i] as ApiAnswer;
      const oracle = oracleAnswers[i] as OracleAnswer;
      if (overValues(api) && oracle.error === undefined) context.skip(`refused by the API's values budget: ${api.detail ?? ""}`);
      const problems = differences(api, oracle);
      expect(problems, `${server}${url}\n${problems.join("\n")}\nAPI:    ${shown(api)}\noracle: ${shown(oracle)}`).toEqual([]);
    });
  });

  it("the same answers as CSV, read by pandas: the JSON's dates, sub-series and values; derived rows without source or note", async () => {
    const derived = (q: Query) => ["frequency", "per", "real"].some((k) => k in q.params) || (q.params.units ?? "level") !== "level";
    const chosen = QUERIES.map((q, i) => ({ q, i })).filter(({ q, i }) => apiAnswers[i]?.status === 200 && apiAnswers[i].points.length > 0 && derived(q)).slice(0, 8);
    expect(chosen.length).toBe(8);
    const program = [
      "import json, sys, pandas as pd",
      "out = []",
      "for url in sys.argv[1:]:",
      "    df = pd.read_csv(url, dtype={'date': str, 'series': str}, float_precision='round_trip')",
      "    out.append({'columns': list(df.columns), 'rows': [[r.date, r.series, float(r.value)] for r in df.itertuples()],",
      "                'blank': bool(df['source'].isna().all() and df['note'].isna().all())})",
      "print(json.dumps(out))",
    ].join("\n");
    const run = await runProcess("/usr/bin/python3", ["-c", program, ...chosen.map(({ q }) => server + pathOf(q, { format: "csv" }))]);
    expect(run.code, run.stderr).toBe(0);
    const read = JSON.parse(run.stdout) as { columns: string[]; rows: [string, string, number][]; blank: boolean }[];
    chosen.forEach(({ q, i }, k) => {
      const csv = read[k] as (typeof read)[number];
      const url = server + pathOf(q, { format: "csv" });
      expect(csv.columns, url).toEqual(["date", "series", "value", "source", "note"]);
      expect(csv.rows, url).toEqual((apiAnswers[i] as ApiAnswer).points);
      expect(csv.blank, url).toBe(true);
    });
  });
});
