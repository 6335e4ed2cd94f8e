/**
 * `/api/v1/adjust` over the golden fixture (a stepwise semiannual wage that
 * declares it adjusts, its value the price of a unit, "MW"), answered by the
 * handler in Node: the arithmetic by hand, the days each value covers, the CSV,
 * the parameters' declarations (canonical URL, required ones), and the faults;
 * then, over two small fixtures with a publication schedule (the same wage, and
 * a monthly index published on the 5th of the next month), the dates up to today
 * (the clock fixed): a stepwise value in force after the last check, the newest
 * value past the data with why (`overdue`, `pending`), a date after today a 400.
 */
import { cp, mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { Api } from "../../src/api/handler.js";
import { ADJUST_DECLARATIONS } from "../../src/core/time/adjust.js";
import { canonicalUrlOf, isInvalid, readDeclared } from "../../src/core/answer/parameters.js";
import { folderAssets } from "../../scripts/lib/folder-assets.js";
import { ROOT, runCli, tempDir } from "../helpers.js";

let get: (query: string) => Promise<Response>;

/** Noon in Montevideo (15:00 UTC) of `day`, in milliseconds: the clock the handler is given. */
const noon = (day: string) => Date.parse(`${day}T15:00:00Z`);

/** The adjustments of a build of `data` (its version time `epoch`), asked at `now`. */
async function served(data: string, epoch: string): Promise<(query: string, now: number) => Promise<Response>> {
  const out = join(await tempDir(), "dist");
  const r = await runCli(["build", "--data", data, "--out", out, "--limits", "2", "--no-base"], { SOURCE_DATE_EPOCH: epoch });
  expect(r.code, r.stderr).toBe(0);
  const api = new Api();
  const env = { ASSETS: folderAssets(out), RATE_LIMIT_REQUESTS: "1000000" };
  return (query, now) => api.fetch(new Request(`http://api.test/api/v1/adjust?${query}`), env, now);
}

beforeAll(async () => {
  const ask = await served("test/fixtures/golden/data", "1700000000");
  get = (query) => ask(query, noon("2024-12-01"));
});

describe("adjust's declarations", () => {
  it("parse, check and echo the canonical query", () => {
    const query = readDeclared({ amount: "0100.50", from: "2023", to: "2024-07", by: "tiny-wages:monthly" }, ADJUST_DECLARATIONS);
    expect(isInvalid(query)).toBe(true); // a leading zero is not a plain decimal
    const ok = readDeclared({ amount: "100.50", from: "2023", to: "2024-07", by: "tiny-wages:monthly" }, ADJUST_DECLARATIONS);
    if (isInvalid(ok)) throw new Error(ok.invalid);
    expect(canonicalUrlOf("/x", ok, ADJUST_DECLARATIONS)).toBe("/x?amount=100.5&from=2023-01-01&to=2024-07-01&by=tiny-wages:monthly");
    expect(readDeclared({ amount: "1", from: "2023" }, ADJUST_DECLARATIONS)).toEqual({ invalid: "to: required (the date to carry the amount to, e.g. to=2026-07-01)" });
  });
});

describe("/api/v1/adjust over the golden fixture", () => {
  it("carries an amount by the values in force on each date, with the days each covers, its source and note", async () => {
    const response = await get("amount=1000&from=2023-03-15&to=2024-07-01&by=tiny-wages:monthly");
    expect(response.status).toBe(200);
    const body = (await response.json()) as { data: Record<string, unknown>; meta: Record<string, unknown> };
    // 27985 / 24000 = 1.16604166…: 8 significant digits, once.
    expect(body.data).toMatchObject({ amount: 1000, factor: 1.1660417, adjusted: 1166.0417, in_units: 0.041666667 });
    expect(body.data.from).toEqual({ date: "2023-03-15", point: "2023-01-01", value: 24000, covers: { from: "2023-01-01", to: "2023-06-30" }, source: "https://example.test/2023-01", note: null });
    expect(body.data.to).toMatchObject({ point: "2024-07-01", value: 27985, note: "agreed in June, applied in July" });
    expect(body.meta).toMatchObject({ by: "tiny-wages:monthly", units_of: { es: "SM", en: "MW" }, url: "/api/v1/adjust?amount=1000&from=2023-03-15&to=2024-07-01&by=tiny-wages:monthly" });
    // Each value is the date's own: its point's date, no reason; no date is after the data's bound (2024-07-01, its newest point).
    expect(body.meta.used).toEqual({ from: { date: "2023-01-01", reason: null, due: null }, to: { date: "2024-07-01", reason: null, due: null } });
    // The golden fixture records no check; its points changed with its version (SOURCE_DATE_EPOCH, 2023-11-14).
    expect(body.meta).toMatchObject({ checked: null, data_changed: "2023-11-14" });
  });

  it("writes a value's text as published (25000.50 stays so) and the CSV's quoted note", async () => {
    const json = (await (await get("amount=1&from=2023-08-01&to=2024-07-01&by=tiny-wages:monthly")).json()) as { data: { from: { value: number } } };
    expect(json.data.from.value).toBe(25000.5);
    const text = await (await get("amount=1&from=2023-08-01&to=2024-07-01&by=tiny-wages:monthly")).text();
    expect(text).toContain('"value":25000.50,');
    const csv = await (await get("amount=1&from=2023-08-01&to=2024-07-01&by=tiny-wages:monthly&format=csv")).text();
    expect(csv.split("\n")[0]).toBe("amount,by,from,from_point,from_value,from_source,to,to_point,to_value,to_source,factor,adjusted,in_units,from_reason,from_due,to_reason,to_due");
    expect(csv.split("\n")[1]).toBe("1,tiny-wages:monthly,2023-08-01,2023-07-01,25000.50,https://example.test/2023-07,2024-07-01,2024-07-01,27985,https://example.test/2024-07,1.1193776,1.1193776,0.0000399992,,,,");
  });

  it.each([
    // The clock says 2024-12-01 in Montevideo.
    ["amount=1&from=2023-01-01&to=2024-12-02&by=tiny-wages:monthly", "to: 2024-12-02 is after today (2024-12-01, in Montevideo, UTC−3): no value is known for it yet"],
    ["amount=1&from=2022-12-31&to=2024-01-01&by=tiny-wages:monthly", "from: 2022-12-31 is before tiny-wages:monthly's first value (2023-01-01)"],
    ["amount=1&from=2023-01-01&to=2024-01-01&by=tiny-wages:hourly", 'by: "tiny-wages:hourly" does not adjust amounts; the sub-series that do are tiny-wages:monthly'],
    ["amount=1&from=2023-01-01&to=2024-01-01&by=tiny-wages:monthly&format=xml", 'format: expected json or csv, got "xml"'],
    ["amount=1.5.5&from=2023-01-01&to=2024-01-01&by=tiny-wages:monthly", 'amount: expected a number ≥ 0 written with digits and an optional decimal point (1000 or 1234.56), got "1.5.5"'],
  ])("%s → 400: %s", async (query, detail) => {
    const response = await get(query);
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: { detail: string } }).error.detail).toBe(detail);
  });
});

