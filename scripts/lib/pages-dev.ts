/**
 * Starts the real runtime for end-to-end tests: `wrangler pages dev` (workerd) on a
 * free loopback port, serving a built output folder with the project's functions.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { createWriteStream, readFileSync } from "node:fs";
import { createServer } from "node:net";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import WebSocket from "ws";
import { descendants, processName } from "./proc.js";

const ROOT = resolve(import.meta.dirname, "../..");

/**
 * The range the kernel hands out ephemeral ports from (Linux: ip_local_port_range).
 * A port chosen with `listen(0)` and freed again is in it, so before the server it
 * was chosen for binds it, any process that binds port 0 can be given it: seen as
 * workerd failing with "Address already in use" when four `wrangler pages dev`
 * start at once (each one's miniflare binds ephemeral ports of its own).
 */
function ephemeralRange(): [number, number] {
  try {
    const [low, high] = readFileSync("/proc/sys/net/ipv4/ip_local_port_range", "utf8").trim().split(/\s+/).map(Number);
    if (low !== undefined && high !== undefined && low > 0 && high >= low) return [low, high];
  } catch {
    // Not Linux: the IANA dynamic range.
  }
  return [49152, 65535];
}

/** Ports this process handed out: never twice, even before their server binds them. */
const handedOut = new Set<number>();

/** True when `port` can be bound on the loopback interface now. */
function bindable(port: number): Promise<boolean> {
  return new Promise((done) => {
    const server = createServer();
    server.unref();
    server.once("error", () => done(false));
    server.listen(port, "127.0.0.1", () => server.close(() => done(true)));
  });
}

/**
 * A free TCP port on the loopback interface, below the ephemeral range (so no
 * process binding port 0 can take it before its server does), chosen at random
 * (so two test processes seldom try the same one), never the same twice here.
 */
export async function freePort(): Promise<number> {
  const [ephemeralLow] = ephemeralRange();
  const low = 10_000;
  const high = Math.min(ephemeralLow, 65_536) - 1;
  for (let tries = 0; tries < 1_000; tries++) {
    const port = low + Math.floor(Math.random() * (high - low));
    if (handedOut.has(port) || !(await bindable(port))) continue;
    handedOut.add(port);
    return port;
  }
  throw new Error(`no free port in ${low}..${high}`);
}

export interface PagesDev {
  /** Base URL, e.g. `http://127.0.0.1:41234`. */
  readonly url: string;
  /** The wrangler process's id: workerd runs below it (scripts/bench/workerd.ts reads its threads' CPU). */
  readonly pid: number;
  /** The port of wrangler's inspector proxy, where DevTools connect (scripts/bench/workerd.ts turns its network events off). */
  readonly inspectorPort: number;
  /** Everything the process printed so far (for failure messages). */
  output(): string;
  /** A file holding the same, as it is printed: other processes (test workers) read it to name what the server did. */
  readonly log: string;
  stop(): Promise<void>;
}

/**
 * Connects to wrangler's inspector proxy (`port`) as DevTools would and turns off
 * the runtime's `Network` domain, which wrangler turns on for DevTools' network
 * tab whether or not DevTools is open. With it on, workerd writes a DevTools event
 * for every 4 KB of every body a function fetches (an asset, here) and sends it
 * over its inspector socket, on the isolate's CPU; wrangler's proxy then posts
 * each one to wrangler's Node process, which appends it to its debug log (the
 * main test server logged 24,917 in one run, and under bursts those posts failed
 * by the hundreds, each failure logged the same way). Measured: 24.4, 18.8 and
 * 25.1 ms of the runtime's CPU for a cold narrow question of the 1M daily
 * indicator (1.5 MB read) with it on, 14.6, 13.2 and 15.0 off. Production has no
 * inspector. The socket stays open until the server stops (wrangler forwards
 * DevTools' messages while one is connected). wrangler sends `Network.enable`
 * again when it reloads the worker (a change to the served folder or the
 * functions); the servers of the tests and benches are not reloaded.
 */
/** How long the inspector's handshake and its answer to Network.disable may each take. */
const INSPECTOR_TIMEOUT_MS = 30_000;

async function networkEventsOff(port: number): Promise<WebSocket> {
  // The proxy holds the upgrade until its runtime's socket is ready: bounded, as the answer below is.
  // The bounds are for a hang, not a measure: the test suite starts four servers while its unit layer
  // keeps both cores busy, and an answer then took over 5 s (two whole runs failed so at 5 s).
  const socket = new WebSocket(`ws://127.0.0.1:${port}/`, { headers: { Origin: "http://127.0.0.1" }, handshakeTimeout: INSPECTOR_TIMEOUT_MS });
  await new Promise<void>((done, fail) => {
    socket.once("open", () => done());
    socket.once("error", fail);
  });
  // Later errors (the server stopping) end nothing: the socket is only kept open.
  socket.on("error", () => undefined);
  const id = 1;
  await new Promise<void>((done, fail) => {
    const answer = (data: Buffer) => {
      const message = JSON.parse(data.toString("utf8")) as { id?: number; error?: { message?: string } };
      if (message.id !== id) return;
      clearTimeout(timer);
      socket.off("message", answer);
      if (message.error === undefined) done();
      else fail(new Error(`the inspector refused Network.disable: ${message.error.message ?? JSON.stringify(message.error)}`));
    };
    const timer = setTimeout(() => {
      socket.off("message", answer);
      fail(new Error(`the inspector did not answer Network.disable within ${INSPECTOR_TIMEOUT_MS / 1000} s`));
    }, INSPECTOR_TIMEOUT_MS);
    socket.on("message", answer);
    socket.send(JSON.stringify({ id, method: "Network.disable" }));
  });
  return socket;
}

