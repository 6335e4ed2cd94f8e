/**
 * End to end, through the real runtime: the real data built by the CLI, served by
 * `wrangler pages dev` (workerd) with the project's functions, checked over HTTP.
 *
 * Three servers: `main` (the default build, a usage limit too high to reach),
 * `alt` (a build prebuilding only limit 7, so every other page is computed there)
 * and `tight` (the default build with a usage limit of 5 requests per 3 s).
 */
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import fg from "fast-glob";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ROOT, runCli, tempDir } from "../helpers.js";
import { expectedResponse, readIndicator, resolveRef, type RefIndicator } from "../reference.js";
import { prng } from "../../scripts/bench/generate.js";
import { startPagesDev, type PagesDev } from "./pages-dev.js";

const EPOCH = "1700000000";
const LAST_MODIFIED = "Tue, 14 Nov 2023 22:13:20 GMT";
const SITE = "https://open-series-uy.pages.dev";
const PHRASE = "Data: Open Series UY";
const IDS = ["domestic-worker-wages", "health-insurance-prices"] as const;
const refs = new Map<string, RefIndicator>(IDS.map((id) => [id, readIndicator(join(ROOT, "data", id))]));
const HIGH = { RATE_LIMIT_REQUESTS: "1000000" };

let mainDir: string;
let altDir: string;
let main: PagesDev;
let alt: PagesDev;
let tight: PagesDev;

beforeAll(async () => {
  const dir = await tempDir();
  mainDir = join(dir, "main");
  altDir = join(dir, "alt");
  const builds = await Promise.all([
    runCli(["build", "--out", mainDir], { SOURCE_DATE_EPOCH: EPOCH }),
    runCli(["build", "--out", altDir, "--limits", "7"], { SOURCE_DATE_EPOCH: EPOCH }),
  ]);
  for (const b of builds) expect(b.code, b.stderr).toBe(0);
  [main, alt, tight] = await Promise.all([
    startPagesDev(mainDir, HIGH),
    startPagesDev(altDir, HIGH),
    startPagesDev(mainDir, { RATE_LIMIT_REQUESTS: "5", RATE_LIMIT_WINDOW_SECONDS: "3" }),
  ]);
}, 180_000);

afterAll(async () => {
  await Promise.all([main, alt, tight].map((s) => s?.stop()));
});

interface Fetched {
  status: number;
  headers: Headers;
  bytes: Buffer;
  text: string;
}

async function get(server: PagesDev, path: string, init: RequestInit = {}): Promise<Fetched> {
  const response = await fetch(server.url + path, init);
  const bytes = Buffer.from(await response.arrayBuffer());
  return { status: response.status, headers: response.headers, bytes, text: bytes.toString("utf8") };
}

/** The strong ETag the contract promises, computed here independently. */
const etagOf = (bytes: Buffer) => `"${createHash("sha256").update(bytes).digest().subarray(0, 16).toString("base64url")}"`;

/** Headers of every 200 and 304 (DESIGN §2). */
function expectSuccessHeaders(r: Fetched) {
  expect(r.headers.get("cache-control")).toBe("public, max-age=900");
  expect(r.headers.get("last-modified")).toBe(LAST_MODIFIED);
  expect(r.headers.get("etag")).toMatch(/^"[A-Za-z0-9_-]{22}"$/);
  expect(r.headers.get("access-control-allow-origin")).toBe("*");
  const exposed = (r.headers.get("access-control-expose-headers") ?? "").split(/,\s*/);
  for (const h of ["ETag", "Retry-After", "Last-Modified", "Link", "RateLimit", "RateLimit-Policy"]) expect(exposed).toContain(h);
  expect(r.headers.get("x-content-type-options")).toBe("nosniff");
  expect(r.headers.get("ratelimit-policy")).toBe('"default";q=1000000;w=60');
  expect(r.headers.get("ratelimit")).toMatch(/^"default";r=\d+;t=\d+$/);
}

