/**
 * The system layer's shared fixtures, made once per test run: the real data built
 * in process (the default build, and one prebuilding only limit 7 so that every
 * other page is computed), and one `wrangler pages dev` per configuration the
 * tests need, on free loopback ports. Tests read them with `inject`.
 *
 * - `main`: the default build, a usage limit too high to reach;
 * - `alt`: the limit-7 build, the same high limit;
 * - `tight`: the default build, 5 requests per 3 s (429 and recovery);
 * - `load`: the default build, 20 requests per 20 s (the load test, the 429 schema check);
 * - `history`: a build of the synthetic data history (test/history-repo.ts, its
 *   repository `historyRepo`), for `as_of` and `/changes` (test/e2e/history.test.ts)
 *   and the clients' pinning: `historyVersions` gives, per day with a commit, the data
 *   folder of that day's last commit (a clone checked out there), to compare with. Its
 *   answers and history are sharded one sub-series a file (`--shard-bytes 1`: a question
 *   reads only its sub-series'), only the 5000-point pages prebuilt and no sub-series'
 *   default answer written as a file (computed instead: the same bytes).
 * Tests that count requests against a limit send their own `CF-Connecting-IP`
 * (wrangler passes a client-sent one through), so files never share a counter.
 */
import { join } from "node:path";
import type { TestProject } from "vitest/node";
import { runCli, tempDir } from "../helpers.js";
import { realBuild } from "../real-build.js";
import { dataAt, syntheticHistory } from "../history-repo.js";
import { startPagesDev, type PagesDev } from "../../scripts/lib/pages-dev.js";

import { EPOCH } from "../epoch.js";

export { EPOCH };

/** The synthetic history's data version (SOURCE_DATE_EPOCH): 2026-08-01, after its last commit. */
const HISTORY_EPOCH = String(Date.UTC(2026, 7, 1) / 1000);
/** The `history` server's build options (test/e2e/history.test.ts builds each day's data so to compare). */
export const HISTORY_BUILD_OPTIONS: readonly string[] = ["--limits", "5000", "--no-series-files", "--shard-bytes", "1"];

export interface SystemFixtures {
  readonly mainDir: string;
  readonly altDir: string;
  readonly urls: { readonly main: string; readonly alt: string; readonly tight: string; readonly load: string; readonly history: string };
  /** Per server, the file of what it prints (scripts/lib/pages-dev.ts `log`): test/e2e/deadline.ts quotes it. */
  readonly logs: { readonly main: string; readonly alt: string; readonly tight: string; readonly load: string; readonly history: string };
  /** The `history` server's data, day by day (oldest first): the data folder of each day's last commit. */
  readonly historyVersions: readonly { readonly day: string; readonly data: string }[];
  /** The synthetic history the `history` server was built from (test/history-repo.ts). */
  readonly historyRepo: Awaited<ReturnType<typeof syntheticHistory>>;
}

declare module "vitest" {
  export interface ProvidedContext {
    system: SystemFixtures;
  }
}

/** Stops every server of `starting` that started. */
async function stopStarted(starting: readonly Promise<PagesDev>[]): Promise<void> {
  const started = (await Promise.allSettled(starting)).flatMap((s) => (s.status === "fulfilled" ? [s.value] : []));
  await Promise.all(started.map((server) => server.stop()));
}

/** The servers and outputs, started once per run: both system projects ask (vitest.config.ts), the first starts them. */
async function start(): Promise<{ fixtures: SystemFixtures; stop: () => Promise<void> }> {
  const dir = await tempDir();
  const altDir = join(dir, "alt");
  // The servers need the output only: the change report (git) is build-real.test.ts's.
  const build = async (out: string, extra: readonly string[], epoch = EPOCH) => {
    const built = await runCli(["build", "--out", out, "--no-base", ...extra], { SOURCE_DATE_EPOCH: epoch });
    if (built.code !== 0) throw new Error(`build failed:\n${built.stderr}`);
  };
  const high = { RATE_LIMIT_REQUESTS: "1000000" };
  // The main output is the one build of the real data the integration layer reads too.
  const mainDir = await realBuild();
  // The main build's three servers start (other processes) while this one builds the second output.
  const starting = [
    startPagesDev(mainDir, high),
    startPagesDev(mainDir, { RATE_LIMIT_REQUESTS: "5", RATE_LIMIT_WINDOW_SECONDS: "3" }),
    startPagesDev(mainDir, { RATE_LIMIT_REQUESTS: "20", RATE_LIMIT_WINDOW_SECONDS: "20" }),
  ];
  // Awaited below; handled now, so a server failing during the build is reported there, not as an unhandled rejection.
  for (const server of starting) server.catch(() => undefined);
  // No history: the alt server answers computed pages; as_of is the main server's (test/e2e/history.test.ts).
  await build(altDir, ["--limits", "7", "--no-history"]).catch(async (error: unknown) => {
    await stopStarted(starting);
    throw error;
  });
  starting.push(startPagesDev(altDir, high));
  const synthetic = await syntheticHistory();
  const historyDir = join(dir, "history");
  await build(historyDir, ["--data", synthetic.data, ...HISTORY_BUILD_OPTIONS], HISTORY_EPOCH).catch(async (error: unknown) => {
    await stopStarted(starting);
    throw error;
  });
  starting.push(startPagesDev(historyDir, high));
  // The last commit of each day is that day's version (test/history-repo.ts).
  const lastOfDay = new Map(synthetic.commits.map((c) => [c.day, c.commit]));
  const historyVersions = await Promise.all([...lastOfDay].map(async ([day, commit]) => ({ day, data: await dataAt(synthetic.dir, commit) })));
  // One server that fails to start stops the others: a failed setup leaves no process behind.
  const settled = await Promise.allSettled(starting);
  const failed = settled.find((s): s is PromiseRejectedResult => s.status === "rejected");
  if (failed !== undefined) {
    await stopStarted(starting);
    throw failed.reason;
  }
  const [main, tight, load, alt, history] = settled.map((s) => (s as PromiseFulfilledResult<PagesDev>).value) as [PagesDev, PagesDev, PagesDev, PagesDev, PagesDev];
  const servers = [main, alt, tight, load, history];
  let stopped: Promise<void> | undefined;
  return {
    fixtures: {
      mainDir,
      altDir,
      urls: { main: main.url, alt: alt.url, tight: tight.url, load: load.url, history: history.url },
      logs: { main: main.log, alt: alt.log, tight: tight.log, load: load.log, history: history.log },
      historyVersions,
      historyRepo: synthetic,
    },
    stop: () => (stopped ??= Promise.all(servers.map((s) => s.stop())).then(() => undefined)),
  };
}

const KEY = Symbol.for("open-series-uy.system-fixtures");
const shared = globalThis as { [KEY]?: ReturnType<typeof start> };

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  // Memoised on globalThis: the setup runs once per project, in vitest's main process.
  const started = await (shared[KEY] ??= start());
  project.provide("system", started.fixtures);
  return started.stop;
}
