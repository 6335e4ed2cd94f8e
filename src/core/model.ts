/**
 * The series model shared by the build and the function.
 *
 * An answer is computed from the indicator's fixed `meta` fields and its
 * sub-series, each stored column-wise and newest first so that a page is a slice
 * found by binary search. The function reads the answer file (src/core/answers.ts:
 * the points already rendered, so an answer is a selection of byte ranges); the
 * site's page script reads the compact dataset file (src/core/columnar.ts).
 */
import { LIMIT, OFFSET } from "./contract.js";

/** What the pager needs of a sub-series: points by rank, 0 = newest, dates strictly descending. */
export interface SeriesIndex {
  /** Sub-series id, e.g. `monthly`. */
  readonly id: string;
  /** Number of points. */
  readonly length: number;
  /** Day number (days since 1970-01-01) of point `i`. */
  day(i: number): number;
}

/** A sub-series with its points' dates and values (the site's dataset file, src/core/columnar.ts). */
export interface SeriesColumns extends SeriesIndex {
  /** `YYYY-MM-DD` date of point `i`. */
  date(i: number): string;
  /** Value of point `i` as the source wrote it: a valid JSON number literal. */
  value(i: number): string;
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

/** An indicator's sub-series with their points, as the site reads them. */
export interface Dataset extends DatasetFields {
  /** Sub-series sorted by id ascending (code-unit order). */
  readonly series: readonly SeriesColumns[];
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
  readonly series: readonly string[] | null;
  readonly limit: number;
  readonly offset: number;
  readonly format: Format;
}

/** The query of the default page: what `/api/v1/<indicator>` answers with no parameters. */
export const DEFAULT_QUERY: PageQuery = { from: null, to: null, series: null, limit: LIMIT.default, offset: OFFSET.default, format: "json" };
