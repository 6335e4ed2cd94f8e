/**
 * Hostile requests against the real runtime: odd paths, encodings, huge and
 * malformed query strings and headers. Never a 5xx, never a file outside the
 * published output, and every answer of the function is the error object.
 */
import { readFileSync, statSync } from "node:fs";
import { request } from "node:http";
import { join, resolve, sep } from "node:path";
import fc from "fast-check";
import { afterAll, describe, expect, inject, it } from "vitest";
import { ROOT, treeDigest } from "../files.js";

/** The default build with a usage limit no test reaches (test/e2e/global-setup.ts). */
const { mainDir } = inject("system");
const server = { url: inject("system").urls.main };
let tried = 0;
let localOnly = 0;
const statuses = new Map<number, number>();
const SECRETS = ["wrangler.toml", "package.json", "src/api/handler.ts", "site.config.json"].map((f) => readFileSync(join(ROOT, f), "utf8"));

afterAll(() => {
  console.log(`hostile requests tried: ${tried}; statuses: ${JSON.stringify(Object.fromEntries([...statuses].sort()))}; local-only 502 (ENOTDIR): ${localOnly}`);
});

// Paths outside /api/ with %00 are left out: wrangler's local asset server answers
// them 502 (Node refuses a file path with a null byte); Cloudflare's asset server
// does not read the file system, and no code of this project is involved.

// A path that continues below a published file and still matches a `_routes.json`
// exclude rule (a final slash, `/api/v1/index.json/`, or a further name with a published
// extension, `/api/v1/index.json/x.csv`) goes to the asset server: Pages' rules cannot
// tell it from the file (test/unit/pages-config.test.ts). Cloudflare's asset server looks
// paths up in the deployment's manifest and answers 404; wrangler's local one calls
// Node's lstat, which throws ENOTDIR below a file, and answers 502. That answer, and
// only for such a path, is let through and counted.
const ENOTDIR = "[wrangler] Could not serve static asset: Error: ENOTDIR";
const EXCLUDE = (JSON.parse(readFileSync(join(mainDir, "_routes.json"), "utf8")) as { exclude: string[] }).exclude;
type Matcher = (pathname: string, rule: string) => boolean;
/** wrangler's own rule matcher, the one `wrangler pages dev` runs in front of the function. */
const { isRoutingRuleMatch } = (await import(join(ROOT, "node_modules/wrangler/templates/pages-dev-util.ts"))) as { isRoutingRuleMatch: Matcher };

/** Whether Pages sends `rawPath` to the asset server rather than to the function. */
function excluded(rawPath: string): boolean {
  const { pathname } = new URL(rawPath, server.url);
  return EXCLUDE.some((rule) => isRoutingRuleMatch(pathname, rule));
}

/** Whether `rawPath`, as the asset server decodes it, continues below a file of the output. */
function belowFile(rawPath: string): boolean {
  let path = rawPath.split("?")[0] ?? "";
  try {
    path = decodeURIComponent(path);
  } catch {
    return false;
  }
  const segments = path.split("/").filter((s) => s !== "");
  // A final slash continues below the last name too (the server looks up `<name>/index.html`).
  const last = path.endsWith("/") ? segments.length : segments.length - 1;
  for (let i = 1; i <= last; i++) {
    const file = resolve(mainDir, ...segments.slice(0, i));
    if (!file.startsWith(mainDir + sep)) return false;
    if (statSync(file, { throwIfNoEntry: false })?.isFile() === true) return true;
  }
  return false;
}

interface Answer {
  readonly status: number;
  readonly type: string;
  readonly text: string;
}

/** Checks the invariants on one answer: no 5xx, no leak, no stack trace, the error object. */
function check(rawPath: string, { status, type, text }: Answer, cacheControl: string | null): void {
  tried++;
  statuses.set(status, (statuses.get(status) ?? 0) + 1);
  if (status === 502 && text.startsWith(ENOTDIR) && excluded(rawPath) && belowFile(rawPath)) {
    localOnly++;
    return;
  }
  expect(status, rawPath.slice(0, 200)).toBeLessThan(500);
  for (const secret of SECRETS) expect(text.includes(secret.slice(0, 200)), rawPath.slice(0, 200)).toBe(false);
  expect(text).not.toMatch(/\bat .+\.(ts|js):\d+:\d+/); // no stack trace
  if (status >= 400 && type.startsWith("application/json")) {
    // The function's answer: always the error object, never cached.
    const body = JSON.parse(text) as { error?: { code?: string; message?: string; detail?: string } };
    expect(Object.keys(body)).toEqual(["error"]);
    expect(typeof body.error?.code).toBe("string");
    expect(typeof body.error?.detail).toBe("string");
    expect(cacheControl).toBe("no-store");
  }
}

