/**
 * "Due" and "overdue" are decided once (src/core/time/schedule.ts `successorOf`), and the
 * three surfaces that say it agree for every sub-series: what status.json says (its
 * per-sub-series freshness, src/builder/freshness.ts `seriesFreshness`), what the API's
 * `meta.missing` says of the days after the sub-series' newest point (an `at` answer,
 * src/core/answer/page.ts `selectAtPage`, rendered), and what the page's card says
 * (src/site/client/series-view.ts `standingOf`). Each indicator is built in memory by
 * the build's own code, from random schedules, rhythms, points and last looks.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { buildIndicator, type BuiltIndicator } from "../../src/builder/dataset.js";
import { seriesFreshness } from "../../src/builder/freshness.js";
import { viewIndicator } from "../../src/builder/site-model.js";
import { timeSource } from "../../src/api/time.js";
import { selectAtPage } from "../../src/core/answer/page.js";
import { renderAnswer } from "../../src/core/answer/render.js";
import { wholeView } from "../../src/core/file/answer-index.js";
import { DEFAULT_QUERY } from "../../src/core/indicator/model.js";
import { RHYTHMS } from "../../src/core/time/coverage.js";
import { addMonthsToDay, dateOfDay, dayNumber } from "../../src/core/time/dates.js";
import { datedOnOrBefore, dueDayOf, nextDatedDay, type Schedule } from "../../src/core/time/schedule.js";
import { coverageOf, standingOf, type Standing } from "../../src/site/client/series-view.js";
import type { SourceRow } from "../../src/source/csv.js";
import type { IndicatorMeta } from "../../src/source/metadata.js";
import { both, indicatorMeta } from "../meta.js";

/** What `meta.missing` says of a sub-series (one group's reason, last and due). */
interface Missing {
  readonly reason: string;
  readonly last: string | null;
  readonly due: string | null;
}

/** An indicator to build: its schedule, rhythm, whether values hold until the next, each sub-series' dates and the day its points last changed (the last look). */
interface Case {
  readonly schedule: Schedule | null;
  readonly rhythm: IndicatorMeta["rhythm"];
  readonly stepwise: boolean;
  readonly series: readonly (readonly string[])[];
  readonly changed: string;
}

/** The case built as the build builds it: sub-series `s0`, `s1`, … with the given dates, no check recorded. */
function built(c: Case): BuiltIndicator {
  const ids = c.series.map((_, k) => `s${k}`);
  const meta = indicatorMeta({ rhythm: c.rhythm, stepwise: c.stepwise, schedule: c.schedule, series: ids.map((id) => ({ id, title: both(id), facets: {} })) });
  const rows: SourceRow[] = c.series.flatMap((dates, k) => dates.map((date) => ({ file: "data/tiny/points.csv", line: 2, date, series: `s${k}`, value: "1", source: "", note: "" })));
  return buildIndicator({ meta, folder: "data/tiny", files: ["data/tiny/points.csv"], rows }, "Data", "https://example.test/", c.changed);
}

/** The API's `meta.missing` on day `at`, by sub-series (those with a point on it are absent from the map). */
function missingOn(indicator: BuiltIndicator, at: string): Map<string, Missing> {
  const view = wholeView(indicator.answers);
  const page = selectAtPage(view.series, { ...DEFAULT_QUERY, at }, null, timeSource(view, "Tue, 14 Nov 2023 22:13:20 GMT"));
  const answer = JSON.parse(new TextDecoder().decode(renderAnswer(view, page))) as { meta: { missing?: (Missing & { series: string[] })[] } };
  const bySeries = new Map<string, Missing>();
  for (const group of answer.meta.missing ?? []) for (const id of group.series) bySeries.set(id, { reason: group.reason, last: group.last, due: group.due });
  return bySeries;
}

/** Case `c` built, with two of the surfaces of each sub-series (status.json's freshness and the card, by id) and the last look the build counts. */
function surfaces(c: Case) {
  const indicator = built(c);
  const status = new Map(seriesFreshness(indicator, 0).map((f) => [f.id, f]));
  const view = viewIndicator(indicator, 0);
  const coverage = coverageOf(view);
  const cards = new Map(view.series.map((s) => [s.id, standingOf(s, view.stepwise, coverage) as Standing]));
  return { indicator, status, cards, look: view.version };
}

