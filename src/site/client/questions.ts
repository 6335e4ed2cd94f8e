/**
 * The questions about time on an indicator's page, answered in the browser by the
 * code the API answers them with (src/core/time/derived-answer.ts `derivePage`, over
 * src/core/time/derive.ts): values in pesos of the deflator's latest month (`real`), an
 * index with a chosen base (`units=index&base=`), changes a year earlier
 * (`units=percent_change_a_year_ago`) or on the previous value (`percent_change`),
 * ratios to another indicator (`per`); each answer with the one API address
 * that gives the same numbers.
 */
import { coverageRule } from "../../core/time/coverage.js";
import { dayNumber, dateOfDay } from "../../core/time/dates.js";
import { deflatorAt, monthlyIndex, type Deflator, type PointSeries } from "../../core/time/derive.js";
import { derivePage, type TimeSource } from "../../core/time/derived-answer.js";
import { DEFAULT_QUERY, type PageQuery } from "../../core/indicator/model.js";
import { byCodeUnits } from "../../core/text/order.js";
import { endpointPath } from "../../core/file/paths.js";
import { shortParams } from "../../core/answer/parameters.js";
import { withQuery } from "../../core/text/url.js";
import type { Frequency, Units } from "../../core/answer/contract.js";
import type { ViewSeries } from "./series-view.js";

/** What the rule of coverage needs of an indicator besides its points (the page config's words). */
export interface Rhythm {
  readonly rhythm: string;
  readonly stepwise: boolean;
  /** The data version's date, `YYYY-MM-DD`. */
  readonly version: string;
}

/** An indicator's loaded sub-series as the pipeline reads them (sorted by id, as the API's). */
export function timeSourceOf(series: readonly ViewSeries[], rule: Rhythm): TimeSource {
  const days = new Set<number>();
  for (const s of series) for (const d of s.dates) days.add(dayNumber(d));
  return {
    ...coverageRule(rule.rhythm, [...days].sort((a, b) => a - b), rule.version),
    stepwise: rule.stepwise,
    series: [...series]
      .sort((a, b) => byCodeUnits(a.id, b.id))
      .map((s) => ({ id: s.id, ...pointSeries(s) })),
  };
}

/** A sub-series' points as the pipeline reads them (src/core/time/derive.ts `PointSeries`): day numbers and numbers, newest first. */
function pointSeries(s: ViewSeries): PointSeries {
  const days = s.dates.map(dayNumber);
  const values = s.values.map(Number);
  return { length: days.length, day: (i) => days[i] as number, value: (i) => values[i] as number };
}

/** A monthly index as a deflator into the pesos of `month` (`YYYY-MM`), built as the API builds it (src/core/time/derive.ts `monthlyIndex`); null when it has no value that month. */
export function deflatorOf(index: ViewSeries, month: string): Deflator | null {
  return deflatorAt(monthlyIndex(pointSeries(index)), month);
}

/** A question: the API's parameters a page asks with (the rest as by default). */
export interface Question {
  /** One value per calendar period (the API's `frequency`, with its default `aggregation=mean`): a step series in real terms is asked month by month. */
  readonly frequency?: Frequency;
  readonly units?: Exclude<Units, "level">;
  readonly base?: string;
  readonly real?: string;
  readonly at?: string;
  /** `per`: the divisor's parameter (`indicator:series`), its sub-series and its rule. */
  readonly per?: { readonly parameter: string; readonly series: ViewSeries; readonly rule: Rhythm };
}

/** `per` of a question as the query holds it. */
const perTarget = (per: NonNullable<Question["per"]>) => ({ indicator: per.parameter.split(":")[0] as string, series: per.series.id });

/** One sub-series' answer: its points, newest first. */
export interface Answer {
  readonly id: string;
  readonly points: readonly { readonly date: string; readonly value: number }[];
}

/**
 * The answer to `question` for the sub-series `ids` of the loaded `series`, as
 * the API computes it (every point, no page limit); `deflator` for `real`.
 */
export function answer(series: readonly ViewSeries[], rule: Rhythm, ids: readonly string[], question: Question, deflator: Deflator | null): Answer[] {
  const source = timeSourceOf(
    series.filter((s) => ids.includes(s.id)),
    rule,
  );
  const query: PageQuery = {
    ...DEFAULT_QUERY,
    frequency: question.frequency ?? null,
    units: question.units ?? null,
    base: question.base ?? null,
    real: question.real ?? null,
    at: question.at ?? null,
    per: question.per === undefined ? null : perTarget(question.per),
    limit: Number.MAX_SAFE_INTEGER,
  };
  const divisor = question.per === undefined ? null : { source: timeSourceOf([question.per.series], question.per.rule), series: 0 };
  const page = derivePage({ source, chosen: null, query, divisor, deflator: question.real === undefined ? null : deflator });
  const out = new Map<string, { date: string; value: number }[]>();
  for (let k = 0; k < page.days.length; k++) {
    const id = page.ids[page.series[k] as number] as string;
    const points = out.get(id) ?? [];
    points.push({ date: dateOfDay(page.days[k] as number), value: page.values[k] as number });
    out.set(id, points);
  }
  return ids.map((id) => ({ id, points: out.get(id) ?? [] }));
}

/** The API path answering `question` for the `series` parameter `series`, as the API's declarations write it. */
export function questionUrl(indicator: string, series: string, question: Question, limit?: number): string {
  const query: PageQuery = {
    ...DEFAULT_QUERY,
    at: question.at ?? null,
    series: series.split(","),
    frequency: question.frequency ?? null,
    per: question.per === undefined ? null : perTarget(question.per),
    real: question.real ?? null,
    units: question.units ?? null,
    base: question.base ?? null,
    limit: limit ?? DEFAULT_QUERY.limit,
  };
  return withQuery(endpointPath(indicator), shortParams(query));
}
