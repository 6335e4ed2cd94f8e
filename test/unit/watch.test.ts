/**
 * The watcher's plan (src/source/watch.ts) over a table of days and issues, on
 * indicators made in memory: a value adjusted every 1 January and 1 July (due on
 * its date; one sub-series left out of the publications since 2020), a monthly
 * index published on the 5th of the next month (due a month and five days after
 * its date), one with an importer (not watched) and one without a schedule.
 */
import { describe, expect, it } from "vitest";
import type { Check, Schedule } from "../../src/core/time/schedule.js";
import type { SourceRow } from "../../src/source/csv.js";
import type { IndicatorSource } from "../../src/source/load.js";
import { dueValues, issueBody, markerOf, planWatch, type FoundIssue, type WatchAction } from "../../src/source/watch.js";
import { both, indicatorMeta } from "../meta.js";

const HALF_YEARS: Schedule = { dates: { months: [1, 7], day: 1 }, published: null };
const MONTHLY_NEXT_MONTH: Schedule = { dates: { months: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12], day: 1 }, published: { monthsAfter: 1, day: 5 } };

const row = (file: string, date: string, series: string): SourceRow => ({ file, line: 2, date, series, value: "1", source: "", note: "" });

interface Options {
  schedule?: Schedule | null;
  check?: Check;
  importer?: string;
  consult?: IndicatorSource["meta"]["consult"];
}

/** An indicator `id` in `data/<id>/`, its points as [series, date], its sub-series declared in order of first appearance. */
function indicator(id: string, points: readonly (readonly [string, string])[], options: Options = {}): IndicatorSource {
  const file = `data/${id}/points.csv`;
  const series = [...new Set(points.map(([s]) => s))].map((s) => ({ id: s, title: both(`Sub-series ${s}`), facets: {} }));
  const meta = indicatorMeta({
    id,
    title: both(`Indicator ${id}`),
    series,
    schedule: options.schedule === undefined ? HALF_YEARS : options.schedule,
    consult: options.consult ?? [{ name: { es: "El diario oficial", en: "The official gazette" }, url: "https://example.test/gazette" }],
    ...(options.check === undefined ? {} : { check: options.check }),
    ...(options.importer === undefined ? {} : { importer: options.importer }),
  });
  return { meta, folder: `data/${id}`, files: [file], rows: points.map(([s, d]) => row(file, d, s)) };
}

/** Adjusted 1 January and 1 July: `general` up to 1 July 2026, `old` left out since 1 January 2020. */
const halfYearly = (options: Options = {}, more: readonly (readonly [string, string])[] = []) =>
  indicator("half", [["general", "2026-01-01"], ["general", "2026-07-01"], ["old", "2019-07-01"], ["old", "2020-01-01"], ...more], options);
/** A monthly index whose July 2026 is the newest, each month out on the 5th of the next. */
const monthly = (options: Options = {}) => indicator("index", [["all", "2026-06-01"], ["all", "2026-07-01"]], { schedule: MONTHLY_NEXT_MONTH, ...options });

const nothingNew = (day: string, note?: string): Check => ({ day, by: "person", read: "https://example.test/gazette", outcome: "nothing-new", ...(note === undefined ? {} : { note }) });

/** The issue the watcher opened (or would have) for `source` on `day`, as gh lists it. */
function issueOn(number: number, source: IndicatorSource, day: string): FoundIssue {
  const action = planWatch([source], day, []).find((a) => a.indicator === source.meta.id);
  if (action?.kind !== "open") throw new Error(`nothing to open for ${source.meta.id} on ${day}`);
  return { number, title: action.title, body: action.body };
}

/** An action without its texts: what the table compares. */
const brief = (a: WatchAction) => (a.kind === "open" || a.kind === "nothing" ? `${a.indicator}: ${a.kind}` : `${a.indicator}: ${a.kind} #${a.issue}`);

