/**
 * The API behind the Pages Function, as runtime-agnostic code: web-standard
 * `Request`/`Response` only, so the same code runs in workerd and in Node tests.
 *
 * - `apiMiddleware`: CORS and preflight, the method check, the usage limit, and
 *   every thrown error turned into the JSON error object (DESIGN §5).
 * - `serveIndicator`: `/api/v1/{indicator}`: a query a prebuilt file answers is
 *   served from that file; any other is computed with the build's own renderer.
 */
import { ApiError, asApiError, errorResponse } from "./api-error.js";
import type { Manifest } from "../build/build.js";
import { decodeDataset } from "../core/columnar.js";
import { notModified } from "../core/conditional.js";
import { strongEtag } from "../core/etag.js";
import { quote } from "../source/errors.js";
import type { Dataset } from "../core/model.js";
import { selectPage } from "../core/page.js";
import { EXPOSED_HEADERS } from "../build/pages-config.js";
import { parseQuery } from "./query.js";
import { rateLimitHeader, rateLimitPolicyHeader, type RateLimiter } from "./rate-limit.js";
import { nextUrl, renderPage } from "../core/render.js";

/** What the function needs of `env.ASSETS`: fetching a static file of the output folder. */
export interface Assets {
  fetch(url: string): Promise<Response>;
}

const ALLOWED_METHODS = "GET, HEAD, OPTIONS";
const CORS_HEADERS: Record<string, string> = {
  "Access-Control-Allow-Origin": "*",
  "Access-Control-Expose-Headers": EXPOSED_HEADERS.join(", "),
  "X-Content-Type-Options": "nosniff",
};

/** A response with extra headers set (the original may have immutable headers). */
function withHeaders(response: Response, extra: Record<string, string>): Response {
  const copy = new Response(response.body, response);
  for (const [name, value] of Object.entries(extra)) copy.headers.set(name, value);
  return copy;
}

/** The client address: `CF-Connecting-IP`, set by Cloudflare; no other header is trusted. */
function clientKey(request: Request): string {
  return request.headers.get("CF-Connecting-IP") ?? "unknown";
}

/** CORS preflight (Fetch standard §3.2.2): any origin may GET and HEAD, with any request headers. */
function preflight(): Response {
  return new Response(null, {
    status: 204,
    headers: {
      ...CORS_HEADERS,
      "Access-Control-Allow-Methods": ALLOWED_METHODS,
      "Access-Control-Allow-Headers": "*",
      "Access-Control-Max-Age": "86400",
      "Cache-Control": "public, max-age=86400",
    },
  });
}

/** Paths the endpoint answers: `/api/v1/{indicator}`, with or without a final slash. */
const ENDPOINT_PATH = /^\/api\/v1\/[^/]+\/?$/;

/**
 * The policy every `/api/*` request passes through before `next` answers it.
 * Any other path under `/api/` gets the JSON 404 here, without `next`: falling
 * through to the static files would answer odd paths (`/api//x`, `%00`) with the
 * site's HTML 404 page, or worse. `now` is the clock in milliseconds (for tests).
 */
export async function apiMiddleware(
  request: Request,
  limiter: RateLimiter,
  next: () => Promise<Response>,
  now: number = Date.now(),
): Promise<Response> {
  let headers = CORS_HEADERS;
  try {
    if (request.method === "OPTIONS") return preflight();
    if (request.method !== "GET" && request.method !== "HEAD") {
      throw new ApiError("method_not_allowed", `method: ${quote(request.method)} is not allowed; use ${ALLOWED_METHODS}`, {
        Allow: ALLOWED_METHODS,
      });
    }
    const decision = limiter.hit(clientKey(request), now);
    headers = {
      ...CORS_HEADERS,
      "RateLimit-Policy": rateLimitPolicyHeader(limiter.config),
      RateLimit: rateLimitHeader(decision),
    };
    if (!decision.allowed) {
      const { limit, windowSeconds } = limiter.config;
      throw new ApiError(
        "too_many_requests",
        `rate: over the limit of ${limit} requests per ${windowSeconds} s for this address; retry in ${decision.resetSeconds} s`,
        { "Retry-After": String(decision.resetSeconds) },
      );
    }
    if (!ENDPOINT_PATH.test(new URL(request.url).pathname)) notFound(request);
    return withHeaders(await next(), headers);
  } catch (thrown) {
    const error = asApiError(thrown);
    if (error.code === "internal_error") console.error(thrown);
    return withHeaders(errorResponse(error, request.method), headers);
  }
}

/**
 * Per-isolate cache of the manifest and the datasets, keyed by data version: the
 * data is read from the output folder once per isolate, not per request.
 */
export class DataStore {
  private manifestPromise: Promise<Manifest> | undefined;
  private readonly datasets = new Map<string, Promise<Dataset>>();
  /** Recently served prebuilt pages (path → bytes), least recently used first. */
  private readonly pages = new Map<string, Uint8Array<ArrayBuffer>>();
  private pageBytes = 0;

  /** Bytes of prebuilt pages kept in memory, and the largest page kept. */
  static readonly PAGE_CACHE_BYTES = 16 * 2 ** 20;
  static readonly PAGE_CACHE_MAX_PAGE = 2 * 2 ** 20;

