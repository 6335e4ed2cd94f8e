/**
 * The API as one portable `fetch(request, env)`: web-standard `Request`/`Response`
 * only, so the same code runs in workerd (functions/api/_middleware.ts hands every
 * `/api/*` request to it) and in Node tests and benchmarks.
 *
 * Every request passes the policy first: CORS and preflight, the method check,
 * the usage limit; then the route table (src/api/routes.ts) picks the route, and
 * any other path gets the JSON 404.
 * Every thrown error becomes the JSON error object (docs/DESIGN.md §5). Every
 * answer, error, 304 and preflight included, carries `API_HEADERS`: CORS and the
 * security headers the static files get from `_headers`, with the data policy.
 */
import { asApiError, errorResponse, methodNotAllowed, tooManyRequests, unknownPath } from "./api-error.js";
import { DataStore, type Assets, type StoreLimits } from "./data-store.js";
import { RateLimiter, rateLimitConfig, rateLimitHeader, rateLimitPolicyHeader } from "./rate-limit.js";
import { ALLOWED_METHODS, CACHE_CONTROL, CORS_HEADERS, CSP_HEADER, DATA_POLICY, MCP_METHODS, PREFLIGHT_MAX_AGE_SECONDS, SECURITY_HEADERS } from "../core/answer/contract.js";
import { MCP_PATH } from "../core/file/paths.js";
import { R2_BINDING } from "../core/file/hosted.js";
import { hostedAssets, type Bucket } from "./files.js";
import { serveMcp } from "./mcp.js";
import { router } from "./route.js";
import { ROUTES } from "./routes.js";

/** The route of a path (src/api/routes.ts). */
const routeOf = router(ROUTES);

/** The bindings of `wrangler.toml`: the static assets, the R2 bucket (`R2_BINDING`) and the `[vars]`. */
export interface Env {
  readonly ASSETS: Assets;
  readonly [variable: string]: unknown;
}

/** The R2 binding, when the environment has one (a build that moved no file to R2 needs none). */
const bucketOf = (env: Env) => env[R2_BINDING] as Bucket | undefined;

/**
 * Headers of every response of the function (the API and `/mcp`), success or error:
 * CORS, and the security headers and data policy `_headers` gives the static files.
 */
const API_HEADERS: Readonly<Record<string, string>> = { ...CORS_HEADERS, ...SECURITY_HEADERS, [CSP_HEADER]: DATA_POLICY };

/**
 * The response with extra headers set: in place, as the responses the API makes
 * have mutable headers; on a copy when they are immutable (a fetched response).
 */
function withHeaders(response: Response, extra: Readonly<Record<string, string>>): Response {
  try {
    for (const [name, value] of Object.entries(extra)) response.headers.set(name, value);
    return response;
  } catch {
    const copy = new Response(response.body, response);
    for (const [name, value] of Object.entries(extra)) copy.headers.set(name, value);
    return copy;
  }
}

/** The client address: `CF-Connecting-IP`, set by Cloudflare; no other header is trusted. */
function clientKey(request: Request): string {
  return request.headers.get("CF-Connecting-IP") ?? "unknown";
}

/** CORS preflight (Fetch standard §3.2.2): any origin may use `methods`, with any request headers. */
function preflight(methods: readonly string[]): Response {
  return new Response(null, {
    status: 204,
    headers: {
      ...API_HEADERS,
      "Access-Control-Allow-Methods": methods.join(", "),
      "Access-Control-Allow-Headers": "*",
      "Access-Control-Max-Age": String(PREFLIGHT_MAX_AGE_SECONDS),
      "Cache-Control": CACHE_CONTROL.preflight,
    },
  });
}

/**
 * The policy every `/api/*` request passes through before `route` answers it.
 * `now` is the clock in milliseconds (for tests).
 */
export async function apiMiddleware(
  request: Request,
  limiter: RateLimiter,
  route: () => Promise<Response>,
  now: number = Date.now(),
  methods: readonly string[] = ALLOWED_METHODS,
): Promise<Response> {
  let headers = API_HEADERS;
  try {
    if (request.method === "OPTIONS") return preflight(methods);
    if (!methods.includes(request.method)) throw methodNotAllowed(request.method, methods);
    const decision = limiter.hit(clientKey(request), now);
    headers = {
      ...API_HEADERS,
      "RateLimit-Policy": rateLimitPolicyHeader(limiter.config),
      RateLimit: rateLimitHeader(decision),
    };
    if (!decision.allowed) throw tooManyRequests(limiter.config.limit, limiter.config.windowSeconds, decision.resetSeconds);
    return withHeaders(await route(), headers);
  } catch (thrown) {
    const error = asApiError(thrown);
    if (error.code === "internal_error") console.error(thrown);
    return withHeaders(errorResponse(error, request.method), headers);
  }
}

/**
 * The API of one isolate: its usage limiter (configured from the first request's
 * `env`) and its data cache live as long as it does.
 */
export class Api {
  private limiter: RateLimiter | undefined;
  private readonly store: DataStore;

  /** `limits`: the store's bounds on memory and reads (tests set smaller ones). */
  constructor(limits: StoreLimits = {}) {
    this.store = new DataStore(limits);
  }

  /** Answers any request under `/api/`, and `/mcp`. `now` is the clock in milliseconds (for tests). */
  fetch(request: Request, env: Env, now: number = Date.now()): Promise<Response> {
    this.limiter ??= new RateLimiter(rateLimitConfig(env));
    const url = new URL(request.url);
    if (url.pathname === MCP_PATH) return apiMiddleware(request, this.limiter, () => this.mcp(request, env, url), now, MCP_METHODS);
    return apiMiddleware(request, this.limiter, () => this.route(request, env, now), now);
  }

  /** The output's files wherever the build put them: the static assets, or R2 for a tail indicator's moved files (src/api/files.ts). */
  private assets(env: Env): Assets {
    return hostedAssets(env.ASSETS, bucketOf(env), this.store);
  }

  /**
   * `/mcp`: the MCP server, its tools answered by this API (the request counted
   * once by the usage limit) and by the static files (metadata documents).
   */
  private async mcp(request: Request, env: Env, url: URL): Promise<Response> {
    const manifest = await this.store.manifest(env.ASSETS, url);
    const call = (path: string) => {
      const target = new URL(path, url);
      return target.pathname.endsWith(".json") ? this.assets(env).fetch(target.toString()) : this.route(new Request(target), env).catch((error: unknown) => errorResponse(asApiError(error), "GET"));
    };
    return serveMcp(request, manifest, call, { ...manifest.site, origin: url.origin });
  }

  /**
   * The route of the path (src/api/routes.ts), or the JSON 404 for any other path:
   * falling through to the static files would answer odd paths (`/api//x`, `%00`)
   * with the site's HTML 404 page, or worse.
   */
  private route(request: Request, env: Env, now: number = Date.now()): Promise<Response> {
    const path = new URL(request.url).pathname;
    const found = routeOf(path);
    if (found === undefined) throw unknownPath(path);
    const served = { request, assets: this.assets(env), staticAssets: env.ASSETS, bucket: bucketOf(env), store: this.store, now };
    return found.route.serve(served, found.segments);
  }
}

