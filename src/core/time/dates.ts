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

/** Days of each month of a common year, January at 1. */
const MONTH_DAYS = [0, 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31] as const;

/** Number of days in `month` (1–12) of `year` (a table: the questions about time ask it for every period). */
export function daysInMonth(year: number, month: number): number {
  return month === 2 && isLeapYear(year) ? 29 : (MONTH_DAYS[month] as number);
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
function civilOfDay(day: number): number {
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

/**
 * The first day of every month of the years 1800–2399, by month index (year × 12
 * + month − 1) − `TABLE_MONTH`, and the day after the last: the months of the
 * questions about time by lookup. Their loops split a day into its month, or move
 * it by months, for every period and every step, and civil_from_days is a chain of
 * divisions (measured about 5× as slow); days outside the table take it.
 * Made on first use (7,201 additions).
 */
const TABLE_MONTH = 1800 * 12;
const TABLE_MONTHS = 600 * 12;
let table: Int32Array | undefined;

function monthTable(): Int32Array {
  if (table === undefined) {
    table = new Int32Array(TABLE_MONTHS + 1);
    let day = dayOfCivil(1800, 1, 1);
    for (let i = 0; i <= TABLE_MONTHS; i++) {
      table[i] = day;
      day += daysInMonth(1800 + Math.floor(i / 12), (i % 12) + 1);
    }
  }
  return table;
}

/** Months per day on average in the Gregorian calendar (4,800 months in 146,097 days). */
const MONTHS_PER_DAY = 4_800 / 146_097;

/** The slot of the table holding the month of `day`, or -1 outside the table. */
function tableSlot(starts: Int32Array, day: number): number {
  const offset = day - (starts[0] as number);
  if (offset < 0 || day >= (starts[TABLE_MONTHS] as number)) return -1;
  // The mean month from five days on: the month or the one after, for every day of the table (and every first of a month exactly).
  let i = Math.min(TABLE_MONTHS - 1, Math.floor((offset + 5) * MONTHS_PER_DAY));
  while ((starts[i] as number) > day) i--;
  while ((starts[i + 1] as number) <= day) i++;
  return i;
}

/** Year × 12 + month − 1 of a day number: months as consecutive integers. */
export function monthOfDay(day: number): number {
  const slot = tableSlot(monthTable(), day);
  if (slot >= 0) return TABLE_MONTH + slot;
  const p = civilOfDay(day);
  return (p >> 9) * 12 + ((p >> 5) & 15) - 1;
}

/** The first day of a month given as year × 12 + month − 1. */
export function dayOfMonth(month: number): number {
  const slot = month - TABLE_MONTH;
  if (slot >= 0 && slot <= TABLE_MONTHS) return monthTable()[slot] as number;
  const year = Math.floor(month / 12);
  return dayOfCivil(year, month - year * 12 + 1, 1);
}

/** A day number plus `months` calendar months, the day clamped to the target month's length (`addMonths` on day numbers). */
export function addMonthsToDay(day: number, months: number): number {
  const starts = monthTable();
  const slot = tableSlot(starts, day);
  const target = slot + months;
  if (slot >= 0 && target >= 0 && target < TABLE_MONTHS) {
    const first = starts[target] as number;
    return first + Math.min(day - (starts[slot] as number), (starts[target + 1] as number) - first - 1);
  }
  const p = civilOfDay(day);
  const index = (p >> 9) * 12 + ((p >> 5) & 15) - 1 + months;
  const y = Math.floor(index / 12);
  const m = index - y * 12 + 1;
  return dayOfCivil(y, m, Math.min(p & 31, daysInMonth(y, m)));
}

/**
 * Writes the `YYYY-MM-DD` date of a day number (years 0000–9999) as 10 ASCII bytes
 * at `at`: a derived answer's dates, with no string made.
 */
export function writeDate(bytes: Uint8Array, at: number, day: number): void {
  // Integers from here (`| 0`: the compiler divides by a constant with a multiplication).
  const month = monthOfDay(day) | 0;
  const year = (month / 12) | 0;
  const m = month - year * 12 + 1;
  const d = (day - dayOfMonth(month) + 1) | 0;
  const century = (year / 100) | 0;
  const rest = year - century * 100;
  bytes[at] = 48 + ((century / 10) | 0);
  bytes[at + 1] = 48 + (century % 10);
  bytes[at + 2] = 48 + ((rest / 10) | 0);
  bytes[at + 3] = 48 + (rest % 10);
  bytes[at + 4] = 45; /* - */
  bytes[at + 5] = m >= 10 ? 49 : 48;
  bytes[at + 6] = 48 + (m >= 10 ? m - 10 : m);
  bytes[at + 7] = 45;
  bytes[at + 8] = 48 + ((d / 10) | 0);
  bytes[at + 9] = 48 + (d % 10);
}

/** The UTC day (`YYYY-MM-DD`) of a time in seconds since the epoch. */
export function dayOfTime(seconds: number): string {
  return dateOfDay(Math.floor(seconds / 86_400));
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
