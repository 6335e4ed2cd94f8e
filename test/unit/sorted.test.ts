/** The one binary search (src/core/answer/sorted.ts): partition points, lower and upper bounds, against a linear scan. */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { lowerBound, partitionPoint, upperBound } from "../../src/core/answer/sorted.js";

/** The first index of `from … to - 1` where `before` fails, by a scan: what the search must find. */
function scan(from: number, to: number, before: (i: number) => boolean): number {
  let i = from;
  while (i < to && before(i)) i++;
  return i;
}

describe("partitionPoint", () => {
  it("finds the first index where the test fails, and the end when it never does", () => {
    const a = [1, 3, 3, 3, 7, 9];
    expect(lowerBound(a, 3)).toBe(1);
    expect(upperBound(a, 3)).toBe(4);
    expect(lowerBound(a, 0)).toBe(0);
    expect(upperBound(a, 9)).toBe(6);
    expect(lowerBound(a, 4)).toBe(4);
    expect(upperBound(a, 4)).toBe(4);
    // A sub-range: only `from … to - 1` is searched.
    expect(lowerBound(a, 9, 0, 3)).toBe(3);
    expect(upperBound(a, 0, 2, 5)).toBe(2);
    expect(lowerBound([], 5)).toBe(0);
    // Descending days: the first at or before a day.
    const days = [40, 30, 30, 10];
    expect(partitionPoint(0, days.length, (i) => (days[i] as number) > 30)).toBe(1);
    expect(partitionPoint(0, days.length, (i) => (days[i] as number) >= 30)).toBe(3);
  });

  it("works over day numbers before 1970 (negative) and wide ranges", () => {
    expect(partitionPoint(-20_000, 5, (d) => d < -7_300)).toBe(-7_300);
    expect(partitionPoint(-3, 3_000_000_000, (d) => d <= 2_999_999_990)).toBe(2_999_999_991);
    expect(partitionPoint(5, 5, () => true)).toBe(5);
    expect(partitionPoint(5, 2, () => true)).toBe(5);
  });

  it("agrees with a scan on random sorted arrays, keys and ranges", () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: -50, max: 50 })), fc.integer({ min: -60, max: 60 }), fc.nat(), fc.nat(), (values, key, x, y) => {
        const a = [...values].sort((p, q) => p - q);
        const [from, to] = [Math.min(x, y) % (a.length + 1), Math.max(x, y) % (a.length + 1)].sort((p, q) => p - q) as [number, number];
        expect(lowerBound(a, key, from, to)).toBe(scan(from, to, (i) => (a[i] as number) < key));
        expect(upperBound(a, key, from, to)).toBe(scan(from, to, (i) => (a[i] as number) <= key));
        const typed = Float64Array.from(a);
        expect(upperBound(typed, key)).toBe(scan(0, a.length, (i) => (a[i] as number) <= key));
      }),
    );
  });
});
