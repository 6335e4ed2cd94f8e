/**
 * The rule of Ley 17.761, artículo 2, by which the Unidad Indexada (UI) follows
 * the CPI (INE's IPC): from the 6th of a month to the 5th of the next, the
 * value grows day by day from the value of the 5th by the CPI change of the month
 * before,
 *
 *     UI(5th + k) = UI(5th) × (1 + v)^(k / n),  k = 1 … n,
 *
 * `n` the days of the month the period starts in, `v` the monthly change as INE
 * publishes it (two decimals, in percent); every value is rounded half up to
 * four decimals, and the next period starts from the rounded value of the 5th.
 * Which month's change drives which period is read from INE's own releases (the
 * January 2015 release, 6 January – 5 February 2015, follows December 2014's
 * −0.53 %): the period starting on the 5th of month M follows M − 1's change.
 *
 * Pure and exact: values are counted in ten-thousandths and changes in
 * hundredths of a percent, so 1 + v = (10000 + h) / 10000 is a ratio of
 * integers, and rounding compares (UI(5th) × (1 + v)^(k/n)) with the midpoint
 * between two four-decimal values by raising both to the n-th power in BigInt.
 * No binary floating point decides a rounding: 6.25 × 1.0002 = 6.25125 is
 * exactly a tie and rounds up to 6.2513, where `6.25 * 1.0002` in doubles is
 * 6.251249999999999… and would round down.
 *
 * The values are computed from one published value, the anchor: forward to the
 * last change there is, and backward while the value of the 5th before is
 * unique. Going back, the start of a period is a value whose forward computation
 * rounds to the known end; a negative change maps two neighbouring four-decimal
 * values to one rounded end now and then, and then the start cannot be known
 * without another published value: the backward computation stops there.
 */
import { dateOfDay, dayOfMonth, daysInMonth } from "../core/time/dates.js";

/** A month as year × 12 + month − 1 (src/core/time/dates.ts), so the next month is `+ 1`. */
export type Month = number;

/** Ten-thousandths of a peso: the UI's four decimals as an integer (2.9482 is 29482). */
export type Units = number;

/** Units per peso. */
export const UNITS = 10_000;

/** The day of the month a period starts from (its value is the last of the period before). */
export const START_DAY = 5;

/** The published UI value the computation starts from. */
export interface Anchor {
  /** The month whose 5th the value is of. */
  readonly month: Month;
  readonly value: Units;
}

/** One computed day: its date, value, and the month whose change determines it (`null`: the anchor). */
export interface UiDay {
  readonly date: string;
  readonly value: Units;
  readonly change: Month | null;
}

/** Why the backward computation stopped. */
export type BackwardStop =
  /** The value of the 5th of `month` is not unique: each of `candidates` computes forward to the known value of the 5th after it. */
  | { readonly kind: "ambiguous"; readonly month: Month; readonly candidates: readonly Units[] }
  /** The changes do not reach back: none for `change`, which drives the period starting in `change + 1`. */
  | { readonly kind: "no change"; readonly change: Month }
  /**
   * No four-decimal value of the 5th of `month` computes forward to `end`, the
   * known value of the 5th after it, with `change`'s change: the changes and the
   * anchor contradict each other (a revised change, or a wrong anchor).
   */
  | { readonly kind: "contradiction"; readonly month: Month; readonly change: Month; readonly end: Units };

/** The computed series, oldest first, and why it starts where it does. */
export interface UiSeries {
  readonly days: readonly UiDay[];
  readonly stop: BackwardStop;
}

// ---------------------------------------------------------------------------
// One day

/**
 * The value `k` days after the 5th, of a period starting at `start` whose month
 * has `n` days, with a change of `hundredths` hundredths of a percent: start ×
 * (1 + h/10000)^(k/n) rounded half up to four decimals, exactly.
 *
 * With x the unrounded value and u a count of ten-thousandths, x reaches the
 * midpoint (u + ½)/10⁴ when 2·10⁴·x ≥ 2u + 1; raised to the n-th power (both
 * sides positive) that is (2·start)ⁿ·(10000 + h)ᵏ ≥ (2u + 1)ⁿ·10000ᵏ, a
 * comparison of integers. A floating-point estimate gives u, which the exact
 * comparison then moves (by at most one in practice) to the value whose
 * half-open interval [u − ½, u + ½) holds x.
 */
