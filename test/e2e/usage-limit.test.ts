/**
 * The usage limit through `wrangler pages dev`, against the \`tight\` server of the
 * global setup (5 requests per 3 s): 429 with Retry-After over the limit on every
 * endpoint, the counter shared by them, and service again once the window has
 * passed. Alone in the \`system-limits\` project (vitest.config.ts): it times a
 * window of seconds, which a busy second worker could stretch.
 */
import { describe, expect, inject, it } from "vitest";
import { expectError, fetched, type Fetched } from "../api-checks.js";

const tight = inject("system").urls.tight;

async function get(server: string, path: string, init: RequestInit = {}): Promise<Fetched> {
  return fetched(await fetch(server + path, init));
}

describe("the usage limit through wrangler pages dev (5 requests per 3 s)", () => {
  it("answers 429 with Retry-After over the limit, on every endpoint, and serves again once the window has passed", async () => {
    const paths = ["/api/v1/domestic-worker-wages?limit=1", "/api/v1/health-insurance-prices?limit=1", "/api/v1/nope", "/api/v1/domestic-worker-wages", "/api/x"];
    // The isolate loads the answer files first, for another client: the counted requests must
    // fall in one 3 s window, and a cold load of the 10 MB health insurance answer file through
    // the local asset server took longer than that on a loaded machine (a new window opened mid-way).
    for (const path of paths.slice(0, 2)) await get(tight, path, { headers: { "CF-Connecting-IP": "192.0.2.7" } });
    let last: Fetched | undefined;
    for (const path of paths) {
      last = await get(tight, path);
      expect(last.status, path).not.toBe(429);
    }
    expect(last?.headers.get("ratelimit")).toMatch(/^"default";r=0;t=[1-3]$/);
    const refused = await get(tight, "/api/v1/domestic-worker-wages?limit=2");
    expectError(refused, 429, "too_many_requests");
    const retryAfter = Number(refused.headers.get("retry-after"));
    expect(Number.isInteger(retryAfter)).toBe(true);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(3);
    expect(refused.headers.get("ratelimit-policy")).toBe('"default";q=5;w=3');
    // Other endpoints share the counter.
    expectError(await get(tight, "/api/v1/health-insurance-prices"), 429, "too_many_requests");
    await new Promise((r) => setTimeout(r, retryAfter * 1000 + 100));
    const again = await get(tight, "/api/v1/domestic-worker-wages?limit=2");
    expect(again.status).toBe(200);
    expect(again.headers.get("ratelimit")).toMatch(/^"default";r=4;t=3$/);
  });
});
