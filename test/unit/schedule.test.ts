/**
 * The publication schedule (src/core/time/schedule.ts) and what the rule of coverage
 * answers about days after the last check (src/core/time/coverage.ts
 * `answeringRankDay`, `absenceDay`), on the shapes of the real indicators: a wage
 * adjusted 1 January and 1 July, a monthly index published on the 5th of the next
 * month, a daily value, irregular prices.
 */
import { describe, expect, it } from "vitest";
import { absenceDay, answeringRank, coverageRule, daySeries, nextDueDayOf, type CoverageRule } from "../../src/core/time/coverage.js";
import { dateOfDay, dayNumber } from "../../src/core/time/dates.js";
import { checkedDate, datedOnOrBefore, freshnessOf, indicatorFreshness, successorDueDay, successorOf, type Schedule, type Successor } from "../../src/core/time/schedule.js";
import { parseIndicatorMeta } from "../../src/source/metadata.js";
import { csvEsLine, csvLine } from "../../src/builder/dataset.js";
import { timeSource } from "../../src/api/time.js";
import { decodeAnswers, encodeAnswers } from "../../src/core/file/answers.js";
import { DEFAULT_QUERY } from "../../src/core/indicator/model.js";
import { selectAtPage } from "../../src/core/answer/page.js";
import { wholeView } from "../../src/core/file/answer-index.js";
import { renderAnswer } from "../../src/core/answer/render.js";

const HALF_YEARS: Schedule = { dates: { months: [1, 7], day: 1 }, published: null };
const MONTHLY_INDEX: Schedule = { dates: { months: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12], day: 1 }, published: { monthsAfter: 1, day: 5 } };
const DAILY: Schedule = { dates: "daily", published: null };
const IRREGULAR: Schedule = { dates: "irregular", published: null };

const due = (schedule: Schedule, date: string) => {
  const day = successorDueDay(schedule, dayNumber(date));
  return day === null ? null : dateOfDay(day);
};

/** The rule of an indicator whose newest-first `dates` are its only sub-series', checked on `checked`. */
function ruleOf(rhythm: string, dates: readonly string[], checked: string, stepwise: boolean, schedule: Schedule | null): CoverageRule {
  return coverageRule(rhythm, [...dates].reverse().map(dayNumber), checked, { stepwise, schedule });
}

const absence = (dates: readonly string[], date: string, rule: CoverageRule) => {
  const a = absenceDay(daySeries(dates), dayNumber(date), rule);
  return { reason: a.reason, last: a.last === null ? null : dateOfDay(a.last), due: a.due === null ? null : dateOfDay(a.due) };
};

