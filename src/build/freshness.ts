/**
 * Freshness on every surface: per indicator and sub-series, its newest point,
 * the last check, when its next value is due by the schedule `indicator.json`
 * declares (src/core/schedule.ts), and whether that day passed by the check
 * without the value. The metadata document, the catalog, `status.json`
 * (`STATUS_PATH`) and llms.txt say the same, made here once.
 */
import { dayOfTime } from "../core/dates.js";
import { API_BASE } from "../core/contract.js";
import { checkedDate, freshnessOf, indicatorFreshness, type Freshness } from "../core/schedule.js";
import type { BuiltIndicator } from "./dataset.js";

/** Where the status document is: every indicator's freshness. */
export const STATUS_PATH = `${API_BASE}/status.json`;

/** The last check of `indicator` at the data version `version` (seconds): the later of its `checked` and the version's date. */
export function checkedOf(indicator: Pick<BuiltIndicator, "source">, version: number): string {
  return checkedDate(indicator.source.meta.check?.day ?? null, dayOfTime(version));
}

/** Each sub-series with points, with its freshness, in the order of `plain` (by id). */
export function seriesFreshness(indicator: Pick<BuiltIndicator, "source" | "plain" | "answers">, version: number): (Freshness & { readonly id: string })[] {
  const checked = checkedOf(indicator, version);
  const newest = indicator.answers.lastUpdated ?? "";
  return indicator.plain
    .filter((s) => s.dates.length > 0)
    .map((s) => ({ id: s.id, ...freshnessOf(indicator.source.meta.schedule, s.dates[0] as string, checked, newest) }));
}

/**
 * What every surface says of an indicator's freshness, in this key order:
 * `checked`, `newest`, `next_due` (the earliest of its sub-series'; null: none
 * expected), `overdue`, `overdue_since` and `overdue_series` (how many).
 */
export function freshnessFacts(indicator: Pick<BuiltIndicator, "source" | "plain" | "answers">, version: number) {
  const summary = indicatorFreshness(seriesFreshness(indicator, version));
  return {
    checked: checkedOf(indicator, version),
    newest: summary.newest,
    next_due: summary.nextDue,
    overdue: summary.overdueSince !== null,
    overdue_since: summary.overdueSince,
    overdue_series: summary.overdueSeries,
  };
}

/** The schedule as `indicator.json` declares it (null: none), for the metadata document and the catalog. */
export function scheduleFacts({ source }: Pick<BuiltIndicator, "source">) {
  const schedule = source.meta.schedule;
  return schedule === null ? null : { dates: schedule.dates, published: schedule.published };
}

/** Renders `status.json`: every indicator's freshness (compact, deterministic JSON). */
export function renderStatus(indicators: readonly BuiltIndicator[], versions: ReadonlyMap<string, number>): string {
  return JSON.stringify({
    indicators: indicators.map((indicator) => ({
      id: indicator.source.meta.id,
      title: indicator.source.meta.title,
      ...freshnessFacts(indicator, versions.get(indicator.source.meta.id) ?? 0),
    })),
  });
}
