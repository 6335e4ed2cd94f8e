/**
 * What the service had published by a day (`as_of`, `/changes?since=`): the
 * version of an indicator in force at the end of that day, and the 400s of a day
 * nothing answers for, worded the same for every parameter that names a day.
 */
import { badRequest } from "./api-error.js";
import { dayOfTime } from "../core/time/dates.js";
import { versionOn } from "../core/history/history.js";

/** Today, the function's clock's UTC day: the last day a parameter may name. */
export function utcToday(now: number): string {
  return dayOfTime(Math.floor(now / 1000));
}

/** @throws ApiError naming `parameter` when `day` is after today (nothing was published for it yet). */
export function checkNotAfterToday(parameter: string, day: string, now: number): void {
  const today = utcToday(now);
  if (day > today) throw badRequest(`${parameter}: ${day} is after today (${today}, UTC): nothing was published for it yet`);
}

/**
 * The version of indicator `id` in force at the end of `day`, given the days its
 * versions were published (`days`, oldest first; src/core/history/history.ts `versionOn`).
 * @throws ApiError naming `parameter` when none was published by then; `asked` is how the message names the day.
 */
export function publishedVersion(parameter: string, id: string, days: readonly string[], day: string, asked: string): number {
  const v = versionOn(days, day);
  if (v < 0) throw badRequest(`${parameter}: ${id} was first published on ${days[0] as string} (UTC); nothing of it was published by the end of ${asked}`);
  return v;
}
