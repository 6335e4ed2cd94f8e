/**
 * What every answer of the API must be, checked the same way whether it came
 * from the handler called in Node (test/unit) or through workerd (test/e2e):
 * the headers of a success, the error object, a page against the independent
 * reference, and the generators of random windows and arbitrary query strings.
 */
import { createHash } from "node:crypto";
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { expect } from "vitest";
import { prng } from "../scripts/bench/generate.js";
import { ROOT } from "./helpers.js";
import { expectedAnswer, expectedResponse, readIndicator, refCanonicalUrl, resolveRef, type RefIndicator } from "./reference.js";
import { ANSWER_CODE_VERSION } from "../src/core/answer/contract.js";
import type { Assets } from "../src/api/data-store.js";
import { INDICATOR_IDS } from "./indicators.js";

import { EPOCH, LAST_MODIFIED } from "./epoch.js";

export { EPOCH, LAST_MODIFIED };
export const SITE = "https://open-series-uy.pages.dev";
export const PHRASE = "Data: Open Series UY";
/** Every indicator of data/ (test/indicators.ts). */
export const IDS = INDICATOR_IDS;
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

const sha = (text: string | Buffer) => createHash("sha256").update(text).digest().subarray(0, 16).toString("base64url");

/** The data tags of the indicators of the output folder in use (`useOutput`), computed here from their answer files. */
const tags = new Map<string, string>();

/** Reads the data tag of each indicator of an output folder: SHA-256 of the answers' code version and its answer shards in order. */
export function useOutput(dir: string): void {
  for (const name of readdirSync(join(dir, "_data")).filter((n) => n.endsWith(".api.bin"))) {
    const id = name.slice(0, -".api.bin".length);
    tags.set(id, sha(Buffer.concat([Buffer.from(`${ANSWER_CODE_VERSION}\n`), ...answerShards(dir, id)])));
  }
}

/** The shard files of an indicator's answers in an output folder (`_data/<id>/answers/<k>.bin`), in order of `k`. */
export function answerShards(dir: string, id: string): Buffer[] {
  const folder = join(dir, "_data", id, "answers");
  return readdirSync(folder)
    .map((file) => Number(file.replace(/\.bin$/, "")))
    .sort((a, b) => a - b)
    .map((k) => readFileSync(join(folder, `${k}.bin`)));
}

/** The strong ETag the contract promises for a canonical URL, computed here independently (docs/api.md "Headers"). */
export function etagFor(ids: readonly string[], canonicalUrl: string): string {
  const known = ids.map((id) => {
    const tag = tags.get(id);
    if (tag === undefined) throw new Error(`no data tag for ${id}: call useOutput(dir) first`);
    return tag;
  });
  return `"${sha(`${known.join(" ")}\n${canonicalUrl}`)}"`;
}

/**
 * Headers of every 200 and 304 (docs/DESIGN.md §2), under the `HIGH` usage limit: compared as
 * one object (an expect per header was a tenth of the time of the handler's random windows).
 */
export function expectSuccessHeaders(r: Fetched) {
  const exposed = (r.headers.get("access-control-expose-headers") ?? "").split(/,\s*/);
  expect({
    "cache-control": r.headers.get("cache-control"),
    "last-modified": r.headers.get("last-modified"),
    etag: r.headers.get("etag"),
    "access-control-allow-origin": r.headers.get("access-control-allow-origin"),
    "access-control-expose-headers (missing)": ["ETag", "Retry-After", "Last-Modified", "Link", "RateLimit", "RateLimit-Policy", "X-Total-Count"].filter((h) => !exposed.includes(h)),
    "x-content-type-options": r.headers.get("x-content-type-options"),
    "ratelimit-policy": r.headers.get("ratelimit-policy"),
    ratelimit: r.headers.get("ratelimit"),
  }).toEqual({
    "cache-control": "public, max-age=900",
    "last-modified": LAST_MODIFIED,
    etag: expect.stringMatching(/^"[A-Za-z0-9_-]{22}"$/) as unknown,
    "access-control-allow-origin": "*",
    "access-control-expose-headers (missing)": [],
    "x-content-type-options": "nosniff",
    "ratelimit-policy": '"default";q=1000000;w=60',
    ratelimit: expect.stringMatching(/^"default";r=\d+;t=\d+$/) as unknown,
  });
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
  series?: readonly string[] | null;
  limit: number;
  offset: number;
}

/** The `Link` header of a JSON answer: the next page when there is one, and the metadata document. */
export function expectedLink(id: string, next: string | null): string {
  const describedby = `</api/v1/${id}/metadata.json>; rel="describedby"`;
  return next === null ? describedby : `<${next}>; rel="next", ${describedby}`;
}

/**
 * `actual` deep-equals `expected`, key order included: compared as JSON text first
 * (vitest's toEqual walks a 22,914-point answer in about 30 ms, JSON.stringify in
 * 2), and with toEqual only when they differ, for its readable diff.
 */
export function expectSame(actual: unknown, expected: unknown): void {
  if (JSON.stringify(actual) !== JSON.stringify(expected)) expect(actual).toEqual(expected);
}