describe("the publication schedule", () => {
  it("knows when the next value is due: the next scheduled date, or its publication day", () => {
    expect(due(HALF_YEARS, "2026-07-01")).toBe("2027-01-01");
    expect(due(HALF_YEARS, "2026-01-01")).toBe("2026-07-01");
    expect(due(HALF_YEARS, "2025-11-15")).toBe("2026-01-01");
    // A monthly index of July 2026 is followed by August's, published 5 September.
    expect(due(MONTHLY_INDEX, "2026-07-01")).toBe("2026-09-05");
    expect(due(MONTHLY_INDEX, "2026-12-01")).toBe("2027-02-05");
    expect(due(DAILY, "2026-09-05")).toBe("2026-09-06");
    expect(due(IRREGULAR, "2026-01-01")).toBeNull();
    expect(dateOfDay(datedOnOrBefore(MONTHLY_INDEX, dayNumber("2026-12-10")) as number)).toBe("2026-12-01");
    expect(dateOfDay(datedOnOrBefore(HALF_YEARS, dayNumber("2026-06-30")) as number)).toBe("2026-01-01");
  });

  it("says per sub-series when its next value is due and whether it is overdue at the check", () => {
    const halfYears = nextDueDayOf("semiannual", []);
    expect(freshnessOf(HALF_YEARS, halfYears, "2026-01-01", "2026-11-20", "2026-01-01")).toEqual({ newest: "2026-01-01", nextDue: "2026-07-01", overdue: true });
    expect(freshnessOf(HALF_YEARS, halfYears, "2026-07-01", "2026-11-20", "2026-07-01")).toEqual({ newest: "2026-07-01", nextDue: "2027-01-01", overdue: false });
    // Left out of the indicator's later publications: nothing is expected of it.
    expect(freshnessOf(HALF_YEARS, halfYears, "2006-01-01", "2026-11-20", "2026-01-01")).toEqual({ newest: "2006-01-01", nextDue: null, overdue: false });
    expect(freshnessOf(IRREGULAR, nextDueDayOf("irregular", []), "2026-01-01", "2026-11-20", "2026-01-01")).toEqual({ newest: "2026-01-01", nextDue: null, overdue: false });
    // No schedule declared: the rhythm says when (an annual value of January 2026 is due January 2027).
    expect(freshnessOf(null, nextDueDayOf("annual", []), "2026-01-01", "2026-11-20", "2026-01-01")).toEqual({ newest: "2026-01-01", nextDue: "2027-01-01", overdue: false });
    expect(freshnessOf(null, nextDueDayOf("irregular", []), "2026-01-01", "2026-11-20", "2026-01-01").nextDue).toBeNull();
    expect(
      indicatorFreshness([
        { newest: "2026-01-01", nextDue: "2026-07-01", overdue: true },
        { newest: "2025-07-01", nextDue: null, overdue: false },
        { newest: "2026-01-01", nextDue: "2026-09-05", overdue: true },
      ]),
    ).toEqual({ newest: "2026-01-01", nextDue: "2026-07-01", overdueSince: "2026-07-01", overdueSeries: 2 });
  });

  it("decides once what is expected after a sub-series' newest value: nothing, replaced, pending or overdue (successorOf)", () => {
    const d = dayNumber;
    const on = (s: Successor) => (s.state === "none" ? s : { state: s.state, dated: dateOfDay(s.dated), due: dateOfDay(s.due) });
    const monthly: Schedule = { dates: { months: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12], day: 1 }, published: { monthsAfter: 2, day: 15 } };
    const byMonth = nextDueDayOf("monthly", []);
    // February 2024's value comes out 15 April; the indicator published February without the sub-series: replaced.
    expect(on(successorOf(monthly, byMonth, d("2024-01-01"), d("2024-02-01"), d("2024-05-01")))).toEqual({ state: "replaced", dated: "2024-02-01", due: "2024-04-15" });
    // Not published yet: overdue from its publication day on, pending the day before.
    expect(on(successorOf(monthly, byMonth, d("2024-01-01"), d("2024-01-01"), d("2024-04-15")))).toEqual({ state: "overdue", dated: "2024-02-01", due: "2024-04-15" });
    expect(on(successorOf(monthly, byMonth, d("2024-01-01"), d("2024-01-01"), d("2024-04-14")))).toEqual({ state: "pending", dated: "2024-02-01", due: "2024-04-15" });
    // No schedule: one rhythm later, due on its date.
    expect(on(successorOf(null, nextDueDayOf("semiannual", []), d("2026-01-01"), d("2026-01-01"), d("2026-07-01")))).toEqual({ state: "overdue", dated: "2026-07-01", due: "2026-07-01" });
    // No fixed dates: nothing is due, but a later publication without the sub-series still replaces it.
    const published = ["2024-01-01", "2024-08-01", "2025-01-01"].map(d);
    expect(on(successorOf(IRREGULAR, nextDueDayOf("irregular", published), d("2024-01-01"), d("2025-01-01"), d("2026-11-20")))).toEqual({ state: "replaced", dated: "2024-08-01", due: "2024-08-01" });
    expect(successorOf(IRREGULAR, nextDueDayOf("irregular", published), d("2025-01-01"), d("2025-01-01"), d("2026-11-20"))).toEqual({ state: "none" });
    expect(successorOf(IRREGULAR, byMonth, d("2025-01-01"), d("2025-01-01"), d("2026-11-20"))).toEqual({ state: "none" });
  });

  it("counts the later of the declared check and the data version as the last check", () => {
    expect(checkedDate(null, "2026-11-20")).toBe("2026-11-20");
    expect(checkedDate("2026-11-24", "2026-11-20")).toBe("2026-11-24");
    expect(checkedDate("2026-10-01", "2026-11-20")).toBe("2026-11-20");
  });

  it("is declared in indicator.json and validated with messages that name the key", () => {
    const base = { id: "demo", title: { es: "x", en: "x" }, description: { es: "x", en: "x" }, unit: "UYU", rhythm: "annual", license: "CC-BY-4.0", source: { name: { es: "x", en: "x" }, url: "https://example.test/" }, series: [{ id: "a", title: { es: "x", en: "x" } }] };
    const parse = (schedule: unknown) => parseIndicatorMeta(JSON.stringify({ ...base, schedule }), "indicator.json", "demo");
    const ok = parse({ dates: { months: [1, 7], day: 1 } });
    expect(ok.ok && ok.value.schedule).toEqual(HALF_YEARS);
    const bad = parse({ dates: { months: [7, 1], day: 1 } });
    expect(bad.ok).toBe(false);
    expect(JSON.stringify(bad.ok ? null : bad.issues)).toContain("schedule.dates");
    expect(parse({ dates: "weekly" }).ok).toBe(false);
    expect(parse({ dates: "daily", when: 1 }).ok).toBe(false);
    const none = parseIndicatorMeta(JSON.stringify(base), "indicator.json", "demo");
    expect(none.ok && none.value.schedule).toBeNull();
  });
});

