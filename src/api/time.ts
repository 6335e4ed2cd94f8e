/**
 * What the questions about time need of an indicator's answers, made once per
 * isolate and data version: the rule of coverage's inputs (rhythm, publications,
 * the version's end) and a deflator by month.
 */
import type { AnswerData } from "../core/file/answers.js";
import { partOf, type AnswerView } from "../core/file/answer-index.js";
import { coverageRule, type CoverageRule } from "../core/time/coverage.js";
import { dayOfTime } from "../core/time/dates.js";
import { lookBound, type Look } from "../core/time/schedule.js";
import { monthlyIndex, type MonthlyIndex } from "../core/time/derive.js";
import type { TimeSource } from "../core/time/derived-answer.js";

/** The rule of each view's publications (a view of the same index shares them: src/core/file/answer-index.ts). */
const rules = new WeakMap<ArrayLike<number>, Map<string, CoverageRule>>();
const indices = new WeakMap<AnswerData, Map<number, MonthlyIndex>>();

/**
 * The indicator of `view` as the pipeline reads it; `lastModified` is its data
 * version (an HTTP-date). The rule's bound is the last look (the later of the
 * recorded check and the last change of points, src/core/time/schedule.ts `lookBound`).
 */
export function timeSource(view: AnswerView, lastModified: string): TimeSource {
  let byVersion = rules.get(view.publications);
  if (byVersion === undefined) rules.set(view.publications, (byVersion = new Map<string, CoverageRule>()));
  let rule = byVersion.get(lastModified);
  if (rule === undefined) {
    // A file written before `changed` was (none today) falls back on the version's date.
    const look: Look = { checked: view.checked ?? null, changed: view.changed ?? dayOfTime(Date.parse(lastModified) / 1000) };
    rule = coverageRule(view.rhythm, view.publications, lookBound(look), { stepwise: view.stepwise, schedule: view.schedule ?? null, look });
    byVersion.set(lastModified, rule);
  }
  return { ...rule, stepwise: view.stepwise, series: view.series };
}

/** Sub-series `s` of `view` as a deflator by month (its shard must have been read). */
export function indexByMonth(view: AnswerView, s: number): MonthlyIndex {
  const part = partOf(view, s);
  if (part === undefined) return monthlyIndex({ length: 0, day: () => 0, value: () => NaN });
  let bySeries = indices.get(part.data);
  if (bySeries === undefined) {
    bySeries = new Map<number, MonthlyIndex>();
    indices.set(part.data, bySeries);
  }
  let index = bySeries.get(s - part.first);
  if (index === undefined) {
    index = monthlyIndex(part.data.series[s - part.first] as AnswerData["series"][number]);
    bySeries.set(s - part.first, index);
  }
  return index;
}
