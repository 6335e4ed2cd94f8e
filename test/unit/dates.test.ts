import { describe, expect, it } from "vitest";
import { isCalendarDate, resolveDate } from "../../src/core/dates.js";

describe("isCalendarDate", () => {
  it.each([
    ["2024-02-29", true],
    ["2023-02-29", false],
    ["2000-02-29", true],
    ["1900-02-29", false],
    ["2023-02-30", false],
    ["2024-04-31", false],
    ["2024-12-31", true],
    ["2024-13-01", false],
    ["2024-00-10", false],
    ["2024-01-00", false],
    ["2024-1-5", false],
    ["2024-01-05T00:00", false],
    ["20240105", false],
    ["", false],
    [" 2024-01-05", false],
  ])("%j → %s", (text, expected) => {
    expect(isCalendarDate(text)).toBe(expected);
  });
});

describe("resolveDate", () => {
  it.each([
    ["2024-05-17", "start", "2024-05-17"],
    ["2024-05-17", "end", "2024-05-17"],
    ["2024-05", "start", "2024-05-01"],
    ["2024-05", "end", "2024-05-31"],
    ["2024-02", "end", "2024-02-29"],
    ["2023-02", "end", "2023-02-28"],
    ["2024-04", "end", "2024-04-30"],
    ["2024", "start", "2024-01-01"],
    ["2024", "end", "2024-12-31"],
    ["2023-02-30", "start", null],
    ["2024-13", "start", null],
    ["2024-00", "end", null],
    ["24", "start", null],
    ["2024-W05", "start", null],
    ["2024-05-17T10:00:00Z", "start", null],
    ["2024-1-5", "start", null],
    ["", "end", null],
  ] as const)("%j as %s → %j", (text, edge, expected) => {
    expect(resolveDate(text, edge)).toBe(expected);
  });
});
