/**
 * `npm run smoke`, the post-deploy check (scripts/smoke.ts, src/builder/smoke.ts), run as a
 * child process against the real runtime: the real data built by the CLI and served by
 * `wrangler pages dev`. It must pass there, and fail, naming the check, behind a loopback
 * proxy that breaks exactly one rule of the contract.
 */
import { execFile } from "node:child_process";
import { createServer, request, type IncomingHttpHeaders, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import { describe, expect, inject, it } from "vitest";
import { ROOT } from "../files.js";
import { INDICATOR_IDS } from "../indicators.js";

const IDS = INDICATOR_IDS;
/** Bounds one child process (a smoke run makes 6 requests per indicator plus 7; 15 s is its own per-request limit). */
const RUN_TIMEOUT_MS = 90_000;

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs a script of the project in a child process, as its npm script does (`tsx <script>`). */
function runScript(script: string, args: readonly string[], env: Record<string, string> = {}): Promise<Run> {
  return new Promise((done) => {
    execFile(
      process.execPath,
      ["--import", "tsx", script, ...args],
      { cwd: ROOT, timeout: RUN_TIMEOUT_MS, env: { ...process.env, NO_COLOR: "1", ...env } },
      (error, stdout, stderr) => {
        const code = error === null ? 0 : typeof error.code === "number" ? error.code : -1;
        done({ code, stdout, stderr });
      },
    );
  });
}

/** `npm run smoke -- <args>`. */
const runSmoke = (args: readonly string[]) => runScript("scripts/smoke.ts", args);

/** The default build of the real data served by workerd (test/e2e/global-setup.ts). */
const server = { url: inject("system").urls.main };

/** The check lines of a run, passed and failed. */
function checks(stdout: string): { ok: string[]; failed: string[] } {
  const lines = stdout.split("\n");
  return { ok: lines.filter((l) => l.startsWith("ok   ")), failed: lines.filter((l) => l.startsWith("FAIL ")) };
}

/** How the proxy breaks one request: headers dropped on the way in or out, or the connection cut. */
interface Tamper {
  readonly dropRequest?: readonly string[];
  readonly dropResponse?: readonly string[];
  readonly cut?: boolean;
}

/** Headers that belong to one connection (RFC 9110 §7.6.1), not to be forwarded. */
const HOP_BY_HOP = ["connection", "keep-alive", "transfer-encoding", "upgrade", "proxy-connection"];

function without(headers: IncomingHttpHeaders, names: readonly string[]): IncomingHttpHeaders {
  const copy = { ...headers };
  for (const name of names) delete copy[name];
  return copy;
}

/**
 * A `node:http` proxy on a free loopback port in front of `target`, forwarding every
 * request as it is except what `rule` says to break.
 */
async function startProxy(target: string, rule: (req: IncomingMessage) => Tamper | undefined): Promise<{ url: string; close(): Promise<void> }> {
  const upstream = new URL(target);
  const proxy = createServer((req, res) => {
    const tamper = rule(req) ?? {};
    if (tamper.cut === true) return void req.socket.destroy();
    const headers = { ...without(req.headers, [...HOP_BY_HOP, ...(tamper.dropRequest ?? [])]), host: upstream.host };
    const forward = request({ hostname: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, without(answer.headers, [...HOP_BY_HOP, ...(tamper.dropResponse ?? [])]));
      answer.pipe(res);
    });
    forward.on("error", () => res.destroy());
    req.pipe(forward);
  });
  await new Promise<void>((done) => proxy.listen(0, "127.0.0.1", done));
  const { port } = proxy.address() as AddressInfo;
  const close = () =>
    new Promise<void>((done) => {
      proxy.closeAllConnections();
      proxy.close(() => done());
    });
  return { url: `http://127.0.0.1:${port}`, close };
}

/** A plain GET of `path` without conditional headers: the check of the default answer. */
const isDefaultGet = (req: IncomingMessage, path: string) =>
  req.method === "GET" && req.url === path && req.headers["if-none-match"] === undefined && req.headers["if-modified-since"] === undefined;

