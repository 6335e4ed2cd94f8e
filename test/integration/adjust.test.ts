/**
 * `/api/v1/adjust` on the real data, answered by the handler workerd runs: for each
 * sub-series an indicator declares it adjusts with (`adjusts` in data/), 200 seeded
 * random questions against an independent oracle (test/python/adjust_oracle.py:
 * pandas, reading only data/, the value covering a day as its time oracle finds
 * it for `at`), the CPI's against INE's method (the index of the month of each
 * date), the CSV read back by a CSV library, and every fault a 400 naming its
 * parameter.
 */
import { spawnSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { parse } from "csv-parse/sync";
import { beforeAll, describe, expect, inject, it } from "vitest";
import { Api } from "../../src/api/handler.js";
import { folderAssets } from "../../scripts/lib/folder-assets.js";
import { prng } from "../../scripts/bench/generate.js";
import { ROOT } from "../files.js";

/** The shared build's data version (test/epoch.ts). */
const VERSION = "2026-11-20";
/** Today, as the handler is told it (noon in Montevideo): the latest date either end may name. */
const TODAY = "2026-11-28";
const NOW = Date.parse(`${TODAY}T15:00:00Z`);

interface End {
  date: string;
  point: string;
  value: number;
  covers: { from: string; to: string };
  source: string;
  note: string | null;
}
interface Adjusted {
  data: { amount: number; from: End; to: End; factor: number; adjusted: number; in_units: number | null };
  meta: { by: string; units_of: { es: string; en: string } | null; url: string; used: Record<"from" | "to", { date: string; reason: string | null; due: string | null }> };
}
type Oracle =
  | { error: 400 }
  | { from_point: string; from_value: number; from_reason: string | null; from_due: string | null; to_point: string; to_value: number; to_reason: string | null; to_due: string | null; factor: number; adjusted: number };

let get: (path: string, init?: RequestInit) => Promise<Response>;

/** The sub-series data/ declares adjusts with, and each one's points (date → value text). */
const adjusters = readdirSync(join(ROOT, "data"))
  .filter((id) => !id.includes("."))
  .flatMap((id) => {
    const meta = JSON.parse(readFileSync(join(ROOT, "data", id, "indicator.json"), "utf8")) as { adjusts?: { series: string; unit?: unknown }[] };
    return (meta.adjusts ?? []).map((a) => ({ indicator: id, series: a.series, unit: a.unit ?? null }));
  });

function points(indicator: string, series: string): Map<string, string> {
  const folder = join(ROOT, "data", indicator);
  const map = new Map<string, string>();
  for (const file of readdirSync(folder).filter((f) => f.endsWith(".csv"))) {
    for (const row of parse<{ date: string; series: string; value: string }>(readFileSync(join(folder, file)), { columns: true })) {
      if (row.series === series) map.set(row.date, row.value);
    }
  }
  return map;
}

const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);

beforeAll(() => {
  const api = new Api();
  const env = { ASSETS: folderAssets(inject("realDist")), RATE_LIMIT_REQUESTS: "999999999" };
  get = (path, init) => api.fetch(new Request(`http://api.test${path}`, init), env, NOW);
});

/** Equal to 8 significant digits (the API rounds a derived number once, there). */
function close(api: number, oracle: number): boolean {
  return api === Number(oracle.toPrecision(8)) || Math.abs(api - oracle) <= Math.abs(oracle) * 5e-8;
}

