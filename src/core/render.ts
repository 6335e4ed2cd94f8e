/**
 * The one renderer: a selected page → the exact bytes of the answer, JSON or CSV.
 *
 * The build writes prebuilt pages with it and the function computes every other
 * answer with it, so a computed answer is byte-identical to the prebuilt file for
 * the same query. JSON is compact with a fixed key order (docs/DESIGN.md §2); the
 * points' texts are copied from the answer file (src/core/answers.ts).
 */
import { CSV_ES_HEADER, CSV_HEADER, assemble, pagePositions, type AnswerData, type AnswerSeries } from "./answers.js";
import type { DatasetFields, PageQuery } from "./model.js";
import type { Page, PageSummary } from "./page.js";
import { canonicalQuery, metaEcho } from "./parameters.js";
import { endpointPath, metadataPath } from "./paths.js";

/**
 * The canonical relative URL of a query: every parameter that is set, in the
 * order of the declarations (src/core/parameters.ts: `from, to, at, series,
 * frequency, aggregation, per, real, units, base, as_of, limit, offset, format, dialect`),
 * dates as resolved days, the selection deduplicated and sorted, `aggregation`
 * given whenever `frequency` is, `units=level` and `format=json` left out, so
 * equal queries have equal URLs. `meta.next`, the `Link` header and the ETag use it.
 */
export function queryUrl(indicator: string, query: PageQuery): string {
  return `${endpointPath(indicator)}?${canonicalQuery(query)}`;
}

/** `meta.next`: the same query one page further, or `null` on the last page. */
export function nextUrl(indicator: string, page: PageSummary): string | null {
  if (!page.hasMore) return null;
  const { query } = page;
  return queryUrl(indicator, { ...query, offset: query.offset + query.limit });
}

/**
 * What the answer's numbers are measured in: the indicator's unit, unless
 * `units` makes them a percentage or an index, or `per` a ratio. (`real` keeps
 * the unit: `meta.real` says the month whose money it is.)
 */
export function valueUnit(unit: string, query: PageQuery): string {
  if (query.units === "percent_change" || query.units === "percent_change_a_year_ago") return "percent";
  if (query.units === "index") return "index";
  return query.per === null ? unit : "ratio";
}

/** The `meta` of a JSON answer, in its fixed key order. */
export function answerMeta(data: DatasetFields, page: PageSummary) {
  const { query } = page;
  return {
    indicator: data.indicator,
    unit: data.unit,
    value_unit: valueUnit(data.unit, query),
    total: page.total,
    ...metaEcho(query, "paging"),
    ...metaEcho(query, "question"),
    ...metaEcho(query, "given"),
    has_more: page.hasMore,
    next: nextUrl(data.indicator, page),
    last_updated: data.lastUpdated,
    license: data.license,
    attribution: data.attribution,
    metadata: metadataPath(data.indicator),
    // Only on an `at` answer that has something to say (src/core/page.ts `AtNotes`): other answers keep their bytes.
    ...(page.notes === undefined || page.notes.checked === null ? {} : { checked: page.notes.checked }),
    ...(page.notes === undefined || page.notes.missing.length === 0 ? {} : { missing: page.notes.missing }),
  };
}

const encoder = new TextEncoder();
const JSON_PREFIX = encoder.encode(`{"data":[`);
const CSV_PREFIX = encoder.encode(CSV_HEADER);
const CSV_ES_PREFIX = encoder.encode(CSV_ES_HEADER);
const NOTHING = new Uint8Array(0);

/** Renders a page to the answer's bytes in its query's format. */
export function renderAnswer(data: AnswerData, page: Page<AnswerSeries>): Uint8Array<ArrayBuffer> {
  const positions = pagePositions(page, data.points);
  if (page.query.format === "csv") {
    return page.query.dialect === "es"
      ? assemble(data.csvEs, data.csvEsEnds, positions, CSV_ES_PREFIX, NOTHING, false, data.starts?.csvEs)
      : assemble(data.csv, data.csvEnds, positions, CSV_PREFIX, NOTHING, false, data.starts?.csv);
  }
  const suffix = encoder.encode(`],"meta":${JSON.stringify(answerMeta(data, page))}}`);
  return assemble(data.json, data.jsonEnds, positions, JSON_PREFIX, suffix, true, data.starts?.json);
}