describe("npm run smoke", () => {
  it("passes against the real runtime, every check ok, in 6 sequential requests per indicator plus 7", async () => {
    const run = await runSmoke([server.url]);
    expect(run.code, run.stdout + run.stderr).toBe(0);
    const { ok, failed } = checks(run.stdout);
    expect(failed).toEqual([]);
    for (const id of IDS) {
      for (const name of [`default answer /api/v1/${id}`, `304 If-None-Match /api/v1/${id}`, `304 If-Modified-Since /api/v1/${id}`, `CSV /api/v1/${id}/data.csv`, `series page /series/${id}/`]) {
        expect(ok).toContain(`ok   ${name}`);
      }
      expect(ok.some((l) => l.startsWith(`ok   computed window /api/v1/${id}?from=`))).toBe(true);
    }
    for (const name of ["catalog /api/v1/index.json", `400 /api/v1/${IDS[0]}?limit=0`, "404 /api/v1/no-such-indicator", "OpenAPI /api/v1/openapi.json", "home page /", "robots.txt /robots.txt"]) {
      expect(ok).toContain(`ok   ${name}`);
    }
    const summary = /^passed: (\d+) of (\d+) checks ok against \S+ \((\d+) requests, [\d.]+ s\)$/m.exec(run.stdout);
    expect(summary?.[1]).toBe(String(ok.length));
    expect(Number(summary?.[3])).toBe(6 * IDS.length + 7);
  });

  // Each variant breaks one rule for one indicator, so exactly one check may fail.
  const variants: { rule: string; check: string; detail: string; tamper: (req: IncomingMessage) => Tamper | undefined }[] = [
    {
      rule: "the default answer without Cache-Control",
      check: `default answer /api/v1/${IDS[0]}`,
      detail: 'Cache-Control: expected "public, max-age=900", got none',
      tamper: (req) => (isDefaultGet(req, `/api/v1/${IDS[0]}`) ? { dropResponse: ["cache-control"] } : undefined),
    },
    {
      rule: "If-None-Match answered with 200 (the validator dropped on the way)",
      check: `304 If-None-Match /api/v1/${IDS[1]}`,
      detail: "status: expected 304, got 200",
      tamper: (req) => (req.url === `/api/v1/${IDS[1]}` && req.headers["if-none-match"] !== undefined ? { dropRequest: ["if-none-match"] } : undefined),
    },
    {
      rule: "the connection cut for robots.txt (a network error is a FAIL, not a crash)",
      check: "robots.txt /robots.txt",
      detail: "request failed:",
      tamper: (req) => (req.url === "/robots.txt" ? { cut: true } : undefined),
    },
  ];

  // Each variant has its own proxy and its own child process: they run side by side.
  it.concurrent.each(variants)("fails, naming the check, behind a proxy that breaks one rule: $rule", async ({ check, detail, tamper }) => {
    const proxy = await startProxy(server.url, tamper);
    try {
      const run = await runSmoke([proxy.url]);
      expect(run.code, run.stdout + run.stderr).toBe(1);
      const { ok, failed } = checks(run.stdout);
      expect(failed, run.stdout).toHaveLength(1);
      expect(failed[0]).toContain(`FAIL ${check}: `);
      expect(failed[0]).toContain(detail);
      expect(ok.length).toBeGreaterThanOrEqual(18);
      expect(run.stdout).toMatch(new RegExp(`^FAILED: ${ok.length} of ${ok.length + 1} checks ok`, "m"));
    } finally {
      await proxy.close();
    }
  });

  it.each([
    { args: [], why: "no URL" },
    { args: ["ftp://example.org"], why: "not http(s)" },
    { args: ["open-series-uy.pages.dev"], why: "no scheme" },
    { args: ["https://a.example", "https://b.example"], why: "two URLs" },
  ])("exits 2 on a usage error: $why", async ({ args }) => {
    const run = await runSmoke(args);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("usage: npm run smoke -- <base-url>");
    expect(run.stdout).toBe("");
  });
});
