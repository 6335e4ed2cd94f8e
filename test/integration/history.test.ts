/**
 * The history table (src/core/history/history.ts, src/builder/history.ts) and the changes
 * (src/core/history/changes.ts) over a synthetic git history (test/history-repo.ts):
 * - every commit's day, as a version of the table, renders byte for byte what the
 *   indicator built from that commit's data folder renders, for a set of queries
 *   (JSON with meta, CSV, the spreadsheet CSV, windows, selections, `at`);
 * - the changes since every version, with every later commit checked out, are the
 *   difference of the two versions as the build's change report computes it
 *   (src/source/changes.ts `diffData`), and the days they carry are the days of the
 *   commits that made them.
 * The endpoint over `wrangler pages dev` is test/e2e/history.test.ts's.
 */
import { execFileSync } from "node:child_process";
import { beforeAll, describe, expect, it } from "vitest";
import { buildIndicator, type BuiltIndicator } from "../../src/builder/dataset.js";
import { gitHistorySource, nodeSourceFiles } from "../../src/builder/effects.js";
import { buildHistories, committedStates, currentChanged, type IndicatorHistory } from "../../src/builder/history.js";
import { timeSource } from "../../src/api/time.js";
import { renderIndicatorFeed, renderServiceFeed } from "../../src/builder/formats/atom.js";
import { parseSiteConfig } from "../../src/builder/site-config.js";
import type { AnswerData, AnswerRow } from "../../src/core/file/answers.js";
import { changesSince, type PointChange } from "../../src/core/history/changes.js";
import type { AnswerView } from "../../src/core/file/answer-index.js";
import { changesOfTable, pastView, tableShards } from "../history-tables.js";
import {
  VERSIONS_KEPT,
  decodeHistory,
  decodeHistoryIndex,
  encodeHistoryShards,
  keptPerTable,
  versionDay,
  versionIds,
  versionOn,
  type HistoryData,
  type HistoryVersion,
} from "../../src/core/history/history.js";
import { DEFAULT_QUERY, type PageQuery } from "../../src/core/indicator/model.js";
import { selectAtPage, selectPage } from "../../src/core/answer/page.js";
import { wholeView } from "../../src/core/file/answer-index.js";
import { renderAnswer } from "../../src/core/answer/render.js";
import { resolveSelection } from "../../src/core/answer/selection.js";
import { diffData } from "../../src/source/changes.js";
import { folderTimeAt, gitSourceFiles } from "../../src/source/git-files.js";
import { loadData, type IndicatorSource, type SourceFiles } from "../../src/source/load.js";
import { syntheticHistory, type SyntheticCommit } from "../history-repo.js";

const QUIET = { info: () => undefined, warn: (line: string) => expect.unreachable(line) };
/** The version time of the working tree's data in these tests (as SOURCE_DATE_EPOCH would give it). */
const NOW = Date.UTC(2026, 7, 1) / 1000;

const QUERIES: readonly Partial<PageQuery>[] = [
  {},
  { limit: 1 },
  { limit: 1, offset: 1 },
  { from: "2025-07-01" },
  { to: "2025-12-31" },
  { series: ["monthly"] },
  { series: ["h*"] },
  { format: "csv" },
  { format: "csv", dialect: "es", limit: 1 },
  { at: "2025-08-01" },
  { at: "2026-04-15" },
];

let repo: Awaited<ReturnType<typeof syntheticHistory>>;
/** The last commit of each day: the one `as_of` of that day answers. */
let daily: SyntheticCommit[];

const build = (sources: readonly IndicatorSource[], changed: ReadonlyMap<string, string> = new Map()) =>
  sources.map((s) => buildIndicator(s, `<a>${s.meta.id}</a>`, `https://example.test/${s.meta.id}`, changed.get(s.meta.id)));

/**
 * The day each indicator's points last changed as of commit `upTo`, read
 * independently of the build's rule: the version time of the last of the daily
 * commits up to it whose points (every row's texts, sorted) differ from the one before.
 */
