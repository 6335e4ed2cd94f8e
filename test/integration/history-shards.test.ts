/**
 * The history table in shards (src/core/history/history.ts `encodeHistoryShards`,
 * `versionView`; src/core/history/changes.ts `shardChanges`) against the one table
 * (`encodeHistory`, `versionAnswers` under `wholeView`, `changesSince`), over
 * random synthetic tables: random sub-series ids, versions with random sub-series
 * (none, too), points added, revised, removed and re-added across versions.
 * Every version's answers are byte-identical whatever the shards and whichever
 * of them a question reads; the changes are the one table's list, in its order.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { csvEsLine, csvLine } from "../../src/builder/dataset.js";
import { entriesOf } from "../../src/builder/history.js";
import { timeSource } from "../../src/api/time.js";
import { choose } from "../../src/api/endpoint.js";
import { partOf, shardsHolding, wholeView, type AnswerView } from "../../src/core/file/answer-index.js";
import type { AnswerFields, AnswerRow } from "../../src/core/file/answers.js";
import { changesSince, shardChanges } from "../../src/core/history/changes.js";
import {
  decodeHistory,
  decodeHistoryIndex,
  encodeHistory,
  encodeHistoryShards,
  historyShardsOf,
  versionAnswers,
  versionIds,
  versionView,
  type HistoryEntry,
  type HistoryVersion,
} from "../../src/core/history/history.js";
import { DEFAULT_QUERY, type PageQuery } from "../../src/core/indicator/model.js";
import { selectAtPage, selectPage } from "../../src/core/answer/page.js";
import { renderAnswer } from "../../src/core/answer/render.js";
import { resolveSelection } from "../../src/core/answer/selection.js";

const fields: AnswerFields = {
  indicator: "grid",
  unit: "UYU",
  license: "CC-BY-4.0",
  lastUpdated: "2026-01-01",
  attribution: `<a href="https://example.test/">Data</a>`,
  attributionUrl: "https://example.test/",
  rhythm: "monthly",
  stepwise: false,
  sourceKinds: [{ prefix: "https://example.test/official/", kind: "official" }],
};

const ID_POOL = ["a", "a.b", "a.c", "ab", "b-1", "b.x", "c", "c.a.b", "d9", "z"];
const DATE_POOL = ["2024-01-01", "2024-02-01", "2024-02-15", "2024-03-01", "2024-06-01", "2025-01-01", "2025-01-02"];
const VALUES = ["1", "1.0", "2.5", "-3", "100.25"];
const SOURCES = ["", "https://example.test/official/1", "https://other.test/x"];
const NOTES = ["", 'revised, "provisional"', "n"];

interface Table {
  ids: string[];
  versions: HistoryVersion[];
  entries: HistoryEntry[];
}

/** The table's entries of versions given as their points by key, as the build makes them. */
const entriesOfStates = (states: readonly Map<string, AnswerRow>[]): HistoryEntry[] => entriesOf(states.map((rows) => ({ rows })));

const tableArb: fc.Arbitrary<Table> = fc
  .record({
    idMask: fc.subarray(ID_POOL, { minLength: 1 }),
    versions: fc.integer({ min: 1, max: 5 }),
    seed: fc.array(fc.integer({ min: 0, max: 1000 }), { minLength: 600, maxLength: 600 }),
    checked: fc.array(fc.boolean(), { minLength: 5, maxLength: 5 }),
  })
  .map(({ idMask, versions: nv, seed, checked }) => {
    let r = 0;
    const next = (n: number) => (seed[r++ % seed.length] as number) % n;
    const ids = [...idMask].sort();
    const states: Map<string, AnswerRow>[] = [];
    const series: number[][] = [];
    for (let v = 0; v < nv; v++) {
      // A version's sub-series: random (a tenth of the versions none), each with random points.
      const own = next(10) === 0 ? [] : ids.map((_, s) => s).filter(() => next(3) !== 0);
      series.push(own);
      const rows = new Map<string, AnswerRow>();
      for (const s of own) {
        for (const date of DATE_POOL) {
          if (next(2) === 0) continue;
          const prev = states[v - 1]?.get(`${ids[s]} ${date}`);
          // Mostly the value before (unchanged), sometimes revised.
          const row =
            prev !== undefined && next(3) !== 0
              ? prev
              : { date, series: ids[s] as string, value: VALUES[next(VALUES.length)] as string, source: SOURCES[next(SOURCES.length)] as string, note: NOTES[next(NOTES.length)] as string };
          rows.set(`${ids[s]} ${date}`, row);
        }
      }
      states.push(rows);
    }
    const versions: HistoryVersion[] = series.map((own, v) => ({
      commit: null,
      published: Date.UTC(2026, 0, 10 + 7 * v) / 1000,
      bound: { time: Date.UTC(2026, 0, 10 + 7 * v) / 1000, checked: checked[v] ? `2026-01-${String(11 + 3 * v).padStart(2, "0")}` : null, changed: new Date(Date.UTC(2026, 0, 10 + 7 * v)).toISOString().slice(0, 10) },
      unit: v % 2 === 0 ? "UYU" : "USD",
      rhythm: v % 3 === 2 ? "irregular" : "monthly",
      stepwise: v % 2 === 1,
      schedule: null,
      series: own,
    }));
    return { ids, versions, entries: entriesOfStates(states) };
  });

