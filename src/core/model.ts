/**
 * The series model shared by the build and the function.
 *
 * A `Dataset` is what an API response is computed from: the indicator's fixed
 * `meta` fields and its sub-series, each stored column-wise and newest first so a
 * page is a slice found by binary search. The build encodes it into the internal
 * file `_data/<indicator>.bin` (src/core/columnar.ts) and renders its pages from the
 * decoded file; the function decodes the same file once per isolate.
 */
import { LIMIT, OFFSET } from "./contract.js";

/** One sub-series: points by rank, 0 = newest, dates strictly descending. */
export interface SeriesColumns {
  /** Sub-series id, e.g. `monthly`. */
  readonly id: string;
  /** Number of points. */
  readonly length: number;
  /** Day number (days since 1970-01-01) of point `i`. */
  day(i: number): number;
  /** `YYYY-MM-DD` date of point `i`. */
  date(i: number): string;
  /** Value of point `i` as the source wrote it: a valid JSON number literal. */
  value(i: number): string;
}

/** Everything an API page needs from an indicator. */
export interface Dataset {
  readonly indicator: string;
  readonly unit: string;
  readonly license: string;
  /** Date of the indicator's newest point overall, or `null` when it has none. */
  readonly lastUpdated: string | null;
  /** The ready-made HTML anchor crediting the service (docs/DESIGN.md §2, `meta.attribution`). */
  readonly attribution: string;
  /** Sub-series sorted by id ascending (code-unit order). */
  readonly series: readonly SeriesColumns[];
}

/** A validated API query: the window is inclusive, dates already resolved to days. */
export interface PageQuery {
  readonly from: string | null;
  readonly to: string | null;
  readonly limit: number;
  readonly offset: number;
}

/** The query of the default page: what `/api/v1/<indicator>` answers with no parameters. */
export const DEFAULT_QUERY: PageQuery = { from: null, to: null, limit: LIMIT.default, offset: OFFSET.default };
