/**
 * HTTP-date (RFC 9110 §5.6.7): the three formats a recipient must accept.
 * Anything else is not a date, so a conditional request carrying it is treated as
 * unconditional (§13.1.3: an invalid If-Modified-Since is ignored).
 */
import { daysInMonth } from "../time/dates.js";

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
const DAY = "(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun)";
const LONG_DAY = "(?:Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday)";
const MONTH = `(${MONTHS.join("|")})`;
const TIME = "(\\d{2}):(\\d{2}):(\\d{2})";

/** `Sun, 06 Nov 1994 08:49:37 GMT` */
const IMF_FIXDATE = new RegExp(`^${DAY}, (\\d{2}) ${MONTH} (\\d{4}) ${TIME} GMT$`);
/** `Sunday, 06-Nov-94 08:49:37 GMT` */
const RFC850 = new RegExp(`^${LONG_DAY}, (\\d{2})-${MONTH}-(\\d{2}) ${TIME} GMT$`);
/** `Sun Nov  6 08:49:37 1994` */
const ASCTIME = new RegExp(`^${DAY} ${MONTH} ([ \\d]\\d) ${TIME} (\\d{4})$`);

function toEpochMs(year: number, month: string, day: number, h: number, m: number, s: number): number | null {
  const monthIndex = MONTHS.indexOf(month);
  if (day < 1 || day > daysInMonth(year, monthIndex + 1) || h > 23 || m > 59 || s > 60) return null;
  return Date.UTC(year, monthIndex, day, h, m, Math.min(s, 59));
}

/** Milliseconds since the epoch of an HTTP-date, or `null` when `text` is not one. */
export function parseHttpDate(text: string): number | null {
  let m = IMF_FIXDATE.exec(text);
  if (m) return toEpochMs(Number(m[3]), m[2] as string, Number(m[1]), Number(m[4]), Number(m[5]), Number(m[6]));
  m = RFC850.exec(text);
  if (m) {
    // Two-digit years: RFC 9110 reads a year more than 50 years ahead as the past century.
    const yy = Number(m[3]);
    const year = 2000 + yy > new Date().getUTCFullYear() + 50 ? 1900 + yy : 2000 + yy;
    return toEpochMs(year, m[2] as string, Number(m[1]), Number(m[4]), Number(m[5]), Number(m[6]));
  }
  m = ASCTIME.exec(text);
  if (m) return toEpochMs(Number(m[6]), m[1] as string, Number((m[2] as string).trim()), Number(m[3]), Number(m[4]), Number(m[5]));
  return null;
}
