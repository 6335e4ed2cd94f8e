/**
 * A deterministic, seeded generator of synthetic indicators in the project's data
 * format (docs/DESIGN.md §3), for the benchmarks: the same size, shape and seed always give
 * the same files.
 */
import { cp, mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";

/**
 * few-long: 5 daily sub-series; many-short: sub-series of 16 semiannual points;
 * daily-100: 100 daily sub-series of points ÷ 100 days; wide-100: points ÷ 100
 * monthly sub-series of 100 points each, with facets. The last two are the growth
 * curves' shapes (scripts/bench/scale.ts): their sub-series are in 100 groups
 * (`g00.*` … `g99.*`, a 1% each), and each title holds its group's word (the id).
 */
export type Shape = "few-long" | "many-short" | "daily-100" | "wide-100";

/** The shapes with facets, described like the health insurance prices' (provider, item, regime). */
const FACETED: readonly Shape[] = ["many-short", "wide-100"];

/** The group (0–99) of the sub-series at `i` of `count` in the growth curves' shapes. */
const group = (i: number, count: number) => Math.floor((i * 100) / count);

/** A growth-curve shape's group word: the id's first part and a word of its titles (`g07`). */
export const groupWord = (g: number) => `g${String(g).padStart(2, "0")}`;

/** mulberry32: a small, fast, seeded PRNG. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const DAY_MS = 86_400_000;
const END = Date.UTC(2026, 0, 1);
const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** The sub-series (sorted) and dates (newest first) of a shape. */
export function layout(points: number, shape: Shape): { series: string[]; dates: string[] } {
  if (shape === "daily-100" || shape === "wide-100") {
    const count = shape === "daily-100" ? 100 : Math.ceil(points / 100);
    const width = String(count - 1).length;
    return {
      series: Array.from({ length: count }, (_, i) => `${groupWord(group(i, count))}.s${String(i).padStart(width, "0")}`),
      dates:
        shape === "daily-100"
          ? Array.from({ length: Math.ceil(points / 100) }, (_, k) => isoDay(END - k * DAY_MS))
          : Array.from({ length: 100 }, (_, k) => isoDay(Date.UTC(2026, -k, 1))),
    };
  }
  if (shape === "few-long") {
    const perSeries = Math.ceil(points / 5);
    return {
      series: Array.from({ length: 5 }, (_, i) => `s${i + 1}`),
      dates: Array.from({ length: perSeries }, (_, k) => isoDay(END - k * DAY_MS)),
    };
  }
  const perSeries = 16;
  const count = Math.ceil(points / perSeries);
  return {
    series: Array.from({ length: count }, (_, i) => `p${String(Math.floor(i / 42)).padStart(5, "0")}.item-${(i >> 1) % 21}.r${i % 2}`),
    dates: Array.from({ length: perSeries }, (_, k) => `${2026 - Math.floor(k / 2)}-${k % 2 === 0 ? "01" : "07"}-01`).sort().reverse(),
  };
}

/**
 * Writes `data/<id>/indicator.json` and CSV files (at most 50,000 rows each) for an
 * indicator of `points` points, and returns its id.
 */
export async function generateIndicator(dataDir: string, points: number, shape: Shape, seed = 1): Promise<string> {
  const id = `synthetic-${shape}-${points}`;
  const dir = join(dataDir, id);
  await mkdir(dir, { recursive: true });
  const random = prng(seed);
  const { series, dates } = layout(points, shape);
  const same = (text: string) => ({ es: text, en: text });
  const grouped = shape === "daily-100" || shape === "wide-100";
  const facets = series.map((_, i) => ({
    provider: grouped ? `Provider ${groupWord(group(i, series.length))}` : `Provider ${Math.floor(i / 42)}`,
    item: `Item ${(i >> 1) % 21}`,
    regime: `R${i % 2}`,
  }));
  const faceted = FACETED.includes(shape);
  const rhythms: Record<Shape, string> = { "few-long": "daily", "many-short": "semiannual", "daily-100": "daily", "wide-100": "monthly" };
  const declared = (name: "provider" | "item" | "regime") => ({
    title: same(name),
    values: Object.fromEntries([...new Set(facets.map((f) => f[name]))].map((v) => [v, v])),
  });
  const meta = {
    id,
    title: same(`Synthetic ${shape} indicator of ${points} points`),
    description: same("Generated for the benchmarks."),
    unit: "UYU",
    rhythm: rhythms[shape],
    license: "CC-BY-4.0",
    source: { name: same("Benchmark generator"), url: "https://example.test/" },
    notes: [],
    // Every point cites a page of the generator's site: a build refuses a source of no declared kind.
    sourceKinds: [{ prefix: "https://example.test/", kind: "official" }],
    ...(faceted ? { facets: { provider: declared("provider"), item: declared("item"), regime: declared("regime") } } : {}),
    series: series.map((s, i) => (faceted ? { id: s, title: same(`Series ${s}`), facets: facets[i] } : { id: s, title: same(`Series ${s}`) })),
  };
  await writeFile(join(dir, "indicator.json"), JSON.stringify(meta, null, 1));
  let rows: string[] = [];
  let written = 0;
  let file = 0;
  const flush = async () => {
    if (rows.length === 0) return;
    await writeFile(join(dir, `part-${String(file++).padStart(4, "0")}.csv`), `date,series,value,source\n${rows.join("\n")}\n`);
    rows = [];
  };
  outer: for (const s of series) {
    for (const date of dates) {
      if (written >= points) break outer;
      rows.push(`${date},${s},${(50 + random() * 1000).toFixed(2)},https://example.test/${s}`);
      written++;
      if (rows.length >= 50_000) await flush();
    }
  }
  await flush();
  return id;
}

/** The growth curves by indicator count (scripts/bench/many.ts): months of each small indicator's ten years. */
const SMALL_MONTHS = Array.from({ length: 120 }, (_, k) => isoDay(Date.UTC(2025, 11 - k, 1)));

/**
 * Writes a small indicator, `small-<n>`: three monthly sub-series of ten years
 * (360 points), seeded by `n`, the shape the issue of a thousand indicators names.
 */
export async function generateSmall(dataDir: string, n: number, width = 4): Promise<string> {
  const id = `small-${String(n).padStart(width, "0")}`;
  const dir = join(dataDir, id);
  await mkdir(dir, { recursive: true });
  const random = prng(n + 1);
  const same = (text: string) => ({ es: text, en: text });
  const series = ["a", "b", "c"];
  const meta = {
    id,
    title: same(`Small indicator ${n}`),
    description: same("Generated for the growth curves by indicator count."),
    unit: "UYU",
    rhythm: "monthly",
    license: "CC-BY-4.0",
    source: { name: same("Benchmark generator"), url: "https://example.test/" },
    notes: [],
    sourceKinds: [{ prefix: "https://example.test/", kind: "official" }],
    series: series.map((s) => ({ id: s, title: same(`Series ${s} of ${n}`) })),
  };
  await writeFile(join(dir, "indicator.json"), JSON.stringify(meta, null, 1));
  const rows = series.flatMap((s) => SMALL_MONTHS.map((date) => `${date},${s},${(50 + random() * 1000).toFixed(2)},https://example.test/${id}/${s}`));
  await writeFile(join(dir, "data.csv"), `date,series,value,source\n${rows.join("\n")}\n`);
  return id;
}

/**
 * A data folder of `count` small indicators (`generateSmall`) beside the real ones
 * of `realData` (copied; none when `null`): what the growth curves by indicator
 * count and the tail's system test build.
 */
export async function generateMany(dataDir: string, count: number, realData: string | null): Promise<string[]> {
  if (realData !== null) await cp(realData, dataDir, { recursive: true });
  const ids: string[] = [];
  for (let n = 1; n <= count; n++) ids.push(await generateSmall(dataDir, n));
  return ids;
}
