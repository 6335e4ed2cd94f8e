/**
 * `GET|HEAD /api/v1/{indicator}`: a query a prebuilt page answers is served from
 * that file; any other is computed from the indicator's dataset with the build's
 * own pager and renderer, so both give the same bytes for the same query.
 */
import { conditionalAnswer } from "./conditional-answer.js";
import { unknownIndicator } from "./api-error.js";
import type { Assets, DataStore } from "./data-store.js";
import { parseQuery } from "./query.js";
import { CACHE_CONTROL, JSON_CONTENT_TYPE } from "../core/contract.js";
import { strongEtag } from "../core/etag.js";
import { manifestEntry, prebuiltKey } from "../core/manifest.js";
import { selectPage } from "../core/page.js";
import { nextUrl, renderPage } from "../core/render.js";

/** Headers of every 200 and 304 of the endpoint (docs/DESIGN.md §2). */
function successHeaders(etag: string, lastModified: string, next: string | null): Headers {
  const headers = new Headers({
    "Content-Type": JSON_CONTENT_TYPE,
    "Cache-Control": CACHE_CONTROL.success,
    ETag: etag,
    "Last-Modified": lastModified,
  });
  if (next !== null) headers.set("Link", `<${next}>; rel="next"`);
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
    const headers = successHeaders(prebuilt.etag, entry.lastModified, prebuilt.next);
    return conditionalAnswer(request, headers, () => store.prebuilt(assets, new URL(prebuilt.path, url), prebuilt.bytes));
  }

  const dataset = await store.dataset(assets, url, entry.dataset, entry.lastModified);
  const page = selectPage(dataset, query);
  const body = renderPage(page);
  const headers = successHeaders(await strongEtag(body), entry.lastModified, nextUrl(page));
  return conditionalAnswer(request, headers, () => body);
}
