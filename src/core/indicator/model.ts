/**
 * The series model shared by the build and the function.
 *
 * An answer is computed from the indicator's fixed `meta` fields and its
 * sub-series, each stored column-wise and newest first so that a page is a slice
 * found by binary search. The function reads the answer file (src/core/file/answers.ts:
 * the points already rendered, so an answer is a selection of byte ranges).
 */
import { LIMIT, OFFSET, type Aggregation, type Frequency, type Units } from "../answer/contract.js";

/** What the pager needs of a sub-series: points by rank, 0 = newest, dates strictly descending. */
export interface SeriesIndex {
  /** Sub-series id, e.g. `monthly`. */
  readonly id: string;
  /** Number of points. */
  readonly length: number;
  /** Day number (days since 1970-01-01) of point `i`. */
  day(i: number): number;
}

/** The indicator-level fields of every answer's `meta`. */
export interface DatasetFields {
  readonly indicator: string;
  readonly unit: string;
  readonly license: string;
  /** Date of the indicator's newest point overall, or `null` when it has none. */
  readonly lastUpdated: string | null;
  /** The ready-made HTML anchor crediting the service (docs/DESIGN.md §2, `meta.attribution`). */
  readonly attribution: string;
}

/** The indicator-level fields of `fields` alone, in their fixed order (the data files' headers are compared byte for byte). */
export function datasetFields(fields: DatasetFields): DatasetFields {
  const { indicator, unit, license, lastUpdated, attribution } = fields;
  return { indicator, unit, license, lastUpdated, attribution };
}

/** The formats an answer comes in. */
export const FORMATS = ["json", "csv"] as const;
export type Format = (typeof FORMATS)[number];

/**
 * A validated API query: the window is inclusive, dates already resolved to days;
 * `series` is the selection (ids and `*` patterns, deduplicated and sorted), or
 * `null` for every sub-series. A field that is not given is `null`.
 */
export interface PageQuery {
  readonly from: string | null;
  readonly to: string | null;
  /** The day whose covering point each sub-series answers with. */
  readonly at: string | null;
  readonly series: readonly string[] | null;
  readonly frequency: Frequency | null;
  /** `mean` when `frequency` is given without it; `null` without `frequency`. */
  readonly aggregation: Aggregation | null;
  /** The divisor: a sub-series of an indicator. */
  readonly per: PerTarget | null;
  /** `YYYY-MM`: the month whose pesos the values are expressed in. */
  readonly real: string | null;
  /** `null` for `level` (the default: one canonical query). */
  readonly units: Exclude<Units, "level"> | null;
  /** The day of the value an index is 100 at (with `units=index` only). */
  readonly base: string | null;
  /** The day whose published answer is asked (`YYYY-MM-DD`): the data version in force at its end (src/core/history/history.ts). */
  readonly as_of: string | null;
  readonly limit: number;
  readonly offset: number;
  readonly format: Format;
  /** `es` for the spreadsheet CSV; `null` for RFC 4180 (the default, one canonical query). */
  readonly dialect: "es" | null;
  /** `true`: each JSON item also carries its point's `note`, `source` and `source_kind`; `null` (the default): `date`, `series`, `value` only. */
  readonly provenance: true | null;
}

/** `per=<indicator>:<sub-series>`. */
export interface PerTarget {
  readonly indicator: string;
  readonly series: string;
}

/** The query of the default page: what `/api/v1/<indicator>` answers with no parameters. */
export const DEFAULT_QUERY: PageQuery = {
  from: null,
  to: null,
  at: null,
  series: null,
  frequency: null,
  aggregation: null,
  per: null,
  real: null,
  units: null,
  base: null,
  as_of: null,
  limit: LIMIT.default,
  offset: OFFSET.default,
  format: "json",
  dialect: null,
  provenance: null,
};

/** Whether a query asks for derived values (anything but the points as published, `at` included). */
export function isDerived(query: PageQuery): boolean {
  return query.frequency !== null || query.per !== null || query.real !== null || query.units !== null;
}
