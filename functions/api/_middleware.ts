// Every request routed to the function under /api/: CORS, method check, usage
// limit and error mapping (src/api.ts). One limiter per isolate.
import { apiMiddleware } from "../../src/api.js";
import type { PagesContext } from "../../src/pages-context.js";
import { RateLimiter, rateLimitConfig } from "../../src/rate-limit.js";

let limiter: RateLimiter | undefined;

export function onRequest(context: PagesContext): Promise<Response> {
  limiter ??= new RateLimiter(rateLimitConfig(context.env));
  return apiMiddleware(context.request, limiter, () => context.next());
}
