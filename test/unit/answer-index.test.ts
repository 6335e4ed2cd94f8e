/**
 * An indicator's answers in shards (src/core/file/answer-index.ts): the index
 * round-trips; the cut keeps whole sub-series in id order near the target size;
 * every answer over shards is byte for byte the answer over the whole file, with
 * every shard read or only the selected sub-series' shards; and the isolate's
 * store reads only what a question needs and keeps a bounded amount of it.
 */
import { describe, expect, it } from "vitest";
import { csvEsLine, csvLine } from "../../src/builder/dataset.js";
import { DataStore, type Assets } from "../../src/api/data-store.js";
import { timeSource } from "../../src/api/time.js";
import { decodeAnswerIndex, encodeAnswerIndex, planShards, shardsOf, shardView, wholeView, type AnswerView, type ShardEntry } from "../../src/core/file/answer-index.js";
import { decodeAnswers, encodeAnswers, sliceAnswers, type AnswerData, type AnswerFields, type AnswerRow } from "../../src/core/file/answers.js";
import { DEFAULT_QUERY, type PageQuery } from "../../src/core/indicator/model.js";
import { selectAtPage, selectPage } from "../../src/core/answer/page.js";
import { answerShardPath } from "../../src/core/file/paths.js";
import { renderAnswer } from "../../src/core/answer/render.js";
import { resolveSelection } from "../../src/core/answer/selection.js";

const SITE = "https://example.test";
const fields: AnswerFields = {
  indicator: "grid",
  unit: "UYU",
  license: "CC-BY-4.0",
  lastUpdated: "2024-12-01",
  attribution: `<a href="${SITE}/series/grid/">Data</a>`,
  attributionUrl: `${SITE}/series/grid/`,
  rhythm: "monthly",
  stepwise: true,
  sourceKinds: [{ prefix: "https://example.test/official/", kind: "official" }],
};

// Forty sub-series of different lengths on shared and own dates, some sharing a day across shards,
// one declared without points; notes with a comma or a quote, sources of two kinds.
const ids = Array.from({ length: 40 }, (_, i) => `s${String(i).padStart(2, "0")}.${i % 3 === 0 ? "x" : "y"}`);
const rows: AnswerRow[] = [];
ids.forEach((series, i) => {
  if (i === 7) return;
  const length = 1 + ((i * 7) % 23);
  for (let k = 0; k < length; k++) {
    const month = 12 - (k % 12);
    const year = 2024 - Math.floor(k / 12) - (i % 2);
    const day = i % 5 === 0 ? 15 : 1;
    rows.push({
      series,
      date: `${year}-${String(month).padStart(2, "0")}-${String(day).padStart(2, "0")}`,
      value: String(100 + i + k / 4),
      source: k % 2 === 0 ? `https://example.test/official/${i}` : `https://other.test/${i}`,
      note: k === 3 ? 'revised, "provisional"' : "",
    });
  }
});
const wholeFile = encodeAnswers(fields, ids, rows, csvLine, csvEsLine);
const whole = decodeAnswers(wholeFile);

/** The shard files of `whole` cut at `target` bytes, and their index. */
function cut(target: number): { shards: ShardEntry[]; files: Uint8Array[]; index: Uint8Array } {
  const shards = planShards(whole, target);
  const files = shards.map(({ first, count }) => {
    const own = new Set(ids.slice(first, first + count));
    return encodeAnswers(fields, ids.slice(first, first + count), rows.filter((r) => own.has(r.series)), csvLine, csvEsLine);
  });
  const sized = shards.map((shard, k) => ({ ...shard, bytes: (files[k] as Uint8Array).length }));
  return { shards: sized, files, index: encodeAnswerIndex(whole, sized) };
}

const VERSION = "Sun, 01 Dec 2024 00:00:00 GMT";

/** The answer to `asked` over `view`, as the endpoint makes it. */
function answer(view: AnswerView, asked: Partial<PageQuery>): string {
  const query = { ...DEFAULT_QUERY, ...asked };
  const chosen = query.series === null ? null : resolveSelection(view.ids, query.series).indices;
  const page = query.at === null ? selectPage(view.series, query, chosen, view.global) : selectAtPage(view.series, query, chosen, timeSource(view, VERSION));
  return new TextDecoder().decode(renderAnswer(view, page));
}

const QUESTIONS: Partial<PageQuery>[] = [
  {},
  { limit: 3 },
  { limit: 2, offset: 5 },
  { from: "2023-06-01", to: "2024-03-31" },
  { from: "2024-12-01", to: "2024-12-31" },
  { series: ["s1*"] },
  { series: ["s03.x", "s31.y", "s39.x"], limit: 4 },
  { series: ["*.x"], from: "2023-01-01", format: "csv" },
  { format: "csv", dialect: "es", limit: 5 },
  { provenance: true, limit: 2 },
  { series: ["s0*", "s3*"], provenance: true },
  { at: "2024-06-20" },
  { at: "2020-01-01" },
  { at: "2025-03-01", series: ["s2*"] },
];

