/**
 * A deterministic, seeded generator of synthetic indicators in the project's data
 * format (docs/DESIGN.md §3), for the benchmarks: the same size, shape and seed always give
 * the same files.
 */
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";

/**
 * few-long: 5 daily sub-series; many-short: sub-series of 16 semiannual points; daily-100: 100 daily
 * sub-series; monthly-100: sub-series of 100 monthly points (the last two: the shapes of the
 * file-size check at a million points, docs/formats.md "Files within the host's limit").
 */
export type Shape = "few-long" | "many-short" | "daily-100" | "monthly-100";

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

/** Whether a shape's sub-series carry facets (the many-series shapes, like the health insurance prices). */
const faceted = (shape: Shape) => shape === "many-short" || shape === "monthly-100";

/** The sub-series and dates of a shape: few long daily series, or many short ones. */
function layout(points: number, shape: Shape): { series: string[]; dates: string[] } {
  if (shape === "few-long" || shape === "daily-100") {
    const count = shape === "few-long" ? 5 : 100;
    const perSeries = Math.ceil(points / count);
    return {
      series: Array.from({ length: count }, (_, i) => `s${i + 1}`),
      dates: Array.from({ length: perSeries }, (_, k) => isoDay(END - k * DAY_MS)),
    };
  }
  const perSeries = shape === "many-short" ? 16 : 100;
  const count = Math.ceil(points / perSeries);
  const month = (k: number) => `${2026 - Math.floor((k + 11) / 12)}-${String(((12 - (k % 12)) % 12) + 1).padStart(2, "0")}-01`;
  return {
    series: Array.from({ length: count }, (_, i) => `p${String(Math.floor(i / 42)).padStart(5, "0")}.item-${(i >> 1) % 21}.r${i % 2}`),
    dates:
      shape === "many-short"
        ? Array.from({ length: perSeries }, (_, k) => `${2026 - Math.floor(k / 2)}-${k % 2 === 0 ? "01" : "07"}-01`).sort().reverse()
        : Array.from({ length: perSeries }, (_, k) => month(k)),
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
  const facets = series.map((_, i) => ({ provider: `Provider ${Math.floor(i / 42)}`, item: `Item ${(i >> 1) % 21}`, regime: `R${i % 2}` }));
  const declared = (name: "provider" | "item" | "regime") => ({
    title: same(name),
    values: Object.fromEntries([...new Set(facets.map((f) => f[name]))].map((v) => [v, v])),
  });
  const meta = {
    id,
    title: same(`Synthetic ${shape} indicator of ${points} points`),
    description: same("Generated for the benchmarks."),
    unit: "UYU",
    rhythm: shape === "few-long" || shape === "daily-100" ? "daily" : shape === "many-short" ? "semiannual" : "monthly",
    license: "CC-BY-4.0",
    source: { name: same("Benchmark generator"), url: "https://example.test/" },
    sourceKinds: [{ prefix: "https://example.test/", kind: "official" }],
    notes: [],
    ...(faceted(shape) ? { facets: { provider: declared("provider"), item: declared("item"), regime: declared("regime") } } : {}),
    series: series.map((s, i) =>
      faceted(shape) ? { id: s, title: same(`Series ${s}`), facets: facets[i] } : { id: s, title: same(`Series ${s}`) },
    ),
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