async function changedAt(upTo: SyntheticCommit): Promise<Map<string, string>> {
  const changed = new Map<string, string>();
  const before = new Map<string, string>();
  for (const c of daily.slice(0, daily.indexOf(upTo) + 1)) {
    for (const s of await sourcesAt(c.commit)) {
      const points = s.rows.map((r) => JSON.stringify([r.series, r.date, r.value, r.source, r.note])).sort().join("\n");
      if (before.get(s.meta.id) !== points) changed.set(s.meta.id, new Date((await folderTimeAt(repo.data, c.commit, s.meta.id)) * 1000).toISOString().slice(0, 10));
      before.set(s.meta.id, points);
    }
  }
  return changed;
}

const loaded = new Map<string, Promise<readonly IndicatorSource[]>>();

/** The indicators as committed at `commit` (loaded once: the tests and the oracle below read the same commits again). */
function sourcesAt(commit: string): Promise<readonly IndicatorSource[]> {
  let sources = loaded.get(commit);
  if (sources === undefined) loaded.set(commit, (sources = gitSourceFiles(repo.data, commit).then(async (files) => (await loadData(repo.data, files as SourceFiles)).indicators)));
  return sources;
}

/** The history tables of the data as checked out now, its version time NOW; `shardBytes` 1: each sub-series a shard of its own. */
async function tablesNow(shardBytes?: number): Promise<{ built: BuiltIndicator[]; tables: Map<string, IndicatorHistory> }> {
  const sources = (await loadData(repo.data, nodeSourceFiles())).indicators;
  const committed = await committedStates(repo.data, gitHistorySource(), new Map(), QUIET);
  // As a build with SOURCE_DATE_EPOCH = NOW: every version time, its CSV files' too.
  const built = build(sources, new Map(sources.map((s) => [s.meta.id, currentChanged(committed.get(s.meta.id) ?? [], s, NOW, NOW)])));
  const times = new Map(built.map((b) => [b.source.meta.id, NOW]));
  return { built, tables: buildHistories(built, times, committed, shardBytes) };
}

const httpDate = (seconds: number) => new Date(seconds * 1000).toUTCString();

/**
 * What the endpoint renders for `query` over the sub-series `ids` at data version
 * `lastModified`, from the view `viewOf` gives of the ones the question chooses.
 */
function render(ids: readonly string[], viewOf: (chosen: number[] | null) => AnswerView, lastModified: string, asked: Partial<PageQuery>): string {
  const query = { ...DEFAULT_QUERY, ...asked };
  const chosen = query.series === null ? null : resolveSelection(ids, query.series).indices;
  const data = viewOf(chosen);
  const page = query.at === null ? selectPage(data.series, query, chosen, data.global) : selectAtPage(data.series, query, chosen, timeSource(data, lastModified));
  return new TextDecoder().decode(renderAnswer(data, page));
}

/** The same over a whole answer file (a build's). */
const renderData = (data: AnswerData, lastModified: string, asked: Partial<PageQuery>) => render(data.ids, () => wholeView(data), lastModified, asked);

beforeAll(async () => {
  repo = await syntheticHistory();
  daily = repo.commits.filter((c, i) => repo.commits[i + 1]?.day !== c.day);
});