describe("a day after the last check", () => {
  // The tests' data version: checked 2026-11-20.
  const checked = "2026-11-20";

  it("answers a value that holds until the next with the value in force at the check, until its successor is due", () => {
    const wage = ["2026-07-01", "2026-01-01", "2025-07-01"];
    const rule = ruleOf("annual", wage, checked, true, HALF_YEARS);
    expect(answeringRank(wage, "2026-11-20", rule)).toBe(0);
    expect(answeringRank(wage, "2026-11-21", rule)).toBe(0);
    expect(answeringRank(wage, "2026-12-31", rule)).toBe(0);
    expect(answeringRank(wage, "2027-01-01", rule)).toBe(-1);
    expect(absence(wage, "2027-01-01", rule)).toEqual({ reason: "pending", last: "2026-07-01", due: "2027-01-01" });
  });

  it("answers nothing, with the reason, when the successor was due by the check", () => {
    const wage = ["2026-01-01", "2025-07-01"];
    const rule = ruleOf("semiannual", wage, checked, true, HALF_YEARS);
    for (const date of ["2026-11-21", "2026-12-30", "2027-06-08"]) {
      expect(answeringRank(wage, date, rule)).toBe(-1);
      expect(absence(wage, date, rule)).toEqual({ reason: "overdue", last: "2026-01-01", due: "2026-07-01" });
    }
  });

  it("answers irregular prices at any later day: no successor is ever due", () => {
    const prices = ["2026-01-01", "2025-01-01"];
    const rule = ruleOf("irregular", prices, checked, true, IRREGULAR);
    expect(answeringRank(prices, "2027-06-08", rule)).toBe(0);
    expect(answeringRank(prices, "2036-01-01", rule)).toBe(0);
    // Without the rule's afterCheck (the derived answers' rule), the check still bounds it.
    const bounded = coverageRule("irregular", [...prices].reverse().map(dayNumber), checked);
    expect(answeringRank(prices, "2026-11-21", bounded)).toBe(-1);
  });

  it("never extends a value of a period: a month not yet published says when it is expected", () => {
    const index = ["2026-10-01", "2026-09-01"];
    const rule = ruleOf("monthly", index, checked, false, MONTHLY_INDEX);
    expect(answeringRank(index, "2026-10-31", rule)).toBe(0);
    // November's index comes out 5 December, after the check: pending, not overdue.
    expect(answeringRank(index, "2026-11-21", rule)).toBe(-1);
    expect(absence(index, "2026-11-21", rule)).toEqual({ reason: "pending", last: "2026-10-01", due: "2026-12-05" });
    expect(absence(index, "2027-01-15", rule)).toEqual({ reason: "pending", last: "2026-10-01", due: "2027-02-05" });
    // An index whose next month was due by the check is overdue since that publication day.
    const late = ["2026-07-01"];
    expect(absence(late, "2026-08-10", ruleOf("monthly", late, checked, false, MONTHLY_INDEX))).toEqual({ reason: "overdue", last: "2026-07-01", due: "2026-09-05" });
    const daily = ["2026-09-05", "2026-09-04"];
    expect(absence(daily, "2026-11-21", ruleOf("daily", daily, checked, false, DAILY))).toEqual({ reason: "overdue", last: "2026-09-05", due: "2026-09-06" });
  });

  it("says a sub-series the indicator's later publications leave out has ended, not that it is overdue", () => {
    const current = ["2026-01-01", "2025-07-01"];
    const regional = ["2006-01-01", "2005-07-01"];
    const published = [...regional, ...current].sort().map(dayNumber);
    const rule = coverageRule("semiannual", published, checked, { stepwise: true, schedule: HALF_YEARS });
    expect(absence(regional, "2026-11-24", rule)).toEqual({ reason: "ended", last: "2006-01-01", due: "2006-07-01" });
    expect(absence(regional, "2010-03-01", rule)).toEqual({ reason: "ended", last: "2006-01-01", due: "2006-07-01" });
    expect(absence(current, "2026-11-24", rule)).toEqual({ reason: "overdue", last: "2026-01-01", due: "2026-07-01" });
    // A gap is not an end: a later point follows.
    const gapped = ["2026-01-01", "2024-07-01"];
    expect(absence(gapped, "2025-03-01", coverageRule("semiannual", [...gapped].reverse().map(dayNumber), checked, { stepwise: true, schedule: HALF_YEARS })).reason).toBe("overdue");
    // Irregular prices left out of the newest publication.
    const gone = ["2024-08-01", "2024-01-01"];
    const prices = coverageRule("irregular", ["2024-01-01", "2024-08-01", "2025-01-01", "2026-01-01"].map(dayNumber), checked, { stepwise: true, schedule: IRREGULAR });
    expect(absence(gone, "2025-06-01", prices)).toEqual({ reason: "ended", last: "2024-08-01", due: "2025-01-01" });
  });

  it("says a day before the first point is before it", () => {
    const wage = ["2026-01-01"];
    expect(absence(wage, "2000-01-01", ruleOf("semiannual", wage, checked, true, HALF_YEARS))).toEqual({ reason: "before_first", last: null, due: null });
  });
});

