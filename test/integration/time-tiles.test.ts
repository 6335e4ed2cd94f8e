/**
 * Time tiles (src/core/file/time-tiles.ts): an indicator built with small shards, so
 * that it has several tiles, whose sub-series start late, skip months, end early
 * and are published on irregular days of a stepwise monthly rhythm (a point's
 * coverage ends at the next point when that comes before the month is out). Every
 * other day of its span, `at` over every sub-series is answered from one tile with
 * the bytes the shards give (the same folder with its index served without tiles).
 * And, for random sub-series, tiles and rhythms, the ranks a tile holds give the
 * rule of coverage what the whole sub-series gives, for every day the tile answers.
 */
import { mkdirSync, readdirSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import type { Assets } from "../../src/api/data-store.js";
import { Api } from "../../src/api/handler.js";
import { absenceDay, answeringRankDay, coverageRule, type DaySeries } from "../../src/core/time/coverage.js";
import { dateOfDay, dayNumber } from "../../src/core/time/dates.js";
import { planTiles, tileOf, tileRanks } from "../../src/core/file/time-tiles.js";
import { folderAssets } from "../../scripts/lib/folder-assets.js";
import { prng } from "../../scripts/bench/generate.js";
import { withoutTiles } from "../api-checks.js";
import { runCli, tempDir } from "../helpers.js";

const ID = "tiled-prices";
const SERIES = Array.from({ length: 30 }, (_, s) => `s${String(s).padStart(2, "0")}`);
let out: string;

/** The indicator's rows: each sub-series from a month of 2020 to one of 2022, a point most months on a random day, some months skipped. */
function rows(): string[] {
  const random = prng(20261126);
  const lines = ["date,series,value,source,note"];
  for (const series of SERIES) {
    const first = Math.floor(random() * 12);
    const last = 24 + Math.floor(random() * 12);
    let value = 100 + Math.floor(random() * 900);
    for (let m = first; m <= last; m++) {
      if (random() < 0.15) continue;
      const day = 1 + Math.floor(random() * 27);
      value += Math.floor(random() * 20) - 5;
      lines.push(`${2020 + Math.floor(m / 12)}-${String((m % 12) + 1).padStart(2, "0")}-${String(day).padStart(2, "0")},${series},${value},https://example.test/${series}/${m},${random() < 0.1 ? '"revised, later"' : ""}`);
    }
  }
  return lines;
}

beforeAll(async () => {
  const root = await tempDir();
  const dir = join(root, "data", ID);
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    join(dir, "indicator.json"),
    JSON.stringify({
      id: ID,
      title: { es: "Precios en mosaicos <fixture>", en: "Tiled prices <fixture>" },
      description: { es: "Precios inventados para la prueba de los mosaicos de tiempo.", en: "Invented prices for the time tiles' test." },
      unit: "UYU",
      rhythm: "monthly",
      stepwise: true,
      display: { date: "effective", unit: { es: "$", en: "$" } },
      license: "CC-BY-4.0",
      source: { name: { es: "Fixture", en: "Fixture" }, url: "https://example.test/source" },
      sourceKinds: [{ prefix: "https://example.test/", kind: "official" }],
      notes: [],
      series: SERIES.map((id) => ({ id, title: { es: `Precio ${id}`, en: `Price ${id}` } })),
    }),
  );
  writeFileSync(join(dir, "data.csv"), `${rows().join("\n")}\n`);
  out = join(root, "dist");
  const r = await runCli(["build", "--data", join(root, "data"), "--out", out, "--shard-bytes", "4000", "--no-history"], { SOURCE_DATE_EPOCH: "1700000000" });
  expect(r.code, r.stderr).toBe(0);
}, 60_000);

describe("time tiles", () => {
  it("are several, each smaller than the shards together, and all together at most twice the shards", () => {
    const size = (folder: string) => readdirSync(join(out, "_data", ID, folder)).map((name) => statSync(join(out, "_data", ID, folder, name)).size);
    const [tiles, shards] = [size("at"), size("answers")];
    expect(tiles.length).toBeGreaterThan(3);
    expect(shards.length).toBeGreaterThan(3);
    const sum = (list: number[]) => list.reduce((a, b) => a + b, 0);
    expect(sum(tiles)).toBeLessThanOrEqual(2 * sum(shards) + 1024 * tiles.length);
    // A tile reads less than every shard: the point of having them.
    expect(Math.max(...tiles)).toBeLessThan(sum(shards) / 2);
  });

  it("answer at over every sub-series, every other day of the span and around it, with the shards' bytes, from one tile", async () => {
    const files = folderAssets(out);
    const shards = new Api();
    const env = (assets: Assets) => ({ ASSETS: assets, RATE_LIMIT_REQUESTS: "1000000" });
    let answered = 0;
    for (let day = dayNumber("2019-12-15"); day <= dayNumber("2023-02-15"); day += 2) {
      const read: string[] = [];
      const spy: Assets = { fetch: (u) => (read.push(new URL(u).pathname), files.fetch(u)) };
      const path = `/api/v1/${ID}?at=${dateOfDay(day)}`;
      const a = await new Api().fetch(new Request(`http://api.test${path}`), env(spy));
      const b = await shards.fetch(new Request(`http://api.test${path}`), env(withoutTiles(files)));
      const text = await a.text();
      expect(a.status, path).toBe(200);
      expect(text, path).toBe(await b.text());
      expect(a.headers.get("ETag"), path).toBe(b.headers.get("ETag"));
      expect(read.filter((p) => p.includes(`/${ID}/`)), path).toEqual([expect.stringMatching(new RegExp(`^/_data/${ID}/at/\\d+\\.bin$`))]);
      answered += (JSON.parse(text) as { data: unknown[] }).data.length;
    }
    expect(answered).toBeGreaterThan(5_000);
  }, 120_000);
});

