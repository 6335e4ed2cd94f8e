/**
 * The post-deploy smoke check: a handful of sequential HTTP requests against a deployed
 * service, each answer held to the README's API contract ("The API contract", "Headers,
 * caching and conditional requests"). It runs against production, so it makes few
 * requests (6 per indicator plus 7: 19 for two indicators), one at a time, and reads
 * only the first line of the CSV files (megabytes each).
 *
 * Web standards only (`fetch`, `Headers`, `URL`, streams): it reads nothing of the
 * build's output; what it expects comes from the contract's constants (src/core/).
 */
import { withQuery } from "../core/text/url.js";
import { ALLOWED_METHODS, CACHE_CONTROL, CSP_HEADER, DATA_POLICY, JSON_CONTENT_TYPE, SECURITY_HEADERS } from "../core/answer/contract.js";
import { CATALOG_PATH, OPENAPI_PATH, endpointPath } from "../core/file/paths.js";

/** The outcome of one named check. */
export interface CheckResult {
  /** What was checked, e.g. `default answer /api/v1/<indicator>`. */
  readonly name: string;
  readonly ok: boolean;
  /** On failure: what was expected and what came. */
  readonly detail?: string;
}

/** The `fetch` the checks use; the CLI and tests pass a wrapped or stubbed one. */
export type FetchLike = (input: string, init?: RequestInit) => Promise<Response>;

/** Per-request time limit: a hung server is a failed check, not a hung deploy job. */
export const REQUEST_TIMEOUT_MS = 15_000;

/** The path of a known-absent indicator (ids never contain a dot, so it reaches the function). */
export const UNKNOWN_INDICATOR_PATH = endpointPath("no-such-indicator");

const JSON_TYPE = JSON_CONTENT_TYPE;
const SUCCESS_CACHE = CACHE_CONTROL.success;
const CSV_HEADER = "date,series,value,source,note";
const DAY = /^\d{4}-\d{2}-\d{2}$/;
/**
 * The pages' policy as a deployment must serve it (docs/site.md): one policy (no comma: Pages
 * joins one header from several rules with commas), with hashes, refusing framing. Its hashes
 * are the build's; this check reads nothing of the build's output.
 */
const PAGE_POLICY = /^default-src 'self'; script-src 'self'[^,]* style-src 'self' 'sha256-[^,]*; frame-ancestors 'none'$/;

/** A check that did not hold; its message is the check's detail. */
class CheckFailed extends Error {}

/**
 * What one check found wrong. Independent problems (several headers) are collected so
 * one run names them all; a problem later checks depend on (the status, a body that is
 * not JSON) stops the check at once via `fatal`.
 */
class Problems {
  readonly list: string[] = [];

  /** Records a problem unless `got` is `want`. */
  equal(what: string, want: unknown, got: unknown): void {
    if (got !== want) this.list.push(`${what}: expected ${show(want)}, got ${show(got)}`);
  }

  /** Records `message` unless `condition` holds. */
  that(condition: boolean, message: string): void {
    if (!condition) this.list.push(message);
  }

  /** Stops the check with the problems so far plus `message`. */
  fatal(message: string): never {
    throw new CheckFailed([...this.list, message].join("; "));
  }

  /** Stops the check when anything was recorded. */
  done(): void {
    if (this.list.length > 0) throw new CheckFailed(this.list.join("; "));
  }
}

/** A value for a failure message, as JSON (strings quoted); absent headers named; long texts cut. */
function show(value: unknown): string {
  if (value === null || value === undefined) return "none";
  const text = JSON.stringify(value);
  return text.length > 120 ? `${text.slice(0, 117)}...` : text;
}

/** An HTTP answer read whole (small API bodies only). */
interface Answer {
  readonly status: number;
  readonly headers: Headers;
  readonly text: string;
}

/** The base URL with `path` appended (keeps a path prefix; no double slash). */
function urlOf(base: string, path: string): string {
  return base.replace(/\/+$/, "") + path;
}

/** A fetcher bound to one base URL, with the per-request time limit. */
class Client {
  constructor(
    private readonly base: string,
    private readonly fetchImpl: FetchLike,
  ) {}

