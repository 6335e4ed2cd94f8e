/**
 * Freshness on every surface: per indicator and sub-series, its newest point,
 * the last check, when its next value is due by the schedule `indicator.json`
 * declares, else by its rhythm (src/core/time/schedule.ts `successorOf`), and
 * whether that day passed by the check without the value. The metadata document, the catalog, `status.json`
 * (`STATUS_PATH`) and llms.txt say the same, made here once.
 */
import { dayNumber, dayOfTime } from "../core/time/dates.js";
import { nextDueDayOf, publications } from "../core/time/coverage.js";
import { DAY, DAY_OR_NULL, LOCALIZED, closedObject, orNull, type FieldDeclarations } from "../core/answer/schema.js";
import { API_BASE } from "../core/answer/contract.js";
import { freshnessOf, indicatorFreshness, lookBound, type Check, type Freshness, type Look, type ScheduleDates } from "../core/time/schedule.js";
import type { BuiltIndicator } from "./dataset.js";

/** Where the status document is: every indicator's freshness. */
export const STATUS_PATH = `${API_BASE}/status.json`;

/**
 * What is known of how current `indicator` is at the data version `version`
 * (seconds): its recorded check and the day its points last changed (the build's
 * `changed`; the version's day for an indicator built without it).
 */
export function lookOf(indicator: Pick<BuiltIndicator, "source" | "answerFields">, version: number): Look {
  return { checked: indicator.source.meta.check?.day ?? null, changed: indicator.answerFields.changed ?? dayOfTime(version) };
}

/** The day the rule of coverage counts as the last look at `indicator` (src/core/time/schedule.ts `lookBound`). */
function checkedOf(indicator: Pick<BuiltIndicator, "source" | "answerFields">, version: number): string {
  return lookBound(lookOf(indicator, version));
}

/** Each sub-series with points, with its freshness (by its schedule, else its rhythm), in the order of `plain` (by id). */
export function seriesFreshness(indicator: Pick<BuiltIndicator, "source" | "plain" | "answers" | "answerFields">, version: number): (Freshness & { readonly id: string })[] {
  const checked = checkedOf(indicator, version);
  const newest = indicator.answers.lastUpdated ?? "";
  const { schedule, rhythm } = indicator.source.meta;
  const byRhythm = nextDueDayOf(rhythm, publications(indicator.plain.map((s) => s.dates)).map(dayNumber));
  return indicator.plain.filter((s) => s.dates.length > 0).map((s) => ({ id: s.id, ...freshnessOf(schedule, byRhythm, s.dates[0] as string, checked, newest) }));
}

/** The recorded check as every surface gives it: who looked, when, at what, and what they found (`null`: none recorded). */
export function checkFacts(check: Check | undefined) {
  return check === undefined ? null : { day: check.day, by: check.by, read: check.read, outcome: check.outcome, ...(check.note === undefined ? {} : { note: check.note }) };
}

/** The fields `freshnessFacts` writes, in its order, with their schemas: OpenAPI's `Freshness`. */
export function freshnessFields(): FieldDeclarations {
  return {
    checked: { schema: { ...DAY_OR_NULL, description: "The day of the last recorded check of the publisher (`check.day`); null: no check recorded." } },
    check: {
      schema: {
        ...closedObject({
          day: { schema: DAY },
          by: { schema: { type: "string", enum: ["update", "person"] satisfies Check["by"][] } },
          read: { schema: { type: "string", format: "uri", description: "The address read." } },
          outcome: { schema: { type: "string", enum: ["new-data", "nothing-new"] satisfies Check["outcome"][], description: "`new-data`: it found points not in the data then; `nothing-new`: none." } },
          note: { optional: true, schema: { type: "string", description: "A person's note on what was consulted." } },
        }),
        type: ["object", "null"],
        description: "The last recorded check: who looked (`update`, the unattended update; `person`, `npm run check`), when, at what address, and what it found. null: none recorded.",
      },
    },
    data_changed: { schema: { ...DAY, description: "The day the points last changed (a commit changing only metadata, schedules or code is not one)." } },
    newest: { schema: { ...DAY_OR_NULL, description: "The newest point's date." } },
    next_due: { schema: { ...DAY_OR_NULL, description: "The earliest day a sub-series' next value is due by the schedule (none declared: by the rhythm); null: none expected." } },
    overdue: { schema: { type: "boolean", description: "True when some sub-series' next value was due on or before the last look (the later of `checked` and `data_changed`) and is not in the data." } },
    overdue_since: { schema: DAY_OR_NULL },
    overdue_series: { schema: { type: "integer", minimum: 0, description: "How many sub-series are overdue." } },
  };
}

/** The fields of each indicator of `status.json` (`renderStatus`), with their schemas. */
export function statusIndicatorFields(): FieldDeclarations {
  return { id: { schema: { type: "string" } }, title: { schema: LOCALIZED }, ...freshnessFields() };
}

/**
 * What every surface says of an indicator's freshness, in this key order:
 * `checked` (the day of the last recorded check, null: none), `check` (that
 * check), `data_changed` (the day the points last changed), `newest`,
 * `next_due` (the earliest of its sub-series'; null: none expected), `overdue`
 * (a value due on or before the later of `checked` and `data_changed` is not
 * in the data), `overdue_since` and `overdue_series` (how many).
 */
export function freshnessFacts(indicator: Pick<BuiltIndicator, "source" | "plain" | "answers" | "answerFields">, version: number) {
  const summary = indicatorFreshness(seriesFreshness(indicator, version));
  const look = lookOf(indicator, version);
  return {
    checked: look.checked,
    check: checkFacts(indicator.source.meta.check),
    data_changed: look.changed,
    newest: summary.newest,
    next_due: summary.nextDue,
    overdue: summary.overdueSince !== null,
    overdue_since: summary.overdueSince,
    overdue_series: summary.overdueSeries,
  };
}

/** A day of the month, 1–31 (a schedule's `day`). */
const DAY_OF_MONTH = { type: "integer", minimum: 1, maximum: 31 } as const;

/** The fields of the object `scheduleFacts` writes, with their schemas: OpenAPI's `Schedule` (which also takes its null). */
export function scheduleFields(): FieldDeclarations {
  return {
    dates: {
      schema: {
        description: "`daily`, `irregular` (no date is due), or the months (1–12) and day of the month values are dated.",
        oneOf: [
          { type: "string", enum: ["daily", "irregular"] satisfies ScheduleDates[] },
          closedObject({ months: { schema: { type: "array", minItems: 1, items: { type: "integer", minimum: 1, maximum: 12 } } }, day: { schema: DAY_OF_MONTH } }),
        ],
      },
    },
    published: {
      schema: {
        ...orNull(closedObject({ monthsAfter: { schema: { type: "integer", minimum: 0, maximum: 12 } }, day: { schema: DAY_OF_MONTH } })),
        description: "A value dated in a month comes out `monthsAfter` months later on `day`; null: on its date.",
      },
    },
  };
}

/** The schedule as `indicator.json` declares it (null: none), for the metadata document and the catalog; its fields: `scheduleFields`. */
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
