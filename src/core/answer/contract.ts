/**
 * The API's contract facts, each stated once (docs/DESIGN.md §2): the parameters
 * and their limits, the error codes with their status and message, the caching
 * of answers, the methods, the headers exposed to browsers and the usage-limit
 * defaults. The function, the build (OpenAPI, `_headers`), the benchmark and the
 * tests read them from here.
 */

/** The version prefix of every API path. */
export const API_BASE = "/api/v1";

/**
 * The offset from UTC of the day `/api/v1/adjust` calls today, in seconds:
 * Montevideo's time, UTC−3 all year (Uruguay has kept no daylight saving time
 * since 2015). An amount is adjusted to a day of the people who hold it: at
 * 22:00 in Montevideo it is still that day there, though it is the next in UTC.
 */
export const TODAY_UTC_OFFSET_SECONDS = -3 * 3600;

/** `limit`: points per sub-series. */
export const LIMIT = { min: 1, max: 5000, default: 500 } as const;

/**
 * `offset`: points skipped per sub-series. 15 digits keep `offset + limit` an
 * exact integer, so `meta.next` is always a plain decimal.
 */
export const OFFSET = { min: 0, max: 999_999_999_999_999, default: 0 } as const;

/** `GET /api/v1/search`: results per page (its parameters are declared in src/api/search.ts). */
export const SEARCH_LIMIT = { min: 1, max: 100, default: 20 } as const;

/** `series`: most items (ids or `*` patterns) in one list. */
export const MAX_SERIES_ITEMS = 100;

/** `frequency`: the calendar periods a series can be put on, with their length in months. */
export const FREQUENCIES = { month: 1, quarter: 3, semester: 6, year: 12 } as const;
export type Frequency = keyof typeof FREQUENCIES;

/** `aggregation`: how a period's value is made of the values in it (`mean` when not given). */
export const AGGREGATIONS = ["mean", "end", "min", "max"] as const;
export type Aggregation = (typeof AGGREGATIONS)[number];

/** `units`: what the numbers are, against the series after frequency, per and real (`level` when not given). */
export const UNITS = ["level", "change", "percent_change", "change_a_year_ago", "percent_change_a_year_ago", "index"] as const;
export type Units = (typeof UNITS)[number];

/**
 * `dialect`, with `format=csv`: `rfc4180` (the default: `,`, decimal point, LF) or
 * `es`, what Spanish-locale spreadsheets open as they are (src/core/answer/spreadsheet.ts).
 */
export const DIALECTS = ["rfc4180", "es"] as const;
export type Dialect = (typeof DIALECTS)[number];

/** Significant digits a derived value is rounded to, once (docs/time.md). */
export const DERIVED_DIGITS = 8;

/**
 * Most values one derived answer may compute (points read and periods made, over
 * every selected sub-series, lookback and divisor included), and most points it
 * may write: what fits well inside the 10 ms of CPU of a request (docs/performance.md,
 * "Questions about time": about 0.06 µs of CPU per value and 0.22 µs per point, the
 * widest admitted answer about 4 ms). A question over either is a 400 saying how to narrow it.
 */
export const MAX_DERIVED_VALUES = 30_000;
export const MAX_DERIVED_POINTS = 8_000;

/**
 * The answers' shards (src/core/file/answer-index.ts): the size the build aims each
 * shard file at, the most shard bytes one request may read (a question needing
 * more is a 400 saying how to narrow it: every shard read is fetched and copied,
 * and stays in memory while the answer is made), and the most the isolate keeps
 * of read shards for later requests (least recently used dropped first).
 */
export const SHARD_BYTES = 1 * 2 ** 20;
export const MAX_READ_BYTES = 16 * 2 ** 20;
export const SHARD_CACHE_BYTES = 32 * 2 ** 20;

/** The error codes, their HTTP status and the general text of `message`; `detail` says what exactly was wrong. */
export const ERRORS = {
  bad_request: { status: 400, message: "The request's parameters are not valid." },
  not_found: { status: 404, message: "There is no such resource." },
  method_not_allowed: { status: 405, message: "This method is not allowed here." },
  too_many_requests: { status: 429, message: "Too many requests: the usage limit is exceeded; retry later." },
  internal_error: { status: 500, message: "Internal error: the request could not be answered." },
} as const;
export type ErrorCode = keyof typeof ERRORS;
export const ERROR_CODES = Object.keys(ERRORS) as ErrorCode[];