describe("the answer file carries the check, the last change of points and the schedule to the function", () => {
  const fields = { indicator: "wage", unit: "UYU", license: "CC-BY-4.0", lastUpdated: "2026-07-01", attribution: "a", attributionUrl: "https://example.test/", rhythm: "annual", stepwise: true };
  const rows = [
    { date: "2026-07-01", series: "monthly", value: "25383", source: "https://example.test/1", note: "" },
    { date: "2026-01-01", series: "monthly", value: "24572", source: "https://example.test/2", note: "" },
  ];
  // The data version: 20 November 2026 (a change of metadata); the points last changed on 6 October.
  const VERSION = "Fri, 20 Nov 2026 00:00:00 GMT";
  const file = (more: { checked?: string; changed?: string }) => encodeAnswers({ ...fields, changed: "2026-10-06", ...more, schedule: HALF_YEARS }, ["monthly"], rows, csvLine, csvEsLine);
  const at = (bytes: Uint8Array, day: string) => {
    const data = decodeAnswers(bytes);
    const page = selectAtPage(data.series, { ...DEFAULT_QUERY, at: day }, null, timeSource(wholeView(data), VERSION));
    return JSON.parse(new TextDecoder().decode(renderAnswer(wholeView(data), page))) as { data: { value: number }[]; meta: { checked?: string | null; data_changed?: string; missing?: unknown[] } };
  };

  it("bounds the rule by the later of the recorded check and the last change of points, never by the version's date", () => {
    expect(new TextDecoder().decode(encodeAnswers(fields, ["monthly"], rows, csvLine, csvEsLine))).not.toContain('"checked"');
    expect(decodeAnswers(file({ checked: "2026-11-24" }))).toMatchObject({ checked: "2026-11-24", changed: "2026-10-06", schedule: HALF_YEARS });
    // No check recorded: the last change of points bounds, and the answer says both (the check as null).
    expect(at(file({}), "2026-10-05").meta).not.toHaveProperty("checked");
    expect(at(file({}), "2026-11-22")).toMatchObject({ data: [{ value: 25383 }], meta: { checked: null, data_changed: "2026-10-06" } });
    // A check four days after the version: the 22nd is within it, the 25th after it.
    expect(at(file({ checked: "2026-11-24" }), "2026-11-22").meta.checked).toBeUndefined();
    expect(at(file({ checked: "2026-11-24" }), "2026-11-22").data).toEqual([{ date: "2026-07-01", series: "monthly", value: 25383 }]);
    expect(at(file({ checked: "2026-11-24" }), "2026-11-25").meta).toMatchObject({ checked: "2026-11-24", data_changed: "2026-10-06" });
    // A check older than the last change of points: the change bounds, and the check is still named.
    expect(at(file({ checked: "2026-09-01" }), "2026-10-10").meta).toMatchObject({ checked: "2026-09-01", data_changed: "2026-10-06" });
    // The successor is due 1 January 2027 by the schedule (the annual rhythm would say July).
    expect(at(file({}), "2027-01-01").meta.missing).toEqual([{ reason: "pending", last: "2026-07-01", due: "2027-01-01", series: ["monthly"] }]);
  });
});