function expectError(r: Fetched, status: number, code: string) {
  expect(r.status).toBe(status);
  expect(r.headers.get("content-type")).toBe("application/json; charset=utf-8");
  expect(r.headers.get("cache-control")).toBe("no-store");
  expect(r.headers.get("access-control-allow-origin")).toBe("*");
  const body = JSON.parse(r.text) as { error: { code: string; message: string; detail: string } };
  expect(Object.keys(body)).toEqual(["error"]);
  expect(Object.keys(body.error)).toEqual(["code", "message", "detail"]);
  expect(body.error.code).toBe(code);
  expect(body.error.message.length).toBeGreaterThan(0);
  expect(r.text).not.toMatch(/\bat .+:\d+:\d+/); // no stack trace
  return body.error;
}

/** Checks a 200 against the reference: body, ETag of the body, Link iff has_more. */
function expectPage(r: Fetched, id: string, query: { from?: string | null; to?: string | null; limit?: number; offset?: number }) {
  expect(r.status, r.text).toBe(200);
  expect(r.headers.get("content-type")).toBe("application/json; charset=utf-8");
  const body = JSON.parse(r.text) as ReturnType<typeof expectedResponse>;
  expect(body).toEqual(expectedResponse(refs.get(id) as RefIndicator, query, SITE, PHRASE));
  expect(r.headers.get("etag")).toBe(etagOf(r.bytes));
  expect(r.headers.get("link")).toBe(body.meta.next === null ? null : `<${body.meta.next}>; rel="next"`);
  expectSuccessHeaders(r);
}

/** Runs `task` over `items` with at most `width` at once. */
async function inBatches<T>(items: readonly T[], width: number, task: (item: T) => Promise<void>) {
  for (let i = 0; i < items.length; i += width) await Promise.all(items.slice(i, i + width).map(task));
}

describe("the API through wrangler pages dev", () => {
  it.each(IDS)("%s: the default page is the prebuilt file, with every header", async (id) => {
    const r = await get(main, `/api/v1/${id}`);
    expectPage(r, id, {});
    expect(r.bytes.equals(readFileSync(join(mainDir, `api/v1/${id}/index.json`)))).toBe(true);
  });

  it.each(IDS)("%s: 200 random windows and pages equal the reference", async (id) => {
    const random = prng(id.length * 7919); // seeded: every run checks the same windows
    const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)] as T;
    const dates = [...new Set((refs.get(id) as RefIndicator).points.map((p) => p.date))];
    const dateText = (): string | undefined => {
      const base = pick(dates);
      const roll = random();
      if (roll < 0.2) return undefined;
      if (roll < 0.45) return base; // on a data date
      if (roll < 0.6) return base.slice(0, 7); // YYYY-MM
      if (roll < 0.7) return base.slice(0, 4); // YYYY
      const shifted = new Date(Date.parse(base) + Math.round((random() - 0.5) * 400) * 86_400_000);
      return shifted.toISOString().slice(0, 10); // between data dates
    };
    const cases: { path: string; query: { from: string | null; to: string | null; limit: number; offset: number } }[] = [];
    while (cases.length < 200) {
      let from = dateText();
      let to = dateText();
      if (from !== undefined && to !== undefined && (resolveRef(from, "start") as string) > (resolveRef(to, "end") as string)) {
        [from, to] = [to, from];
        if ((resolveRef(from, "start") as string) > (resolveRef(to, "end") as string)) continue;
      }
      const limit = pick([1, 2, 3, 5, 7, 10, 16, 50, 500, 5000, 1 + Math.floor(random() * 40)]);
      const offset = pick([0, 0, 1, 2, limit, 2 * limit, Math.floor(random() * 20)]);
      const params = new URLSearchParams();
      if (from !== undefined) params.set("from", from);
      if (to !== undefined) params.set("to", to);
      params.set("limit", String(limit));
      params.set("offset", String(offset));
      const query = {
        from: from === undefined ? null : resolveRef(from, "start"),
        to: to === undefined ? null : resolveRef(to, "end"),
        limit,
        offset,
      };
      cases.push({ path: `/api/v1/${id}?${params.toString()}`, query });
    }
    await inBatches(cases, 8, async ({ path, query }) => {
      expectPage(await get(main, path), id, query);
    });
  });

  it("answers every prebuilt query with bytes identical to the prebuilt file, computed or served", async () => {
    let compared = 0;
    for (const id of IDS) {
      const files = fg.sync(`api/v1/${id}/limit-*/offset-*.json`, { cwd: mainDir });
      expect(files.length).toBeGreaterThanOrEqual(7);
      for (const file of [...files, `api/v1/${id}/index.json`]) {
        const [, limit, offset] = /limit-(\d+)\/offset-(\d+)/.exec(file) ?? [null, "500", "0"];
        const prebuilt = readFileSync(join(mainDir, file));
        const path = `/api/v1/${id}?limit=${limit}&offset=${offset}`;
        const [served, computed] = await Promise.all([get(main, path), get(alt, path)]);
        expect(served.bytes.equals(prebuilt), `${path} served`).toBe(true);
        expect(computed.bytes.equals(prebuilt), `${path} computed`).toBe(true);
        expect(computed.headers.get("etag")).toBe(served.headers.get("etag"));
        expect(served.headers.get("etag")).toBe(etagOf(prebuilt));
        compared++;
      }
      // And the other way round: alt's prebuilt limit-7 pages are computed on main.
      for (const file of fg.sync(`api/v1/${id}/limit-7/offset-*.json`, { cwd: altDir })) {
        const offset = /offset-(\d+)/.exec(file)?.[1] as string;
        const computed = await get(main, `/api/v1/${id}?limit=7&offset=${offset}`);
        expect(computed.bytes.equals(readFileSync(join(altDir, file))), file).toBe(true);
        compared++;
      }
    }
    expect(compared).toBeGreaterThanOrEqual(20);
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
  ])("400 for %j, detail naming the parameter", async (qs, detail) => {
    for (const id of IDS) {
      const error = expectError(await get(main, `/api/v1/${id}?${qs}`), 400, "bad_request");
      expect(error.detail).toBe(detail);
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

  it("never answers arbitrary query strings with anything but 200 or a well-formed 400 (property)", async () => {
    const name = fc.oneof(fc.constantFrom("from", "to", "limit", "offset", "x", "LIMIT", "from[]", ""), fc.string({ maxLength: 8 }));
    const value = fc.oneof(
      fc.string({ maxLength: 20 }),
      fc.integer({ min: -10, max: 6000 }).map(String),
      fc.constantFrom("2024", "2024-02", "2024-02-29", "2023-02-29", "1e3", "-0", "0x10", " 5", "%", "%zz", "\u0000", "٣"),
    );
    const queries = fc.array(fc.tuple(name, value), { maxLength: 6 });
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...IDS), queries, async (id, pairs) => {
        const qs = pairs.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join("&");
        const r = await get(main, `/api/v1/${id}?${qs}`);
        if (r.status === 200) {
          const body = JSON.parse(r.text) as { data: unknown[]; meta: { indicator: string } };
          expect(Array.isArray(body.data)).toBe(true);
          expect(body.meta.indicator).toBe(id);
        } else {
          const error = expectError(r, 400, "bad_request");
          expect(error.detail).toMatch(/^(from|to|limit|offset): /);
        }
      }),
      { numRuns: 300, seed: 20261123 },
    );
  });
});

