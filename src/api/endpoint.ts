/**
 * `GET|HEAD /api/v1/{indicator}`: a query a prebuilt page answers is served from
 * that file; any other is computed from the indicator's answer file with the
 * build's own pager and renderer, so both give the same bytes for the same query.
 */
import { badRequest, unknownIndicator } from "./api-error.js";
import { conditionalAnswer } from "./conditional-answer.js";
import type { Assets, DataStore } from "./data-store.js";
import { parseQuery } from "./query.js";
import { CACHE_CONTROL, CSV_CONTENT_TYPE, JSON_CONTENT_TYPE, quote } from "../core/contract.js";
import { strongEtag } from "../core/etag.js";
import { manifestEntry, prebuiltKey } from "../core/manifest.js";
import type { Format } from "../core/model.js";
import { selectPage } from "../core/page.js";
import { metadataPath } from "../core/paths.js";
import { nextUrl, renderAnswer } from "../core/render.js";
import { resolveSelection } from "../core/selection.js";

/** What the headers of a success carry besides the validators. */
interface Described {
  readonly indicator: string;
  readonly format: Format;
  readonly next: string | null;
  /** For CSV, which has no `meta`: the points in the window and the attribution link's target. */
  readonly total?: number;
  readonly citeAs?: string;
}

/**
 * Headers of every 200 and 304 of the endpoint (docs/DESIGN.md §2). `Link` (RFC
 * 8288) carries the next page, the metadata document (`describedby`) and, for
 * CSV, the attribution link (`cite-as`, RFC 8574); `X-Total-Count` carries a CSV
 * answer's `meta.total`.
 */
function successHeaders(etag: string, lastModified: string, d: Described): Headers {
  const headers = new Headers({
    "Content-Type": d.format === "csv" ? CSV_CONTENT_TYPE : JSON_CONTENT_TYPE,
    "Cache-Control": CACHE_CONTROL.success,
    ETag: etag,
    "Last-Modified": lastModified,
  });
  const links = [`<${metadataPath(d.indicator)}>; rel="describedby"`];
  if (d.next !== null) links.unshift(`<${d.next}>; rel="next"`);
  if (d.citeAs !== undefined) links.push(`<${d.citeAs}>; rel="cite-as"`);
  headers.set("Link", links.join(", "));
  if (d.total !== undefined) headers.set("X-Total-Count", String(d.total));
  return headers;
}

/** Answers the endpoint for `indicator` (the raw path segment). Throws `ApiError` for 400 and 404. */
export async function serveIndicator(request: Request, indicator: string, assets: Assets, store: DataStore): Promise<Response> {
  const url = new URL(request.url);
  const entry = manifestEntry(await store.manifest(assets, url), indicator);
  if (entry === undefined) throw unknownIndicator(indicator);
  const query = parseQuery(url.searchParams);

  const key = prebuiltKey(query);
  const prebuilt = key === null ? undefined : entry.pages[key];
  if (prebuilt !== undefined) {
    // The ETag comes from the manifest, so a 304 or a HEAD never reads the file.
    const headers = successHeaders(prebuilt.etag, entry.lastModified, { indicator, format: "json", next: prebuilt.next });
    return conditionalAnswer(request, headers, () => store.prebuilt(assets, new URL(prebuilt.path, url), prebuilt.bytes));
  }

  const data = await store.answers(assets, url, entry.answers, entry.lastModified);
  let chosen: number[] | null = null;
  if (query.series !== null) {
    const { indices, unmatched } = resolveSelection(data.ids, query.series);
    if (unmatched[0] !== undefined) {
      throw badRequest(`series: ${quote(unmatched[0])} matches no sub-series of ${indicator}; they are listed at ${metadataPath(indicator)}`);
    }
    chosen = indices;
  }
  const page = selectPage(data.series, query, chosen, data.global);
  const body = renderAnswer(data, page);
  const next = nextUrl(indicator, page);
  const described: Described =
    query.format === "csv" ? { indicator, format: "csv", next, total: page.total, citeAs: data.attributionUrl } : { indicator, format: "json", next };
  const headers = successHeaders(await strongEtag(body), entry.lastModified, described);
  return conditionalAnswer(request, headers, () => body);
}
