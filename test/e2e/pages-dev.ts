/**
 * Starts the real runtime for end-to-end tests: `wrangler pages dev` (workerd) on a
 * free loopback port, serving a built output folder with the project's functions.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { createServer } from "node:net";
import { join } from "node:path";
import { ROOT, tempDir } from "../helpers.js";

/** A free TCP port on the loopback interface. */
export function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const server = createServer();
    server.unref();
    server.on("error", fail);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => (typeof address === "object" && address !== null ? done(address.port) : fail(new Error("no port"))));
    });
  });
}

export interface PagesDev {
  /** Base URL, e.g. `http://127.0.0.1:41234`. */
  readonly url: string;
  /** Everything the process printed so far (for failure messages). */
  output(): string;
  stop(): Promise<void>;
}

/**
 * Runs `wrangler pages dev <dir>` with `bindings` as extra vars (e.g. a small usage
 * limit), and resolves once it answers HTTP.
 */
export async function startPagesDev(dir: string, bindings: Record<string, string> = {}): Promise<PagesDev> {
  const port = await freePort();
  const inspectorPort = await freePort();
  const args = [
    join(ROOT, "node_modules/wrangler/bin/wrangler.js"),
    "pages",
    "dev",
    dir,
    "--ip",
    "127.0.0.1",
    "--port",
    String(port),
    "--inspector-port",
    String(inspectorPort),
    "--persist-to",
    await tempDir("wrangler-state-"),
    "--show-interactive-dev-session=false",
    ...Object.entries(bindings).flatMap(([k, v]) => ["--binding", `${k}=${v}`]),
  ];
  let output = "";
  const child: ChildProcess = spawn(process.execPath, args, {
    cwd: ROOT,
    detached: true, // own process group, so stop() also ends workerd
    env: { ...process.env, WRANGLER_SEND_METRICS: "false", CI: "true", NO_COLOR: "1" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stdout?.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const url = `http://127.0.0.1:${port}`;
  const stop = async () => {
    if (child.exitCode !== null || child.pid === undefined) return;
    const exited = new Promise<void>((done) => child.once("exit", () => done()));
    process.kill(-child.pid, "SIGTERM");
    const timer = setTimeout(() => child.pid !== undefined && process.kill(-child.pid, "SIGKILL"), 5_000);
    await exited;
    clearTimeout(timer);
  };
  const deadline = Date.now() + 90_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`wrangler pages dev exited with ${child.exitCode}:\n${output}`);
    try {
      const response = await fetch(`${url}/api/v1/index.json`);
      if (response.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`wrangler pages dev did not answer within 90 s:\n${output}`);
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  return { url, output: () => output, stop };
}