interface Answer {
  data: { from: { date: string; point: string; value: number; covers: { from: string; to: string } }; to: { date: string; point: string; value: number; covers: { from: string; to: string } }; factor: number; adjusted: number };
  meta: { used: Record<"from" | "to", { date: string; reason: string | null; due: string | null }>; checked: string | null; data_changed: string };
}

describe("/api/v1/adjust up to today, with a publication schedule", () => {
  /** The golden wage, declared due on 1 January and 1 July; and a monthly index (not stepwise) published on the 5th of the next month. */
  let wages: (query: string, now: number) => Promise<Response>;
  let index: (query: string, now: number) => Promise<Response>;

  beforeAll(async () => {
    const dir = await tempDir();
    const wageData = join(dir, "wages");
    await cp(join(ROOT, "test/fixtures/golden/data"), wageData, { recursive: true });
    const wageMeta = join(wageData, "tiny-wages/indicator.json");
    const meta = JSON.parse(await readFile(wageMeta, "utf8")) as Record<string, unknown>;
    await writeFile(wageMeta, JSON.stringify({ ...meta, schedule: { dates: { months: [1, 7], day: 1 } } }));
    const indexData = join(dir, "index");
    await mkdir(join(indexData, "tiny-index"), { recursive: true });
    const rest = Object.fromEntries(["title", "description", "license", "source", "sourceKinds", "notes"].map((key) => [key, meta[key]]));
    await writeFile(
      join(indexData, "tiny-index/indicator.json"),
      JSON.stringify({
        ...rest,
        id: "tiny-index",
        unit: "index",
        rhythm: "monthly",
        stepwise: false,
        display: { date: "period", unit: { es: "índice", en: "index" } },
        schedule: { dates: { months: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12], day: 1 }, published: { monthsAfter: 1, day: 5 } },
        adjusts: [{ series: "general" }],
        series: [{ id: "general", title: { es: "General", en: "General" } }],
      }),
    );
    const months = ["2024-01-01,100", "2024-02-01,101", "2024-03-01,102", "2024-04-01,103", "2024-05-01,104", "2024-06-01,105"];
    await writeFile(join(indexData, "tiny-index/2024.csv"), `date,series,value,source\n${months.map((m) => m.replace(",", ",general,") + ",https://example.test/i").join("\n")}\n`);
    // The wage's version 2023-11-14 (its newest point 2024-07-01 bounds the data); the index's 2024-07-10 (1720569600).
    [wages, index] = await Promise.all([served(wageData, "1700000000"), served(indexData, "1720569600")]);
  });

  const body = async (response: Response) => {
    expect(response.status, await response.clone().text()).toBe(200);
    return (await response.json()) as Answer;
  };

  it("answers a stepwise value on a day after the last check with the value in force, as `at` does", async () => {
    const a = await body(await wages("amount=1000&from=2023-03-15&to=2024-11-20&by=tiny-wages:monthly", noon("2024-11-28")));
    expect(a.data.to).toMatchObject({ date: "2024-11-20", point: "2024-07-01", value: 27985 });
    expect(a.meta.used.to).toEqual({ date: "2024-07-01", reason: null, due: null });
    expect(a.meta).toMatchObject({ checked: null, data_changed: "2023-11-14" });
  });

  it("answers past the stepwise value's successor due date with the newest value, saying it is overdue and since when", async () => {
    const a = await body(await wages("amount=1000&from=2025-02-10&to=2025-03-01&by=tiny-wages:monthly", noon("2025-03-01")));
    expect([a.data.from.point, a.data.to.point]).toEqual(["2024-07-01", "2024-07-01"]);
    expect(a.data.factor).toBe(1);
    expect(a.meta.used).toEqual({ from: { date: "2024-07-01", reason: "overdue", due: "2025-01-01" }, to: { date: "2024-07-01", reason: "overdue", due: "2025-01-01" } });
  });

  it("answers a month after the index's last with its newest value: pending before the next month's publication day, overdue after", async () => {
    const pending = await body(await index("amount=100&from=2024-01-20&to=2024-07-20&by=tiny-index:general", noon("2024-07-28")));
    expect(pending.data).toMatchObject({ factor: 1.05, adjusted: 105 });
    expect(pending.data.to).toMatchObject({ date: "2024-07-20", point: "2024-06-01", value: 105, covers: { from: "2024-06-01", to: "2024-06-30" } });
    expect(pending.meta.used).toEqual({ from: { date: "2024-01-01", reason: null, due: null }, to: { date: "2024-06-01", reason: "pending", due: "2024-08-05" } });
    const overdue = await body(await index("amount=100&from=2024-01-20&to=2024-08-05&by=tiny-index:general", noon("2024-08-05")));
    expect(overdue.meta.used.to).toEqual({ date: "2024-06-01", reason: "overdue", due: "2024-08-05" });
    // The CSV says the same.
    const csv = await (await index("amount=100&from=2024-01-20&to=2024-08-05&by=tiny-index:general&format=csv", noon("2024-08-05"))).text();
    expect(csv.split("\n")[1]).toMatch(/,1\.05,105,,,,overdue,2024-08-05$/);
  });

  it("gives an answer whose reason depends on today an ETag of that day", async () => {
    const query = "amount=100&from=2024-01-20&to=2024-07-20&by=tiny-index:general";
    const [a, b] = await Promise.all([index(query, noon("2024-07-28")), index(query, noon("2024-08-06"))]);
    expect(a.headers.get("etag")).not.toBe(b.headers.get("etag"));
    const plain = "amount=100&from=2024-01-20&to=2024-05-20&by=tiny-index:general";
    const [c, d] = await Promise.all([index(plain, noon("2024-07-28")), index(plain, noon("2024-08-06"))]);
    expect(c.headers.get("etag")).toBe(d.headers.get("etag"));
  });

  it.each([
    // 02:00 UTC on the 21st is 23:00 of the 20th in Montevideo: the 21st is after today.
    ["amount=1&from=2024-01-01&to=2024-07-21&by=tiny-index:general", Date.parse("2024-07-21T02:00:00Z"), "to: 2024-07-21 is after today (2024-07-20, in Montevideo, UTC−3): no value is known for it yet"],
    ["amount=1&from=2024-07-21&to=2024-01-01&by=tiny-index:general", Date.parse("2024-07-21T02:00:00Z"), "from: 2024-07-21 is after today (2024-07-20, in Montevideo, UTC−3): no value is known for it yet"],
    ["amount=1&from=2023-12-31&to=2024-01-01&by=tiny-index:general", noon("2024-08-01"), "from: 2023-12-31 is before tiny-index:general's first value (2024-01-01)"],
  ])("%s → 400 naming its parameter", async (query, now, detail) => {
    const response = await index(query, now);
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: { detail: string } }).error.detail).toBe(detail);
  });

  it("takes today itself: at 03:00 UTC it is already the day in Montevideo", async () => {
    const response = await index("amount=1&from=2024-01-01&to=2024-07-21&by=tiny-index:general", Date.parse("2024-07-21T03:00:00Z"));
    expect(response.status).toBe(200);
  });
});
