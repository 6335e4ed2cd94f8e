/**
 * `GET /api/v1/{indicator}/changes?since=YYYY-MM-DD`: what changed in an
 * indicator's published points since the end of a day — points added, revised
 * (with the value before and the day it changed) and removed — newest change
 * first: the difference between the version in force then and the current one,
 * read from the history table (src/core/history/history.ts), for mirrors that sync by
 * difference and for people who follow revisions. A value counts as revised when
 * its text changed, as the build's change report counts it (src/source/changes.ts):
 * the API publishes the text.
 *
 * Its parameters are declared like the data endpoint's (src/core/answer/parameters.ts);
 * this module is pure: the endpoint (src/api/changes.ts) reads the table.
 */
import { LIMIT, MAX_SERIES_ITEMS, OFFSET } from "../answer/contract.js";
import type { FieldDeclarations } from "../answer/schema.js";
import { csvRow, textStart } from "../file/answers.js";
import { partOf, type AnswerView } from "../file/answer-index.js";
import { dateOfDay } from "../time/dates.js";
import { keptPerTable, versionDay, type HistoryData } from "./history.js";
import type { Format } from "../indicator/model.js";
import { DAY_SCHEMA, SERIES_SCHEMA, dayParse, formatDeclaration, seriesParse, type Declared } from "../answer/parameters.js";
import { pagingDeclared } from "../answer/declared.js";
import { byCodeUnits } from "../text/order.js";
import { endpointPath } from "../file/paths.js";

/** The path of an indicator's changes. */
export function changesPath(indicator: string): string {
  return `${endpointPath(indicator)}/changes`;
}

/** A validated question for changes. */
export interface ChangesQuery {
  readonly since: string;
  /** The sub-series whose changes to list (ids and patterns, as the data endpoints'), or `null`: all. */
  readonly series: readonly string[] | null;
  readonly limit: number;
  readonly offset: number;
  readonly format: Format;
}

/** The parameters of the changes endpoint, in the canonical order. */
export const CHANGES_DECLARATIONS: readonly Declared<ChangesQuery>[] = [
  {
    name: "since",
    absent: null,
    required: "the day to list the changes since, e.g. since=2026-11-23",
    parse: dayParse("since"),
    echo: (q) => q.since,
    schema: DAY_SCHEMA,
    description: {
      en: "The changes since the end of this day (UTC): the points added, revised and removed between the version published then (as `as_of` answers) and the current one. A day before the indicator's first version answers everything published since that version (every current point added) and says so in `meta.since_before_first` (that version's day); a day after today is a 400.",
      es: "Los cambios desde el final de este día (UTC): los puntos agregados, revisados y quitados entre la versión publicada entonces (la que responde `as_of`) y la actual. Un día anterior a la primera versión del indicador responde todo lo publicado desde esa versión (cada punto actual, agregado) y lo dice `meta.since_before_first` (el día de esa versión); un día posterior a hoy da 400.",
    },
    summary: { en: "the day to list the changes since", es: "el día desde el que se listan los cambios" },
  },
  {
    name: "series",
    absent: null,
    parse: seriesParse,
    echo: (q) => (q.series === null ? null : q.series.join(",")),
    schema: SERIES_SCHEMA,
    description: {
      en: `The sub-series whose changes to list, as the data endpoints take them: ids or patterns with \`*\` (\`casmu.*\`), comma-separated, at most ${MAX_SERIES_ITEMS}; every sub-series the indicator ever had can be named, a removed one too. Without it, every sub-series' changes. Echoed in \`meta.series\`.`,
      es: `Las subseries cuyos cambios listar, como las toman los endpoints de datos: ids o patrones con \`*\` (\`casmu.*\`), separados por comas, hasta ${MAX_SERIES_ITEMS}; se puede nombrar cualquier subserie que el indicador haya tenido, también una quitada. Sin él, los cambios de todas. \`meta.series\` lo repite.`,
    },
    summary: { en: "sub-series ids or patterns with `*`, comma-separated", es: "ids de subseries o patrones con `*`, separados por comas" },
  },
  pagingDeclared("limit", LIMIT, {
    description: { en: "Changes per page, newest first.", es: "Cambios por página, los más recientes primero." },
    summary: { en: "changes per page", es: "cambios por página" },
  }),
  pagingDeclared("offset", OFFSET, {
    description: { en: "Changes skipped, from the newest.", es: "Cambios que se saltean, desde el más reciente." },
    summary: { en: "changes skipped", es: "cambios salteados" },
  }),
  formatDeclaration({
    en: "`json` (default) or `csv`: the columns date,series,change,value,previous,changed; the total in `X-Total-Count`, the next page in `Link`.",
    es: "`json` (por defecto) o `csv`: las columnas date,series,change,value,previous,changed; el total en `X-Total-Count`, la página siguiente en `Link`.",
  }),
];

