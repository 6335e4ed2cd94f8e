/**
 * Calendar dates as `YYYY-MM-DD` strings.
 *
 * Dates stay strings end to end: for four-digit years the lexicographic order of
 * `YYYY-MM-DD` is the chronological order, so windows and binary searches compare
 * strings directly and no time zone can ever shift a day.
 */

const FULL_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const YEAR_MONTH = /^(\d{4})-(\d{2})$/;
const YEAR = /^(\d{4})$/;

/** Proleptic Gregorian leap year rule (ISO 8601 §4.3.2.1). */
function isLeapYear(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}

/** Number of days in `month` (1–12) of `year`. */
export function daysInMonth(year: number, month: number): number {
  if (month === 2) return isLeapYear(year) ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

function pad(n: number, width: number): string {
  return String(n).padStart(width, "0");
}

/** True when `text` is a `YYYY-MM-DD` string naming a real calendar day. */
export function isCalendarDate(text: string): boolean {
  const m = FULL_DATE.exec(text);
  if (!m) return false;
  const year = Number(m[1]);
  const month = Number(m[2]);
  const day = Number(m[3]);
  return month >= 1 && month <= 12 && day >= 1 && day <= daysInMonth(year, month);
}

/**
 * Resolves an ISO 8601 calendar date of full or reduced precision (`YYYY-MM-DD`,
 * `YYYY-MM`, `YYYY`; ISO 8601-1:2019 §5.2.2.2) to one day: the first day of the
 * month or year it names (`edge: "start"`) or the last (`edge: "end"`).
 * Returns `null` for anything else, including impossible days like `2023-02-30`.
 */
export function resolveDate(text: string, edge: "start" | "end"): string | null {
  if (FULL_DATE.test(text)) return isCalendarDate(text) ? text : null;
  const ym = YEAR_MONTH.exec(text);
  if (ym) {
    const year = Number(ym[1]);
    const month = Number(ym[2]);
    if (month < 1 || month > 12) return null;
    const day = edge === "start" ? 1 : daysInMonth(year, month);
    return `${ym[1]}-${ym[2]}-${pad(day, 2)}`;
  }
  if (YEAR.test(text)) return edge === "start" ? `${text}-01-01` : `${text}-12-31`;
  return null;
}

const DAY_MS = 86_400_000;

/**
 * Days since 1970-01-01 of a `YYYY-MM-DD` date, by integer arithmetic on the
 * proleptic Gregorian calendar (H. Hinnant's days_from_civil): no Date parsing,
 * which was a measurable share of a million-point build.
 */
export function dayNumber(date: string): number {
  return dayOfCivil(Number(date.slice(0, 4)), Number(date.slice(5, 7)), Number(date.slice(8, 10)));
}

/** Days since 1970-01-01 of year `y0`, month `m` (1–12), day `d` (days_from_civil). */
export function dayOfCivil(y0: number, m: number, d: number): number {
  const y = m <= 2 ? y0 - 1 : y0;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const doy = Math.floor((153 * (m + (m > 2 ? -3 : 9)) + 2) / 5) + d - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146097 + doe - 719468;
}

/**
 * Year, month (1–12) and day of a day number packed in one integer, `year << 9 |
 * month << 5 | day`, by integer arithmetic (H. Hinnant's civil_from_days) with no
 * allocation: the questions about time split tens of thousands of days per answer.
 * For the years 0000–9999 of `YYYY-MM-DD` dates, where every quotient is of
 * non-negative numbers (`| 0` truncates as floor does).
 */
function civilPacked(day: number): number {
  const z = day + 719468;
  const era = (z / 146097) | 0;
  const doe = z - era * 146097;
  const yoe = ((doe - ((doe / 1460) | 0) + ((doe / 36524) | 0) - ((doe / 146096) | 0)) / 365) | 0;
  const doy = doe - (365 * yoe + ((yoe / 4) | 0) - ((yoe / 100) | 0));
  const mp = ((5 * doy + 2) / 153) | 0;
  const d = doy - (((153 * mp + 2) / 5) | 0) + 1;
  const m = mp < 10 ? mp + 3 : mp - 9;
  return ((yoe + era * 400 + (m <= 2 ? 1 : 0)) << 9) | (m << 5) | d;
}

/** Year × 12 + month − 1 of a day number: months as consecutive integers. */
export function monthOfDay(day: number): number {
  const p = civilPacked(day);
  return (p >> 9) * 12 + ((p >> 5) & 15) - 1;
}

/** The first day of a month given as year × 12 + month − 1. */
export function dayOfMonth(month: number): number {
  const year = Math.floor(month / 12);
  return dayOfCivil(year, month - year * 12 + 1, 1);
}

/** A day number plus `months` calendar months, the day clamped to the target month's length (`addMonths` on day numbers). */
export function addMonthsToDay(day: number, months: number): number {
  const p = civilPacked(day);
  const index = (p >> 9) * 12 + ((p >> 5) & 15) - 1 + months;
  const y = Math.floor(index / 12);
  const m = index - y * 12 + 1;
  return dayOfCivil(y, m, Math.min(p & 31, daysInMonth(y, m)));
}

const dateCache = new Map<number, string>();

/** The `YYYY-MM-DD` date of a day number (cached: a dataset has few distinct days per page). */
export function dateOfDay(day: number): string {
  let date = dateCache.get(day);
  if (date === undefined) {
    if (dateCache.size > 200_000) dateCache.clear();
    date = new Date(day * DAY_MS).toISOString().slice(0, 10);
    dateCache.set(day, date);
  }
  return date;
}

/**
 * `date` plus `months` calendar months (negative to go back), the day clamped to
 * the target month's length: 2024-08-31 + 6 → 2025-02-28; 2024-02-29 − 12 → 2023-02-28.
 */
export function addMonths(date: string, months: number): string {
  const year = Number(date.slice(0, 4));
  const month = Number(date.slice(5, 7)) - 1 + months;
  const y = year + Math.floor(month / 12);
  const m = (((month % 12) + 12) % 12) + 1;
  const d = Math.min(Number(date.slice(8, 10)), daysInMonth(y, m));
  return `${pad(y, 4)}-${pad(m, 2)}-${pad(d, 2)}`;
}