describe("the answer index", () => {
  it("round-trips the fields, sub-series, counts, publications and shards", () => {
    const { shards, index } = cut(2_000);
    const decoded = decodeAnswerIndex(index);
    expect(decoded.indicator).toBe("grid");
    expect(decoded.sourceKinds).toEqual(fields.sourceKinds);
    expect(decoded.ids).toEqual(ids);
    expect([...decoded.counts]).toEqual(whole.series.map((s) => s.length));
    expect(decoded.points).toBe(rows.length);
    expect([...decoded.publications]).toEqual(Array.from(wholeView(whole).publications));
    expect(decoded.shards).toEqual(shards);
    expect(() => decodeAnswerIndex(wholeFile)).toThrow(/not an answer index/);
  });

  it("cuts whole sub-series in id order, each shard near the target, a larger sub-series alone", () => {
    for (const target of [1, 2_000, 6_000, 1e9]) {
      const { shards, files } = cut(target);
      expect(shards[0]?.first).toBe(0);
      shards.forEach((shard, k) => {
        expect(shard.count).toBeGreaterThan(0);
        if (k > 0) expect(shard.first).toBe((shards[k - 1] as ShardEntry).first + (shards[k - 1] as ShardEntry).count);
        // Over the target only when it holds a single sub-series (what is estimated is the texts and columns).
        if (shard.count > 1) expect((files[k] as Uint8Array).length).toBeLessThan(target + 1_000);
      });
      const last = shards[shards.length - 1] as ShardEntry;
      expect(last.first + last.count).toBe(ids.length);
    }
    expect(cut(1).shards).toHaveLength(ids.length);
    expect(cut(1e9).shards).toHaveLength(1);
    // One shard of every sub-series is the whole answer file, byte for byte.
    expect(cut(1e9).files[0]).toEqual(wholeFile);
  });

  it("copies a shard out of the whole file with the bytes encoding its points gives", () => {
    for (const target of [1, 1_500, 6_000, 1e9]) {
      const { shards, files } = cut(target);
      shards.forEach(({ first, count }, k) => expect(Buffer.from(sliceAnswers(whole, fields, first, count)).equals(Buffer.from(files[k] as Uint8Array)), `${target}: shard ${k}`).toBe(true));
    }
  });

  it("lists the shards of the chosen sub-series", () => {
    const index = decodeAnswerIndex(cut(2_000).index);
    expect(shardsOf(index, null)).toEqual(index.shards.map((_, k) => k));
    expect(shardsOf(index, [])).toEqual([]);
    const last = index.shards.length - 1;
    expect(shardsOf(index, [0, 1, ids.length - 1])).toEqual([0, last]);
  });
});

describe("answers over shards", () => {
  const expected = QUESTIONS.map((q) => answer(wholeView(whole), q));

  for (const target of [1, 1_500, 6_000]) {
    const { files, index } = cut(target);
    const decodedIndex = decodeAnswerIndex(index);
    const read = new Map(files.map((file, k) => [k, decodeAnswers(file)]));

    it(`are the whole file's, byte for byte, with every shard read (cut at ${target} bytes: ${files.length} shards)`, () => {
      const view = shardView(decodedIndex, read);
      QUESTIONS.forEach((q, i) => expect(answer(view, q), JSON.stringify(q)).toBe(expected[i]));
    });

    it(`are the whole file's with only the selected sub-series' shards read (cut at ${target} bytes)`, () => {
      QUESTIONS.forEach((q, i) => {
        if (q.series === undefined) return;
        const chosen = resolveSelection(ids, q.series ?? []).indices;
        const wanted = shardsOf(decodedIndex, chosen);
        const view = shardView(decodedIndex, new Map(wanted.map((k) => [k, read.get(k) as AnswerData])));
        expect(view.parts).toHaveLength(wanted.length);
        expect(answer(view, q), JSON.stringify(q)).toBe(expected[i]);
      });
    });
  }
});

describe("the isolate's store of shards", () => {
  const { files, index } = cut(1_500);
  const paths = new Map<string, Uint8Array>([["/_data/grid.api.bin", index], ...files.map((file, k) => [answerShardPath("grid", k), file] as const)]);
  const origin = new URL("http://api.test/");
  /** The output folder in memory, counting what is fetched. */
  const counting = () => {
    const fetched: string[] = [];
    const assets: Assets = {
      fetch(url) {
        const { pathname } = new URL(url);
        fetched.push(pathname);
        const bytes = paths.get(pathname);
        return Promise.resolve(bytes === undefined ? new Response("not found", { status: 404 }) : new Response(bytes.slice()));
      },
    };
    return { assets, fetched };
  };

  it("reads the index and the selected sub-series' shards only, each once", async () => {
    const store = new DataStore();
    const { assets, fetched } = counting();
    const decoded = decodeAnswerIndex(index);
    const chosen = [resolveSelection(ids, ["s21.y"]).indices[0] as number];
    const view = await store.view(assets, origin, "grid", "/_data/grid.api.bin", VERSION, chosen);
    expect(view.parts).toHaveLength(1);
    expect(fetched).toEqual(["/_data/grid.api.bin", answerShardPath("grid", shardsOf(decoded, chosen)[0] as number)]);
    await store.view(assets, origin, "grid", "/_data/grid.api.bin", VERSION, chosen);
    expect(fetched).toHaveLength(2);
    await store.view(assets, origin, "grid", "/_data/grid.api.bin", VERSION, null);
    expect(fetched).toHaveLength(1 + files.length);
  });

  it("keeps at most its bound of read shards, the least recently used dropped first, and reads a dropped one again", async () => {
    const largest = Math.max(...files.map((f) => f.length));
    const bound = 3 * largest + 8 * 40;
    const store = new DataStore({ shardCacheBytes: bound });
    const { assets, fetched } = counting();
    for (let s = 0; s < ids.length; s++) {
      await store.view(assets, origin, "grid", "/_data/grid.api.bin", VERSION, [s]);
      expect(store.keptShardBytes).toBeLessThanOrEqual(bound);
    }
    const before = fetched.length;
    // The first sub-series' shard was dropped long ago: read again, and the answer is still right.
    const view = await store.view(assets, origin, "grid", "/_data/grid.api.bin", VERSION, [0]);
    expect(fetched.length).toBe(before + 1);
    expect(answer(view, { series: [ids[0] as string] })).toBe(answer(wholeView(whole), { series: [ids[0] as string] }));
  });
});