/**
 * Pauses the esbuild service wrangler keeps running below `pid` to rebuild the
 * functions when their files change. A server of the tests or benches serves one
 * checkout that nothing edits while it runs, and that watcher cost 4–6 % of a core
 * per idle server (the five servers of a test run: 60–86 CPU-s each in a run of 26
 * minutes on the loaded machine, by process accounting). Nothing else asks it for
 * anything once the functions are built; `stop()` resumes it before ending the
 * process group, so it exits as wrangler stops it.
 */
function pauseRebuilds(pid: number): void {
  let below: number[];
  try {
    below = descendants(pid);
  } catch {
    return; // no /proc (not Linux): the watcher keeps running
  }
  for (const watcher of below) {
    try {
      if (processName(watcher) === "esbuild") process.kill(watcher, "SIGSTOP");
    } catch {
      // It ended meanwhile.
    }
  }
}

/**
 * Runs `wrangler pages dev <dir>` with `bindings` as extra vars (e.g. a small usage
 * limit), and resolves once it answers HTTP. `cwd`: the checkout whose `functions/`
 * it runs (by default this one; `npm run measure:phone --root` measures another).
 * `persistTo`: wrangler's local state to serve (`--persist-to`: the R2 objects a build
 * put there, src/builder/local-r2.ts), kept when the server stops; by default a fresh
 * one, removed then.
 */
export async function startPagesDev(dir: string, bindings: Record<string, string> = {}, cwd = ROOT, persistTo?: string): Promise<PagesDev> {
  const port = await freePort();
  const inspectorPort = await freePort();
  const state = persistTo ?? (await mkdtemp(join(tmpdir(), "wrangler-state-")));
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
    state,
    "--show-interactive-dev-session=false",
    // Warnings and errors only (a 500's console.error among them): a line per request, formatted,
    // printed and piped here, cost wrangler's Node process 1.7 of its 4.2 CPU-ms per request
    // (1,000 requests to the real data: 4.2 → 2.5 CPU-s).
    "--log-level",
    "warn",
    ...Object.entries(bindings).flatMap(([k, v]) => ["--binding", `${k}=${v}`]),
  ];
  let output = "";
  // Beside the state, under the run's temporary folder: the printed lines, and wrangler's own debug log, which
  // would otherwise add a file per server to the user's ~/.config/.wrangler/logs.
  const log = `${state}.out`;
  const logStream = createWriteStream(log);
  const child: ChildProcess = spawn(process.execPath, args, {
    cwd,
    detached: true, // own process group, so stop() also ends workerd
    env: { ...process.env, WRANGLER_SEND_METRICS: "false", CI: "true", NO_COLOR: "1", WRANGLER_LOG_PATH: `${state}.debug.log` },
    stdio: ["ignore", "pipe", "pipe"],
  });
  // A write failing (the disk full) loses a log line, never the run.
  logStream.on("error", () => undefined);
  const printed = (chunk: Buffer) => {
    output += chunk.toString();
    // wrangler may still print after stop() has ended the file.
    if (!logStream.writableEnded) logStream.write(chunk);
  };
  child.stdout?.on("data", printed);
  child.stderr?.on("data", printed);
  const url = `http://127.0.0.1:${port}`;
  let inspector: WebSocket | undefined;
  // Ends the process group, then removes wrangler's state folder.
  const stop = async () => {
    inspector?.close();
    if (child.exitCode === null && child.pid !== undefined) {
      const exited = new Promise<void>((done) => child.once("exit", () => done()));
      // A paused process (`pauseRebuilds`) holds a signal until it is resumed.
      process.kill(-child.pid, "SIGCONT");
      process.kill(-child.pid, "SIGTERM");
      const timer = setTimeout(() => child.pid !== undefined && process.kill(-child.pid, "SIGKILL"), 5_000);
      await exited;
      clearTimeout(timer);
    }
    logStream.end();
    await Promise.all([...(persistTo === undefined ? [state] : []), log, `${state}.debug.log`].map((path) => rm(path, { recursive: true, force: true })));
  };
  const deadline = Date.now() + 90_000;
  for (;;) {
    if (child.exitCode !== null) {
      await stop();
      throw new Error(`wrangler pages dev exited with ${child.exitCode}:\n${output}`);
    }
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
  try {
    inspector = await networkEventsOff(inspectorPort);
  } catch (error) {
    await stop();
    throw new Error(`wrangler pages dev's inspector: ${String(error)}\n${output}`);
  }
  // It answered HTTP, so it was spawned: its pid is defined.
  pauseRebuilds(child.pid as number);
  return { url, pid: child.pid as number, inspectorPort, output: () => output, log, stop };
}
