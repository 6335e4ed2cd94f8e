/**
 * Every point of an indicator as a typed table, in the order of `data.csv`
 * (date descending, then sub-series ascending): the rows the Parquet and XLSX
 * files hold, with the sub-series' facets as extra columns.
 */
import { byCodeUnits } from "../../core/text/order.js";
import type { DownloadPart } from "../../core/indicator/distributions.js";
import type { BuiltIndicator } from "../dataset.js";
import { facetNames } from "./facts.js";

/** One point, typed. Empty source and note texts are `null` (a missing value, as an empty CSV field reads). */
export interface TableRow {
  /** `YYYY-MM-DD`. */
  readonly date: string;
  readonly series: string;
  /** The source's text as a double (the text itself stays in `data.csv` and the API). */
  readonly value: number;
  readonly source: string | null;
  readonly note: string | null;
  /** One value per facet name, in the order of `Table.facets`; `null` where the sub-series has none. */
  readonly facets: readonly (string | null)[];
}

export interface Table {
  /** The facet columns, after `date, series, value, source, note`. */
  readonly facets: readonly string[];
  readonly rows: readonly TableRow[];
}

/** Each indicator's table, kept while the indicator is: an indicator in parts is read once per part and format. */
const tables = new WeakMap<BuiltIndicator, Table>();

/** The indicator's points as a table: all of them, or those of `part` (positions in the order of `data.csv`). */
export function pointTable(indicator: BuiltIndicator, part?: DownloadPart): Table {
  if (part === undefined) return wholeTable(indicator);
  let table = tables.get(indicator);
  if (table === undefined) tables.set(indicator, (table = wholeTable(indicator)));
  return { facets: table.facets, rows: table.rows.slice(part.from, part.to) };
}

function wholeTable(indicator: BuiltIndicator): Table {
  const facets = facetNames(indicator);
  const facetsOf = new Map(indicator.labels.map((label) => [label.id, facets.map((name) => label.facets[name] ?? null)]));
  const none = facets.map(() => null);
  const sorted = [...indicator.source.rows].sort((a, b) => byCodeUnits(b.date, a.date) || byCodeUnits(a.series, b.series));
  const rows = sorted.map((r) => ({
    date: r.date,
    series: r.series,
    value: Number(r.value),
    source: r.source === "" ? null : r.source,
    note: r.note === "" ? null : r.note,
    facets: facetsOf.get(r.series) ?? none,
  }));
  return { facets, rows };
}
