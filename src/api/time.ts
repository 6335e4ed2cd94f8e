/**
 * What the questions about time need of a decoded answer file, made once per
 * isolate and data version: the rule of coverage's inputs (rhythm, publications,
 * the version's end) and a deflator by month.
 */
import type { AnswerData } from "../core/answers.js";
import { coverageRule } from "../core/coverage.js";
import { dayOfTime } from "../core/dates.js";
import { checkedDate } from "../core/schedule.js";
import { monthlyIndex, type MonthlyIndex } from "../core/derive.js";
import type { TimeSource } from "../core/derived-answer.js";

const sources = new WeakMap<AnswerData, TimeSource>();
const indices = new WeakMap<AnswerData, Map<number, MonthlyIndex>>();

/** The days on which any sub-series has a point, ascending: an irregular indicator's publications. */
function publicationDays(data: AnswerData): number[] {
  const days: number[] = [];
  // The global order is date descending: read it backwards, keeping each day once.
  for (let g = data.points - 1; g >= 0; g--) {
    const day = data.global.day(g);
    if (days.length === 0 || days[days.length - 1] !== day) days.push(day);
  }
  return days;
}

/**
 * The indicator of `data` as the pipeline reads it; `lastModified` is its data
 * version (an HTTP-date). The rule's bound is the last check (the later of the
 * declared `checked` and the version's date, src/core/schedule.ts `checkedDate`).
 */
export function timeSource(data: AnswerData, lastModified: string): TimeSource {
  let source = sources.get(data);
  if (source === undefined) {
    const versionDate = dayOfTime(Date.parse(lastModified) / 1000);
    const after = { stepwise: data.stepwise, schedule: data.schedule ?? null };
    source = { ...coverageRule(data.rhythm, publicationDays(data), checkedDate(data.checked ?? null, versionDate), after), stepwise: data.stepwise, series: data.series };
    sources.set(data, source);
  }
  return source;
}

/** Sub-series `s` of `data` as a deflator by month. */
export function indexByMonth(data: AnswerData, s: number): MonthlyIndex {
  let bySeries = indices.get(data);
  if (bySeries === undefined) {
    bySeries = new Map<number, MonthlyIndex>();
    indices.set(data, bySeries);
  }
  let index = bySeries.get(s);
  if (index === undefined) {
    const one = data.series[s];
    index = monthlyIndex(one ?? { length: 0, day: () => 0, value: () => NaN });
    bySeries.set(s, index);
  }
  return index;
}
