/**
 * What every answer of the API must be, checked the same way whether it came
 * from the handler called in Node (test/unit) or through workerd (test/e2e):
 * the headers of a success, the error object, a page against the independent
 * reference, and the generators of random windows and arbitrary query strings.
 */
import { createHash } from "node:crypto";
import { join } from "node:path";
import fc from "fast-check";
import { expect } from "vitest";
import { prng } from "../scripts/bench/generate.js";
import { ROOT } from "./helpers.js";
import { expectedResponse, readIndicator, resolveRef, type RefIndicator } from "./reference.js";

export const EPOCH = "1700000000";
export const LAST_MODIFIED = "Tue, 14 Nov 2023 22:13:20 GMT";
export const SITE = "https://open-series-uy.pages.dev";
export const PHRASE = "Data: Open Series UY";
export const IDS = ["domestic-worker-wages", "health-insurance-prices"] as const;
/** A usage limit no test reaches. */
export const HIGH = { RATE_LIMIT_REQUESTS: "1000000" };

/** The reference of each real indicator, read straight from its CSV files. */
export const refs = new Map<string, RefIndicator>(IDS.map((id) => [id, readIndicator(join(ROOT, "data", id))]));

export interface Fetched {
  status: number;
  headers: Headers;
  bytes: Buffer;
  text: string;
}

/** A response with its body read. */
export async function fetched(response: Response): Promise<Fetched> {
  const bytes = Buffer.from(await response.arrayBuffer());
  return { status: response.status, headers: response.headers, bytes, text: bytes.toString("utf8") };
}

/** The strong ETag the contract promises, computed here independently. */
export const etagOf = (bytes: Buffer) => `"${createHash("sha256").update(bytes).digest().subarray(0, 16).toString("base64url")}"`;

/** Headers of every 200 and 304 (docs/DESIGN.md §2), under the `HIGH` usage limit. */
export function expectSuccessHeaders(r: Fetched) {
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

/** The JSON error object with its headers; returns it. */
export function expectError(r: Fetched, status: number, code: string) {
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

export interface WindowQuery {
  from: string | null;
  to: string | null;
  limit: number;
  offset: number;
}

/** Checks a 200 against the reference: body, ETag of the body, Link iff has_more, every header. */
export function expectPage(r: Fetched, id: string, query: Partial<WindowQuery>) {
  expect(r.status, r.text).toBe(200);
  expect(r.headers.get("content-type")).toBe("application/json; charset=utf-8");
  const body = JSON.parse(r.text) as ReturnType<typeof expectedResponse>;
  expect(body).toEqual(expectedResponse(refs.get(id) as RefIndicator, query, SITE, PHRASE));
  expect(r.headers.get("etag")).toBe(etagOf(r.bytes));
  expect(r.headers.get("link")).toBe(body.meta.next === null ? null : `<${body.meta.next}>; rel="next"`);
  expectSuccessHeaders(r);
}

/**
 * `count` seeded random queries of an indicator (the same ones every run): dates
 * on and between data dates, reduced precisions, open ends, limits and offsets
 * around page edges; with the query the reference resolves them to.
 */
export function randomWindows(id: string, count: number): { path: string; query: WindowQuery }[] {
  const random = prng(id.length * 7919);
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
  const cases: { path: string; query: WindowQuery }[] = [];
  while (cases.length < count) {
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
  return cases;
}

/** Arbitrary query strings: known and unknown names, valid, invalid and strange values. */
export const arbitraryQueryString = fc
  .array(
    fc.tuple(
      fc.oneof(fc.constantFrom("from", "to", "limit", "offset", "x", "LIMIT", "from[]", ""), fc.string({ maxLength: 8 })),
      fc.oneof(
        fc.string({ maxLength: 20 }),
        fc.integer({ min: -10, max: 6000 }).map(String),
        fc.constantFrom("2024", "2024-02", "2024-02-29", "2023-02-29", "1e3", "-0", "0x10", " 5", "%", "%zz", "\u0000", "٣"),
      ),
    ),
    { maxLength: 6 },
  )
  .map((pairs) => pairs.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join("&"));

/** A 200 page of `id` or a well-formed 400 naming a parameter: nothing else. */
export function expectPageOrBadRequest(r: Fetched, id: string) {
  if (r.status === 200) {
    const body = JSON.parse(r.text) as { data: unknown[]; meta: { indicator: string } };
    expect(Array.isArray(body.data)).toBe(true);
    expect(body.meta.indicator).toBe(id);
  } else {
    const error = expectError(r, 400, "bad_request");
    expect(error.detail).toMatch(/^(from|to|limit|offset): /);
  }
}

/** Runs `task` over `items` with at most `width` at once. */
export async function inBatches<T>(items: readonly T[], width: number, task: (item: T) => Promise<void>) {
  for (let i = 0; i < items.length; i += width) await Promise.all(items.slice(i, i + width).map(task));
}
