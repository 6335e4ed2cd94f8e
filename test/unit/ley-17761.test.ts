/**
 * The rule of Ley 17.761 (src/source/ley-17761.ts): one day's value rounded
 * half up exactly, ties included; the starts a known end admits going back; and
 * the series forward and backward from an anchor, on small made-up changes.
 * test/integration/import-ine-ui.test.ts checks the real series against
 * INE's published values.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { computeUi, dayValue, startCandidates, type Month } from "../../src/source/ley-17761.js";

const month = (year: number, m: number): Month => year * 12 + m - 1;

describe("one day's value, rounded half up to four decimals", () => {
  it.each<[string, number, number, number, number, number]>([
    // Ties, exactly: floating point would put 6.25 × 1.0002 at 6.251249999… and round it down.
    ["6.25 × 1.0002 = 6.25125, a tie: up", 62500, 2, 1, 1, 62513],
    ["0.25 × 1.0002 = 0.25005, a tie: up", 2500, 2, 1, 1, 2501],
    ["6.2499 × 1.0002 = 6.25114998: down", 62499, 2, 1, 1, 62511],
    ["a negative change: 2.7233 from 2.7430 × (1 − 0.72 %) = 2.72325… (INE, 5 February 2014)", 27430, -72, 31, 31, 27233],
    ["the day after the anchor: 2.9482 × 1.0222^(1/28) (INE, 6 February 2015)", 29482, 222, 1, 28, 29505],
    ["the 5th: the whole change, 2.9482 × 1.0222 = 3.01365…", 29482, 222, 28, 28, 30137],
    ["no change", 29482, 0, 17, 31, 29482],
  ])("%s", (_, start, hundredths, k, n, expected) => {
    expect(dayValue(start, hundredths, k, n)).toBe(expected);
  });

  it("over a whole period is start × (1 + v) rounded half up, in integers (property)", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 2_000_000 }), fc.integer({ min: -5000, max: 5000 }), (start, h) => {
        // start/10⁴ × (10⁴ + h)/10⁴ in ten-thousandths, plus a half, truncated.
        const exact = (BigInt(start) * BigInt(10_000 + h) + 5000n) / 10_000n;
        expect(dayValue(start, h, 1, 1)).toBe(Number(exact));
      }),
      { numRuns: 500 },
    );
  });

  it("within a period agrees with floating point wherever floating point is not within 10⁻⁹ of a tie (property)", () => {
    fc.assert(
      fc.property(fc.integer({ min: 10_000, max: 200_000 }), fc.integer({ min: -300, max: 300 }), fc.integer({ min: 28, max: 31 }), fc.nat(), (start, h, n, seed) => {
        const k = 1 + (seed % n);
        const x = start * Math.pow((10_000 + h) / 10_000, k / n);
        fc.pre(Math.abs(x - Math.floor(x) - 0.5) > 1e-9);
        expect(dayValue(start, h, k, n)).toBe(Math.round(x));
      }),
      { numRuns: 500 },
    );
  });
});

describe("the starts a known end of a period admits", () => {
  it.each<[string, number, number, number[]]>([
    ["one, for a positive change (2015-01-05 from 2015-02-05)", 29482, -53, [29639]],
    ["two, for a negative change: 5 January 2014 (−0.72 %)", 27233, -72, [27430, 27431]],
    ["none, where a positive change skips the end", 10_000, 5000, []],
  ])("%s", (_, end, hundredths, expected) => {
    expect(startCandidates(end, hundredths)).toEqual(expected);
  });

  it("always include the start an end was computed from, and only starts that compute to it (property)", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 2_000_000 }), fc.integer({ min: -5000, max: 5000 }), (start, h) => {
        const end = dayValue(start, h, 1, 1);
        const found = startCandidates(end, h);
        expect(found).toContain(start);
        for (const u of found) expect(dayValue(u, h, 1, 1)).toBe(end);
        expect(found.length).toBeLessThanOrEqual(h < 0 ? 2 : 1);
      }),
      { numRuns: 500 },
    );
  });
});

describe("the series from an anchor", () => {
  /** Changes in hundredths of a percent, by month. */
  const changes = (entries: [Month, number][]) => {
    const map = new Map(entries);
    return (m: Month) => map.get(m);
  };

  it("goes forward one period per change, the 6th to the 5th, each citing the month before the period's", () => {
    // Anchor 1.0000 on 5 January 2024; December 2023's change drives 6 January – 5 February, January's 6 February – 5 March (2024 is a leap year).
    const { days } = computeUi({ month: month(2024, 1), value: 10_000 }, changes([[month(2023, 12), 100], [month(2024, 1), 29]]));
    expect(days[0]).toEqual({ date: "2024-01-05", value: 10_000, change: null });
    expect(days.slice(1, 32).every((d) => d.change === month(2023, 12))).toBe(true);
    expect(days).toHaveLength(1 + 31 + 29);
    expect(days[1]).toEqual({ date: "2024-01-06", value: dayValue(10_000, 100, 1, 31), change: month(2023, 12) });
    expect(days[31]).toEqual({ date: "2024-02-05", value: 10_100, change: month(2023, 12) });
    expect(days[32]).toEqual({ date: "2024-02-06", value: dayValue(10_100, 29, 1, 29), change: month(2024, 1) });
    // No change for February: the series ends on 5 March.
    expect(days.at(-1)).toEqual({ date: "2024-03-05", value: dayValue(10_100, 29, 29, 29), change: month(2024, 1) });
  });

  it("goes back while the start is unique, and keeps the known 5th of the period where it stops", () => {
    // 1 % in November 2023 drives 6 December – 5 January: 2.7505 on 5 January comes from 2.7233 alone.
    // −0.72 % in October 2023 drives 6 November – 5 December: 2.7233 comes from 2.7430 or 2.7431.
    const { days, stop } = computeUi({ month: month(2024, 1), value: 27_505 }, changes([[month(2023, 10), -72], [month(2023, 11), 100]]));
    // 5 December, then December's 31 days from the 6th to 5 January.
    expect(days).toHaveLength(1 + 31);
    expect(days.map((d) => d.date).slice(0, 3)).toEqual(["2023-12-05", "2023-12-06", "2023-12-07"]);
    expect(days.map((d) => d.date).slice(-3)).toEqual(["2024-01-03", "2024-01-04", "2024-01-05"]);
    expect(days[0]).toEqual({ date: "2023-12-05", value: 27_233, change: month(2023, 10) });
    expect(days[1]).toEqual({ date: "2023-12-06", value: dayValue(27_233, 100, 1, 31), change: month(2023, 11) });
    expect(days.at(-1)).toEqual({ date: "2024-01-05", value: 27_505, change: null });
    expect(days.slice(1, -1).every((d) => d.change === month(2023, 11))).toBe(true);
    expect(stop).toEqual({ kind: "ambiguous", month: month(2023, 11), candidates: [27_430, 27_431] });
  });

  it("stops going back where there is no change, leaving out the 5th no change cell determines", () => {
    const { days, stop } = computeUi({ month: month(2024, 1), value: 10_100 }, changes([[month(2023, 11), 100]]));
    expect(days[0]?.date).toBe("2023-12-06");
    expect(stop).toEqual({ kind: "no change", change: month(2023, 10) });
  });

  it("reports changes that contradict the anchor: no start computes to it", () => {
    const { stop } = computeUi({ month: month(2024, 1), value: 10_000 }, changes([[month(2023, 11), 5000]]));
    expect(stop).toEqual({ kind: "contradiction", month: month(2023, 12), change: month(2023, 11), end: 10_000 });
  });
});
