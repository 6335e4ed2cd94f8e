/**
 * End to end, through the real runtime: the real data built by the CLI, served by
 * `wrangler pages dev` (workerd) with the project's functions, checked over HTTP
 * (servers of test/e2e/global-setup.ts): `main` (the default build), `alt` (a
 * build prebuilding only limit 7, so every other page is computed there); the
 * usage limit's 429s are test/e2e/usage-limit.test.ts's. The 200 random windows per indicator and the
 * arbitrary-query property run in process against the same handler
 * (test/integration/api-real-data.test.ts); here a sample of the windows proves workerd
 * answers the same.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import fg from "fast-glob";
import { describe, expect, inject, it } from "vitest";
import { parse } from "csv-parse/sync";
import {
  HIGH,
  IDS,
  LAST_MODIFIED,
  etagFor,
  useOutput,
  expectError,
  expectPage,
  expectSuccessHeaders,
  fetched,
  inBatches,
  randomSelections,
  randomWindows,
  refs,
  withoutTiles,
  type Fetched,
} from "../api-checks.js";
import { Api } from "../../src/api/handler.js";
import { evenRanks } from "../../src/site/client/series-view.js";
import { folderAssets } from "../../scripts/lib/folder-assets.js";
import { expectedCsv, refCanonicalUrl, type RefIndicator } from "../reference.js";

const { mainDir, altDir, urls } = inject("system");
/** How many prebuilt pages of each indicator and limit are asked of both servers. */
const PAGES_PER_LIMIT = 24;
/** The offset in a prebuilt page's path (`…/offset-20.json` → 20). */
const offsetOf = (file: string) => Number(/offset-(\d+)/.exec(file)?.[1]);

useOutput(mainDir);
const main = urls.main;
const alt = urls.alt;

async function get(server: string, path: string, init: RequestInit = {}): Promise<Fetched> {
  return fetched(await fetch(server + path, init));
}