  /** The raw response; the caller reads or cancels its body. */
  open(path: string, init: RequestInit = {}): Promise<Response> {
    // redirect "manual": a redirect is an answer to check, not something to follow silently.
    return this.fetchImpl(urlOf(this.base, path), { redirect: "manual", ...init, signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
  }

  /** Status, headers and the whole body as text. */
  async get(path: string, init: RequestInit = {}): Promise<Answer> {
    const response = await this.open(path, init);
    return { status: response.status, headers: response.headers, text: await response.text() };
  }
}

/** Parses a JSON body or stops the check. */
function parseJson(p: Problems, text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return p.fatal(`body: expected JSON, got ${show(text)}`);
  }
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

/** Stops the check unless the status is `want`. */
function expectStatus(p: Problems, answer: { status: number }, want: number): void {
  if (answer.status !== want) p.fatal(`status: expected ${want}, got ${answer.status}`);
}

/**
 * True for an IMF-fixdate (`Tue, 14 Nov 2023 22:13:20 GMT`), the only HTTP-date format a
 * sender may generate (RFC 9110 §5.6.7); checked by round trip, so `31 Feb` fails.
 */
export function isImfFixdate(text: string): boolean {
  if (!/^(Mon|Tue|Wed|Thu|Fri|Sat|Sun), \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} GMT$/.test(text)) return false;
  const ms = Date.parse(text);
  return !Number.isNaN(ms) && new Date(ms).toUTCString() === text;
}

/** The headers every 200 and 304 of `/api/v1/{indicator}` carries (docs/api.md, "Headers"). */
function expectSuccessHeaders(p: Problems, headers: Headers): void {
  p.equal("Cache-Control", SUCCESS_CACHE, headers.get("cache-control"));
  const etag = headers.get("etag");
  // A proxy that compresses an answer may turn its strong ETag weak (Cloudflare does);
  // naming the encoding makes such a failure self-explanatory.
  const encoding = headers.get("content-encoding");
  const why = encoding === null ? "" : ` (the answer came with Content-Encoding: ${encoding})`;
  p.that(etag !== null && /^"[^"\s]+"$/.test(etag), `ETag: expected a strong tag ("…", not W/), got ${show(etag)}${why}`);
  const lastModified = headers.get("last-modified");
  p.that(lastModified !== null && isImfFixdate(lastModified), `Last-Modified: expected an HTTP-date, got ${show(lastModified)}`);
  p.equal("Access-Control-Allow-Origin", "*", headers.get("access-control-allow-origin"));
  expectSecurityHeaders(p, headers, DATA_POLICY);
}

/** The security headers of every response (`SECURITY_HEADERS`) and one Content-Security-Policy: `policy`, or one it matches. */
function expectSecurityHeaders(p: Problems, headers: Headers, policy: string | RegExp): void {
  for (const [name, value] of Object.entries(SECURITY_HEADERS)) p.equal(name, value, headers.get(name));
  const served = headers.get(CSP_HEADER);
  if (typeof policy === "string") p.equal(CSP_HEADER, policy, served);
  else p.that(served !== null && policy.test(served), `${CSP_HEADER}: expected one policy matching ${String(policy)}, got ${show(served)}`);
}

/**
 * What the later checks of an indicator take from its default answer. Filled in as it
 * is read, whether or not the default answer passes: a missing `Cache-Control` there
 * should fail that check only, not the 304 checks that need its ETag.
 */
interface DefaultAnswer {
  etag: string | null;
  lastModified: string | null;
  lastUpdated: string | null;
}

/** An indicator as the catalog lists it: its id and its CSV of every point (`data.csv`, or the newest of its parts: docs/formats.md "Files within the host's limit"). */
interface Listed {
  readonly id: string;
  readonly csv: string;
}

/** The CSV the catalog's `links.csv` names: one path, or a list of parts, newest first; `data.csv` when absent. */
function listedCsv(entry: Record<string, unknown>, id: string): string {
  const csv = isRecord(entry.links) ? entry.links.csv : undefined;
  const first: unknown = Array.isArray(csv) ? csv[0] : csv;
  return typeof first === "string" ? first : `${endpointPath(id)}/data.csv`;
}

/** The catalog: 200, JSON, a non-empty `indicators` list of objects with string ids. */
async function checkCatalog(client: Client): Promise<Listed[]> {
  const p = new Problems();
  const answer = await client.get(CATALOG_PATH);
  expectStatus(p, answer, 200);
  const body = parseJson(p, answer.text);
  const list = isRecord(body) ? body.indicators : undefined;
  if (!Array.isArray(list) || list.length === 0) return p.fatal(`indicators: expected a non-empty list, got ${show(list)}`);
  const ids = list.map((entry: unknown) => (isRecord(entry) && typeof entry.id === "string" ? entry.id : null));
  if (ids.some((id) => id === null || !/^[a-z0-9]+(-[a-z0-9]+)*$/.test(id))) return p.fatal(`indicators: expected each to have an id, got ${show(ids)}`);
  p.done();
  return (list as Record<string, unknown>[]).map((entry, i) => ({ id: ids[i] as string, csv: listedCsv(entry, ids[i] as string) }));
}

/** `/api/v1/<id>`: status, the contract's headers, `data` and `meta` with attribution; fills `seen`. */
async function checkDefault(client: Client, id: string, seen: DefaultAnswer): Promise<void> {
  const p = new Problems();
  const answer = await client.get(endpointPath(id));
  expectStatus(p, answer, 200);
  seen.etag = answer.headers.get("etag");
  seen.lastModified = answer.headers.get("last-modified");
  p.equal("Content-Type", JSON_TYPE, answer.headers.get("content-type"));
  expectSuccessHeaders(p, answer.headers);
  const body = parseJson(p, answer.text);
  const meta = isRecord(body) ? body.meta : undefined;
  p.that(isRecord(body) && Array.isArray(body.data), "data: expected an array");
  if (!isRecord(meta)) return p.fatal("meta: expected an object");
  p.that(typeof meta.total === "number", `meta.total: expected a number, got ${show(meta.total)}`);
  p.that(typeof meta.has_more === "boolean", `meta.has_more: expected a boolean, got ${show(meta.has_more)}`);
  seen.lastUpdated = typeof meta.last_updated === "string" && DAY.test(meta.last_updated) ? meta.last_updated : null;
  p.that(seen.lastUpdated !== null, `meta.last_updated: expected a YYYY-MM-DD date, got ${show(meta.last_updated)}`);
  const attribution = meta.attribution;
  p.that(typeof attribution === "string" && attribution.includes("utm_source=api"), `meta.attribution: expected a link with utm_source=api, got ${show(attribution)}`);
  p.done();
}

/** `?from=<year>&limit=1`: a computed window, every point inside it, `meta.from` as a day. */
async function checkWindow(client: Client, path: string, first: DefaultAnswer): Promise<void> {
  const p = new Problems();
  const from = `${first.lastUpdated?.slice(0, 4) ?? p.fatal("no meta.last_updated in the default answer to take the year from")}-01-01`;
  const answer = await client.get(path);
  expectStatus(p, answer, 200);
  p.equal("Content-Type", JSON_TYPE, answer.headers.get("content-type"));
  expectSuccessHeaders(p, answer.headers);
  p.equal("Last-Modified (same as the default answer's)", first.lastModified, answer.headers.get("last-modified"));
  const body = parseJson(p, answer.text);
  const data = isRecord(body) ? body.data : undefined;
  const meta = isRecord(body) ? body.meta : undefined;
  if (!Array.isArray(data) || !isRecord(meta)) return p.fatal("body: expected data array and meta object");
  p.equal("meta.from", from, meta.from);
  p.equal("meta.limit", 1, meta.limit);
  p.that(data.length > 0, `data: expected the points since ${from} (last_updated is ${first.lastUpdated}), got none`);
  const points: unknown[] = data;
  const outside = points.find((point) => !isRecord(point) || typeof point.date !== "string" || !DAY.test(point.date) || point.date < from);
  p.that(outside === undefined, `data: expected every point dated on or after ${from}, got ${show(outside)}`);
  p.done();
}

/** A conditional GET of the default answer: 304, no body, the same validators and caching. */
async function checkNotModified(client: Client, path: string, header: string, value: string | null, first: DefaultAnswer): Promise<void> {
  const p = new Problems();
  if (value === null) return p.fatal(`no ${header === "If-None-Match" ? "ETag" : "Last-Modified"} in the default answer to send`);
  const answer = await client.get(path, { headers: { [header]: value } });
  expectStatus(p, answer, 304);
  p.equal("body length", 0, answer.text.length);
  expectSuccessHeaders(p, answer.headers);
  p.equal("ETag (same as the default answer's)", first.etag, answer.headers.get("etag"));
  p.done();
}

/** The error object: status, `no-store`, JSON, `code`, `message`, `detail`. */
async function checkError(client: Client, path: string, status: number, code: string, detailPrefix = ""): Promise<void> {
  const p = new Problems();
  const answer = await client.get(path);
  expectStatus(p, answer, status);
  p.equal("Cache-Control", CACHE_CONTROL.error, answer.headers.get("cache-control"));
  p.equal("Content-Type", JSON_TYPE, answer.headers.get("content-type"));
  p.equal("Access-Control-Allow-Origin", "*", answer.headers.get("access-control-allow-origin"));
  expectSecurityHeaders(p, answer.headers, DATA_POLICY);
  const body = parseJson(p, answer.text);
  const error = isRecord(body) ? body.error : undefined;
  if (!isRecord(error)) return p.fatal(`body: expected {"error":{…}}, got ${show(answer.text)}`);
  p.equal("error.code", code, error.code);
  p.that(typeof error.message === "string" && error.message !== "", `error.message: expected a text, got ${show(error.message)}`);
  const detail = error.detail;
  p.that(typeof detail === "string" && detail.startsWith(detailPrefix) && detail !== "", `error.detail: expected a text starting with ${show(detailPrefix)}, got ${show(detail)}`);
  p.done();
}

/** A CORS preflight: 204 with the allowed methods (docs/api.md, "Headers"). */
async function checkPreflight(client: Client, path: string): Promise<void> {
  const p = new Problems();
  const answer = await client.get(path, {
    method: "OPTIONS",
    headers: { Origin: "https://example.org", "Access-Control-Request-Method": "GET", "Access-Control-Request-Headers": "if-none-match" },
  });
  expectStatus(p, answer, 204);
  p.equal("Access-Control-Allow-Origin", "*", answer.headers.get("access-control-allow-origin"));
  p.equal("Access-Control-Allow-Methods", ALLOWED_METHODS.join(", "), answer.headers.get("access-control-allow-methods"));
  p.done();
}

/** The first line of a body, reading no more of it than needed (a CSV can be megabytes). */
async function firstLine(response: Response): Promise<string> {
  if (response.body === null) return "";
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let text = "";
  try {
    for (let read = await reader.read(); !read.done; read = await reader.read()) {
      text += decoder.decode(read.value, { stream: true });
      if (text.includes("\n") || text.length > 4096) break;
    }
  } finally {
    await reader.cancel().catch(() => undefined);
  }
  return text.split("\n", 1)[0] ?? "";
}

/** `data.csv`: 200 and the contract's header line (only the first line is read). */
async function checkCsv(client: Client, path: string): Promise<void> {
  const p = new Problems();
  const response = await client.open(path);
  if (response.status !== 200) {
    await response.body?.cancel();
    return p.fatal(`status: expected 200, got ${response.status}`);
  }
  p.equal("header line", CSV_HEADER, (await firstLine(response)).replace(/^\uFEFF/, "").replace(/\r$/, ""));
  p.done();
}

/** `openapi.json`: 200, JSON, `openapi` 3.1.x. */
async function checkOpenApi(client: Client, path: string): Promise<void> {
  const p = new Problems();
  const answer = await client.get(path);
  expectStatus(p, answer, 200);
  const body = parseJson(p, answer.text);
  const version = isRecord(body) ? body.openapi : undefined;
  p.that(typeof version === "string" && /^3\.1\.\d+$/.test(version), `openapi: expected 3.1.x, got ${show(version)}`);
  p.done();
}

/** A static text file: 200, the media type, and texts it must contain; a page, its security headers and policy too. */
async function checkText(client: Client, path: string, mediaType: string, needles: readonly string[]): Promise<void> {
  const p = new Problems();
  const answer = await client.get(path);
  expectStatus(p, answer, 200);
  if (mediaType === "text/html") expectSecurityHeaders(p, answer.headers, PAGE_POLICY);
  const type = answer.headers.get("content-type");
  p.that(type !== null && type.toLowerCase().startsWith(mediaType), `Content-Type: expected ${mediaType}, got ${show(type)}`);
  for (const needle of needles) p.that(answer.text.includes(needle), `body: expected to contain ${show(needle)}`);
  p.done();
}

/** Runs one named check; whatever it throws (a failed rule, a network error, a timeout) is its FAIL. */
async function run<T>(results: CheckResult[], name: string, check: () => Promise<T>): Promise<T | undefined> {
  try {
    const value = await check();
    results.push({ name, ok: true });
    return value;
  } catch (error) {
    results.push({ name, ok: false, detail: describeError(error) });
    return undefined;
  }
}

/** A one-line reason: the check's own message, or the network error and its cause. */
function describeError(error: unknown): string {
  if (error instanceof CheckFailed) return error.message;
  if (error instanceof Error) {
    if (error.name === "TimeoutError") return `no answer within ${REQUEST_TIMEOUT_MS / 1000} s`;
    // fetch's "fetch failed" says little; the cause (ECONNREFUSED, ENOTFOUND …) says what.
    const cause = error.cause instanceof Error ? `: ${error.cause.message}` : "";
    return `request failed: ${error.message}${cause}`;
  }
  return `request failed: ${String(error)}`;
}

/** The checks of one indicator: its answers, validators, files and page. */
async function checkIndicator(client: Client, results: CheckResult[], { id, csv }: Listed): Promise<void> {
  const path = endpointPath(id);
  const known: DefaultAnswer = { etag: null, lastModified: null, lastUpdated: null };
  await run(results, `default answer ${path}`, () => checkDefault(client, id, known));
  const year = known.lastUpdated?.slice(0, 4) ?? "<year of last_updated>";
  const windowPath = withQuery(path, [["from", year], ["limit", "1"]]);
  await run(results, `computed window ${windowPath}`, () => checkWindow(client, windowPath, known));
  await run(results, `304 If-None-Match ${path}`, () => checkNotModified(client, path, "If-None-Match", known.etag, known));
  await run(results, `304 If-Modified-Since ${path}`, () => checkNotModified(client, path, "If-Modified-Since", known.lastModified, known));
  await run(results, `CSV ${csv}`, () => checkCsv(client, csv));
  await run(results, `series page /series/${id}/`, () => checkText(client, `/series/${id}/`, "text/html", ["<h1", id]));
}

/**
 * Checks the service at `baseUrl` (e.g. `https://open-series-uy.pages.dev`) against the
 * API contract, one request at a time, and returns one result per named check. Never
 * throws for a broken service: a network error or timeout is that check's failure.
 * When the catalog fails, the per-indicator checks cannot be named and are not run.
 */
export async function smoke(baseUrl: string, fetchImpl: FetchLike = fetch): Promise<CheckResult[]> {
  const client = new Client(baseUrl, fetchImpl);
  const results: CheckResult[] = [];
  const listed = (await run(results, `catalog ${CATALOG_PATH}`, () => checkCatalog(client))) ?? [];
  for (const indicator of listed) await checkIndicator(client, results, indicator);
  const some = listed[0]?.id;
  await run(results, `400 ${endpointPath(some ?? "<indicator>")}?limit=0`, () =>
    some === undefined ? Promise.reject(new CheckFailed("no indicator in the catalog to ask")) : checkError(client, `${endpointPath(some)}?limit=0`, 400, "bad_request", "limit:"),
  );
  await run(results, `404 ${UNKNOWN_INDICATOR_PATH}`, () => checkError(client, UNKNOWN_INDICATOR_PATH, 404, "not_found"));
  if (some !== undefined) await run(results, `CORS preflight OPTIONS ${endpointPath(some)}`, () => checkPreflight(client, endpointPath(some)));
  await run(results, `OpenAPI ${OPENAPI_PATH}`, () => checkOpenApi(client, OPENAPI_PATH));
  await run(results, "home page /", () => checkText(client, "/", "text/html", ["<h1", ...listed.map((i) => i.id)]));
  await run(results, "robots.txt /robots.txt", () => checkText(client, "/robots.txt", "text/plain", ["User-agent"]));
  return results;
}

/** One line per check: `ok   <name>` or `FAIL <name>: <detail>`. */
export function formatResult(result: CheckResult): string {
  return result.ok ? `ok   ${result.name}` : `FAIL ${result.name}: ${result.detail ?? ""}`;
}
