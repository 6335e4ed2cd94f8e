/**
 * `as_of` and `/changes` through `wrangler pages dev`:
 * - a synthetic git history (test/history-repo.ts: points added, a value revised
 *   and revised back, a point removed, a file renamed, an indicator added later,
 *   two commits one day) built at its last commit and served (the `history` server
 *   of test/e2e/global-setup.ts, shards of one sub-series each):
 *   for every day with a commit, `as_of` of that day answers, in `data[]` (and the
 *   whole CSV), what a build of that day's last commit's data folder answers
 *   without it (the build made from a copy of the folder, without git);
 * - an independent oracle (test/python/history_oracle.py: git and pandas, nothing
 *   of src/) for `as_of` and `changes` on every day of that history and on the
 *   real data's own history (the shared server of test/e2e/global-setup.ts);
 * - the 400s of both, each naming its parameter.
 */
import { rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, inject, it } from "vitest";
import { Api } from "../../src/api/handler.js";
import { dataCommits } from "../../src/source/git-files.js";
import { folderAssets } from "../../scripts/lib/folder-assets.js";
import { HISTORY_BUILD_OPTIONS } from "./global-setup.js";
import { ROOT, runCli, runProcess, tempDir } from "../helpers.js";
import { INDICATOR_IDS } from "../indicators.js";
import { dataAt, type SyntheticCommit } from "../history-repo.js";

const HIGH = { RATE_LIMIT_REQUESTS: "1000000" };
const QUERIES = [
  "",
  "limit=1",
  "limit=1&offset=1",
  "from=2025-07-01",
  "series=monthly",
  "at=2025-08-01",
  "format=csv",
  "format=csv&dialect=es",
  // The index as it was known then (revised the day it was added).
  "series=monthly&real=2026-04",
  "series=monthly&per=prices:general",
];

const system = inject("system");
const repo = system.historyRepo;
const daily: SyntheticCommit[] = repo.commits.filter((c, i) => repo.commits[i + 1]?.day !== c.day);
const server = { url: system.urls.history };

/** A build of `data` at `epoch` with the `history` server's options (test/e2e/global-setup.ts). */
async function built(data: string, epoch: string): Promise<string> {
  const out = join(await tempDir("open-series-history-out-"), "dist");
  const result = await runCli(["build", "--data", data, "--out", out, "--no-base", ...HISTORY_BUILD_OPTIONS], { SOURCE_DATE_EPOCH: epoch });
  if (result.code !== 0) throw new Error(`build of ${data} failed:\n${result.stderr}`);
  return out;
}

interface Oracle {
  as_of: Record<string, Record<string, [string, string, string][] | null>>;
  changes: Record<string, Record<string, [string, string, string, string | null, string | null, string][] | null>>;
}

/** Runs the oracle over `repo`'s `data` folder for `indicators` on `days`. */
async function oracle(dir: string, indicators: readonly string[], days: readonly string[]): Promise<Oracle> {
  const tmp = await tempDir("history-oracle-");
  try {
    const input = join(tmp, "request.json");
    await writeFile(input, JSON.stringify({ repo: dir, data: "data", indicators, days }));
    const run = await runProcess("bash", ["-c", 'exec /usr/bin/python3 test/python/history_oracle.py < "$0"', input]);
    expect(run.code, run.stderr).toBe(0);
    return JSON.parse(run.stdout) as Oracle;
  } finally {
    await rm(tmp, { recursive: true, force: true });
  }
}

interface Page {
  data: { date: string; series: string; value: number; change?: string; previous?: number | null; changed?: string }[];
  meta: Record<string, unknown>;
}

/** The `detail` of an error answer. */
const detail = (text: string) => (JSON.parse(text) as { error: { detail: string } }).error.detail;

async function get(base: string, path: string): Promise<{ status: number; text: string }> {
  const response = await fetch(base + path);
  return { status: response.status, text: await response.text() };
}