describe("/api/v1/adjust on the real data", () => {
  it("has sub-series to adjust with, declared in data/", () => {
    expect(adjusters.map((a) => `${a.indicator}:${a.series}`)).toContain("consumer-price-index:general");
  });

  it.each(adjusters.map((a) => [`${a.indicator}:${a.series}`, a] as const))("%s: 200 random questions equal the independent oracle", async (by, adjuster) => {
    const values = points(adjuster.indicator, adjuster.series);
    const dates = [...values.keys()].sort();
    const first = Date.parse(dates[0] as string);
    const last = Date.parse(VERSION) + 400 * 86_400_000;
    const random = prng(by.length * 7919);
    const questions = Array.from({ length: 200 }, () => {
      // Dates across the data and beyond both ends (those must be 400s); amounts with cents.
      const pick = () => day(first - 60 * 86_400_000 + Math.floor(random() * ((last - first) / 86_400_000)) * 86_400_000);
      return { by, amount: Math.round(random() * 10_000_000) / 100, from: pick(), to: pick() };
    });
    // And today itself, and days between the data version and today, at either end.
    questions.push({ by, amount: 25_000, from: "2020-01-15", to: TODAY }, { by, amount: 100, from: TODAY, to: "2026-11-21" }, { by, amount: 1, from: "2026-11-24", to: TODAY });
    const run = spawnSync("/usr/bin/python3", [join(ROOT, "test/python/adjust_oracle.py"), join(ROOT, "data"), VERSION, TODAY], { input: JSON.stringify(questions), encoding: "utf8", maxBuffer: 64 * 2 ** 20 });
    expect(run.status, run.stderr).toBe(0);
    const oracle = JSON.parse(run.stdout) as Oracle[];
    let answered = 0;
    let substituted = 0;
    for (const [k, q] of questions.entries()) {
      const want = oracle[k] as Oracle;
      const response = await get(`/api/v1/adjust?amount=${q.amount}&from=${q.from}&to=${q.to}&by=${by}`);
      const body = (await response.json()) as Adjusted & { error?: { detail: string } };
      if ("error" in want) {
        expect(response.status, JSON.stringify(q)).toBe(400);
        expect(body.error?.detail).toMatch(/^(from|to): /);
        continue;
      }
      answered++;
      expect(response.status, JSON.stringify(q)).toBe(200);
      const { data } = body;
      expect([data.from.point, data.to.point], JSON.stringify(q)).toEqual([want.from_point, want.to_point]);
      expect([data.from.value, data.to.value]).toEqual([want.from_value, want.to_value]);
      expect(body.meta.used, JSON.stringify(q)).toEqual({
        from: { date: want.from_point, reason: want.from_reason, due: want.from_due },
        to: { date: want.to_point, reason: want.to_reason, due: want.to_due },
      });
      if (want.to_reason !== null) substituted++;
      expect(close(data.factor, want.factor), `${data.factor} vs ${want.factor}`).toBe(true);
      expect(close(data.adjusted, want.adjusted), `${data.adjusted} vs ${want.adjusted}`).toBe(true);
      if (adjuster.unit !== null) expect(close(data.in_units as number, q.amount / want.from_value)).toBe(true);
      else expect(data.in_units).toBeNull();
      // The point cited is one of data/'s, its value text as published.
      expect(Number(values.get(data.to.point))).toBe(data.to.value);
    }
    // Most questions fall where the data are: the comparison is not carried by the 400s; some fall past the newest value.
    expect(answered).toBeGreaterThan(100);
    // The BPC of 2026 is in force until 1 January 2027; the CPI's and the UI's newest values are older than today.
    expect(substituted > 0, `${substituted} answers with the newest value for a later day`).toBe(by !== "bpc:bpc");
  });

  it("adjusts by the CPI as INE does: the index of the month of each date", async () => {
    const cpi = points("consumer-price-index", "general");
    const random = prng(1937);
    const months = [...cpi.keys()].sort();
    for (let k = 0; k < 200; k++) {
      const [a, b] = [0, 1].map(() => months[Math.floor(random() * months.length)] as string);
      const from = `${(a as string).slice(0, 8)}${String(1 + Math.floor(random() * 28)).padStart(2, "0")}`;
      const to = `${(b as string).slice(0, 8)}${String(1 + Math.floor(random() * 28)).padStart(2, "0")}`;
      const body = (await (await get(`/api/v1/adjust?amount=100&from=${from}&to=${to}&by=consumer-price-index:general`)).json()) as Adjusted;
      const ine = Number(cpi.get(b as string)) / Number(cpi.get(a as string));
      expect(close(body.data.factor, ine), `${from} → ${to}`).toBe(true);
      expect([body.data.from.covers.from, body.data.to.covers.from]).toEqual([a, b]);
    }
  });

  it("answers CSV with the same fields, read back by a CSV library; HEAD and 304 like the data endpoints", async () => {
    const path = "/api/v1/adjust?amount=1000&from=2019-01-15&to=2026-07-01&by=consumer-price-index:general";
    const json = (await (await get(path)).json()) as Adjusted;
    const csv = await get(`${path}&format=csv`);
    expect(csv.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    const [row] = parse<Record<string, string>>(await csv.text(), { columns: true });
    expect(row).toMatchObject({ amount: "1000", by: "consumer-price-index:general", from_point: "2019-01-01", to_point: "2026-07-01" });
    expect([Number(row?.factor), Number(row?.adjusted)]).toEqual([json.data.factor, json.data.adjusted]);
    const first = await get(path);
    expect(first.headers.get("cache-control")).toBe("public, max-age=900");
    const etag = first.headers.get("etag") as string;
    expect((await get(path, { headers: { "If-None-Match": etag } })).status).toBe(304);
    expect((await get(path, { method: "HEAD" })).status).toBe(200);
    // The canonical URL: the same question in another order has the same ETag.
    expect((await get("/api/v1/adjust?by=consumer-price-index:general&to=2026-07-01&from=2019-01-15&amount=1000.00")).headers.get("etag")).toBe(etag);
  });

  it.each([
    ["from=2019&to=2020&by=consumer-price-index:general", /^amount: required/],
    ["amount=-5&from=2019&to=2020&by=consumer-price-index:general", /^amount: expected a number ≥ 0/],
    ["amount=1e3&from=2019&to=2020&by=consumer-price-index:general", /^amount: /],
    ["amount=abc&from=2019&to=2020&by=consumer-price-index:general", /^amount: /],
    ["amount=10&from=2019-02-30&to=2020&by=consumer-price-index:general", /^from: expected an ISO 8601 date/],
    ["amount=10&from=1900-01-01&to=2020&by=consumer-price-index:general", /^from: 1900-01-01 is before/],
    ["amount=10&from=2019&to=2099-01-01&by=consumer-price-index:general", /^to: 2099-01-01 is after today \(2026-11-28, in Montevideo, UTC−3\)/],
    ["amount=10&from=2026-11-29&to=2020&by=unidad-indexada:ui", /^from: 2026-11-29 is after today/],
    ["amount=10&from=2019&to=2020&by=domestic-worker-wages:monthly", /^by: "domestic-worker-wages:monthly" does not adjust amounts; the sub-series that do are /],
    ["amount=10&from=2019&to=2020&by=gdp:x", /^by: "gdp:x" does not adjust/],
    ["amount=10&from=2019&to=2020&by=consumer-price-index", /^by: expected <indicator>:<sub-series id>/],
    ["amount=10&from=2019&to=2020&by=consumer-price-index:general&per=x", /^per: unknown parameter/],
  ])("%s → 400 naming its parameter", async (query, detail) => {
    const response = await get(`/api/v1/adjust?${query}`);
    expect(response.status).toBe(400);
    expect(response.headers.get("cache-control")).toBe("no-store");
    expect(((await response.json()) as { error: { detail: string } }).error.detail).toMatch(detail);
  });
});
