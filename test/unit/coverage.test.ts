/** The rule of coverage (src/core/time/coverage.ts): when a point's successor is due, gaps, and the point covering a day. */
import { describe, expect, it } from "vitest";
import { coverageEndDay, coveringRank, daySeries, gapsBetween, latestOnOrBefore, nextDueDayOf, nextDueOf, publications, type CoverageRule } from "../../src/core/time/coverage.js";
import { dateOfDay, dayNumber } from "../../src/core/time/dates.js";

/** The rule of a regular `rhythm`, bounded by the day `versionEnd` (null: unbounded). */
const ruleOf = (rhythm: string, versionEnd: string | null): CoverageRule => ({
  nextDue: nextDueDayOf(rhythm, []),
  versionEnd: versionEnd === null ? Infinity : dayNumber(versionEnd),
});
/** `coverageEndDay` of newest-first `dates` as a date (null: unbounded). */
const coverageEnd = (dates: readonly string[], rank: number, rule: CoverageRule) => {
  const end = coverageEndDay(daySeries(dates), rank, rule);
  return end === Infinity ? null : dateOfDay(end);
};

describe("coverage", () => {
  it("knows when the next point is due: one rhythm later, or at the indicator's next publication", () => {
    expect(nextDueOf("semiannual", [])("2025-07-01")).toBe("2026-01-01");
    expect(nextDueOf("monthly", [])("2024-01-31")).toBe("2024-02-29");
    expect(nextDueOf("quarterly", [])("2024-11-01")).toBe("2025-02-01");
    expect(nextDueOf("annual", [])("2024-02-29")).toBe("2025-02-28");
    expect(nextDueOf("daily", [])("2024-12-31")).toBe("2025-01-01");
    expect(nextDueOf("weekly", [])("2024-12-30")).toBe("2025-01-06");
    const irregular = nextDueOf("irregular", ["2019-01-01", "2019-08-01", "2020-01-01"]);
    expect(irregular("2019-01-01")).toBe("2019-08-01");
    expect(irregular("2019-03-15")).toBe("2019-08-01");
    expect(irregular("2018-06-01")).toBe("2019-01-01");
    expect(irregular("2020-01-01")).toBeNull();
  });

  it("lists an indicator's publications once each, ascending", () => {
    expect(publications([["2020-01-01", "2019-01-01"], ["2019-08-01", "2019-01-01"], []])).toEqual(["2019-01-01", "2019-08-01", "2020-01-01"]);
  });

  it("finds gaps where a point came later than due", () => {
    const due = nextDueOf("semiannual", []);
    expect(gapsBetween("m", ["2003-07-01", "2004-01-01", "2005-01-01", "2005-07-01"], due)).toEqual([{ series: "m", after: "2004-01-01", before: "2005-01-01" }]);
    const irregular = nextDueOf("irregular", ["2015-01-01", "2016-01-01", "2017-01-01"]);
    // Missing from the 2016 publication: a gap between 2015 and 2017.
    expect(gapsBetween("p", ["2015-01-01", "2017-01-01"], irregular)).toEqual([{ series: "p", after: "2015-01-01", before: "2017-01-01" }]);
  });

  it("finds the newest point on or before a day by binary search", () => {
    const dates = daySeries(["2026-01-01", "2025-07-01", "2025-01-01"]);
    expect(latestOnOrBefore(dates, dayNumber("2025-03-15"))).toBe(2);
    expect(latestOnOrBefore(dates, dayNumber("2025-07-01"))).toBe(1);
    expect(latestOnOrBefore(dates, dayNumber("2030-01-01"))).toBe(0);
    expect(latestOnOrBefore(dates, dayNumber("2024-12-31"))).toBe(-1);
    expect(latestOnOrBefore(daySeries([]), dayNumber("2024-12-31"))).toBe(-1);
  });

  it("ends a point's coverage at the next point, the date it was due or the data's version, whichever comes first", () => {
    const dates = ["2026-01-01", "2025-07-01", "2024-01-01"];
    const semiannual = ruleOf("semiannual", null);
    expect(coverageEnd(dates, 1, semiannual)).toBe("2026-01-01");
    // 2024-01-01 was due a successor on 2024-07-01; the next point came later.
    expect(coverageEnd(dates, 2, semiannual)).toBe("2024-07-01");
    expect(coverageEnd(dates, 0, semiannual)).toBe("2026-07-01");
    expect(coverageEnd(dates, 0, ruleOf("semiannual", "2026-03-02"))).toBe("2026-03-02");
    // The employer's question: the wage in force on 15 March 2025 is the one dated 2025-01-01.
    expect(coveringRank(["2025-07-01", "2025-01-01"], "2025-03-15", semiannual)).toBe(1);
    expect(coveringRank(dates, "2024-09-01", semiannual)).toBe(-1);
    expect(coveringRank(dates, "2026-06-30", semiannual)).toBe(0);
    expect(coveringRank(dates, "2026-07-01", semiannual)).toBe(-1);
    expect(coveringRank(dates, "2026-03-02", ruleOf("semiannual", "2026-03-02"))).toBe(-1);
    // A monthly index covers exactly its month.
    const monthly = ruleOf("monthly", null);
    expect(coveringRank(["2026-07-01", "2026-06-01"], "2026-06-30", monthly)).toBe(1);
    expect(coveringRank(["2026-07-01", "2026-06-01"], "2026-08-01", monthly)).toBe(-1);
  });
});
