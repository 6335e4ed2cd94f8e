import { describe, expect, it } from "vitest";
import { addMonths, addMonthsToDay, dateOfDay, dayNumber, dayOfMonth, isCalendarDate, monthOfDay, resolveDate, writeDate } from "../../src/core/time/dates.js";

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

describe("day numbers by months", () => {
  // Inside the month table (1800–2399) and outside it, both edges included.
  const first = dayNumber("1795-01-01");
  const last = dayNumber("2405-12-31");
  /** Every day next to the table's edges, every seventh between. */
  const next = (day: number) => (day < dayNumber("1805-01-01") || day > dayNumber("2395-01-01") ? day + 1 : day + 7);

  it("splits every day into its month and writes its date, as the calendar does", () => {
    const bytes = new Uint8Array(10);
    const decoder = new TextDecoder();
    for (let day = first; day <= last; day = next(day)) {
      const date = dateOfDay(day);
      const month = Number(date.slice(0, 4)) * 12 + Number(date.slice(5, 7)) - 1;
      if (monthOfDay(day) !== month) expect(monthOfDay(day), date).toBe(month);
      if (dayOfMonth(month) !== dayNumber(`${date.slice(0, 7)}-01`)) expect(dayOfMonth(month), date).toBe(dayNumber(`${date.slice(0, 7)}-01`));
      writeDate(bytes, 0, day);
      if (decoder.decode(bytes) !== date) expect(decoder.decode(bytes)).toBe(date);
    }
  });

  it("moves a day by months as addMonths moves its date, the day clamped", () => {
    for (let day = first; day <= last; day = next(day)) {
      for (const months of [-12, 1, 6]) {
        const expected = dayNumber(addMonths(dateOfDay(day), months));
        if (addMonthsToDay(day, months) !== expected) expect(addMonthsToDay(day, months), `${dateOfDay(day)} ${months}`).toBe(expected);
      }
    }
    expect(dateOfDay(addMonthsToDay(dayNumber("2024-02-29"), -12))).toBe("2023-02-28");
    expect(dateOfDay(addMonthsToDay(dayNumber("2399-12-31"), 2))).toBe("2400-02-29");
    expect(dateOfDay(addMonthsToDay(dayNumber("1800-03-31"), -1))).toBe("1800-02-28");
  });
});