describe("planWatch", () => {
  it.each<[string, () => IndicatorSource[], string, () => FoundIssue[], string[]]>([
    ["due and missing, no issue → open", () => [halfYearly()], "2027-01-02", () => [], ["half: open"]],
    ["the next day, its issue found → update, not a second issue", () => [halfYearly()], "2027-01-03", () => [issueOn(7, halfYearly(), "2027-01-02")], ["half: update #7"]],
    ["the same day again → nothing (the issue says it already)", () => [halfYearly()], "2027-01-02", () => [issueOn(7, halfYearly(), "2027-01-02")], ["half: nothing"]],
    ["the value arrived → close", () => [halfYearly({}, [["general", "2027-01-01"]])], "2027-01-05", () => [issueOn(7, halfYearly(), "2027-01-02")], ["half: close #7"]],
    ["a nothing-new check after the due day → close", () => [halfYearly({ check: nothingNew("2027-01-04") })], "2027-01-05", () => [issueOn(7, halfYearly(), "2027-01-02")], ["half: close #7"]],
    ["a nothing-new check on the due day → close", () => [halfYearly({ check: nothingNew("2027-01-01") })], "2027-01-05", () => [issueOn(7, halfYearly(), "2027-01-02")], ["half: close #7"]],
    ["a nothing-new check before the due day → still open", () => [halfYearly({ check: nothingNew("2026-12-20") })], "2027-01-05", () => [issueOn(7, halfYearly(), "2027-01-02")], ["half: update #7"]],
    ["a nothing-new check after the due day, no issue → nothing is opened", () => [halfYearly({ check: nothingNew("2027-01-01") })], "2027-01-05", () => [], ["half: nothing"]],
    ["a new-data check after the due day, the value not in the data → open", () => [halfYearly({ check: { ...nothingNew("2027-01-02"), outcome: "new-data" } })], "2027-01-05", () => [], ["half: open"]],
    ["not due yet (the day before the due day) → nothing", () => [halfYearly()], "2026-12-31", () => [], ["half: nothing"]],
    ["today is the due day → open", () => [halfYearly()], "2027-01-01", () => [], ["half: open"]],
    ["a value published after its period, the day before it comes out → nothing", () => [monthly()], "2026-09-04", () => [], ["index: nothing"]],
    ["a value published after its period, the day it comes out → open", () => [monthly()], "2026-09-05", () => [], ["index: open"]],
    ["an indicator with an importer is not watched", () => [halfYearly({ importer: "some-importer" })], "2027-01-02", () => [], []],
    ["no schedule: the rhythm says when (semiannual: 1 January 2027) → open", () => [halfYearly({ schedule: null })], "2027-01-02", () => [], ["half: open"]],
    ["no schedule, the day before the rhythm's next date → nothing", () => [halfYearly({ schedule: null })], "2026-12-31", () => [], ["half: nothing"]],
    ["no fixed dates (irregular) → nothing", () => [halfYearly({ schedule: { dates: "irregular", published: null } })], "2027-01-02", () => [], ["half: nothing"]],
    [
      "one issue per indicator, found by its marker: an issue of the label without it is not the indicator's",
      () => [halfYearly(), monthly()],
      "2027-01-02",
      () => [{ number: 3, title: "Value due since 2027-01-01: half, Indicator half", body: "a person's note, no marker" }, issueOn(9, monthly(), "2026-09-05")],
      ["half: open", "index: update #9"],
    ],
    [
      "two issues carrying one marker → the oldest is updated",
      () => [halfYearly()],
      "2027-01-03",
      () => [issueOn(12, halfYearly(), "2027-01-02"), issueOn(7, halfYearly(), "2027-01-02")],
      ["half: update #7"],
    ],
  ])("%s", (_, sources, today, issues, expected) => {
    expect(planWatch(sources(), today, issues()).map(brief)).toEqual(expected);
  });

  it("names each sub-series due with the date of its value and its due day; a sub-series left out of later publications is never due", () => {
    expect(dueValues(halfYearly(), "2027-01-02").asked).toEqual([
      { series: "general", title: "Sub-series general", newest: "2026-07-01", dated: "2027-01-01", due: "2027-01-01", file: "data/half/points.csv" },
    ]);
    // July 2026's index is due on 5 September 2026, dated 1 August.
    expect(dueValues(monthly(), "2026-10-01").asked.map((v) => [v.series, v.dated, v.due])).toEqual([["all", "2026-08-01", "2026-09-05"]]);
  });

  it("a check settles only the values due on or before its day", () => {
    // July 2026's successor, dated 1 August, came out on 5 September: the check of 10 September settles it.
    expect(dueValues(monthly({ check: nothingNew("2026-09-10") }), "2026-09-20")).toMatchObject({ asked: [], settled: [{ series: "all", dated: "2026-08-01", due: "2026-09-05" }] });
    // Once August is in, September's value is due on 5 October, after that check: asked for.
    const august = indicator("index", [["all", "2026-08-01"]], { schedule: MONTHLY_NEXT_MONTH, check: nothingNew("2026-09-10") });
    expect(dueValues(august, "2026-10-05")).toMatchObject({ asked: [{ series: "all", dated: "2026-09-01", due: "2026-10-05" }], settled: [] });
  });

  it("opens with a body that names what is due since when, where to look, the file and its columns, validate and the check command", () => {
    const [action] = planWatch([halfYearly()], "2027-01-03", []);
    expect(action?.kind).toBe("open");
    if (action?.kind !== "open") return;
    expect(action.title).toBe("Value due since 2027-01-01: half, Indicator half");
    const lines = action.body.split("\n");
    expect(lines[0]).toBe(markerOf("half"));
    expect(action.body).toContain("| `general`: Sub-series general | 2026-07-01 | 2027-01-01 | 2027-01-01 (2 days ago) |\n");
    expect(action.body).not.toContain("`old`");
    expect(action.body).toContain("- El diario oficial / The official gazette: https://example.test/gazette\n");
    expect(action.body).toContain("1. Add this row to `data/half/points.csv` (columns `date,series,value,source,note`)");
    expect(action.body).toContain("   2027-01-01,general,<value>,<address of the publication>,\n");
    expect(action.body).toContain("`npm run validate`");
    expect(action.body).toContain('npm run check -- half --source <the address you read> --note "…"');
    // On the due day itself.
    expect(issueBody(halfYearly(), dueValues(halfYearly(), "2027-01-01").asked, "2027-01-01")).toContain("| 2027-01-01 (today) |");
  });

  it("without consult, points to the indicator's source", () => {
    const [action] = planWatch([halfYearly({ consult: [] })], "2027-01-02", []);
    expect(action?.kind === "open" && action.body).toContain("- Source: https://example.test/source (the indicator's source: it declares no `consult`)\n");
  });

  it("closes with a comment that says why: the values arrived, or the check that found nothing new", () => {
    const issue = [issueOn(7, halfYearly(), "2027-01-02")];
    const arrived = planWatch([halfYearly({}, [["general", "2027-01-01"]])], "2027-01-05", issue)[0];
    expect(arrived).toEqual({ kind: "close", indicator: "half", issue: 7, comment: "Every value due is in the data now (newest points: 2027-01-01, `general`). Closing." });
    const looked = planWatch([halfYearly({ check: nothingNew("2027-01-04", "no decree yet") })], "2027-01-05", issue)[0];
    expect(looked?.kind === "close" && looked.comment).toBe(
      'The check recorded on 2027-01-04 (by a person, reading https://example.test/gazette) ("no decree yet") found nothing new, on or after the day `general` 2027-01-01 was due (2027-01-01): the watcher asks for it no more.\n\n' +
        "No other value is due and missing (newest points: 2026-07-01, `general`). Closing.",
    );
  });

  it("says why it does nothing", () => {
    const reasons = (sources: IndicatorSource[], today: string) => planWatch(sources, today, []).map((a) => (a.kind === "nothing" ? a.reason : a.kind));
    expect(reasons([halfYearly(), monthly()], "2026-09-04")).toEqual(["next value due 2027-01-01", "next value due 2026-09-05"]);
    expect(reasons([halfYearly({ check: nothingNew("2027-01-01") })], "2027-01-05")).toEqual(["due since 2027-01-01, settled by the check of 2027-01-01 that found nothing new"]);
    expect(reasons([halfYearly({ schedule: { dates: "irregular", published: null } })], "2027-01-05")).toEqual(["no value is expected (none of its sub-series expects one)"]);
  });
});
