import { describe, expect, it } from "vitest";
import { RateLimiter, rateLimitConfig, rateLimitHeader, rateLimitPolicyHeader } from "../../src/api/rate-limit.js";

describe("RateLimiter", () => {
  it("allows the limit per window, then refuses with the seconds until the window ends", () => {
    const limiter = new RateLimiter({ limit: 3, windowSeconds: 10, maxClients: 100 });
    const t0 = 1_000_000;
    expect(limiter.hit("a", t0)).toEqual({ allowed: true, remaining: 2, resetSeconds: 10 });
    expect(limiter.hit("a", t0 + 100).remaining).toBe(1);
    expect(limiter.hit("a", t0 + 200).remaining).toBe(0);
    expect(limiter.hit("a", t0 + 2_500)).toEqual({ allowed: false, remaining: 0, resetSeconds: 8 });
    expect(limiter.hit("a", t0 + 9_999)).toEqual({ allowed: false, remaining: 0, resetSeconds: 1 });
    expect(limiter.hit("a", t0 + 10_000)).toEqual({ allowed: true, remaining: 2, resetSeconds: 10 });
  });

  it("keeps one counter per client", () => {
    const limiter = new RateLimiter({ limit: 1, windowSeconds: 60, maxClients: 100 });
    expect(limiter.hit("a", 0).allowed).toBe(true);
    expect(limiter.hit("a", 1).allowed).toBe(false);
    expect(limiter.hit("b", 2).allowed).toBe(true);
  });

  it("holds at most maxClients counters, whatever the number of clients (twenty times as many here)", () => {
    const limiter = new RateLimiter({ limit: 5, windowSeconds: 60, maxClients: 10_000 });
    const clients = 200_000;
    const address = (i: number) => `10.${i >> 16}.${(i >> 8) & 255}.${i & 255}`;
    for (let i = 0; i < clients; i++) limiter.hit(address(i), i);
    expect(limiter.size).toBe(10_000);
    // A client seen recently keeps its count.
    const recent = address(clients - 1);
    for (let k = 0; k < 4; k++) limiter.hit(recent, clients);
    expect(limiter.hit(recent, clients).allowed).toBe(false);
  });

  it("drops expired counters before evicting live ones", () => {
    const limiter = new RateLimiter({ limit: 1, windowSeconds: 1, maxClients: 2 });
    limiter.hit("old", 0);
    limiter.hit("live", 1_500);
    limiter.hit("new", 1_600); // "old" expired at 1_000: dropped, "live" kept
    expect(limiter.size).toBe(2);
    expect(limiter.hit("live", 1_700).allowed).toBe(false);
  });

  it("reads its configuration from vars, keeping defaults for missing or malformed ones", () => {
    expect(rateLimitConfig({ RATE_LIMIT_REQUESTS: "5", RATE_LIMIT_WINDOW_SECONDS: "2" })).toEqual({ limit: 5, windowSeconds: 2, maxClients: 50_000 });
    expect(rateLimitConfig({ RATE_LIMIT_REQUESTS: "-5", RATE_LIMIT_WINDOW_SECONDS: "0", RATE_LIMIT_MAX_CLIENTS: "x" })).toEqual({
      limit: 300,
      windowSeconds: 60,
      maxClients: 50_000,
    });
  });

  it("formats the IETF RateLimit fields", () => {
    expect(rateLimitPolicyHeader({ limit: 300, windowSeconds: 60, maxClients: 1 })).toBe('"default";q=300;w=60');
    expect(rateLimitHeader({ allowed: true, remaining: 12, resetSeconds: 7 })).toBe('"default";r=12;t=7');
  });
});