/** Sends a path through fetch (which resolves `.` and `..` segments) and checks the invariants. */
async function probe(rawPath: string, headers: Record<string, string> = {}): Promise<number> {
  const response = await fetch(server.url + rawPath, { headers, redirect: "manual" });
  const answer = { status: response.status, type: response.headers.get("content-type") ?? "", text: await response.text() };
  check(rawPath, answer, response.headers.get("cache-control"));
  return answer.status;
}

/** Sends `rawPath` byte for byte (`..` and `%2f` included) and checks the invariants. */
async function probeRaw(rawPath: string): Promise<Answer> {
  const { hostname, port } = new URL(server.url);
  const [answer, cacheControl] = await new Promise<[Answer, string | null]>((done, fail) => {
    const req = request({ host: hostname, port, path: rawPath, method: "GET" }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("end", () => {
        const text = Buffer.concat(chunks).toString("utf8");
        done([{ status: res.statusCode ?? 0, type: res.headers["content-type"] ?? "", text }, res.headers["cache-control"] ?? null]);
      });
    });
    req.on("error", fail);
    req.end();
  });
  check(rawPath, answer, cacheControl);
  return answer;
}

/**
 * One static file of each kind the build writes under /api/v1/ (catalog, OpenAPI,
 * JSON-LD catalog; per indicator the default page, every prebuilt page, a sub-series'
 * JSON and CSV, data.csv, Parquet, Excel, metadata, Data Package, Atom feed).
 */
function staticKinds(): string[] {
  const kinds = new Map<string, string>();
  for (const file of [...treeDigest(mainDir).keys()].sort()) {
    if (!file.startsWith("api/v1/")) continue;
    const kind = file
      .replace(/^api\/v1\/([^/]+)\/(.+)$/, "<id>/$2")
      .replace(/^<id>\/series\/[^/]+\./, "<id>/series/<s>.")
      .replace(/\d+/g, "N");
    if (!kinds.has(kind)) kinds.set(kind, `/${file}`);
  }
  return [...kinds.values()];
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

  it("answers a static file name followed by a path: the function's JSON 404, never a 5xx", async () => {
    const files = staticKinds();
    expect(files.length).toBeGreaterThanOrEqual(13);
    for (const file of files) {
      expect((await probeRaw(file)).status, file).toBe(200);
      // Pages' rules end in the extension, so these reach the function (no rule matches).
      for (const suffix of ["/x", "%2f", "%2fx", "%2F..%2Fx", "/x/y", "/index.html", ".bak"]) {
        const answer = await probeRaw(file + suffix);
        expect(answer.status, file + suffix).toBe(404);
        expect(answer.type, file + suffix).toBe("application/json; charset=utf-8");
        expect((JSON.parse(answer.text) as { error: { code: string } }).error.code, file + suffix).toBe("not_found");
      }
      // workerd resolves `..` first: the parent folder, or the endpoint of the indicator.
      expect([200, 404], `${file}/..`).toContain((await probeRaw(`${file}/..`)).status);
      // Still the asset server's (see ENOTDIR above): Cloudflare answers 404.
      expect([404, 502], `${file}/`).toContain((await probeRaw(`${file}/`)).status);
    }
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
      fc.constantFrom(
        ...["api", "v1", "domestic-worker-wages", "health-insurance-prices", "..", ".", "%2e%2e", "%2f", "%00", "%FF", "index.json", "_data"],
        ...["openapi.json", "catalog.jsonld", "data.csv", "data.parquet", "data.xlsx", "feed.atom", "metadata.json", "limit-10", "offset-0.json", "series"],
      ),
      fc.string({ maxLength: 12 }).map(encodeURIComponent),
    );
    // `..` can lead out of /api/: such a path with %00 is left out (see the note above).
    const path = fc
      .array(segment, { minLength: 1, maxLength: 5 })
      .map((parts) => `/api/${parts.join("/")}`)
      .filter((p) => new URL(p, server.url).pathname.startsWith("/api/") || !p.includes("%00"));
    const query = fc.array(fc.tuple(fc.constantFrom("from", "to", "limit", "offset", "x"), fc.string({ maxLength: 16 })), { maxLength: 4 });
    await fc.assert(
      fc.asyncProperty(path, query, async (p, q) => {
        await probe(`${p}?${q.map(([k, v]) => `${k}=${encodeURIComponent(v)}`).join("&")}`);
      }),
      { numRuns: 250, seed: 7 },
    );
  });
});