/**
 * Where status.json's freshness `f`, the card and `meta.missing` `m` on day `at` (after the newest point,
 * dated `last`; undefined: the sub-series has a point that day) disagree about one sub-series, or null. Agreement: `ended` ⇔ the card's `replaced` ⇒ status.json expects nothing; `overdue` ⇔
 * status.json's overdue ⇔ the card's "overdue since", on the same due day; `pending` ⇔ neither, with
 * status.json's next due and the card's (null: nothing expected). A value of a period pending on a day
 * of a later period than its successor's is the value of that period (`absenceDay`): due no earlier.
 */
function disagreement(c: Case, f: { nextDue: string | null; overdue: boolean }, card: Standing, last: string, at: string, m: Missing | undefined): string | null {
  const said = `status ${JSON.stringify(f)}, card ${JSON.stringify(card)}, at=${at} missing ${JSON.stringify(m ?? "none")}`;
  if (card.state === "replaced" && (f.nextDue !== null || f.overdue)) return `replaced with a next due: ${said}`;
  if ((f.overdue ? f.nextDue : null) !== card.overdueSince || (f.overdue ? null : f.nextDue) !== card.nextDue) return `status and card: ${said}`;
  if (m === undefined) return null;
  if (m.last !== last) return `last: ${said}`;
  if ((m.reason === "ended") !== (card.state === "replaced")) return `ended ⇔ replaced: ${said}`;
  if ((m.reason === "overdue") !== f.overdue) return `overdue: ${said}`;
  if (m.reason === "overdue" && m.due !== f.nextDue) return `overdue's due: ${said}`;
  if (m.reason === "pending") {
    if ((m.due === null) !== (f.nextDue === null)) return `pending's due set: ${said}`;
    const successor = c.schedule === null || c.schedule.dates === "irregular" ? null : nextDatedDay(c.schedule, dayNumber(last));
    const laterPeriod = !c.stepwise && c.schedule !== null && successor !== null && (datedOnOrBefore(c.schedule, dayNumber(at)) ?? -Infinity) > successor;
    if (m.due !== null && f.nextDue !== null && (laterPeriod ? m.due < f.nextDue : m.due !== f.nextDue)) return `pending's due: ${said}`;
  }
  return null;
}

/** The days asked of a sub-series: the day after its newest point, around the last look and the indicator's newest, its next due, and far after all. */
function daysAsked(last: string, look: string, newest: string, nextDue: string | null, more: readonly number[]): string[] {
  const [l, k, n] = [dayNumber(last), dayNumber(look), dayNumber(newest)];
  const days = [l + 1, k, k + 1, Math.max(k, n) + 1, Math.max(l, k) + 1200, ...more.map((d) => l + 1 + d)];
  if (nextDue !== null) days.push(dayNumber(nextDue) - 1, dayNumber(nextDue));
  return [...new Set(days.filter((d) => d > l))].map(dateOfDay);
}

/** Every disagreement of case `c` (`more`: days after each newest point to ask besides). */
function disagreements(c: Case, more: readonly number[] = []): string[] {
  const { indicator, status, cards, look } = surfaces(c);
  const newest = indicator.answers.lastUpdated as string;
  const found: string[] = [];
  const asked = new Map<string, Map<string, Missing>>();
  c.series.forEach((dates, k) => {
    const id = `s${k}`;
    const last = [...dates].sort().at(-1) as string;
    const f = status.get(id) as { nextDue: string | null; overdue: boolean };
    const card = cards.get(id) as Standing;
    for (const at of daysAsked(last, look, newest, f.nextDue, more)) {
      if (!asked.has(at)) asked.set(at, missingOn(indicator, at));
      const wrong = disagreement(c, f, card, last, at, asked.get(at)?.get(id));
      if (wrong !== null) found.push(`${id} (newest ${last}; indicator ${newest}; look ${look}): ${wrong}`);
    }
    // Far after everything, only a sub-series of which nothing at all is expected still has a value (one that holds on).
    const far = dateOfDay(Math.max(dayNumber(last), dayNumber(look)) + 1200);
    if (asked.get(far)?.has(id) !== true && (f.nextDue !== null || card.state === "replaced")) found.push(`${id}: answered on ${far} though something is expected of it`);
  });
  return found;
}

/** Days on which a successor of a sub-series of `c` may be due: a day, a week or some months after its newest point, or its next scheduled date and that date's publication day. */
function boundaries(c: Omit<Case, "changed">): number[] {
  const days: number[] = [];
  for (const dates of c.series) {
    const last = dayNumber([...dates].sort().at(-1) as string);
    days.push(last + 1, last + 7, ...[1, 3, 6, 12].map((months) => addMonthsToDay(last, months)));
    const next = c.schedule === null ? null : nextDatedDay(c.schedule, last);
    if (c.schedule !== null && next !== null) days.push(next, dueDayOf(c.schedule, next));
  }
  return days;
}