describe("planTiles", () => {
  it("plans tiles of whole publication days, each with at least as many points of its own as it carries, and none that no request could read", async () => {
    const { decodeAnswers } = await import("../../src/core/file/answers.js");
    const { publicationDays } = await import("../../src/core/file/answer-index.js");
    const { readFileSync } = await import("node:fs");
    // Any answer file of several sub-series and days will do: the fixture's first tile is one.
    const whole = decodeAnswers(new Uint8Array(readFileSync(join(out, "_data", ID, "at", "0.bin"))));
    const days = publicationDays(whole);
    const bytes = readFileSync(join(out, "_data", ID, "at", "0.bin")).length;
    const starts = planTiles(whole, days, bytes, 1);
    expect(starts.length).toBeGreaterThan(1);
    expect(starts[0]).toBe(days[0]);
    expect(starts.every((day) => days.includes(day))).toBe(true);
    // The smallest tile (twice its carry of two points a sub-series) over the bound: no tiles.
    const carryBytes = ((4 * whole.ids.length) / whole.points) * bytes;
    expect(planTiles(whole, days, bytes, 1, carryBytes - 1)).toEqual([]);
    expect(planTiles(whole, days, bytes, 1, carryBytes + 1).length).toBeGreaterThan(1);
  });
});

describe("a tile's ranks", () => {
  it("give the rule of coverage, for every day a tile answers, the point and the reason for none that the whole sub-series gives (seeded random sub-series, tiles and rhythms)", () => {
    const random = prng(7);
    let days = 0;
    const wrong: string[] = [];
    for (let n = 0; n < 300; n++) {
      // A sub-series: days newest first, 0–40 points 1–90 days apart, from a random start.
      const ascending: number[] = [];
      let day = dayNumber("2020-01-01") + Math.floor(random() * 400);
      for (let k = Math.floor(random() * 41); k > 0; k--) ascending.push((day += 1 + Math.floor(random() * 90)));
      const whole = ascending.slice().reverse();
      const series = (days: readonly number[]): DaySeries => ({ length: days.length, day: (rank) => days[rank] as number });
      // The indicator's publications: these days and others; a check after the newest, or none declared.
      const published = [...new Set([...ascending, ...Array.from({ length: 20 }, () => dayNumber("2020-01-01") + Math.floor(random() * 3000))])].sort((a, b) => a - b);
      const rhythm = (["monthly", "irregular", "quarterly", "daily"] as const)[Math.floor(random() * 4)] as string;
      const checked = dateOfDay((published.at(-1) as number) + Math.floor(random() * 60));
      const rule = coverageRule(rhythm, published, checked, random() < 0.5 ? { stepwise: true, schedule: null } : undefined);
      // Tiles starting on some of the publications.
      const starts = published.filter((_, p) => p === 0 || random() < 0.2);
      const tiles = starts.map((start) => ({ start }));
      starts.forEach((start, t) => {
        const end = t + 1 < starts.length ? (starts[t + 1] as number) : Infinity;
        const [from, to] = tileRanks(series(whole), t === 0 ? -Infinity : start, end);
        const tile = series(whole.slice(from, to));
        const last = Math.min(end - 1, rule.versionEnd + 200);
        for (let d = t === 0 ? start - 100 : start; d <= last; d += 1 + Math.floor(random() * 5)) {
          const rank = answeringRankDay(tile, d, rule);
          const same =
            tileOf(tiles, d) === t &&
            (rank < 0 ? -1 : rank + from) === answeringRankDay(series(whole), d, rule) &&
            (rank >= 0 || JSON.stringify(absenceDay(tile, d, rule)) === JSON.stringify(absenceDay(series(whole), d, rule)));
          if (!same) wrong.push(`${rhythm}, tile ${t}, day ${dateOfDay(d)}`);
          days++;
        }
      });
    }
    expect(wrong).toEqual([]);
    expect(days).toBeGreaterThan(50_000);
  });
});
