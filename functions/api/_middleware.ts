// Every request routed to the function under /api/: CORS, method check, usage
// limit and error mapping (src/api/handler.ts). One limiter per isolate.
import { apiMiddleware } from "../../src/api/handler.js";
import type { PagesContext } from "../../src/api/pages-context.js";
import { RateLimiter, rateLimitConfig } from "../../src/api/rate-limit.js";

let limiter: RateLimiter | undefined;

export function onRequest(context: PagesContext): Promise<Response> {
  limiter ??= new RateLimiter(rateLimitConfig(context.env));
  return apiMiddleware(context.request, limiter, () => context.next());
}
