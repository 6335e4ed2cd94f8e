/**
 * A setup file of the system layers: every request a test sends with `fetch` to a
 * server of the global setup (test/e2e/global-setup.ts) has a deadline. A request
 * the server never answers then fails on its own, naming its method, its URL,
 * the server and the last lines the server printed (its requests with their
 * times), instead of hanging its test until vitest's timeout, which names nothing.
 * A test's own signal still aborts it. Not a retry: the request fails. The
 * deadline covers the body too: a body that stalls after the headers fails its
 * read with the bare `TimeoutError` (the request is named only when the headers
 * never came).
 */
import { readFileSync } from "node:fs";
import { inject } from "vitest";

/** Far above any answer's time on a busy machine (seconds at most), far below the tests' 60 s timeout. */
export const REQUEST_DEADLINE_MS = 30_000;

const KEY = Symbol.for("open-series-uy.fetch-deadline");
const global = globalThis as { [KEY]?: true };

/** The last `lines` lines of a file, or why it could not be read. */
function tail(file: string, lines: number): string {
  try {
    return readFileSync(file, "utf8").split("\n").slice(-lines).join("\n");
  } catch (error) {
    return `(${file}: ${String(error)})`;
  }
}

// Once per worker: with `isolate: false` the setup file runs before each test file in the same global scope.
if (global[KEY] === undefined) {
  global[KEY] = true;
  const { urls, logs } = inject("system");
  const servers = Object.entries(urls);
  const unbounded = globalThis.fetch;
  globalThis.fetch = async (input, init) => {
    const url = input instanceof Request ? input.url : String(input);
    const server = servers.find(([, base]) => url.startsWith(`${base}/`) || url === base);
    if (server === undefined) return unbounded(input, init);
    const deadline = AbortSignal.timeout(REQUEST_DEADLINE_MS);
    const own = init?.signal ?? (input instanceof Request ? input.signal : undefined);
    const started = Date.now();
    try {
      return await unbounded(input, { ...init, signal: own ? AbortSignal.any([own, deadline]) : deadline });
    } catch (error) {
      if (!deadline.aborted || own?.aborted) throw error;
      const [name, base] = server;
      const method = init?.method ?? (input instanceof Request ? input.method : "GET");
      throw new Error(
        `${method} ${url}: no answer from the ${name} server within ${Date.now() - started} ms (deadline ${REQUEST_DEADLINE_MS} ms); ` +
          `what it printed last (${base}):\n${tail(logs[name as keyof typeof logs], 40)}`,
        { cause: error },
      );
    }
  };
}