/** How a point changed. */
export type ChangeKind = "added" | "revised" | "removed";

/** One point's change: its value now and before as the source's texts (`null`: none), and the day it changed. */
export interface PointChange {
  readonly date: string;
  readonly series: string;
  readonly change: ChangeKind;
  readonly value: string | null;
  readonly previous: string | null;
  readonly changed: string;
}

const decoder = new TextDecoder();

/** The value text of table entry `g`, from its JSON text `{"date":…,"series":…,"value":V},`. */
function valueText(history: HistoryData, g: number): string {
  const { union } = history;
  const text = decoder.decode(union.json.subarray(textStart(union.jsonEnds, g), union.jsonEnds[g]));
  return text.slice(text.lastIndexOf('"value":') + 8, -2);
}

/**
 * The changes between version `since` and the current one (the table's last),
 * newest change first; on the same day in the answers' order (date descending,
 * sub-series ascending). Kept with the decoded table (src/core/history/history.ts
 * `keptPerTable`): every page of the list reads it.
 */
export function changesSince(history: HistoryData, since: number): readonly PointChange[] {
  return keptPerTable(listsOf, history, since, () => listChanges(history, since));
}

const listsOf = new WeakMap<HistoryData, Map<number, readonly PointChange[]>>();

/**
 * The changes since version `since` of a table read in shards (src/core/history/history.ts),
 * in the one table's order: newest change first, then date descending, then
 * sub-series (each shard's list is in that order already, and a point is in one shard).
 */
export function shardChanges(tables: readonly HistoryData[], since: number): readonly PointChange[] {
  if (tables.length === 1) return changesSince(tables[0] as HistoryData, since);
  // Each shard's list (made once per table and day) merged: the head that comes first, of a few shards.
  const lists = tables.map((table) => changesSince(table, since));
  const heads = lists.map(() => 0);
  const merged: PointChange[] = [];
  for (;;) {
    let best = -1;
    lists.forEach((list, k) => {
      const c = list[heads[k] as number];
      if (c !== undefined && (best < 0 || before(c, (lists[best] as readonly PointChange[])[heads[best] as number] as PointChange))) best = k;
    });
    if (best < 0) return merged;
    merged.push((lists[best] as readonly PointChange[])[(heads[best] as number)++] as PointChange);
  }
}

/** Whether change `a` comes before `b` in the list: newer change, then later date, then lower sub-series id. */
function before(a: PointChange, b: PointChange): boolean {
  return (byCodeUnits(b.changed, a.changed) || byCodeUnits(b.date, a.date) || byCodeUnits(a.series, b.series)) < 0;
}