describe("as_of over a synthetic history", () => {
  it("holds one version per day that changed the data, the last commit's being the current one", async () => {
    const { tables } = await tablesNow();
    expect(tables.get("wages")?.versions.map(versionDay)).toEqual(["2026-01-10", "2026-02-10", "2026-03-10", "2026-04-10", "2026-05-10", "2026-07-10"]);
    // Two commits on 2026-06-10: the later one is that day's.
    expect(tables.get("prices")?.versions.map((v) => [versionDay(v), v.commit])).toEqual([
      ["2026-06-10", repo.commits[6]?.commit],
      ["2026-07-10", repo.commits[7]?.commit],
    ]);
    expect(versionOn(["2026-01-10", "2026-02-10"], "2026-01-09")).toBe(-1);
    expect(versionOn(["2026-01-10", "2026-02-10"], "2026-02-09")).toBe(0);
  });

  // In shards of one sub-series each (a question reads only the shards of the sub-series it chooses), and in one shard.
  it.each([1, undefined])("answers each day's version byte for byte as a build of that day's last commit (shards of %s bytes)", async (shardBytes) => {
    const { built, tables } = await tablesNow(shardBytes);
    let compared = 0;
    for (const c of daily) {
      for (const ref of build(await sourcesAt(c.commit), await changedAt(c))) {
        const id = ref.source.meta.id;
        const table = tables.get(id) as IndicatorHistory;
        const v = versionOn(table.versions.map(versionDay), c.day);
        const current = v === table.versions.length - 1;
        // One version has no table: it is the current one.
        expect(table.table === null).toBe(table.versions.length === 1);
        if (table.table !== null) expect(table.table.shards.length).toBe(shardBytes === 1 ? decodeHistoryIndex(table.table.index).ids.length : 1);
        const data = (built.find((b) => b.source.meta.id === id) as BuiltIndicator).answers;
        const lastModified = httpDate(current ? NOW : (table.versions[v]?.bound.time as number));
        const refModified = httpDate(current ? NOW : await folderTimeAt(repo.data, c.commit, id));
        expect(lastModified, `${c.step}: ${id}`).toBe(refModified);
        for (const query of QUERIES) {
          const answered = current
            ? renderData(data, lastModified, query)
            : render(versionIds(decodeHistoryIndex((table.table as NonNullable<IndicatorHistory["table"]>).index), v), (chosen) => pastView(table, v, chosen), lastModified, query);
          expect(answered, `${c.step}: ${id} ${JSON.stringify(query)}`).toBe(renderData(ref.answers, refModified, query));
          compared++;
        }
      }
    }
    expect(compared).toBe(QUERIES.length * (daily.length + 2));
  });
});

/** The build's change report between two versions, as the endpoint lists changes (without days). */
function reportOf(before: readonly IndicatorSource[], after: readonly IndicatorSource[], id: string): Omit<PointChange, "changed">[] {
  const c = diffData(before, after).find((x) => x.id === id);
  if (c === undefined) return [];
  return [
    ...c.added.map((p) => ({ date: p.date, series: p.series, change: "added" as const, value: p.value, previous: null })),
    ...c.revised.map((r) => ({ date: r.date, series: r.series, change: "revised" as const, value: r.new, previous: r.old })),
    ...c.removed.map((p) => ({ date: p.date, series: p.series, change: "removed" as const, value: null, previous: p.value })),
  ].sort((a, b) => (a.series + a.date < b.series + b.date ? -1 : 1));
}

describe("the Atom feeds over a synthetic history", () => {
  it("have an entry for each version that revised or removed points, linking its changes", async () => {
    const { built, tables } = await tablesNow();
    const config = parseSiteConfig(JSON.stringify({ name: "Test", baseUrl: "https://example.test/", attributionText: "Data: Test" }), "site.config.json");
    const wages = built.find((b) => b.source.meta.id === "wages") as BuiltIndicator;
    const feed = renderIndicatorFeed(config, wages, NOW, tables.get("wages")?.revisions);
    const revisions = [...feed.matchAll(/<entry>\n<id>[^<]*revision[^<]*<\/id>\n<title>([^<]*)<\/title>[\s\S]*?title="changes" href="([^"]*)"/g)].map((m) => [m[1], m[2]]);
    expect(revisions).toEqual([
      // Paths: resolved against the feed's own address, the mirror's on a mirror.
      ["1 point revised on 2026-07-10", "/api/v1/wages/changes?since=2026-05-10"],
      ["1 point removed on 2026-04-10", "/api/v1/wages/changes?since=2026-03-10"],
      ["1 point revised on 2026-03-10", "/api/v1/wages/changes?since=2026-02-10"],
    ]);
    expect(feed).toContain("monthly 2025-07-01: 110 → 111.5");
    const service = renderServiceFeed(config, built, new Map(built.map((b) => [b.source.meta.id, NOW])), (id) => tables.get(id)?.revisions ?? []);
    expect(service).toContain("Prices &lt;test&gt;: 1 point revised on 2026-07-10");
    // Without revisions, the feed of releases alone, as before.
    expect(renderIndicatorFeed(config, wages, NOW, [])).toBe(renderIndicatorFeed(config, wages, NOW));
    expect(renderIndicatorFeed(config, wages, NOW)).not.toContain("revision");
  });
});

