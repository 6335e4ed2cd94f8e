/**
 * The runtime-agnostic handler called directly in Node (the same code workerd runs),
 * with `env.ASSETS` played by a reader of a real built output folder. Behaviour users
 * see is proven again through workerd in test/e2e; this covers what is hard to
 * provoke there: a broken output folder, the clock, thousands of property runs.
 */
import { readdirSync, statSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import type { Assets, StoreLimits } from "../../src/api/data-store.js";
import { Api } from "../../src/api/handler.js";
import { computedOnly, folderAssets } from "../../scripts/lib/folder-assets.js";
import { answerShards } from "../api-checks.js";
import { runCli, tempDir } from "../helpers.js";
import { syntheticHistory } from "../history-repo.js";

let out: string;

beforeAll(async () => {
  out = join(await tempDir(), "dist");
  const r = await runCli(["build", "--data", "test/fixtures/golden/data", "--out", out, "--limits", "2"], { SOURCE_DATE_EPOCH: "1700000000" });
  expect(r.code, r.stderr).toBe(0);
});

/** The handler workerd runs (one isolate's `Api`), with `vars` as the `wrangler.toml` vars. */
function handler(assets: Assets, vars: Record<string, string> = { RATE_LIMIT_REQUESTS: "1000000", RATE_LIMIT_MAX_CLIENTS: "10" }, limits: StoreLimits = {}) {
  const api = new Api(limits);
  return (path: string, init: RequestInit = {}, now = 0) => api.fetch(new Request(`http://api.test${path}`, init), { ASSETS: assets, ...vars }, now);
}

describe("the handler in Node", () => {
  it("computes, for a build without prebuilt pages, the exact bytes of the prebuilt files", async () => {
    const files = folderAssets(out);
    const served = handler(files);
    const computed = handler(computedOnly(files));
    for (const [query, file] of [
      ["limit=2&offset=0", "limit-2/offset-0.json"],
      ["limit=2&offset=2", "limit-2/offset-2.json"],
      ["", "index.json"],
    ]) {
      const expected = await readFile(join(out, "api/v1/tiny-wages", file as string), "utf8");
      const [a, b] = await Promise.all([served(`/api/v1/tiny-wages?${query}`), computed(`/api/v1/tiny-wages?${query}`)]);
      expect(await a.text()).toBe(expected);
      expect(await b.text()).toBe(expected);
      expect(b.headers.get("ETag")).toBe(a.headers.get("ETag"));
    }
  });

  it("answers as_of and /changes of an indicator of one version, which has no history table, from its answers", async () => {
    const single = join(await tempDir(), "dist");
    const r = await runCli(["build", "--data", "test/fixtures/golden/data", "--out", single, "--limits", "2", "--no-history"], { SOURCE_DATE_EPOCH: "1700000000" });
    expect(r.code, r.stderr).toBe(0);
    const files = folderAssets(single);
    const read: string[] = [];
    const call = handler({ fetch: (url) => (read.push(new URL(url).pathname), files.fetch(url)) });
    const manifest = JSON.parse(await readFile(join(single, "_data/manifest.json"), "utf8")) as { indicators: Record<string, { history: { path: string | null; days: string[] } }> };
    const { history } = manifest.indicators["tiny-wages"] as { history: { path: string | null; days: string[] } };
    expect(history.path).toBe(null);
    const [day] = history.days as [string];
    const later = Date.parse("2030-01-01");
    const today = (await (await call("/api/v1/tiny-wages?series=monthly")).json()) as { data: unknown };
    const asOfResponse = await call(`/api/v1/tiny-wages?series=monthly&as_of=${day}`, {}, later);
    const asOf = (await asOfResponse.json()) as { data: unknown; meta: { as_of: string } };
    expect(asOfResponse.status, JSON.stringify(asOf)).toBe(200);
    expect(asOf.data).toEqual(today.data);
    expect(asOf.meta.as_of).toBe(day);
    const changes = await call(`/api/v1/tiny-wages/changes?since=${day}`, {}, later);
    expect(changes.status).toBe(200);
    const body = (await changes.json()) as { data: unknown[]; meta: { total: number; version: string; license: string } };
    expect(body.data).toEqual([]);
    expect(body.meta).toMatchObject({ total: 0, version: day, license: "CC-BY-4.0" });
    expect(read.some((path) => path.endsWith(".history.bin"))).toBe(false);
    // A day before the only version: everything published since it, every point added on its day, and the answer says so.
    const before = await call("/api/v1/tiny-wages/changes?since=2000-01-01", {}, later);
    expect(before.status).toBe(200);
    const all = (await before.json()) as { data: { date: string; series: string; change: string; value: number; previous: null; changed: string }[]; meta: Record<string, unknown> };
    expect(all.meta).toMatchObject({ since: "2000-01-01", since_before_first: day, total: 6 });
    expect(Object.keys(all.meta).slice(0, 3)).toEqual(["indicator", "since", "since_before_first"]);
    expect(all.data.slice(0, 3)).toEqual([
      { date: "2024-07-01", series: "monthly", change: "added", value: 27985, previous: null, changed: day },
      { date: "2024-01-01", series: "hourly", change: "added", value: 145.34, previous: null, changed: day },
      { date: "2024-01-01", series: "monthly", change: "added", value: 27626.3, previous: null, changed: day },
    ]);
    const monthly = (await (await call("/api/v1/tiny-wages/changes?since=2000-01-01&series=monthly&format=csv", {}, later)).text()).split("\n");
    expect(monthly).toEqual(["date,series,change,value,previous,changed", `2024-07-01,monthly,added,27985,,${day}`, `2024-01-01,monthly,added,27626.3,,${day}`, `2023-07-01,monthly,added,25000.50,,${day}`, `2023-01-01,monthly,added,24000,,${day}`, ""]);
  });

  it("refuses a question whose sub-series' shards pass what one request may read with a 400 naming series and how many fit; a narrower one and a prebuilt page are answered", async () => {
    // One shard per sub-series (--shard-bytes 1), and a read bound between one shard and both.
    const sharded = join(await tempDir(), "dist");
    const r = await runCli(["build", "--data", "test/fixtures/golden/data", "--out", sharded, "--limits", "2", "--shard-bytes", "1"], { SOURCE_DATE_EPOCH: "1700000000" });
    expect(r.code, r.stderr).toBe(0);
    const shards = answerShards(sharded, "tiny-wages");
    expect(shards.length).toBe(2);
    const [small, large] = shards.map((s) => s.length).sort((a, b) => a - b) as [number, number];
    const files = folderAssets(sharded);
    const read: string[] = [];
    const call = handler({ fetch: (url) => (read.push(new URL(url).pathname), files.fetch(url)) }, undefined, { readBytes: large });
    const refused = await call("/api/v1/tiny-wages?at=2024-03-01");
    expect(refused.status).toBe(400);
    const { error } = (await refused.json()) as { error: { detail: string } };
    expect(error.detail).toMatch(/^series: this question reads the points of 2 sub-series of tiny-wages \(0\.0 MiB\), over the 0\.0 MiB one request may read; select at most about 1 sub-series \(series, a list or a pattern/);
    expect(error.detail).toContain("/api/v1/tiny-wages/metadata.json");
    expect(error.detail).toContain(", or ask a prebuilt page of every sub-series: limit and offset alone, such as /api/v1/tiny-wages?limit=2");
    // Refused before any shard is read.
    expect(read.filter((p) => p.includes("/answers/"))).toEqual([]);
    for (const series of ["monthly", "hourly"]) expect((await call(`/api/v1/tiny-wages?at=2024-03-01&series=${series}`)).status).toBe(200);
    expect((await call("/api/v1/tiny-wages?limit=2")).status).toBe(200);
    // Both shards together fit a bound of their sum.
    expect((await handler(files, undefined, { readBytes: small + large })("/api/v1/tiny-wages?at=2024-03-01")).status).toBe(200);
  });

  it("answers as_of of a past version, and /changes, from the shards of the history table that hold the sub-series asked, within what one request may read", async () => {
    const repo = await syntheticHistory();
    // One shard per sub-series, and the default (one shard for all): the same answers.
    const [sharded, whole] = [join(await tempDir(), "dist"), join(await tempDir(), "dist")];
    for (const [dir, extra] of [[sharded, ["--shard-bytes", "1"]], [whole, []]] as const) {
      const r = await runCli(["build", "--data", repo.data, "--out", dir, "--no-base", ...extra], { SOURCE_DATE_EPOCH: String(Date.UTC(2026, 7, 1) / 1000) });
      expect(r.code, r.stderr).toBe(0);
    }
    const files = folderAssets(sharded);
    const read: string[] = [];
    const spy: Assets = { fetch: (url) => (read.push(new URL(url).pathname), files.fetch(url)) };
    const history = (p: string) => p.startsWith("/_data/wages/history/");
    const shardSizes = readdirSync(join(sharded, "_data/wages/history")).map((name) => statSync(join(sharded, "_data/wages/history", name)).size);
    // The wages' sub-series (hourly, monthly and the ones of later versions): one shard each.
    expect(shardSizes.length).toBeGreaterThan(1);
    const later = Date.parse("2030-01-01");
    const asked = ["as_of=2026-03-10&series=monthly", "as_of=2026-03-10&series=hourly&format=csv", "as_of=2026-03-10", "as_of=2026-05-10&at=2026-04-15", "as_of=2026-02-10&limit=1&offset=1"];
    const reference = handler(folderAssets(whole));
    for (const question of asked) {
      const [a, b] = await Promise.all([handler(spy)(`/api/v1/wages?${question}`, {}, later), reference(`/api/v1/wages?${question}`, {}, later)]);
      expect(a.status, question).toBe(200);
      expect(await a.text(), question).toBe(await b.text());
    }
    read.length = 0;
    expect((await handler(spy)("/api/v1/wages?as_of=2026-03-10&series=monthly", {}, later)).status).toBe(200);
    expect(read.filter(history)).toHaveLength(1);
    expect(read).toContain("/_data/wages.history.bin");
    // Every sub-series of a past version: every shard of its sub-series; /changes: every shard.
    read.length = 0;
    expect((await handler(spy)("/api/v1/wages?as_of=2026-03-10", {}, later)).status).toBe(200);
    expect(read.filter(history).length).toBeGreaterThan(1);
    // Since a day before the first version: every point published since, each added on the day it last changed.
    const first = (await (await handler(spy)("/api/v1/wages/changes?since=2000-01-01&limit=5000", {}, later)).json()) as { data: { change: string; changed: string }[]; meta: Record<string, unknown> };
    const current = (await (await reference("/api/v1/wages?limit=5000", {}, later)).json()) as { meta: { total: number } };
    expect(first.meta.since_before_first).toMatch(/^2026-/);
    expect(first.data.length).toBe(current.meta.total);
    expect(new Set(first.data.map((c) => c.change))).toEqual(new Set(["added"]));
    read.length = 0;
    const changes = await handler(spy)("/api/v1/wages/changes?since=2026-01-10", {}, later);
    expect(changes.status).toBe(200);
    expect(await changes.text()).toBe(await (await reference("/api/v1/wages/changes?since=2026-01-10", {}, later)).text());
    expect(read.filter(history)).toHaveLength(shardSizes.length);
    // The changes of one sub-series: that shard alone, the list of every sub-series' filtered, `meta.series` echoed.
    read.length = 0;
    type Changes = { data: { series: string }[]; meta: { series?: string[]; total: number } };
    const every = (await (await handler(spy)("/api/v1/wages/changes?since=2026-01-10&limit=5000", {}, later)).json()) as Changes;
    read.length = 0;
    const monthly = (await (await handler(spy)("/api/v1/wages/changes?since=2026-01-10&series=monthly&limit=5000", {}, later)).json()) as Changes;
    expect(monthly.data).toEqual(every.data.filter((c) => c.series === "monthly"));
    expect(monthly.data.length).toBeGreaterThan(0);
    expect(monthly.data.length).toBeLessThan(every.data.length);
    expect(monthly.meta).toMatchObject({ series: ["monthly"], total: monthly.data.length });
    expect(every.meta.series).toBeUndefined();
    expect(read.filter(history)).toHaveLength(1);
    const unknown = await handler(spy)("/api/v1/wages/changes?since=2026-01-10&series=nope", {}, later);
    expect(unknown.status).toBe(400);
    expect(((await unknown.json()) as { error: { detail: string } }).error.detail).toBe('series: "nope" matches no sub-series of wages; they are listed at /api/v1/wages/metadata.json');
    // A bound below the shards of every sub-series: the past version's question of all of them is refused, naming series, before a shard is read.
    read.length = 0;
    const bounded = handler(spy, undefined, { readBytes: Math.max(...shardSizes) });
    const refused = await bounded("/api/v1/wages?as_of=2026-03-10", {}, later);
    expect(refused.status).toBe(400);
    expect(((await refused.json()) as { error: { detail: string } }).error.detail).toMatch(/^series: this question reads the points of 2 sub-series of wages .* select at most about 1 sub-series/);
    expect(read.filter(history)).toEqual([]);
    expect((await bounded("/api/v1/wages?as_of=2026-03-10&series=hourly", {}, later)).status).toBe(200);
    // /changes too: every sub-series' is refused the same way, one sub-series' answered.
    const changesRefused = await bounded("/api/v1/wages/changes?since=2026-01-10", {}, later);
    expect(changesRefused.status).toBe(400);
    expect(((await changesRefused.json()) as { error: { detail: string } }).error.detail).toMatch(/^series: this question reads the points of \d+ sub-series of wages .* select at most about 1 sub-series/);
    expect((await bounded("/api/v1/wages/changes?since=2026-01-10&series=hourly", {}, later)).status).toBe(200);
  });

  it("answers 304 for a prebuilt page without reading the file", async () => {
    const files = folderAssets(out);
    const read: string[] = [];
    const spy: Assets = { fetch: (url) => (read.push(url), files.fetch(url)) };
    const call = handler(spy);
    const first = await call("/api/v1/tiny-wages?limit=2");
    const etag = first.headers.get("ETag") as string;
    read.length = 0;
    const again = await call("/api/v1/tiny-wages?limit=2", { headers: { "If-None-Match": etag } });
    expect(again.status).toBe(304);
    const head = await call("/api/v1/tiny-wages?limit=2", { method: "HEAD" });
    expect(head.status).toBe(200);
    expect(read).toEqual([]);
  });

  it("keeps small prebuilt pages in memory: a hot page costs one asset read", async () => {
    const files = folderAssets(out);
    const read: string[] = [];
    const call = handler({ fetch: (url) => (read.push(new URL(url).pathname), files.fetch(url)) });
    const expected = await readFile(join(out, "api/v1/tiny-wages/limit-2/offset-2.json"), "utf8");
    for (let i = 0; i < 3; i++) expect(await (await call("/api/v1/tiny-wages?limit=2&offset=2")).text()).toBe(expected);
    expect(read.filter((p) => p.endsWith("offset-2.json"))).toEqual(["/api/v1/tiny-wages/limit-2/offset-2.json"]);
  });

  it("turns a broken output folder into a 500 error object without details", async () => {
    const call = handler({ fetch: () => Promise.resolve(new Response("gone", { status: 500 })) });
    const errors: unknown[] = [];
    const original = console.error;
    console.error = (e: unknown) => errors.push(e);
    try {
      const r = await call("/api/v1/tiny-wages");
      expect(r.status).toBe(500);
      expect(r.headers.get("Cache-Control")).toBe("no-store");
      const body = (await r.json()) as { error: { code: string; detail: string } };
      expect(body.error.code).toBe("internal_error");
      expect(JSON.stringify(body)).not.toContain("manifest");
      expect(errors).toHaveLength(1); // logged for the operator
    } finally {
      console.error = original;
    }
  });

  it("does not cache a failed load: the next request retries", async () => {
    const files = folderAssets(out);
    let fail = true;
    const call = handler({ fetch: (url) => (fail ? Promise.reject(new Error("network")) : files.fetch(url)) });
    const original = console.error;
    console.error = () => undefined;
    try {
      expect((await call("/api/v1/tiny-wages")).status).toBe(500);
    } finally {
      console.error = original;
    }
    fail = false;
    expect((await call("/api/v1/tiny-wages")).status).toBe(200);
  });

  it("never awaits a load another request started: one whose request was cancelled (its I/O never ends) leaves the next request answered, for every file a question reads", async () => {
    // Workers cancel a request's I/O when its client disconnects: a promise of that request's fetch never settles.
    const repo = await syntheticHistory();
    const history = join(await tempDir(), "dist");
    const built = await runCli(["build", "--data", repo.data, "--out", history, "--no-base", "--shard-bytes", "1"], { SOURCE_DATE_EPOCH: String(Date.UTC(2026, 7, 1) / 1000) });
    expect(built.code, built.stderr).toBe(0);
    const vars = { RATE_LIMIT_REQUESTS: "1000000" };
    const ask = (api: Api, assets: Assets, path: string) => api.fetch(new Request(`http://api.test${path}`), { ASSETS: assets, ...vars });
    const never = new Promise<Response>(() => undefined);
    const questions: [string, string[]][] = [
      [out, ["/api/v1/tiny-wages?series=hourly&from=2024", "/api/v1/tiny-wages?limit=2&offset=2", "/api/v1/search?q=wages", "/api/v1/tiny-wages?frequency=year"]],
      [history, ["/api/v1/wages?as_of=2026-03-10&series=monthly", "/api/v1/wages?as_of=2026-03-10", "/api/v1/wages/changes?since=2026-01-10"]],
    ];
    for (const [dir, paths] of questions) {
      const files = folderAssets(dir);
      for (const path of paths) {
        const read: string[] = [];
        const expected = await (await ask(new Api(), { fetch: (url) => (read.push(new URL(url).pathname), files.fetch(url)) }, path)).text();
        expect(read.length, path).toBeGreaterThan(0);
        for (const stuck of read) {
          const api = new Api();
          // This request's load of `stuck` never ends; it is not awaited.
          void ask(api, { fetch: (url) => (new URL(url).pathname === stuck ? never : files.fetch(url)) }, path);
          await new Promise((done) => setTimeout(done, 5));
          const answer = await Promise.race([
            ask(api, files, path).then((r) => r.text()),
            new Promise<string>((done) => setTimeout(() => done(`no answer within 2 s, waiting on ${stuck}`), 2_000)),
          ]);
          expect(answer, `${path}, ${stuck} stuck in another request`).toBe(expected);
        }
      }
    }
  });

  it("counts every endpoint against one limit and reports the seconds to wait", async () => {
    const call = handler(folderAssets(out), { RATE_LIMIT_REQUESTS: "2", RATE_LIMIT_WINDOW_SECONDS: "10", RATE_LIMIT_MAX_CLIENTS: "10" });
    const ip = { headers: { "CF-Connecting-IP": "192.0.2.7" } };
    expect((await call("/api/v1/tiny-wages", ip, 1_000)).status).toBe(200);
    expect((await call("/api/v1/missing", ip, 2_000)).status).toBe(404);
    const refused = await call("/api/v1/tiny-wages", ip, 4_500);
    expect(refused.status).toBe(429);
    expect(refused.headers.get("Retry-After")).toBe("7");
    // Another address is not affected; the same one is served again after the window.
    expect((await call("/api/v1/tiny-wages", { headers: { "CF-Connecting-IP": "192.0.2.8" } }, 4_500)).status).toBe(200);
    expect((await call("/api/v1/tiny-wages", ip, 11_000)).status).toBe(200);
  });

  it("never answers an arbitrary query string with anything but 200 or 400 (property, 3000 runs)", async () => {
    const call = handler(folderAssets(out));
    await fc.assert(
      fc.asyncProperty(fc.string({ maxLength: 60 }), async (qs) => {
        let path: string;
        try {
          path = `/api/v1/tiny-wages?${qs}`;
          new URL(`http://api.test${path}`);
        } catch {
          return; // not a URL a client could send
        }
        const r = await call(path);
        expect([200, 400]).toContain(r.status);
        const body = (await r.json()) as Record<string, unknown>;
        expect(Object.keys(body)).toEqual(r.status === 200 ? ["data", "meta"] : ["error"]);
      }),
      { numRuns: 3000, seed: 42 },
    );
  });
});
