/** Shared helpers of the tests: the CLI and the import command in process (and as child processes), output trees. */
import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { bundleClient, type ClientScripts } from "../src/builder/bundle-client.js";
import { runCli as run } from "../src/builder/cli.js";
import { nodeBuildEffects } from "../src/builder/effects.js";
import { PageSources, pagePolicy } from "../src/builder/page-policy.js";
import { runImport as runImportCli } from "../src/source/import-cli.js";

import { ROOT, sitePages } from "./files.js";

export { ROOT, sitePages, tempDir, treeDigest } from "./files.js";

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Captured lines as a stream would hold them. */
const text = (lines: readonly string[]) => lines.map((line) => `${line}\n`).join("");

/** The browser's scripts (the page script and the early script), bundled once per test process (a stand-in for the build's bundling effect). */
let bundle: Promise<ClientScripts> | undefined;

/**
 * Runs the CLI in process, as `npm run build|validate` would from the project
 * folder, with its output captured. The real effects, but the browser's scripts
 * are bundled once per test process.
 */
export async function runCli(args: readonly string[], env: Record<string, string> = {}): Promise<CliResult> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await run(args, {
    out: (line) => out.push(line),
    err: (line) => err.push(line),
    env,
    root: ROOT,
    cwd: ROOT,
    effects: async (log) => ({ ...(await nodeBuildEffects(ROOT, log)), bundleClient: () => (bundle ??= bundleClient(ROOT)) }),
  });
  return { code, stdout: text(out), stderr: text(err) };
}

/** Runs the import command in process, as `npm run import` would from the project folder, with its output captured. */
export async function runImport(args: readonly string[]): Promise<CliResult> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runImportCli(args, { out: (line) => out.push(line), err: (line) => err.push(line), cwd: ROOT });
  return { code, stdout: text(out), stderr: text(err) };
}

/**
 * Runs a program in a child process without blocking the event loop, and resolves
 * with its exit code (-1 when it could not start) and output.
 *
 * Use this rather than `spawnSync` in a file that also fetches from a server: while
 * the event loop is blocked, undici can neither close its idle keep-alive sockets
 * (after 4 s) nor see the server close them (workerd does after 5 s), and the next
 * `fetch` is written onto a dead socket: `SocketError: other side closed`.
 */
export function runProcess(file: string, args: readonly string[], env: Record<string, string> = {}): Promise<CliResult> {
  return new Promise((done) => {
    execFile(file, args, { cwd: ROOT, env: { ...process.env, ...env }, maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) => {
      const code = error === null ? 0 : typeof error.code === "number" ? error.code : -1;
      done({ code, stdout, stderr });
    });
  });
}

/** Runs `scripts/cli.ts` in a child process, exactly as npm scripts do (for what only a process shows). */
export function runCliProcess(args: readonly string[], env: Record<string, string> = {}): Promise<CliResult> {
  return runProcess(process.execPath, ["--import", "tsx", "scripts/cli.ts", ...args], env);
}

/** Runs `scripts/import.ts` in a child process, exactly as `npm run import` does (the wrapper itself). */
export function runImportProcess(args: readonly string[]): Promise<CliResult> {
  return runProcess(process.execPath, ["--import", "tsx", "scripts/import.ts", ...args]);
}

/**
 * The pages' policies (src/builder/page-policy.ts) as the pages of an output folder
 * imply them: `page` for every page, `embed` for the embed pages, which any site
 * may frame. What the served `Content-Security-Policy` must be.
 */
export function folderPolicies(dir: string): { readonly page: string; readonly embed: string } {
  const sources = new PageSources();
  for (const { file } of sitePages(dir)) sources.add(readFileSync(join(dir, file), "utf8"), file);
  return { page: pagePolicy(sources.code()), embed: pagePolicy(sources.code(), true) };
}

/** A static file server the tests start: the folder it serves can be changed (`serve`), or be none (every request a 404). */
export interface FolderServer {
  readonly url: string;
  serve(dir: string | null): void;
  close(): Promise<void>;
}

/**
 * A tiny static server of a folder on a free loopback port, as any plain host
 * serves a copy of the output (a path's file, `index.html` for a folder, else
 * 404): the source of a mirror's sync in the tests.
 */
export async function serveFolder(dir: string | null): Promise<FolderServer> {
  let root = dir;
  const server = createServer((request, response) => {
    const path = decodeURIComponent(new URL(request.url ?? "/", "http://x").pathname);
    const file = root === null || path.split("/").includes("..") ? null : join(root, path.endsWith("/") ? `${path}index.html` : path);
    readFile(file ?? "/nonexistent/").then(
      (bytes) => response.writeHead(200, { "content-length": bytes.length }).end(bytes),
      () => response.writeHead(404).end(),
    );
  });
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    serve: (next) => (root = next),
    close: () =>
      new Promise((done) => {
        server.close(() => done());
        server.closeAllConnections();
      }),
  };
}