describe("what is kept with a decoded table", () => {
  it("is at most VERSIONS_KEPT values per table, the oldest made dropped first", () => {
    const cache = new WeakMap<HistoryData, Map<number, string>>();
    const table = {} as HistoryData;
    const made: number[] = [];
    const ask = (v: number) => keptPerTable(cache, table, v, () => (made.push(v), `v${v}`));
    for (let v = 0; v <= VERSIONS_KEPT; v++) expect(ask(v)).toBe(`v${v}`);
    expect(cache.get(table)?.size).toBe(VERSIONS_KEPT);
    // The newest are kept: asked again, nothing is made; the first was dropped: made again.
    ask(VERSIONS_KEPT);
    expect(made).toHaveLength(VERSIONS_KEPT + 1);
    ask(0);
    expect(made).toHaveLength(VERSIONS_KEPT + 2);
  });
});

describe("the table's files", () => {
  it("store each version's sub-series as runs and read them back, in the index and in every shard", () => {
    const fields = { indicator: "x", unit: "UYU", license: "CC-BY-4.0", lastUpdated: null, attribution: "<a>x</a>", attributionUrl: "https://x.test", rhythm: "monthly", stepwise: true };
    const version = (series: number[], published: number): HistoryVersion => ({ commit: null, published, bound: { time: published, checked: null, changed: new Date(published * 1000).toISOString().slice(0, 10) }, unit: "UYU", rhythm: "monthly", stepwise: true, schedule: null, series });
    const lists = [[0, 1, 2, 3, 4, 5], [0, 2, 3, 5], [], [5], [1, 2, 4]];
    const versions = lists.map((series, v) => version(series, 1_700_000_000 + v * 86_400));
    const ids = ["a", "b", "c", "d", "e", "f"];
    const entries = ids.map((series, s) => ({ date: "2025-01-01", series, value: String(s), source: "", note: "", from: 0, to: 1 }));
    const line = (row: AnswerRow) => `${row.date},${row.series},${row.value},,\n`;
    for (const target of [1, 2 ** 20]) {
      const files = encodeHistoryShards({ fields, ids, versions, entries, csvLine: line, csvEsLine: line }, target);
      const index = decodeHistoryIndex(files.index);
      expect(index.versions.map((v) => [...v.series])).toEqual(lists);
      // Each shard's versions: the sub-series among its own, from 0.
      const firsts = index.shards.map((shard) => shard.first);
      files.shards.forEach((bytes, k) => {
        const { first, count } = index.shards[k] as (typeof index.shards)[number];
        expect(decodeHistory(bytes).versions.map((v) => [...v.series]), `shard ${k} of ${firsts.length}`).toEqual(lists.map((l) => l.filter((s) => s >= first && s < first + count).map((s) => s - first)));
      });
    }
  });
});

