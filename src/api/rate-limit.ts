/**
 * The usage limit (docs/DESIGN.md §2): one fixed-window counter per client address, shared
 * by every API endpoint, in the isolate's memory.
 *
 * Memory is bounded: at most `maxClients` counters are kept. A queue records the
 * order in which windows opened, so expired counters are dropped from its front;
 * when every kept counter is still live and a new client arrives, the oldest is
 * evicted (that client gets a fresh window: under attack by more addresses than
 * the cap, the limiter fails open for the longest-idle of them rather than grow).
 * Every operation is O(1) amortised (a Map's own insertion order is not used:
 * taking its first key after many deletions walks the deleted entries, which made
 * a million distinct clients take a minute).
 */
import { RATE_LIMIT } from "../core/answer/contract.js";

export interface RateLimitConfig {
  /** Requests allowed per client and window. */
  readonly limit: number;
  /** Window length in seconds. */
  readonly windowSeconds: number;
  /** Most counters kept at once. */
  readonly maxClients: number;
}

/** The verdict on one request, with what the RateLimit headers report. */
export interface RateDecision {
  readonly allowed: boolean;
  /** Requests left in the current window after this one. */
  readonly remaining: number;
  /** Whole seconds (≥ 1) until the window ends and the quota is whole again. */
  readonly resetSeconds: number;
}

interface Counter {
  start: number;
  count: number;
  /** Position of this window's entry in the queue. */
  slot: number;
}

/** Reads the limit from `wrangler.toml` vars; a missing or malformed var keeps its default. */
export function rateLimitConfig(vars: Record<string, unknown>): RateLimitConfig {
  const positive = (name: string, fallback: number): number => {
    const value = vars[name];
    const n = typeof value === "string" && /^[0-9]{1,9}$/.test(value) ? Number(value) : NaN;
    return n >= 1 ? n : fallback;
  };
  const { defaults, vars: names } = RATE_LIMIT;
  return {
    limit: positive(names.limit, defaults.limit),
    windowSeconds: positive(names.windowSeconds, defaults.windowSeconds),
    maxClients: positive(names.maxClients, defaults.maxClients),
  };
}

export class RateLimiter {
  private readonly counters = new Map<string, Counter>();
  /** Clients in the order their current windows opened; stale entries are skipped. */
  private queue: string[] = [];
  private head = 0;

  constructor(readonly config: RateLimitConfig) {}

  /** Counters held now (for tests and the memory bound). */
  get size(): number {
    return this.counters.size;
  }

  /** Counts a request of `client` at `nowMs` and says whether it is allowed. */
  hit(client: string, nowMs: number): RateDecision {
    const windowMs = this.config.windowSeconds * 1000;
    let counter = this.counters.get(client);
    if (counter === undefined || nowMs >= counter.start + windowMs) {
      this.counters.delete(client);
      this.makeRoom(nowMs, windowMs);
      counter = { start: nowMs, count: 0, slot: this.queue.length };
      this.queue.push(client);
      this.counters.set(client, counter);
    }
    const resetSeconds = Math.max(1, Math.ceil((counter.start + windowMs - nowMs) / 1000));
    if (counter.count >= this.config.limit) return { allowed: false, remaining: 0, resetSeconds };
    counter.count++;
    return { allowed: true, remaining: this.config.limit - counter.count, resetSeconds };
  }

  /** The live counter of the queue's front entry, or `undefined` when that entry is stale. */
  private front(): [string, Counter | undefined] {
    const client = this.queue[this.head] as string;
    const counter = this.counters.get(client);
    return [client, counter !== undefined && counter.slot === this.head ? counter : undefined];
  }

  private makeRoom(nowMs: number, windowMs: number): void {
    // Drop expired counters (and stale entries) from the front.
    while (this.head < this.queue.length) {
      const [client, counter] = this.front();
      if (counter !== undefined && nowMs < counter.start + windowMs) break;
      if (counter !== undefined) this.counters.delete(client);
      this.head++;
    }
    // Still full: evict the oldest live counters.
    while (this.counters.size >= this.config.maxClients && this.head < this.queue.length) {
      const [client, counter] = this.front();
      if (counter !== undefined) this.counters.delete(client);
      this.head++;
    }
    // Compact the queue once most of it is behind the head.
    if (this.head > 1024 && this.head * 2 > this.queue.length) {
      this.queue = this.queue.slice(this.head);
      for (const counter of this.counters.values()) counter.slot -= this.head;
      this.head = 0;
    }
  }
}

/** The IETF RateLimit-Policy field (draft-ietf-httpapi-ratelimit-headers-10 §4). */
export function rateLimitPolicyHeader(config: RateLimitConfig): string {
  return `"${RATE_LIMIT.policy}";q=${config.limit};w=${config.windowSeconds}`;
}

/** The IETF RateLimit field (draft-ietf-httpapi-ratelimit-headers-10 §5). */
export function rateLimitHeader(decision: RateDecision): string {
  return `"${RATE_LIMIT.policy}";r=${decision.remaining};t=${decision.resetSeconds}`;
}