const QUESTIONS: Partial<PageQuery>[] = [
  {},
  { limit: 1 },
  { limit: 1, offset: 1 },
  { limit: 2, offset: 3 },
  { from: "2024-02-15" },
  { to: "2024-03-01" },
  { from: "2024-02-01", to: "2024-06-01" },
  { from: "2024-02-01", to: "2024-06-01", limit: 1, offset: 1 },
  { format: "csv" },
  { format: "csv", dialect: "es" },
  { format: "csv", dialect: "es", from: "2024-02-01", limit: 2 },
  { provenance: true },
  { provenance: true, limit: 1, offset: 1 },
  { at: "2024-02-20" },
  { at: "2025-01-01" },
  { at: "2026-03-01" },
  { at: "2024-02-20", format: "csv" },
  { at: "2026-03-01", provenance: true },
];
const PATTERNS: (readonly string[])[] = [["a*"], ["*b*"], ["c", "z"], ["a.*", "d9"], ["*"], ["b*", "c.*"]];

const decoder = new TextDecoder();

function answer(view: AnswerView, chosen: number[] | null, query: PageQuery, lastModified: string): string {
  const page = query.at === null ? selectPage(view.series, query, chosen, view.global) : selectAtPage(view.series, query, chosen, timeSource(view, lastModified));
  return decoder.decode(renderAnswer(view, page));
}

function encodeBoth(t: Table, target: number) {
  const files = encodeHistoryShards({ fields, ids: t.ids, versions: t.versions, entries: t.entries, csvLine, csvEsLine }, target);
  return { index: decodeHistoryIndex(files.index), shards: files.shards.map((bytes) => decodeHistory(bytes)) };
}

describe("the history table in shards", () => {
  it("answers every version as the one table does, with every shard or only the chosen ones read", () => {
    let compared = 0;
    fc.assert(
      fc.property(tableArb, fc.integer({ min: 1, max: 3000 }), (t, mid) => {
        const reference = decodeHistory(encodeHistory({ fields, ids: t.ids, versions: t.versions, entries: t.entries, csvLine, csvEsLine }));
        const cuts = [encodeBoth(t, 2 ** 40), encodeBoth(t, 1), encodeBoth(t, mid)];
        expect(cuts[0]?.shards.length).toBe(1);
        expect(cuts[1]?.shards.length).toBe(t.ids.length);
        for (let v = 0; v < t.versions.length; v++) {
          const whole = wholeView(versionAnswers(reference, v));
          const lastModified = new Date((t.versions[v] as HistoryVersion).bound.time * 1000).toUTCString();
          for (const { index, shards } of cuts) {
            const ids = versionIds(index, v);
            expect(ids).toEqual(whole.ids);
            const all = versionView(index, v, new Map(historyShardsOf(index, v, null).map((k) => [k, shards[k]!])));
            // The fields, points and publications (lastUpdated among the fields) of the one table's version.
            const plain = (view: AnswerView) => ({ ...view, parts: undefined, series: undefined, global: undefined, publications: Array.from(view.publications) });
            expect(plain(all)).toEqual(plain(whole));
            expect(all.series.map((s) => [s.id, s.length])).toEqual(whole.series.map((s) => [s.id, s.length]));
            // Each sub-series in the part partOf finds (a deflator's, src/api/time.ts `indexByMonth`), at its offset.
            ids.forEach((id, s) => {
              const part = partOf(all, s);
              expect(part?.data.series[s - part.first]?.id).toBe(id);
            });
            for (const asked of QUESTIONS) {
              for (const series of [null, ...PATTERNS]) {
                const query = { ...DEFAULT_QUERY, ...asked, series };
                const chosen = series === null ? null : resolveSelection(ids, series).indices;
                if (chosen !== null && chosen.length === 0) continue;
                const expected = answer(whole, chosen, query, lastModified);
                expect(answer(all, chosen, query, lastModified), `v${v} ${JSON.stringify(query)}`).toBe(expected);
                // Only the shards of the chosen sub-series read (a view as the store makes it).
                const narrow = versionView(index, v, new Map(historyShardsOf(index, v, chosen).map((k) => [k, shards[k]!])));
                expect(answer(narrow, chosen, query, lastModified), `v${v} narrow ${JSON.stringify(query)}`).toBe(expected);
                compared++;
              }
            }
          }
        }
      }),
      { numRuns: 60, seed: 42 },
    );
    expect(compared).toBeGreaterThan(1000);
  });

  it("lists the changes since every version as the one table does, in its order, for every sub-series or a selection", () => {
    fc.assert(
      fc.property(tableArb, fc.integer({ min: 1, max: 3000 }), (t, mid) => {
        const reference = decodeHistory(encodeHistory({ fields, ids: t.ids, versions: t.versions, entries: t.entries, csvLine, csvEsLine }));
        for (const { index, shards } of [encodeBoth(t, 2 ** 40), encodeBoth(t, 1), encodeBoth(t, mid)]) {
          for (let since = 0; since < t.versions.length; since++) {
            const expected = changesSince(reference, since);
            expect(shardChanges(shards, since)).toEqual(expected);
            // /changes with series: the shards of the sub-series chosen among every one the table has, then filtered.
            for (const series of PATTERNS) {
              let chosen: number[] | null;
              try {
                chosen = choose("grid", index.ids, series);
              } catch {
                continue;
              }
              const named = new Set((chosen as number[]).map((s) => index.ids[s]));
              const wanted = shardsHolding(index.shards, chosen as number[]);
              const listed = shardChanges(wanted.map((k) => shards[k]!), since).filter((c) => named.has(c.series));
              expect(listed).toEqual(expected.filter((c) => named.has(c.series)));
            }
          }
        }
      }),
      { numRuns: 200, seed: 7 },
    );
  });
});
