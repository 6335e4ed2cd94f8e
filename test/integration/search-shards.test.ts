/**
 * The search index in shards (src/builder/search-index.ts `searchShards`, src/core/answer/search.ts
 * `shardsToRead`), over a build of a synthetic indicator of 2,000 sub-series (the
 * benchmarks' many-short shape) and the golden fixture's: a query reads the top file and its words' shards only,
 * and answers byte for byte what a scan of every entry answers.
 */
import { cpSync, readFileSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { DataStore, type Assets } from "../../src/api/data-store.js";
import { Api } from "../../src/api/handler.js";
import { SEARCH_SHARD_BYTES, searchShards } from "../../src/builder/search-index.js";
import type { Manifest } from "../../src/core/file/manifest.js";
import { SEARCH_INDEX_PATH } from "../../src/core/file/paths.js";
import { candidates, queryWords, search, shardEntries, shardsToRead, type SearchIndex, type SearchTop, type ShardEntry } from "../../src/core/answer/search.js";
import { folderAssets } from "../../scripts/lib/folder-assets.js";
import { generateIndicator, prng } from "../../scripts/bench/generate.js";
import { ROOT, runCli, tempDir } from "../helpers.js";

let out: string;
let top: SearchTop;

beforeAll(async () => {
  const data = join(await tempDir(), "data");
  // Beside it, the golden fixture's small indicator: keys of one character that hold several words.
  cpSync(join(ROOT, "test/fixtures/golden/data"), data, { recursive: true });
  await generateIndicator(data, 2_000 * 16, "many-short");
  out = join(await tempDir(), "dist");
  const r = await runCli(["build", "--data", data, "--out", out, "--limits", "10", "--no-series-files", "--no-history"], { SOURCE_DATE_EPOCH: "1700000000" });
  expect(r.code, r.stderr).toBe(0);
  top = JSON.parse(readFileSync(join(out, SEARCH_INDEX_PATH), "utf8")) as SearchTop;
}, 120_000);

/** Shard `n` of the build. */
function shard(n: number): ShardEntry[] {
  return JSON.parse(readFileSync(join(out, `_data/search/${n}.json`), "utf8")) as ShardEntry[];
}

/** The build's files, with the paths fetched recorded. */
function counting(assets: Assets): Assets & { read: string[] } {
  const read: string[] = [];
  return { read, fetch: (url) => (read.push(new URL(url).pathname), assets.fetch(url)) };
}

/** The same build, but a top file whose every word key reads every entry: a scan of the whole index. */
function scanning(assets: Assets): Assets {
  return {
    async fetch(url) {
      const response = await assets.fetch(url);
      if (new URL(url).pathname !== SEARCH_INDEX_PATH) return response;
      const whole = (await response.json()) as SearchTop;
      return Response.json({ ...whole, keys: whole.keys.map(([key]) => [key, null]) });
    },
  };
}

function handler(assets: Assets) {
  const api = new Api();
  return (path: string) => api.fetch(new Request(`http://api.test${path}`), { ASSETS: assets, RATE_LIMIT_REQUESTS: "999999999" });
}

describe("the search index in shards", () => {
  it("keeps every shard within its size, and splits the keys of common words", () => {
    const dir = join(out, "_data/search");
    const sizes = readdirSync(dir).map((f) => statSync(join(dir, f)).size);
    expect(sizes.length).toBe(top.sizes.length);
    expect(Math.max(...sizes)).toBeLessThanOrEqual(SEARCH_SHARD_BYTES);
    expect(top.keys.some(([key]) => key.length > 2)).toBe(true);
    // Every entry once in the indicator's shards.
    const ranks = top.byIndicator.flat().flatMap((n) => shard(n).map((e) => e.r));
    expect(ranks).toEqual(Array.from({ length: 2 + 2_000 }, (_, r) => r));
  });

  it("reads the top file and the shards of the query's rarest word only", async () => {
    const assets = counting(folderAssets(out));
    const call = handler(assets);
    const r = await call("/api/v1/search?q=provider%2012%20p00012.item-5.r1");
    expect(r.status).toBe(200);
    expect(((await r.json()) as { data: { series: string }[] }).data.map((d) => d.series)).toEqual(["p00012.item-5.r1"]);
    const shards = assets.read.filter((p) => p.startsWith("/_data/search/"));
    expect(assets.read).toEqual(["/_data/manifest.json", SEARCH_INDEX_PATH, ...shards]);
    expect(shards).toEqual(shardsToRead(top, ["provider", "12", "p00012", "item", "5", "r1"], null).map((n) => `/_data/search/${n}.json`));
    expect(shards).toHaveLength(1);
    // A facet filter narrows it too: a word every entry has, and one provider.
    assets.read.length = 0;
    await (await call("/api/v1/search?q=series&facet=provider:Provider%2047")).text();
    expect(assets.read.filter((p) => p.startsWith("/_data/search/"))).toHaveLength(1);
    const all = top.sizes.reduce((a, b) => a + b, 0);
    expect(top.sizes[Number(/(\d+)\.json$/.exec(shards[0] as string)?.[1])]).toBeLessThan(all / 20);
    // Kept: the same query again reads nothing.
    assets.read.length = 0;
    await (await call("/api/v1/search?q=p00012%20r0")).text();
    expect(assets.read).toEqual([]);
  });

  it("answers as a scan of every entry does (bytes, ETag and Link), and finds what the matching over the whole index finds", async () => {
    const sharded = handler(folderAssets(out));
    const scan = handler(scanning(folderAssets(out)));
    const random = prng(7);
    const pick = <T>(list: readonly T[]) => list[Math.floor(random() * list.length)] as T;
    // The words of the entries, cut short or not: beyond their keys' lengths too, where a key holds several words.
    const words = [...new Set(top.byIndicator.flat().flatMap((n) => shard(n).flatMap((e) => e.words.split(" "))))];
    const queries = ["q=p", "q=1", "q=item", "q=provider%2047", "q=r0&limit=100&offset=900", "q=series&facet=item:Item%203", "q=zz", "q=synthetic%20r1", "q=p00012", "q=p00012x", "q=p0001&indicator=synthetic-many-short-32000"];
    for (let k = 0; k < 150; k++) {
      const q = Array.from({ length: 1 + Math.floor(random() * 3) }, () => pick(words).slice(0, 1 + Math.floor(random() * 8))).join(" ");
      // A third with a facet filter (of one or two values), which narrows what is read as a word does.
      const facets = Array.from({ length: Math.floor(random() * 3) }, () => pick(top.facets)).map((f) => `${f.name}:${f.value}`);
      const facet = k % 3 === 0 && facets.length > 0 ? `&facet=${encodeURIComponent(facets.join(","))}` : "";
      queries.push(`q=${encodeURIComponent(q)}${facet}&limit=${1 + Math.floor(random() * 100)}&offset=${Math.floor(random() * 3) * 10}`);
    }
    // And, for the words alone, as the matching over the whole index does (src/core/answer/search.ts `search`).
    const whole = candidates(top, top.byIndicator.flat().map((n) => shardEntries(top, shard(n))), null);
    for (const query of queries) {
      const [a, b] = await Promise.all([sharded(`/api/v1/search?${query}`), scan(`/api/v1/search?${query}`)]);
      expect(a.status, query).toBe(b.status);
      const text = await a.text();
      expect(text, query).toBe(await b.text());
      for (const header of ["ETag", "Link"]) expect(a.headers.get(header), query).toBe(b.headers.get(header));
      const params = new URLSearchParams(query);
      if (params.has("facet") || params.has("indicator")) continue;
      const found = search(whole, queryWords(params.get("q") as string), null);
      const body = JSON.parse(text) as { data: { series: string }[]; meta: { total: number } };
      expect(body.meta.total, query).toBe(found.length);
      const [limit, offset] = [Number(params.get("limit") ?? 20), Number(params.get("offset") ?? 0)];
      expect(body.data.map((d) => d.series), query).toEqual(found.slice(offset, offset + limit).map((e) => e.series));
    }
  });

  it("keeps shards up to its budget, least recently used evicted", async () => {
    const assets = counting(folderAssets(out));
    const budget = 3 * SEARCH_SHARD_BYTES;
    const store = new DataStore({ searchCacheBytes: budget });
    const origin = new URL("http://api.test/");
    const { tag } = (JSON.parse(readFileSync(join(out, "_data/manifest.json"), "utf8")) as Manifest).search;
    await store.searchTop(assets, origin, SEARCH_INDEX_PATH, tag);
    const read = (n: number) => store.searchShard(assets, origin, n, top.sizes[n] as number, tag);
    const fetched = () => assets.read.filter((p) => p.startsWith("/_data/search/")).length;
    // Shards in order until they weigh more than the budget: the first is gone, the last two are kept.
    let kept = 0;
    let n = 0;
    for (; kept <= budget; n++) {
      await read(n);
      kept += top.sizes[n] as number;
    }
    expect(fetched()).toBe(n);
    await read(n - 1);
    await read(n - 2);
    expect(fetched()).toBe(n);
    await read(0);
    expect(fetched()).toBe(n + 1);
  });

  it("stops the build on an entry larger than a shard", () => {
    const index: SearchIndex = {
      indicators: [{ id: "tiny", title: { es: "T", en: "T" }, words: "t" }],
      entries: [{ i: 0, series: "long", title: { es: "x".repeat(300), en: "x" }, facets: [], newest: null, words: "x long" }],
    };
    expect(() => searchShards(index, 256)).toThrow(/^search: the entry of tiny long is \d+ bytes, over the 256-byte shard$/);
    // One entry is every entry: its words read it from its indicator's shard.
    expect(searchShards(index, 1024).top.keys).toEqual([["l", null], ["x", null]]);
  });
});