export function dayValue(start: Units, hundredths: number, k: number, n: number): Units {
  const factor = UNITS + hundredths;
  const lhs = (2n * BigInt(start)) ** BigInt(n) * BigInt(factor) ** BigInt(k);
  const scale = BigInt(UNITS) ** BigInt(k);
  const reachesAbove = (u: Units) => lhs >= (2n * BigInt(u) + 1n) ** BigInt(n) * scale;
  let u = Math.round(start * Math.pow(factor / UNITS, k / n));
  while (reachesAbove(u)) u++;
  while (u > 0 && !reachesAbove(u - 1)) u--;
  return u;
}

/**
 * The values of the 5th that compute forward, over a whole period of a change of
 * `hundredths`, to `end`: none, one or (for a negative change) two. The value at
 * k = n is start × (1 + v), which grows with start, so the candidates are the
 * neighbours of end / (1 + v).
 */
export function startCandidates(end: Units, hundredths: number): Units[] {
  const factor = UNITS + hundredths;
  const found: Units[] = [];
  const [low, high] = [Math.floor(((end - 1) * UNITS) / factor), Math.ceil(((end + 1) * UNITS) / factor)];
  for (let u = Math.max(0, low); u <= high; u++) if (dayValue(u, hundredths, 1, 1) === end) found.push(u);
  return found;
}

// ---------------------------------------------------------------------------
// The series

/** The day number of the 5th of `month`. */
const fifthOf = (month: Month): number => dayOfMonth(month) + START_DAY - 1;

/** The days of the period starting on the 5th of `month` from `start` (the 6th … the 5th of the next month). */
function period(month: Month, start: Units, hundredths: number): UiDay[] {
  const year = Math.floor(month / 12);
  const n = daysInMonth(year, month - year * 12 + 1);
  return Array.from({ length: n }, (_, i) => ({ date: dateOfDay(fifthOf(month) + i + 1), value: dayValue(start, hundredths, i + 1, n), change: month - 1 }));
}

/**
 * The UI computed from `anchor` with the monthly changes `change(month)` gives
 * (hundredths of a percent; `undefined` where there is none): forward while
 * there is a change, backward while the start of the period before is unique.
 * The days are in date order; the anchor's day is marked `change: null`.
 *
 * Going back, a period whose start is unique is computed whole (its last day is
 * the known value, and is computed to it); the period where the backward run
 * stops contributes only its last day, the known value of the 5th, which its
 * change still determines. When the changes do not reach back to that period,
 * that day is left out: no change cell determines it.
 */
export function computeUi(anchor: Anchor, change: (month: Month) => number | undefined): UiSeries {
  const forward: UiDay[] = [];
  for (let month = anchor.month, start = anchor.value; ; month++) {
    const hundredths = change(month - 1);
    if (hundredths === undefined) break;
    const days = period(month, start, hundredths);
    forward.push(...days);
    start = (days.at(-1) as UiDay).value;
  }

  const backward: UiDay[][] = [];
  let stop: BackwardStop;
  for (let month = anchor.month - 1, end = anchor.value; ; month--) {
    const hundredths = change(month - 1);
    if (hundredths === undefined) {
      stop = { kind: "no change", change: month - 1 };
      break;
    }
    const candidates = startCandidates(end, hundredths);
    const [only] = candidates;
    if (candidates.length === 1 && only !== undefined) {
      backward.push(period(month, only, hundredths));
      end = only;
      continue;
    }
    if (candidates.length === 0) {
      stop = { kind: "contradiction", month, change: month - 1, end };
      break;
    }
    backward.push([{ date: dateOfDay(fifthOf(month + 1)), value: end, change: month - 1 }]);
    stop = { kind: "ambiguous", month, candidates };
    break;
  }

  const anchorDate = dateOfDay(fifthOf(anchor.month));
  const before = backward.reverse().flat();
  // The last day of the period before the anchor is the anchor: it is cited as the published value.
  const days = [...before.filter((d) => d.date !== anchorDate), { date: anchorDate, value: anchor.value, change: null }, ...forward];
  return { days, stop };
}