const MONTHLY_TWO_LATER: Schedule = { dates: { months: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12], day: 1 }, published: { monthsAfter: 2, day: 15 } };
/** A monthly value published two months later on the 15th: one sub-series last dated 2024-01-01, the indicator's newest point 2024-02-01, the last look 2024-05-01. */
const REAL_CASE: Case = { schedule: MONTHLY_TWO_LATER, rhythm: "monthly", stepwise: false, series: [["2023-12-01", "2024-01-01"], ["2024-01-01", "2024-02-01"]], changed: "2024-05-01" };

describe("due and overdue, decided once", () => {
  it("a monthly value published two months later on the 15th, left out of February 2024's publication: replaced everywhere, never overdue", () => {
    for (const c of [REAL_CASE, { ...REAL_CASE, stepwise: true }]) {
      const { status, cards, indicator } = surfaces(c);
      expect(status.get("s0")).toEqual({ id: "s0", newest: "2024-01-01", nextDue: null, overdue: false });
      expect(cards.get("s0")).toMatchObject({ state: "replaced", nextDue: null, overdueSince: null });
      // Its successor, February's value, came out (due) 15 April 2024; the indicator published February without it.
      expect(missingOn(indicator, "2024-05-01").get("s0")).toEqual({ reason: "ended", last: "2024-01-01", due: "2024-04-15" });
      expect(missingOn(indicator, "2024-05-02").get("s0")).toEqual({ reason: "ended", last: "2024-01-01", due: "2024-04-15" });
      // The other sub-series: March's value is due 15 May, after the look.
      expect(status.get("s1")).toEqual({ id: "s1", newest: "2024-02-01", nextDue: "2024-05-15", overdue: false });
      expect(cards.get("s1")).toMatchObject({ nextDue: "2024-05-15", overdueSince: null });
      expect(missingOn(indicator, "2024-03-15").get("s1")).toEqual({ reason: "pending", last: "2024-02-01", due: "2024-05-15" });
      expect(disagreements(c)).toEqual([]);
    }
  });

  const day = (from: string, span: number) => fc.integer({ min: 0, max: span }).map((d) => dateOfDay(dayNumber(from) + d));
  const published = fc.option(fc.record({ monthsAfter: fc.integer({ min: 0, max: 12 }), day: fc.integer({ min: 1, max: 31 }) }), { nil: null });
  const months = fc.uniqueArray(fc.integer({ min: 1, max: 12 }), { minLength: 1, maxLength: 12 }).map((m) => [...m].sort((a, b) => a - b));
  const schedule: fc.Arbitrary<Schedule | null> = fc.oneof(
    fc.constant(null),
    fc.record({ dates: fc.constantFrom<"daily" | "irregular">("daily", "irregular"), published }),
    fc.record({ dates: fc.record({ months, day: fc.integer({ min: 1, max: 31 }) }), published }),
  );
  const drawn = fc.record({
    schedule,
    rhythm: fc.constantFrom(...RHYTHMS),
    stepwise: fc.boolean(),
    // Up to three sub-series of one to three points in three years (some on the first of a month, as scheduled values are).
    series: fc.array(fc.uniqueArray(fc.oneof(day("2022-01-01", 1100), fc.integer({ min: 0, max: 36 }).map((k) => dateOfDay(addMonthsToDay(dayNumber("2022-01-01"), k)))), { minLength: 1, maxLength: 3 }), { minLength: 1, maxLength: 3 }),
  });
  // The last look: any day, or one on a boundary (a day a successor may be due, the day before or after it).
  const cases: fc.Arbitrary<Case> = drawn.chain((c) =>
    fc
      .oneof(day("2021-10-01", 1600), fc.tuple(fc.constantFrom(...boundaries(c)), fc.integer({ min: -1, max: 1 })).map(([d, k]) => dateOfDay(d + k)))
      .map((changed) => ({ ...c, changed })),
  );

  it("status.json, meta.missing and the card agree for random schedules, rhythms, points and last looks", () => {
    fc.assert(
      fc.property(cases, fc.array(fc.integer({ min: 0, max: 900 }), { maxLength: 3 }), (c, more) => {
        expect(disagreements(c, more)).toEqual([]);
      }),
      // The case that disagreed first, then random ones.
      { seed: 38, numRuns: 300, examples: [[REAL_CASE, []]] },
    );
  });
});