function listChanges(history: HistoryData, since: number): PointChange[] {
  const { union, from, to, versions } = history;
  const current = versions.length - 1;
  const day = (v: number) => versionDay(versions[v] as (typeof versions)[number]);
  const changes: PointChange[] = [];
  // The table's entries of one point (date and sub-series) are adjacent, by `from`.
  for (let g = 0; g < union.points; ) {
    let end = g + 1;
    while (end < union.points && union.global.day(end) === union.global.day(g) && union.global.series(end) === union.global.series(g)) end++;
    let before = -1;
    let now = -1;
    // The last version in which the point's value text or presence changed: the day it changed.
    let last = 0;
    for (let e = g; e < end; e++) {
      if ((from[e] as number) <= since && since < (to[e] as number)) before = e;
      if ((to[e] as number) > current) now = e;
      const joined = e > g && to[e - 1] === from[e];
      if (!joined || valueText(history, e - 1) !== valueText(history, e)) last = Math.max(last, from[e] as number);
      const continued = e + 1 < end && from[e + 1] === to[e];
      if (!continued && (to[e] as number) <= current) last = Math.max(last, to[e] as number);
    }
    // The same entry then and now (most points): unchanged, no text read.
    const value = now < 0 || now === before ? null : valueText(history, now);
    const previous = before < 0 || now === before ? null : valueText(history, before);
    if (value !== previous) {
      const change = previous === null ? "added" : value === null ? "removed" : "revised";
      changes.push({ date: dateOfDay(union.global.day(g)), series: union.ids[union.global.series(g)] as string, change, value, previous, changed: day(last) });
    }
    g = end;
  }
  // Stable: on the same day the answers' order stays.
  return changes.sort((a, b) => (a.changed < b.changed ? 1 : a.changed > b.changed ? -1 : 0));
}

/**
 * The changes since a day before the only version there is (a build without
 * history: src/builder/history.ts writes no table): every point of sub-series
 * `chosen` (all when null) of `view` added on `day`, in the answers' order (date
 * descending, sub-series ascending), as `changesSince` lists them from a table.
 */
export function allAdded(view: AnswerView, chosen: readonly number[] | null, day: string): PointChange[] {
  const changes: PointChange[] = [];
  for (const s of chosen ?? view.series.map((_, k) => k)) {
    const series = view.series[s];
    const part = partOf(view, s);
    if (series === undefined || part === undefined) continue;
    for (let rank = 0; rank < series.length; rank++) {
      const row = csvRow(part.data, series.global(rank));
      changes.push({ date: row.date, series: view.ids[s] as string, change: "added", value: row.value, previous: null, changed: day });
    }
  }
  return changes.sort((a, b) => byCodeUnits(b.date, a.date) || byCodeUnits(a.series, b.series));
}

/** The fields `changeJson` writes, in its order, with their schemas: OpenAPI's `Changes.data` items. */
export function changeFields(): FieldDeclarations {
  return {
    date: { schema: { type: "string", format: "date" } },
    series: { schema: { type: "string" } },
    change: { schema: { type: "string", enum: ["added", "revised", "removed"] satisfies PointChange["change"][] } },
    value: { schema: { type: ["number", "null"], description: "The value now; `null` when removed." } },
    previous: { schema: { type: ["number", "null"], description: "The value at the end of `since`; `null` when added." } },
    changed: { schema: { type: "string", format: "date", description: "The last day the point's value or presence changed (UTC)." } },
  };
}

/** A change as JSON: the value texts are JSON numbers, as in the data answers. */
export function changeJson(c: PointChange): string {
  return `{"date":"${c.date}","series":${JSON.stringify(c.series)},"change":"${c.change}","value":${c.value ?? "null"},"previous":${c.previous ?? "null"},"changed":"${c.changed}"}`;
}

/** The CSV header of the changes. */
export const CHANGES_CSV_HEADER = "date,series,change,value,previous,changed\n";

/** A change as a CSV line (no field needs quoting: ids, dates and JSON numbers). */
export function changeCsv(c: PointChange): string {
  return `${c.date},${c.series},${c.change},${c.value ?? ""},${c.previous ?? ""},${c.changed}\n`;
}
