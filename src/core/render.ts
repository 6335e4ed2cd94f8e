/**
 * The one renderer: a selected page → the exact bytes of the JSON response.
 *
 * The build writes prebuilt pages with it and the function computes every other
 * answer with it, so a computed answer is byte-identical to the prebuilt file for
 * the same query. Output is compact JSON with a fixed key order (docs/DESIGN.md §2).
 */
import { PARAMETERS } from "./contract.js";
import type { PageQuery } from "./model.js";
import type { Page } from "./page.js";
import { endpointPath } from "./paths.js";

/**
 * The canonical relative URL of a query: every parameter that is set, in the
 * fixed order of `PARAMETERS` (`from, to, limit, offset`), dates as resolved
 * days, so equal queries have equal URLs. `meta.next` and the `Link` header use it.
 */
export function queryUrl(indicator: string, query: PageQuery): string {
  const params: string[] = [];
  for (const name of PARAMETERS) {
    const value = query[name];
    if (value !== null) params.push(`${name}=${value}`);
  }
  return `${endpointPath(indicator)}?${params.join("&")}`;
}

/** `meta.next`: the same query one page further, or `null` on the last page. */
export function nextUrl(page: Page): string | null {
  if (!page.hasMore) return null;
  const { query } = page;
  return queryUrl(page.dataset.indicator, { ...query, offset: query.offset + query.limit });
}

/**
 * The page's points, rendered, in response order: `date` descending, then
 * `series` ascending. Each point gets the numeric key `(newest - day) × slices +
 * slice`, unique because a sub-series has one point per day, so one numeric sort
 * of a Float64Array orders them all (no comparator, no per-point objects). Slices
 * come in series-id order and each is newest first, so a cursor per slice hands
 * out its points in key order.
 */
function orderedPoints(page: Page): string[] {
  const { slices } = page;
  let n = 0;
  let newest = -Infinity;
  for (const { series, start, end } of slices) {
    n += end - start;
    newest = Math.max(newest, series.day(start));
  }
  const k = slices.length;
  const keys = new Float64Array(n);
  let j = 0;
  slices.forEach(({ series, start, end }, s) => {
    for (let i = start; i < end; i++) keys[j++] = (newest - series.day(i)) * k + s;
  });
  keys.sort();
  const cursor = slices.map((slice) => slice.start);
  const prefixes = slices.map((slice) => `,"series":${JSON.stringify(slice.series.id)},"value":`);
  const texts = new Array<string>(n);
  for (let m = 0; m < n; m++) {
    const s = (keys[m] as number) % k;
    const { series } = slices[s] as (typeof slices)[number];
    const i = (cursor[s] as number)++;
    texts[m] = `{"date":"${series.date(i)}"${prefixes[s] as string}${series.value(i)}}`;
  }
  return texts;
}

/** Renders a page to its JSON text (the response body, byte for byte). */
export function renderPage(page: Page): string {
  const { dataset, query } = page;
  const data = orderedPoints(page).join(",");
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
