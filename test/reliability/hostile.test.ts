/**
 * Hostile requests against the real runtime: odd paths, encodings, huge and
 * malformed query strings and headers. Never a 5xx, never a file outside the
 * published output, and every answer of the function is the error object.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, describe, expect, inject, it } from "vitest";
import { ROOT } from "../helpers.js";

/** The default build with a usage limit no test reaches (test/e2e/global-setup.ts). */
const server = { url: inject("system").urls.main };
let tried = 0;
const statuses = new Map<number, number>();
const SECRETS = ["wrangler.toml", "package.json", "src/api/handler.ts", "site.config.json"].map((f) => readFileSync(join(ROOT, f), "utf8"));

afterAll(() => {
  console.log(`hostile requests tried: ${tried}; statuses: ${JSON.stringify(Object.fromEntries([...statuses].sort()))}`);
});

// Paths outside /api/ with %00 are left out: wrangler's local asset server answers
// them 502 (Node refuses a file path with a null byte); Cloudflare's asset server
// does not read the file system, and no code of this project is involved.

/** Sends a raw path (no normalisation by the client) and checks the invariants. */
async function probe(rawPath: string, headers: Record<string, string> = {}): Promise<number> {
  const response = await fetch(server.url + rawPath, { headers, redirect: "manual" });
  const text = await response.text();
  tried++;
  statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
  expect(response.status, rawPath.slice(0, 200)).toBeLessThan(500);
  for (const secret of SECRETS) expect(text.includes(secret.slice(0, 200)), rawPath.slice(0, 200)).toBe(false);
  expect(text).not.toMatch(/\bat .+\.(ts|js):\d+:\d+/); // no stack trace
  const type = response.headers.get("content-type") ?? "";
  if (response.status >= 400 && type.startsWith("application/json")) {
    // The function's answer: always the error object, never cached.
    const body = JSON.parse(text) as { error?: { code?: string; message?: string; detail?: string } };
    expect(Object.keys(body)).toEqual(["error"]);
    expect(typeof body.error?.code).toBe("string");
    expect(typeof body.error?.detail).toBe("string");
    expect(response.headers.get("cache-control")).toBe("no-store");
  }
  return response.status;
}

describe("hostile requests through wrangler pages dev", () => {
  it("answers traversal, encoded and malformed paths without 5xx or leaks", async () => {
    const paths = [
      "/api/v1/..%2f..%2fpackage.json",
      "/api/v1/%2e%2e/%2e%2e/wrangler.toml",
      "/api/v1/..%252f..%252fwrangler.toml",
      "/api/v1/domestic-worker-wages/..%2f..%2f..%2fsrc%2fapi.ts",
      "/api/v1/domestic-worker-wages%2f..%2f..%2fsite.config.json",
      "/api/v1/%2e%2e%2f_data%2fmanifest.json",
      "/api/v1/domestic-worker-wages%00",
      "/api/v1/%00",
      "/api/v1/%C3%28",
      "/api/v1/%FF%FE",
      "/api/v1/%E2%82",
      "/api/v1/" + "a".repeat(4000),
      "/api/v1/domestic-worker-wages/",
      "/api/v1/DOMESTIC-WORKER-WAGES",
      "/api/v1/domestic-worker-wages;limit=1",
      "/api/v1/domestic-worker-wages/index.json/..",
      "/api//v1//domestic-worker-wages",
      "/api/v1/constructor",
      "/api/v1/__proto__",
      "/api/v1/hasOwnProperty",
      "/_data/../package.json",
      "/../../etc/passwd",
      "/api/v1/..%5c..%5cpackage.json",
      "/%2e%2e/%2e%2e/etc/passwd",
    ];
    for (const path of paths) await probe(path);
  });

  it("answers malformed, huge and strange query strings with 200 or a 400 naming the parameter", async () => {
    const base = "/api/v1/domestic-worker-wages?";
    const queries = [
      "from=%00",
      "from=2024-01-01%00",
      "limit=%C3%28",
      "offset=%FF",
      `from=${"9".repeat(100_000)}`,
      `x=${"y".repeat(100_000)}`,
      Array.from({ length: 5000 }, (_, i) => `p${i}=${i}`).join("&"),
      Array.from({ length: 3 }, () => "limit=1").join("&"),
      "limit=99999999999999999999999999",
      "offset=99999999999999999999999999",
      "limit=-0",
      "offset=-0",
      "limit=1e3",
      "limit=0x10",
      "limit=%D9%A1%D9%A0",
      "limit=%EF%BC%91",
      "limit=%201",
      "limit=1%20",
      "limit=%09 1",
      "from=%202024",
      "from=2024-01-01T00:00:00Z",
      "from=+2024",
      "from=-2024",
      "from=20240101",
      "from=2024-00",
      "to=9999-12-31&from=0000-01-01",
      "limit",
      "limit=&offset=",
      "&&&&",
      "=1",
      "%=%",
    ];
    for (const q of queries) {
      const status = await probe(base + q);
      // 431: the local server refuses a 100 KB request line before any code runs
      // (Cloudflare's edge answers 414 above 16 KB); everything else reaches us.
      expect(q.length > 50_000 ? [200, 400, 414, 431] : [200, 400], q.slice(0, 60)).toContain(status);
    }
  });

  it("ignores malformed or huge conditional headers and survives many client addresses", async () => {
    const path = "/api/v1/domestic-worker-wages?limit=2";
    const headers: Record<string, string>[] = [
      { "If-Modified-Since": "x".repeat(8000) },
      { "If-Modified-Since": "Mon, 99 Foo 2024 99:99:99 GMT" },
      { "If-None-Match": Array.from({ length: 1000 }, (_, i) => `"tag${i}"`).join(", ") },
      { "If-None-Match": '"' + "a".repeat(8000) + '"' },
      { "If-None-Match": "W/" },
      { "If-None-Match": '"unterminated' },
      { "If-None-Match": "*, *" },
      { "CF-Connecting-IP": "not-an-ip" },
      { "CF-Connecting-IP": "1".repeat(4000) },
    ];
    for (const h of headers) {
      const status = await probe(path, h);
      expect([200, 304]).toContain(status);
    }
    for (let i = 0; i < 300; i++) expect(await probe(path, { "CF-Connecting-IP": `10.0.${i >> 8}.${i & 255}` })).toBe(200);
  });

  it("never fails on arbitrary paths and query strings (property)", async () => {
    const segment = fc.oneof(
      fc.constantFrom("api", "v1", "domestic-worker-wages", "health-insurance-prices", "..", ".", "%2e%2e", "%2f", "%00", "%FF", "index.json", "_data"),
      fc.string({ maxLength: 12 }).map(encodeURIComponent),
    );
    const path = fc.array(segment, { minLength: 1, maxLength: 5 }).map((parts) => `/api/${parts.join("/")}`);
    const query = fc.array(fc.tuple(fc.constantFrom("from", "to", "limit", "offset", "x"), fc.string({ maxLength: 16 })), { maxLength: 4 });
    await fc.assert(
      fc.asyncProperty(path, query, async (p, q) => {
        await probe(`${p}?${q.map(([k, v]) => `${k}=${encodeURIComponent(v)}`).join("&")}`);
      }),
      { numRuns: 250, seed: 7 },
    );
  });
});