describe("the usage limit through wrangler pages dev (5 requests per 3 s)", () => {
  it("answers 429 with Retry-After over the limit, on every endpoint, and serves again once the window has passed", async () => {
    const paths = ["/api/v1/domestic-worker-wages?limit=1", "/api/v1/health-insurance-prices?limit=1", "/api/v1/nope", "/api/v1/domestic-worker-wages", "/api/x"];
    let last: Fetched | undefined;
    for (const path of paths) {
      last = await get(tight, path);
      expect(last.status, path).not.toBe(429);
    }
    expect(last?.headers.get("ratelimit")).toMatch(/^"default";r=0;t=[1-3]$/);
    const refused = await get(tight, "/api/v1/domestic-worker-wages?limit=2");
    expectError(refused, 429, "too_many_requests");
    const retryAfter = Number(refused.headers.get("retry-after"));
    expect(Number.isInteger(retryAfter)).toBe(true);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(3);
    expect(refused.headers.get("ratelimit-policy")).toBe('"default";q=5;w=3');
    // Other endpoints share the counter.
    expectError(await get(tight, "/api/v1/health-insurance-prices"), 429, "too_many_requests");
    await new Promise((r) => setTimeout(r, retryAfter * 1000 + 100));
    const again = await get(tight, "/api/v1/domestic-worker-wages?limit=2");
    expect(again.status).toBe(200);
    expect(again.headers.get("ratelimit")).toMatch(/^"default";r=4;t=3$/);
  });
});
