/**
 * The series model shared by the build and the function.
 *
 * A `Dataset` is what an API response is computed from: the indicator's fixed
 * `meta` fields and its sub-series, each stored column-wise and newest first so a
 * page is a slice found by binary search. The build writes it as the internal file
 * `_data/<indicator>.json`; the function reads that file back once per isolate.
 */

/** One sub-series: parallel columns, `dates` strictly descending (newest first). */
export interface SeriesColumns {
  /** Sub-series id, e.g. `monthly`. */
  readonly id: string;
  /** `YYYY-MM-DD` dates, strictly descending. */
  readonly dates: readonly string[];
  /** Values as the source wrote them: each a valid JSON number literal. */
  readonly values: readonly string[];
}

/** Everything an API page needs from an indicator. */
export interface Dataset {
  readonly indicator: string;
  readonly unit: string;
  readonly license: string;
  /** Date of the indicator's newest point overall, or `null` when it has none. */
  readonly lastUpdated: string | null;
  /** The ready-made HTML anchor crediting the service (DESIGN §2, `meta.attribution`). */
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

export const DEFAULT_LIMIT = 500;
export const MAX_LIMIT = 5000;

/** The query of the default page: what `/api/v1/<indicator>` answers with no parameters. */
export const DEFAULT_QUERY: PageQuery = { from: null, to: null, limit: DEFAULT_LIMIT, offset: 0 };