/** The day before `day`. */
const dayBefore = (day: string) => new Date(Date.parse(`${day}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10);

/** Every day with a commit, the day before the first and a day between two commits. */
const daysOf = (days: readonly string[]) => [...new Set([dayBefore(days[0] as string), ...days, ...days.slice(1).map(dayBefore)])].sort();

/**
 * Compares the server's as_of and changes answers with the oracle's on `days`; `prefixes`: the
 * sub-series asked of an indicator (`series=<prefix>*`), to keep the largest one's answers small.
 */
async function checkOracle(base: string, dir: string, indicators: readonly string[], days: readonly string[], prefixes: Record<string, string> = {}): Promise<number> {
  const expected = await oracle(dir, indicators, days);
  let checked = 0;
  for (const id of indicators) {
    for (const day of days) {
      const prefix = prefixes[id];
      const points = expected.as_of[id]?.[day]?.filter(([, series]) => prefix === undefined || series.startsWith(prefix)) ?? expected.as_of[id]?.[day];
      const asOf = await get(base, `/api/v1/${id}?as_of=${day}&limit=5000${prefix === undefined ? "" : `&series=${prefix}*`}`);
      const changes = await get(base, `/api/v1/${id}/changes?since=${day}&limit=5000${prefix === undefined ? "" : `&series=${prefix}*`}`);
      expect(changes.status, `${id} since=${day}: ${changes.text}`).toBe(200);
      const listing = JSON.parse(changes.text) as Page;
      if (points === null || points === undefined) {
        expect(asOf.status, `${id} as_of=${day}: ${asOf.text}`).toBe(400);
        expect(detail(asOf.text)).toMatch(/^as_of: /);
        // Before the first version: everything published since it, and the answer says so.
        expect(listing.meta.since_before_first, `${id} since=${day}`).toMatch(/^\d{4}-\d{2}-\d{2}$/);
        expect((listing.meta.since_before_first as string) > day).toBe(true);
      } else {
        expect(asOf.status, `${id} as_of=${day}: ${asOf.text}`).toBe(200);
        const page = JSON.parse(asOf.text) as Page;
        // Compared as JSON text first: a deep comparison of thousands of points is slow.
        const got = page.data.map((p) => [p.date, p.series, p.value]);
        const want = points.map(([d, s, v]) => [d, s, Number(v)]);
        if (JSON.stringify(got) !== JSON.stringify(want)) expect(got, `${id} as_of=${day}`).toEqual(want);
        expect(page.meta.as_of).toBe(day);
        expect(listing.meta.since_before_first).toBeUndefined();
      }
      const listed = listing.data.map((c) => [c.date, c.series, c.change, c.value, c.previous, c.changed]);
      const wantChanges = (expected.changes[id]?.[day] ?? []).filter(([, series]) => prefix === undefined || series.startsWith(prefix)).map(([d, s, k, v, p, c]) => [d, s, k, v === null ? null : Number(v), p === null ? null : Number(p), c]);
      expect(listed, `${id} changes since ${day}`).toEqual(wantChanges);
      checked++;
    }
  }
  return checked;
}

describe("as_of through wrangler pages dev, over a synthetic history", () => {
  it("answers on each day with a commit what a build of that day's last commit answers", async () => {
    let compared = 0;
    for (const c of daily) {
      // A clone at that commit: the build of that commit's data with the history it had.
      const out = await built(await dataAt(repo.dir, c.commit), String(Date.parse(`${c.day}T12:00:00Z`) / 1000));
      const api = new Api();
      const assets = folderAssets(out);
      for (const id of ["wages", "prices"]) {
        for (const query of QUERIES) {
          const ref = await api.fetch(new Request(`http://api.test/api/v1/${id}?${query}`), { ASSETS: assets, ...HIGH });
          const asOf = await get(server.url, `/api/v1/${id}?${query}${query === "" ? "" : "&"}as_of=${c.day}`);
          if (ref.status === 404) {
            // Not in that commit: a 400 naming as_of (the indicator exists now).
            expect(asOf.status, `${c.step}: ${id}`).toBe(400);
            continue;
          }
          const refText = await ref.text();
          expect(asOf.status, `${c.step}: ${id}?${query}: ${asOf.text}`).toBe(ref.status);
          // The same 400, naming the same parameter (real or per before the index was published: the build of that
          // commit has no such index at all, the history says since when it has one).
          if (ref.status !== 200) expect(detail(asOf.text).split(":")[0], `${c.step}: ${id}?${query}`).toBe(detail(refText).split(":")[0]);
          else if (query.includes("format=csv")) expect(asOf.text, `${c.step}: ${id}?${query}`).toBe(refText);
          else expect((JSON.parse(asOf.text) as Page).data, `${c.step}: ${id}?${query}`).toEqual((JSON.parse(refText) as Page).data);
          compared++;
        }
      }
    }
    expect(compared).toBe(QUERIES.length * (daily.length + 2));
    // The deflator as known then: revised since, so the answer of that day differs from today's.
    const [then, now] = await Promise.all(["&as_of=2026-06-10", ""].map((asOf) => get(server.url, `/api/v1/wages?series=monthly&real=2026-04${asOf}`)));
    expect(then?.status).toBe(200);
    expect((JSON.parse(then?.text ?? "") as Page).data).not.toEqual((JSON.parse(now?.text ?? "") as Page).data);
  }, 120_000);

  it("equals the git-and-pandas oracle for as_of and changes on every day of the history", async () => {
    const checked = await checkOracle(server.url, repo.dir, ["wages", "prices"], daysOf(daily.map((c) => c.day)));
    expect(checked).toBeGreaterThan(15);
  }, 60_000);

  it("are cached and conditional like the data answers: an ETag of their own, 304, HEAD", async () => {
    for (const path of ["/api/v1/wages?as_of=2026-03-10", "/api/v1/wages/changes?since=2026-02-10"]) {
      const first = await fetch(server.url + path);
      await first.arrayBuffer();
      const etag = first.headers.get("ETag") ?? "";
      expect(first.headers.get("Cache-Control"), path).toMatch(/max-age/);
      expect(first.headers.get("Last-Modified"), path).not.toBeNull();
      const again = await fetch(server.url + path, { headers: { "If-None-Match": etag } });
      expect(again.status, path).toBe(304);
      const head = await fetch(server.url + path, { method: "HEAD" });
      expect([head.status, head.headers.get("ETag"), (await head.text()).length], path).toEqual([200, etag, 0]);
    }
    // Another day is another answer, with another ETag.
    const [a, b] = await Promise.all(["2026-03-10", "2026-04-10"].map((d) => fetch(`${server.url}/api/v1/wages?as_of=${d}`)));
    expect(a?.headers.get("ETag")).not.toBe(b?.headers.get("ETag"));
  });

  it("refuses a day after today, a day that is not one, and changes without since, each naming its parameter", async () => {
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
    const cases: [string, RegExp][] = [
      [`/api/v1/wages?as_of=${tomorrow}`, /^as_of: .* is after today/],
      ["/api/v1/wages?as_of=2026-02", /^as_of: expected a day YYYY-MM-DD/],
      ["/api/v1/wages?as_of=2026-02-30", /^as_of: expected a day YYYY-MM-DD/],
      [`/api/v1/wages/changes?since=${tomorrow}`, /^since: .* is after today/],
      ["/api/v1/wages/changes", /^since: required/],
      ["/api/v1/wages/changes?since=2026-03-10&as_of=2026-03-10", /^as_of: unknown parameter/],
      ["/api/v1/prices?as_of=2026-05-10", /^as_of: prices was first published on 2026-06-10/],
    ];
    for (const [path, pattern] of cases) {
      const { status, text } = await get(server.url, path);
      expect(status, path).toBe(400);
      expect(detail(text), path).toMatch(pattern);
    }
  });
});

describe("as_of and changes through wrangler pages dev, over the real data's own history", () => {
  it("equal the git-and-pandas oracle on every day of the data's first-parent history", async () => {
    // The days with a commit and the day before the first (the days between answer as the day before them).
    const days = [...new Set((await dataCommits(join(ROOT, "data"))).map((c) => new Date(c.time * 1000).toISOString().slice(0, 10)))];
    // The health insurance prices: CASMU's sub-series (the whole indicator is 23,000 points a day).
    const checked = await checkOracle(system.urls.main, ROOT, INDICATOR_IDS, [dayBefore(days[0] as string), ...days], { "health-insurance-prices": "casmu." });
    expect(checked).toBeGreaterThan(0);
  }, 120_000);
});