  private async fetchAsset(assets: Assets, url: URL): Promise<Response> {
    const response = await assets.fetch(url.toString());
    if (!response.ok) throw new Error(`${url.pathname}: static asset answered ${response.status}`);
    return response;
  }

  /** The build's manifest (`/_data/manifest.json`). */
  manifest(assets: Assets, origin: URL): Promise<Manifest> {
    this.manifestPromise ??= this.fetchAsset(assets, new URL("/_data/manifest.json", origin))
      .then((response) => response.json() as Promise<Manifest>)
      .catch((error: unknown) => {
      this.manifestPromise = undefined; // do not cache a failure
      throw error;
    });
    return this.manifestPromise;
  }

  /**
   * The bytes of a prebuilt page. Pages up to 2 MiB stay in the isolate's memory
   * (16 MiB in all, least recently used evicted), so a hot page costs no asset
   * subrequest; larger ones are streamed from the asset each time. A deployment's
   * files never change, so nothing kept can go stale.
   */
  async prebuilt(assets: Assets, url: URL, size: number): Promise<BodyInit> {
    const key = url.pathname;
    const kept = this.pages.get(key);
    if (kept !== undefined) {
      this.pages.delete(key);
      this.pages.set(key, kept);
      return kept;
    }
    const response = await this.fetchAsset(assets, url);
    if (size > DataStore.PAGE_CACHE_MAX_PAGE || response.body === null) return response.body ?? "";
    const bytes = new Uint8Array(await response.arrayBuffer());
    this.pages.set(key, bytes);
    this.pageBytes += bytes.length;
    for (const [oldKey, old] of this.pages) {
      if (this.pageBytes <= DataStore.PAGE_CACHE_BYTES) break;
      this.pages.delete(oldKey);
      this.pageBytes -= old.length;
    }
    return bytes;
  }

  /** The full dataset of an indicator at the manifest's data version. */
  dataset(assets: Assets, origin: URL, path: string, version: string): Promise<Dataset> {
    const key = `${path}@${version}`;
    let promise = this.datasets.get(key);
    if (promise === undefined) {
      promise = this.fetchAsset(assets, new URL(path, origin))
        .then(async (response) => decodeDataset(await response.arrayBuffer()))
        .catch((error: unknown) => {
        this.datasets.delete(key);
        throw error;
      });
      this.datasets.set(key, promise);
    }
    return promise;
  }
}

/** Headers of every 200 and 304 of the endpoint (DESIGN §2). */
function successHeaders(etag: string, lastModified: string, next: string | null): Headers {
  const headers = new Headers({
    "Content-Type": "application/json; charset=utf-8",
    "Cache-Control": "public, max-age=900",
    ETag: etag,
    "Last-Modified": lastModified,
  });
  if (next !== null) headers.set("Link", `<${next}>; rel="next"`);
  return headers;
}

/**
 * The 200, or a 304 (RFC 9110 §15.4.5) with no body and the same validators and
 * caching headers. `body` is only called for a 200 to a GET.
 */
async function answer(request: Request, headers: Headers, body: () => BodyInit | null | Promise<BodyInit | null>): Promise<Response> {
  if (notModified(request.headers, headers.get("ETag") as string, headers.get("Last-Modified") as string)) {
    const notModifiedHeaders = new Headers(headers);
    notModifiedHeaders.delete("Content-Type");
    return new Response(null, { status: 304, headers: notModifiedHeaders });
  }
  return new Response(request.method === "HEAD" ? null : await body(), { status: 200, headers });
}

/** Answers `GET|HEAD /api/v1/{indicator}`. Throws `ApiError` for 400 and 404. */
export async function serveIndicator(request: Request, indicator: string, assets: Assets, store: DataStore): Promise<Response> {
  const url = new URL(request.url);
  const manifest = await store.manifest(assets, url);
  const entry = Object.hasOwn(manifest.indicators, indicator) ? manifest.indicators[indicator] : undefined;
  if (entry === undefined) {
    throw new ApiError("not_found", `indicator: there is no indicator ${quote(indicator)}; the list is at /api/v1/index.json`);
  }
  const query = parseQuery(url.searchParams);

  const prebuilt = query.from === null && query.to === null ? entry.pages[`${query.limit}/${query.offset}`] : undefined;
  if (prebuilt !== undefined) {
    // The ETag comes from the manifest, so a 304 or a HEAD never reads the file.
    const headers = successHeaders(prebuilt.etag, entry.lastModified, prebuilt.next);
    return answer(request, headers, () => store.prebuilt(assets, new URL(prebuilt.path, url), prebuilt.bytes));
  }

  const dataset = await store.dataset(assets, url, entry.dataset, entry.lastModified);
  const page = selectPage(dataset, query);
  const body = renderPage(page);
  const headers = successHeaders(await strongEtag(body), entry.lastModified, nextUrl(page));
  return answer(request, headers, () => body);
}

/** The answer for any other path under `/api/` that reaches the function. */
export function notFound(request: Request): never {
  const path = new URL(request.url).pathname;
  throw new ApiError("not_found", `path: nothing at ${quote(path, 80)}; the API's endpoints are listed at /api/v1/index.json`);
}