/** Checks a 200 against the reference: body, ETag of the body, Link iff has_more, every header. */
export function expectPage(r: Fetched, id: string, query: Partial<WindowQuery>) {
  expect(r.status, r.text).toBe(200);
  const ref = refs.get(id) as RefIndicator;
  // The text compared (no parse: most answers are equal), and when it differs the parsed body, for a readable diff.
  const expected = expectedAnswer(ref, query, SITE, PHRASE);
  if (r.text !== expected.text) {
    expectSame(JSON.parse(r.text), expectedResponse(ref, query, SITE, PHRASE));
    expect(r.text, "values as the CSV files write them").toBe(expected.text);
  }
  expect({ "content-type": r.headers.get("content-type"), etag: r.headers.get("etag"), link: r.headers.get("link") }).toEqual({
    "content-type": "application/json; charset=utf-8",
    etag: etagFor([id], refCanonicalUrl(id, query)),
    link: expectedLink(id, expected.next),
  });
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

/**
 * `count` seeded random selections of an indicator: one id, a list of ids, a
 * prefix pattern (`casmu.*`), a suffix or inner pattern (`*.fonasa`), mixed lists;
 * half of them with a window, limits and offsets; with the query the reference
 * resolves them to (the items deduplicated and sorted, as the API echoes them).
 */
export function randomSelections(id: string, count: number): { path: string; query: WindowQuery }[] {
  const random = prng(id.length * 104729);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)] as T;
  const ids = [...new Set((refs.get(id) as RefIndicator).points.map((p) => p.series))].sort();
  const parts = ids.map((s) => s.split("."));
  const item = (): string => {
    const roll = random();
    const one = pick(parts);
    if (roll < 0.4 || one.length === 1) return one.join(".");
    if (roll < 0.6) return `${one[0] as string}.*`;
    if (roll < 0.8) return `*.${one[one.length - 1] as string}`;
    return one.length > 2 ? `*.${one[1] as string}.*` : `${(one[0] as string).slice(0, 2)}*`;
  };
  return randomWindows(id, count).map(({ query }) => {
    const items = [...new Set(Array.from({ length: 1 + Math.floor(random() * 3) }, item))].sort();
    const windowed = random() < 0.5;
    const q: WindowQuery = { ...(windowed ? query : { from: null, to: null, limit: 500, offset: 0 }), series: items };
    const params = [q.from === null ? null : `from=${q.from}`, q.to === null ? null : `to=${q.to}`, `series=${items.join(",")}`, `limit=${q.limit}`, `offset=${q.offset}`];
    return { path: `/api/v1/${id}?${params.filter((p) => p !== null).join("&")}`, query: q };
  });
}

/** Arbitrary query strings: known and unknown names, valid, invalid and strange values. */
export const arbitraryQueryString = fc
  .array(
    fc.tuple(
      fc.oneof(
        fc.constantFrom("from", "to", "limit", "offset", "series", "format", "from", "limit", "series", "x", "LIMIT", "from[]", ""),
        fc.string({ maxLength: 8 }),
      ),
      fc.oneof(
        fc.string({ maxLength: 20 }),
        fc.integer({ min: -10, max: 6000 }).map(String),
        fc.constantFrom("2024", "2024-02", "2024-02-29", "2023-02-29", "1e3", "-0", "0x10", " 5", "%", "%zz", "\u0000", "٣", "csv", "json"),
        fc.constantFrom("monthly", "hourly,monthly", "*", "casmu.*", "*.fonasa", "nope", "a,,b", "*.consult-general-medicine.*"),
      ),
    ),
    { maxLength: 6 },
  )
  .map((pairs) => pairs.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join("&"));

/** A 200 page of `id` or a well-formed 400 whose detail begins with a parameter of the query: nothing else. */
export function expectPageOrBadRequest(r: Fetched, id: string, qs: string) {
  if (r.status === 200) {
    if ((r.headers.get("content-type") ?? "").startsWith("text/csv")) {
      expect(r.text.startsWith("date,series,value,source,note\n")).toBe(true);
      return;
    }
    const body = JSON.parse(r.text) as { data: unknown[]; meta: { indicator: string } };
    expect(Array.isArray(body.data)).toBe(true);
    expect(body.meta.indicator).toBe(id);
  } else {
    const error = expectError(r, 400, "bad_request");
    const names = [...new URLSearchParams(qs).keys()];
    expect(names.some((name) => error.detail.startsWith(`${name}: `) || error.detail.startsWith(`${JSON.stringify(name)}: `)), error.detail).toBe(true);
  }
}

/** Runs `task` over `items` with at most `width` at once. */
export async function inBatches<T>(items: readonly T[], width: number, task: (item: T) => Promise<void>) {
  for (let i = 0; i < items.length; i += width) await Promise.all(items.slice(i, i + width).map(task));
}

/**
 * `assets` with every answer index served as it would be without time tiles
 * (src/core/file/time-tiles.ts): the header's `tiles` left out and its two sections
 * (after the shards', before the ids) cut, so that the function answers every
 * `at` from the shards. Built here from the layout src/core/file/answer-index.ts
 * documents, not with its code.
 */
export function withoutTiles(assets: Assets): Assets {
  return {
    async fetch(url) {
      const response = await assets.fetch(url);
      if (!new URL(url).pathname.endsWith(".api.bin") || response.status !== 200) return response;
      const bytes = new Uint8Array(await response.arrayBuffer());
      const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
      const headerLength = view.getUint32(4, true);
      const { tiles = 0, ...header } = JSON.parse(new TextDecoder().decode(bytes.subarray(8, 8 + headerLength))) as { series: number; publications: number; shards: number; tiles?: number };
      const sections = Math.ceil((8 + headerLength) / 4) * 4;
      const tilesAt = sections + 4 * (header.series + header.publications + 2 * header.shards);
      const headerBytes = new TextEncoder().encode(JSON.stringify(header));
      const start = Math.ceil((8 + headerBytes.length) / 4) * 4;
      const out = new Uint8Array(start + bytes.length - sections - 8 * tiles);
      out.set(bytes.subarray(0, 4));
      new DataView(out.buffer).setUint32(4, headerBytes.length, true);
      out.set(headerBytes, 8);
      out.set(bytes.subarray(sections, tilesAt), start);
      out.set(bytes.subarray(tilesAt + 8 * tiles), start + tilesAt - sections);
      return new Response(out);
    },
  };
}
