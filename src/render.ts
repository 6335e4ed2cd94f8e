/**
 * The one renderer: a selected page → the exact bytes of the JSON response.
 *
 * The build writes prebuilt pages with it and the function computes every other
 * answer with it, so a computed answer is byte-identical to the prebuilt file for
 * the same query. Output is compact JSON with a fixed key order (DESIGN §2).
 */
import type { PageQuery } from "./model.js";
import type { Page } from "./page.js";

/** Path of an indicator's API endpoint. */
export function endpointPath(indicator: string): string {
  return `/api/v1/${indicator}`;
}

/**
 * The canonical relative URL of a query: parameters in the fixed order
 * `from, to, limit, offset`, dates as resolved days. `meta.next` and the `Link`
 * header use it.
 */
export function queryUrl(indicator: string, query: PageQuery): string {
  const params: string[] = [];
  if (query.from !== null) params.push(`from=${query.from}`);
  if (query.to !== null) params.push(`to=${query.to}`);
  params.push(`limit=${query.limit}`, `offset=${query.offset}`);
  return `${endpointPath(indicator)}?${params.join("&")}`;
}

/** `meta.next`: the same query one page further, or `null` on the last page. */
export function nextUrl(page: Page): string | null {
  if (!page.hasMore) return null;
  const { query } = page;
  return queryUrl(page.dataset.indicator, { ...query, offset: query.offset + query.limit });
}

interface PointRef {
  readonly date: string;
  readonly text: string;
}

/**
 * The page's points in response order: `date` descending, then `series` ascending.
 * Slices come in series-id order and each is newest first, so a stable sort on the
 * date alone gives the full order.
 */
function orderedPoints(page: Page): PointRef[] {
  const points: PointRef[] = [];
  for (const { series, start, end } of page.slices) {
    const prefix = `,"series":${JSON.stringify(series.id)},"value":`;
    for (let i = start; i < end; i++) {
      const date = series.dates[i] as string;
      points.push({ date, text: `{"date":"${date}"${prefix}${series.values[i] as string}}` });
    }
  }
  points.sort((a, b) => (a.date < b.date ? 1 : a.date > b.date ? -1 : 0));
  return points;
}

/** Renders a page to its JSON text (the response body, byte for byte). */
export function renderPage(page: Page): string {
  const { dataset, query } = page;
  const data = orderedPoints(page)
    .map((p) => p.text)
    .join(",");
  const meta = {
    indicator: dataset.indicator,
    unit: dataset.unit,
    total: page.total,
    limit: query.limit,
    offset: query.offset,
    from: query.from,
    to: query.to,
    has_more: page.hasMore,
    next: nextUrl(page),
    last_updated: dataset.lastUpdated,
    license: dataset.license,
    attribution: dataset.attribution,
  };
  return `{"data":[${data}],"meta":${JSON.stringify(meta)}}`;
}