describe("a version's indicator.json of an earlier format", () => {
  it("gives its sub-series and what the rule of coverage reads, when they have a value of the right kind", async () => {
    const old = { id: "x", title: "a title as a plain string (an earlier format)", unit: "UYU", rhythm: "monthly", stepwise: true, check: { day: "2026-01-31", by: "person", read: "https://example.test/", outcome: "nothing-new" }, series: [{ id: "a" }] };
    const files: Record<string, string> = { "d/x/indicator.json": JSON.stringify(old), "d/x/p.csv": "date,series,value\n2026-01-01,a,1.50\n" };
    const source: SourceFiles = {
      folders: (dir) => Promise.resolve(dir === "d" ? ["x"] : []),
      csvNames: (dir) => Promise.resolve(dir === "d/x" ? ["p.csv"] : []),
      read: (file) => (files[file] === undefined ? Promise.reject(Object.assign(new Error(file), { code: "ENOENT" })) : Promise.resolve(new TextEncoder().encode(files[file]))),
    };
    await expect(loadData("d", source)).rejects.toThrow(); // not today's format
    const [x] = (await loadData("d", source, true)).indicators;
    expect([x?.meta.unit, x?.meta.rhythm, x?.meta.stepwise, x?.meta.check?.day, x?.meta.series.map((s) => s.id), x?.rows.map((r) => r.value)]).toEqual(["UYU", "monthly", true, "2026-01-31", ["a"], ["1.50"]]);
    files["d/x/indicator.json"] = JSON.stringify({ ...old, rhythm: "fortnightly", stepwise: "yes", check: { day: 20260131 }, unit: 7 });
    const [y] = (await loadData("d", source, true)).indicators;
    expect([y?.meta.unit, y?.meta.rhythm, y?.meta.stepwise, y?.meta.check]).toEqual(["", "irregular", false, undefined]);
  });
});

describe("changes over a synthetic history", () => {
  it("equal the difference of the two versions, for every pair of days", async () => {
    let pairs = 0;
    try {
      for (const [j, now] of daily.entries()) {
        execFileSync("git", ["-C", repo.dir, "checkout", "-q", now.commit]);
        const { tables } = await tablesNow();
        // The same table in shards of one sub-series each: the same list.
        const { tables: sharded } = await tablesNow(1);
        const after = await sourcesAt(now.commit);
        for (const since of daily.slice(0, j + 1)) {
          const before = await sourcesAt(since.commit);
          for (const [id, table] of tables) {
            const v = versionOn(table.versions.map(versionDay), since.day);
            if (v < 0) {
              // One version has no table: the endpoint lists its answers then (test/integration/api.test.ts).
              if (table.table === null) continue;
              // Not published yet then: every point published since, added (version -1 of the table).
              const all = [...changesOfTable(table, v)].map(({ changed: _, ...rest }) => rest).sort((a, b) => (a.series + a.date < b.series + b.date ? -1 : 1));
              expect(all, `${id} since ${since.day}, before its first version`).toEqual(reportOf([], after, id));
              pairs++;
              continue;
            }
            expect(changesOfTable(sharded.get(id) as IndicatorHistory, v), `${id} since ${since.day}: in shards`).toEqual(changesOfTable(table, v));
            const listed = [...changesOfTable(table, v)]
              .map(({ changed: _, ...rest }) => rest)
              .sort((a, b) => (a.series + a.date < b.series + b.date ? -1 : 1));
            expect(listed, `${id} since ${since.day} (${since.step}) until ${now.day} (${now.step})`).toEqual(reportOf(before, after, id));
            pairs++;
          }
        }
      }
    } finally {
      execFileSync("git", ["-C", repo.dir, "checkout", "-q", "main"]);
    }
    expect(pairs).toBeGreaterThan(20);
  });

  it("come newest change first, each with the day of the commit that made it", async () => {
    const { tables } = await tablesNow();
    const [wages] = tableShards(tables.get("wages") as IndicatorHistory) as [HistoryData];
    expect(changesSince(wages, 0)).toEqual([
      { date: "2026-07-01", series: "monthly", change: "added", value: "130", previous: null, changed: "2026-07-10" },
      { date: "2025-07-01", series: "hourly", change: "removed", value: null, previous: "1.5", changed: "2026-04-10" },
      { date: "2026-01-01", series: "hourly", change: "added", value: "1.60", previous: null, changed: "2026-02-10" },
      { date: "2026-01-01", series: "monthly", change: "added", value: "120", previous: null, changed: "2026-02-10" },
    ]);
    // Since the revision: the value revised back to its first text, on the day it was.
    expect(changesSince(wages, 2).filter((c) => c.change === "revised")).toEqual([
      { date: "2025-07-01", series: "monthly", change: "revised", value: "110", previous: "111.5", changed: "2026-07-10" },
    ]);
    expect(changesSince(wages, 5)).toEqual([]);
  });
});
