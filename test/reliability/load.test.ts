/**
 * Load and the usage limit: many simulated clients against `wrangler pages dev`
 * (loopback only, bounded in requests and time), and the limiter's memory with a
 * million distinct clients.
 *
 * Locally a client-sent CF-Connecting-IP reaches the function (wrangler sets it
 * only when absent), so each simulated client has its own address. On Cloudflare
 * the edge overwrites the header with the real client address.
 */
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { describe, expect, inject, it } from "vitest";
import { RateLimiter } from "../../src/api/rate-limit.js";

const LIMIT = 20;
const WINDOW = 20;
/** The default build with a limit of 20 requests per 20 s (test/e2e/global-setup.ts). */
const server = { url: inject("system").urls.load };

interface Outcome {
  status: number;
  retryAfter: string | null;
  body: string;
  /** When the request was sent and when its response arrived (ms since the epoch). */
  sent: number;
  at: number;
}

async function request(client: string, i: number): Promise<Outcome> {
  const sent = Date.now();
  const paths = ["/api/v1/domestic-worker-wages?limit=1", "/api/v1/health-insurance-prices?limit=1&from=2026", "/api/v1/domestic-worker-wages?from=2010&limit=3", "/api/v1/nope"];
  const response = await fetch(server.url + (paths[i % paths.length] as string), { headers: { "CF-Connecting-IP": client } });
  return { status: response.status, retryAfter: response.headers.get("retry-after"), body: await response.text(), sent, at: Date.now() };
}

describe("load through wrangler pages dev", () => {
  it("refuses only clients over the limit, with well-formed 429s, and never fails", async () => {
    // 60 clients: 45 polite (15 requests each, under the limit of 20), 15 greedy (35 each).
    const clients = Array.from({ length: 60 }, (_, i) => ({ ip: `198.51.100.${i + 1}`, requests: i < 45 ? 15 : 35 }));
    const started = Date.now();
    const outcomes = new Map<string, Outcome[]>();
    await Promise.all(
      clients.map(async ({ ip, requests }) => {
        const list: Outcome[] = [];
        for (let i = 0; i < requests; i++) list.push(await request(ip, i));
        outcomes.set(ip, list);
      }),
    );
    const elapsed = (Date.now() - started) / 1000;
    const all = [...outcomes.values()].flat();
    const refused = all.filter((o) => o.status === 429);
    const failed = all.filter((o) => o.status >= 500);
    console.log(`load: ${all.length} requests from ${clients.length} clients in ${elapsed.toFixed(1)} s; 429: ${refused.length}; 5xx: ${failed.length}`);
    expect(failed).toEqual([]);
    // Checked without depending on speed: a client's window opens at its first request;
    // while its requests stay within that window it is refused exactly its excess.
    for (const { ip, requests } of clients) {
      const list = outcomes.get(ip) ?? [];
      const count429 = list.filter((o) => o.status === 429).length;
      // The window opened while the first request was in flight: not before it was sent.
      const first = (list[0] as Outcome).sent;
      const oneWindow = (list.at(-1) as Outcome).at - first < (WINDOW - 1) * 1000;
      if (requests <= LIMIT) expect(count429, ip).toBe(0);
      else if (oneWindow) expect(count429, ip).toBe(requests - LIMIT);
      else expect(count429, ip).toBeLessThanOrEqual(requests - LIMIT);
      for (const o of list.filter((x) => x.status === 429)) {
        const seconds = Number(o.retryAfter);
        expect(Number.isInteger(seconds) && seconds >= 1 && seconds <= WINDOW).toBe(true);
        // Retry-After points at the end of the window that opened with the first request.
        if (oneWindow) expect(o.at + seconds * 1000).toBeGreaterThanOrEqual(first + WINDOW * 1000 - 50);
        expect((JSON.parse(o.body) as { error: { code: string } }).error.code).toBe("too_many_requests");
      }
    }
    // Service again after the window is checked in test/e2e/api.test.ts (3-s window).
  });
});

describe("limiter memory", () => {
  it("stays bounded with a million distinct clients", () => {
    // A real collection before each reading, so the figure is what the limiter retains.
    setFlagsFromString("--expose-gc");
    const gc = runInNewContext("gc") as () => void;
    gc();
    const started = performance.now();
    const before = process.memoryUsage().heapUsed;
    const limiter = new RateLimiter({ limit: 300, windowSeconds: 60, maxClients: 50_000 });
    for (let i = 0; i < 1_000_000; i++) limiter.hit(`2001:db8::${i.toString(16)}`, i);
    const seconds = (performance.now() - started) / 1000;
    gc();
    const grown = (process.memoryUsage().heapUsed - before) / 2 ** 20;
    console.log(`limiter: ${limiter.size} counters after 1,000,000 clients in ${seconds.toFixed(2)} s; heap grew ${grown.toFixed(1)} MB`);
    expect(limiter.size).toBe(50_000);
    expect(grown).toBeLessThan(32);
  });
});
