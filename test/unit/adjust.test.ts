/**
 * `/api/v1/adjust` over the golden fixture (a stepwise semiannual wage that
 * declares it adjusts, its value the price of a unit, "MW"), answered by the
 * handler in Node: the arithmetic by hand, the days each value covers, the CSV,
 * the parameters' declarations (canonical URL, required ones), and the faults.
 */
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { Api } from "../../src/api/handler.js";
import { ADJUST_DECLARATIONS } from "../../src/core/adjust.js";
import { canonicalOf, isInvalid, readDeclared } from "../../src/core/parameters.js";
import { folderAssets } from "../../scripts/lib/folder-assets.js";
import { runCli, tempDir } from "../helpers.js";

let get: (query: string) => Promise<Response>;

beforeAll(async () => {
  const out = join(await tempDir(), "dist");
  const r = await runCli(["build", "--data", "test/fixtures/golden/data", "--out", out, "--limits", "2", "--no-base"], { SOURCE_DATE_EPOCH: "1700000000" });
  expect(r.code, r.stderr).toBe(0);
  const api = new Api();
  const env = { ASSETS: folderAssets(out), RATE_LIMIT_REQUESTS: "1000000" };
  get = (query) => api.fetch(new Request(`http://api.test/api/v1/adjust?${query}`), env);
});

describe("adjust's declarations", () => {
  it("parse, check and echo the canonical query", () => {
    const query = readDeclared({ amount: "0100.50", from: "2023", to: "2024-07", by: "tiny-wages:monthly" }, ADJUST_DECLARATIONS);
    expect(isInvalid(query)).toBe(true); // a leading zero is not a plain decimal
    const ok = readDeclared({ amount: "100.50", from: "2023", to: "2024-07", by: "tiny-wages:monthly" }, ADJUST_DECLARATIONS);
    if (isInvalid(ok)) throw new Error(ok.invalid);
    expect(canonicalOf(ok, ADJUST_DECLARATIONS)).toBe("amount=100.5&from=2023-01-01&to=2024-07-01&by=tiny-wages:monthly");
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
  });

  it("writes a value's text as published (25000.50 stays so) and the CSV's quoted note", async () => {
    const json = (await (await get("amount=1&from=2023-08-01&to=2024-07-01&by=tiny-wages:monthly")).json()) as { data: { from: { value: number } } };
    expect(json.data.from.value).toBe(25000.5);
    const text = await (await get("amount=1&from=2023-08-01&to=2024-07-01&by=tiny-wages:monthly")).text();
    expect(text).toContain('"value":25000.50,');
    const csv = await (await get("amount=1&from=2023-08-01&to=2024-07-01&by=tiny-wages:monthly&format=csv")).text();
    expect(csv.split("\n")[0]).toBe("amount,by,from,from_point,from_value,from_source,to,to_point,to_value,to_source,factor,adjusted,in_units");
    expect(csv.split("\n")[1]).toBe("1,tiny-wages:monthly,2023-08-01,2023-07-01,25000.50,https://example.test/2023-07,2024-07-01,2024-07-01,27985,https://example.test/2024-07,1.1193776,1.1193776,0.0000399992");
  });

  it.each([
    // The fixture's data version (2023-11-14) is before its newest point (2024-07-01): the data cover up to that point's day.
    ["amount=1&from=2023-01-01&to=2024-07-02&by=tiny-wages:monthly", "to: no value of tiny-wages:monthly covers 2024-07-02; its newest is of 2024-07-01 and the data cover tiny-wages:monthly up to 2024-07-01"],
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