describe("the API through wrangler pages dev", () => {
  it.each(IDS)("%s: the default page is the prebuilt file, with every header", async (id) => {
    const r = await get(main, `/api/v1/${id}`);
    expectPage(r, id, {});
    expect(r.bytes.equals(readFileSync(join(mainDir, `api/v1/${id}/index.json`)))).toBe(true);
  });

  it("provenance=true through workerd: the wages' value on 15 March 2025 with its own note, its source and its kind; the bytes the handler gives in Node", async () => {
    const path = "/api/v1/domestic-worker-wages?series=hourly&at=2025-03-15&provenance=true";
    const [main1, alt1] = await Promise.all([get(main, path), get(alt, path)]);
    expect(main1.status).toBe(200);
    expect(main1.bytes.equals(alt1.bytes)).toBe(true);
    const point = (refs.get("domestic-worker-wages") as RefIndicator).points.find((p) => p.series === "hourly" && p.date === "2025-01-01");
    expect(JSON.parse(main1.text)).toMatchObject({ data: [{ date: "2025-01-01", series: "hourly", value: 154.67, note: point?.note, source: point?.source, source_kind: "press" }] });
    // Without it, the same answer as ever: date, series and value only.
    expect(Object.keys((JSON.parse((await get(main, path.replace("&provenance=true", ""))).text) as { data: object[] }).data[0] ?? {})).toEqual(["date", "series", "value"]);
  });

  it.each(IDS)("%s: a sample of 20 random windows and pages equals the reference", async (id) => {
    await inBatches(randomWindows(id, 200).filter((_, i) => i % 10 === 0), 8, async ({ path, query }) => {
      expectPage(await get(main, path), id, query);
    });
  });

  it.each(IDS)("%s: a sample of 20 random selections, as JSON and as CSV, equals the reference", async (id) => {
    await inBatches(randomSelections(id, 200).filter((_, i) => i % 10 === 0), 8, async ({ path, query }) => {
      const json = await get(main, path);
      expectPage(json, id, query);
      const csv = await get(main, `${path}&format=csv`);
      expect(csv.status).toBe(200);
      expect(csv.headers.get("content-type")).toBe("text/csv; charset=utf-8");
      expect(csv.headers.get("cache-control")).toBe("public, max-age=900");
      expect(csv.headers.get("etag")).toBe(etagFor([id], refCanonicalUrl(id, { ...query, format: "csv" })));
      // Parsed by a CSV library: the reference's rows, and the JSON answer's points in its order.
      const rows = parse<Record<string, string>>(csv.text, { columns: true });
      expect(rows).toEqual(expectedCsv(refs.get(id) as RefIndicator, query).rows);
      const body = JSON.parse(json.text) as { data: { date: string; series: string }[]; meta: { total: number } };
      expect(rows.map((r) => `${r.series}@${r.date}`)).toEqual(body.data.map((p) => `${p.series}@${p.date}`));
      expect(csv.headers.get("x-total-count")).toBe(String(body.meta.total));
    });
  });

  it("answers a day after the last check (the data version, 2026-11-20): the value in force at the check with meta.checked (null: none recorded) and meta.data_changed, or nothing with the reason", async () => {
    type Answer = { data: unknown[]; meta: Record<string, unknown> };
    const prices = JSON.parse((await get(main, "/api/v1/health-insurance-prices?series=casmu.consult-general-medicine.fonasa&at=2027-06-08")).text) as Answer;
    expect(prices.data).toEqual([{ date: "2026-07-01", series: "casmu.consult-general-medicine.fonasa", value: 192 }]);
    expect(prices.meta).toMatchObject({ checked: null, data_changed: "2026-11-20" });
    expect(prices.meta.missing).toBeUndefined();
    // The domestic wages of July 2026 are in force until their successor is due, on 1 January 2027.
    const wages = JSON.parse((await get(main, "/api/v1/domestic-worker-wages?series=hourly,monthly&at=2026-12-30")).text) as Answer;
    expect(wages.data).toEqual([
      { date: "2026-07-01", series: "hourly", value: 169 },
      { date: "2026-07-01", series: "monthly", value: 32051 },
    ]);
    expect(wages.meta).toMatchObject({ checked: null, data_changed: "2026-11-20" });
    const later = JSON.parse((await get(main, "/api/v1/domestic-worker-wages?series=hourly,monthly&at=2027-06-08")).text) as Answer;
    expect(later.data).toEqual([]);
    expect(later.meta.missing).toEqual([{ reason: "pending", last: "2026-07-01", due: "2027-01-01", series: ["hourly", "monthly"] }]);
  });

  it("answers a day across every sub-series of the health insurance prices from a time tile, with the bytes Node gives from the shards", async () => {
    const shards = new Api();
    for (const day of ["2015-06-01", "2021-03-31", "2025-12-15", "2027-06-08"]) {
      const path = `/api/v1/health-insurance-prices?at=${day}`;
      const [served, expected] = [await get(main, path), await fetched(await shards.fetch(new Request(`http://api.test${path}`), { ASSETS: withoutTiles(folderAssets(mainDir)), ...HIGH }))];
      expect(served.status, path).toBe(200);
      expect(served.text, path).toBe(expected.text);
      expect(served.headers.get("ETag"), path).toBe(expected.headers.get("ETag"));
    }
  });

  it("answers one sub-series, a pattern and a list with the exact points of the data", async () => {
    const one = JSON.parse((await get(main, "/api/v1/health-insurance-prices?series=casmu.consult-general-medicine.fonasa")).text) as {
      data: { series: string }[];
      meta: { series: string[]; total: number };
    };
    expect(one.data).toHaveLength(17);
    expect(one.meta.series).toEqual(["casmu.consult-general-medicine.fonasa"]);
    const pattern = JSON.parse((await get(main, "/api/v1/health-insurance-prices?series=casmu.*&limit=1")).text) as { data: { series: string }[] };
    expect(pattern.data.length).toBeGreaterThan(10);
    expect(pattern.data.every((p) => p.series.startsWith("casmu."))).toBe(true);
    const list = JSON.parse(
      (await get(main, "/api/v1/health-insurance-prices?series=*.consult-general-medicine.fonasa,*.medicine-general.fonasa&from=2026&limit=1")).text,
    ) as { data: { series: string }[] };
    expect(new Set(list.data.map((p) => p.series.split(".").slice(1).join(".")))).toEqual(new Set(["consult-general-medicine.fonasa", "medicine-general.fonasa"]));
  });

  it.each([
    ["computed JSON", "/api/v1/health-insurance-prices?series=casmu.*&from=2024"],
    ["computed CSV", "/api/v1/health-insurance-prices?series=casmu.*&from=2024&format=csv"],
  ])("304 for both validators on a selection (%s), and the metadata document it links", async (_kind, path) => {
    const first = await get(main, path);
    const etag = first.headers.get("etag") as string;
    for (const headers of [{ "If-None-Match": etag }, { "If-Modified-Since": LAST_MODIFIED }] as Record<string, string>[]) {
      const r = await get(main, path, { headers });
      expect(r.status).toBe(304);
      expect(r.bytes.length).toBe(0);
      expect(r.headers.get("etag")).toBe(etag);
    }
    const described = /<([^>]+)>; rel="describedby"/.exec(first.headers.get("link") ?? "")?.[1] as string;
    const doc = await get(main, described);
    expect(doc.status).toBe(200);
    expect((JSON.parse(doc.text) as { series: { id: string }[] }).series.some((s) => s.id.startsWith("casmu."))).toBe(true);
  });

  // The prebuilt pages, a test per indicator and limit: the first, the last and others spread evenly
  // between, at most PAGES_PER_LIMIT of each (all of them, some 3,000 pages, took 11 s of the suite for
  // the UI's limit 10 alone; every prebuilt page is compared with the computed answer in process, by
  // test/integration/api-real-data.test.ts, with the same handler workerd runs).
  const prebuilt = IDS.flatMap((id) => {
    const files = fg.sync(`api/v1/${id}/limit-*/offset-*.json`, { cwd: mainDir });
    const limits = [...new Set(files.map((file) => /limit-(\d+)/.exec(file)?.[1] as string))].sort((a, b) => Number(a) - Number(b));
    return limits.map((limit) => {
      const pages = files.filter((file) => file.includes(`/limit-${limit}/`)).sort((a, b) => offsetOf(a) - offsetOf(b));
      return { id, limit, files: evenRanks(pages.length, PAGES_PER_LIMIT).map((rank) => pages[rank] as string).concat(limit === "500" ? [`api/v1/${id}/index.json`] : []) };
    });
  });

  it("prebuilds pages of every limit for every indicator", () => {
    for (const id of IDS) expect(prebuilt.filter((p) => p.id === id).flatMap((p) => p.files).length, id).toBeGreaterThanOrEqual(7);
  });

  it.each(prebuilt.map((p) => [p.id, p.limit, p] as const))("answers %s's prebuilt pages of limit %s with bytes identical to the prebuilt file, computed or served", async (id, _limit, { files }) => {
    // Eight at a time: workerd answers them concurrently, as it would the public.
    await inBatches(files, 8, async (file) => {
      const [, limit, offset] = /limit-(\d+)\/offset-(\d+)/.exec(file) ?? [null, "500", "0"];
      const prebuiltBytes = readFileSync(join(mainDir, file));
      const path = `/api/v1/${id}?limit=${limit}&offset=${offset}`;
      const [served, computed] = await Promise.all([get(main, path), get(alt, path)]);
      expect(served.bytes.equals(prebuiltBytes), `${path} served`).toBe(true);
      expect(computed.bytes.equals(prebuiltBytes), `${path} computed`).toBe(true);
      expect(computed.headers.get("etag")).toBe(served.headers.get("etag"));
      expect(served.headers.get("etag")).toBe(etagFor([id], `/api/v1/${id}?limit=${limit}&offset=${offset}`));
    });
  });

  it.each(IDS)("computes on the main server %s's pages that the other build prebuilt (limit 7)", async (id) => {
    const files = fg.sync(`api/v1/${id}/limit-7/offset-*.json`, { cwd: altDir });
    expect(files.length).toBeGreaterThan(0);
    await inBatches(files, 8, async (file) => {
      const offset = /offset-(\d+)/.exec(file)?.[1] as string;
      const computed = await get(main, `/api/v1/${id}?limit=7&offset=${offset}`);
      expect(computed.bytes.equals(readFileSync(join(altDir, file))), file).toBe(true);
    });
  });

  it.each([
    ["from=2024-13-01", 'from: expected an ISO 8601 date (YYYY-MM-DD, YYYY-MM or YYYY), got "2024-13-01"'],
    ["from=2023-02-30", 'from: expected an ISO 8601 date (YYYY-MM-DD, YYYY-MM or YYYY), got "2023-02-30"'],
    ["to=2024-1-5", 'to: expected an ISO 8601 date (YYYY-MM-DD, YYYY-MM or YYYY), got "2024-1-5"'],
    ["to=2024-01-05T10:00", 'to: expected an ISO 8601 date (YYYY-MM-DD, YYYY-MM or YYYY), got "2024-01-05T10:00"'],
    ["from=2024-W05", 'from: expected an ISO 8601 date (YYYY-MM-DD, YYYY-MM or YYYY), got "2024-W05"'],
    ["from=", 'from: expected an ISO 8601 date (YYYY-MM-DD, YYYY-MM or YYYY), got ""'],
    ["limit=0", 'limit: expected an integer from 1 to 5000, got "0"'],
    ["limit=5001", 'limit: expected an integer from 1 to 5000, got "5001"'],
    ["limit=2.5", 'limit: expected an integer from 1 to 5000, got "2.5"'],
    ["limit=ten", 'limit: expected an integer from 1 to 5000, got "ten"'],
    ["offset=-1", 'offset: expected an integer from 0 to 999999999999999, got "-1"'],
    ["offset=1e2", 'offset: expected an integer from 0 to 999999999999999, got "1e2"'],
    ["from=2024-05-01&to=2024-01-01", "from: 2024-05-01 is later than to (2024-01-01)"],
    ["offset=1&offset=2", "offset: given 2 times; give each parameter at most once"],
    ["provider=CASMU", "provider: unknown parameter; the accepted ones are from, to, at, series, frequency, aggregation, per, real, units, base, as_of, limit, offset, format, dialect, provenance"],
    ["limit=1&callback=x", "callback: unknown parameter; the accepted ones are from, to, at, series, frequency, aggregation, per, real, units, base, as_of, limit, offset, format, dialect, provenance"],
    ["format=xlsx", 'format: expected json or csv, got "xlsx"'],
    ["series=a,,b", 'series: expected sub-series ids or patterns with * separated by commas (letters a-z, digits, ".", "-"), got "a,,b"'],
    ["series=nope", 'series: "nope" matches no sub-series of {id}; they are listed at /api/v1/{id}/metadata.json'],
    ["series=nope*", 'series: "nope*" matches no sub-series of {id}; they are listed at /api/v1/{id}/metadata.json'],
  ])("400 for %j, detail naming the parameter", async (qs, detail) => {
    for (const id of IDS) {
      const error = expectError(await get(main, `/api/v1/${id}?${qs}`), 400, "bad_request");
      expect(error.detail).toBe(detail.replaceAll("{id}", id));
    }
  });

  it.each(["/api/v1/no-such-indicator", "/api/v1/__proto__", "/api/v2/domestic-worker-wages", "/api/v1", "/api/anything/else"])(
    "404 not_found for %s",
    async (path) => {
      expectError(await get(main, path), 404, "not_found");
    },
  );

  it.each(["POST", "PUT", "DELETE", "PATCH"])("405 for %s, with Allow", async (method) => {
    const r = await get(main, "/api/v1/domestic-worker-wages", { method, body: method === "DELETE" ? null : "x" });
    expectError(r, 405, "method_not_allowed");
    expect(r.headers.get("allow")).toBe("GET, HEAD, OPTIONS");
  });

  it.each([
    ["prebuilt", "/api/v1/health-insurance-prices?limit=10&offset=10"],
    ["computed", "/api/v1/health-insurance-prices?from=2020&limit=3"],
  ])("HEAD on a %s query: the GET's headers, no body", async (_kind, path) => {
    const [g, h] = await Promise.all([get(main, path), get(main, path, { method: "HEAD" })]);
    expect(h.status).toBe(200);
    expect(h.bytes.length).toBe(0);
    for (const name of ["etag", "last-modified", "cache-control", "content-type", "link", "access-control-allow-origin"]) {
      expect(h.headers.get(name), name).toBe(g.headers.get(name));
    }
  });

  it("answers a CORS preflight with 204, and actual responses to any origin", async () => {
    const r = await get(main, "/api/v1/domestic-worker-wages?limit=1", {
      method: "OPTIONS",
      headers: { Origin: "https://dashboard.example", "Access-Control-Request-Method": "GET", "Access-Control-Request-Headers": "if-none-match" },
    });
    expect(r.status).toBe(204);
    expect(r.headers.get("access-control-allow-origin")).toBe("*");
    expect(r.headers.get("access-control-allow-methods")).toBe("GET, HEAD, OPTIONS");
    expect(r.headers.get("access-control-allow-headers")).toBe("*");
    const actual = await get(main, "/api/v1/domestic-worker-wages?limit=1", { headers: { Origin: "https://dashboard.example" } });
    expect(actual.headers.get("access-control-allow-origin")).toBe("*");
  });

  it.each([
    ["prebuilt", "/api/v1/domestic-worker-wages?limit=10&offset=10"],
    ["computed", "/api/v1/domestic-worker-wages?to=2015&limit=4"],
  ])("conditional requests on a %s query (RFC 9110 §13)", async (_kind, path) => {
    const first = await get(main, path);
    const etag = first.headers.get("etag") as string;
    const cases: [Record<string, string>, number][] = [
      [{ "If-None-Match": etag }, 304],
      [{ "If-None-Match": `W/${etag}` }, 304],
      [{ "If-None-Match": `"nope", ${etag}` }, 304],
      [{ "If-None-Match": '"nope"' }, 200],
      [{ "If-Modified-Since": LAST_MODIFIED }, 304],
      [{ "If-Modified-Since": "Sat, 01 Jan 2050 00:00:00 GMT" }, 304],
      [{ "If-Modified-Since": "Mon, 13 Nov 2023 00:00:00 GMT" }, 200],
      [{ "If-Modified-Since": "not a date" }, 200],
      // If-None-Match takes precedence over If-Modified-Since.
      [{ "If-None-Match": '"nope"', "If-Modified-Since": LAST_MODIFIED }, 200],
    ];
    for (const [headers, status] of cases) {
      const r = await get(main, path, { headers });
      expect(r.status, JSON.stringify(headers)).toBe(status);
      if (status === 304) {
        expect(r.bytes.length).toBe(0);
        expect(r.headers.get("etag")).toBe(etag);
        expectSuccessHeaders(r);
      } else {
        expect(r.bytes.equals(first.bytes)).toBe(true);
      }
    }
  });

  it("serves the static files directly too, with caching and CORS headers (mirrors, bulk download)", async () => {
    for (const path of ["/api/v1/domestic-worker-wages/index.json", "/api/v1/health-insurance-prices/limit-10/offset-10.json", "/api/v1/health-insurance-prices/data.csv"]) {
      const r = await get(main, path);
      expect(r.status, path).toBe(200);
      expect(r.bytes.equals(readFileSync(join(mainDir, path)))).toBe(true);
      expect(r.headers.get("cache-control")).toBe("public, max-age=900");
      expect(r.headers.get("access-control-allow-origin")).toBe("*");
      expect(r.headers.get("last-modified")).toBe(LAST_MODIFIED);
    }
  });
});