/** Methods the API answers; any other is a 405 with `Allow` listing these. */
export const ALLOWED_METHODS = ["GET", "HEAD", "OPTIONS"] as const;

/** Methods `/mcp` answers: JSON-RPC posts (stateless: no GET stream, no DELETE of a session) and the CORS preflight. */
export const MCP_METHODS = ["POST", "OPTIONS"] as const;

/** How long a client or cache may keep an answer: 15 minutes. */
export const MAX_AGE_SECONDS = 900;
/** How long a browser may keep a CORS preflight's answer: one day. */
export const PREFLIGHT_MAX_AGE_SECONDS = 86_400;

export const CACHE_CONTROL = {
  /** Every 200 and 304 of the API, and the static API files. */
  success: `public, max-age=${MAX_AGE_SECONDS}`,
  /** Every error: an error must not be pinned at the edge. */
  error: "no-store",
  preflight: `public, max-age=${PREFLIGHT_MAX_AGE_SECONDS}`,
} as const;

export const JSON_CONTENT_TYPE = "application/json; charset=utf-8";

/** Response headers a browser script on another origin may read. */
export const EXPOSED_HEADERS = ["ETag", "Last-Modified", "Link", "Retry-After", "RateLimit", "RateLimit-Policy", "X-Total-Count"] as const;

/** `Content-Type` of a CSV answer (RFC 4180 §3, UTF-8). */
export const CSV_CONTENT_TYPE = "text/csv; charset=utf-8";

/** CORS headers of every API response, success or error: any origin may read the answers. */
export const CORS_HEADERS: Readonly<Record<string, string>> = {
  "Access-Control-Allow-Origin": "*",
  "Access-Control-Expose-Headers": EXPOSED_HEADERS.join(", "),
};

/**
 * The security headers of every response, static file (`_headers`, src/builder/pages-config.ts)
 * or the function's answer (src/api/handler.ts): no content sniffing (a CSV is never run as a
 * script), the referrer trimmed to the origin when leaving the site, and no framing by another
 * page (`X-Frame-Options` for browsers without CSP's `frame-ancestors`). The embed pages detach
 * `X-Frame-Options`: other sites are invited to frame them.
 */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  "X-Content-Type-Options": "nosniff",
  "Referrer-Policy": "strict-origin-when-cross-origin",
  "X-Frame-Options": "DENY",
};

/** The header of the Content Security Policy (CSP Level 3 §3.1). */
export const CSP_HEADER = "Content-Security-Policy";

/**
 * The Content Security Policy of everything that is not a page: the API's answers
 * (JSON, CSV, the documents) and the data files. A document opened from them loads
 * nothing, runs nothing and is framed by no one. The pages have their own policy,
 * with the hashes of their inline code (src/builder/page-policy.ts).
 */
export const DATA_POLICY = "default-src 'none'; frame-ancestors 'none'";

/** The usage limit per client address, and the `wrangler.toml` vars that change it. */
export const RATE_LIMIT = {
  defaults: { limit: 300, windowSeconds: 60, maxClients: 50_000 },
  vars: { limit: "RATE_LIMIT_REQUESTS", windowSeconds: "RATE_LIMIT_WINDOW_SECONDS", maxClients: "RATE_LIMIT_MAX_CLIENTS" },
  /** The policy name of the RateLimit headers. */
  policy: "default",
} as const;

/** Longest part of a client's value echoed in an error's `detail`. */
export const ECHO_MAX = 40;

/** Shortens and JSON-escapes a value for an error message, so any input echoes safely. */
export function quote(value: string, max = ECHO_MAX): string {
  const short = value.length > max ? `${value.slice(0, max)}…` : value;
  return JSON.stringify(short);
}

/**
 * The version of the code that renders answers, in every ETag (src/core/answer/etag.ts):
 * raise it with any change that alters an answer's bytes for the same data and
 * query (test/integration/etag-pins.test.ts fails until it is raised).
 */
export const ANSWER_CODE_VERSION = 3;

/** The one licence the service publishes under (SPDX id). */
export const LICENSE = "CC-BY-4.0";
