/**
 * The default build of the real data at the tests' data version (test/epoch.ts),
 * made once per test run and shared: the integration files read it (provided as
 * `realDist` by test/integration/global-setup.ts) and the system servers serve it
 * (test/e2e/global-setup.ts). Both global setups run in vitest's main process; the
 * build is memoised on `globalThis`, so the second asks for the first's promise
 * even if each setup file loaded its own copy of this module. Nothing may write
 * into it: a test that changes an output copies it first.
 */
import { join } from "node:path";
import { EPOCH } from "./epoch.js";
import { runCli, tempDir } from "./helpers.js";

const KEY = Symbol.for("open-series-uy.real-build");
const shared = globalThis as { [KEY]?: Promise<string> };

/** The output folder of `npm run build -- --no-base` over `data/` at `EPOCH`. */
export function realBuild(): Promise<string> {
  shared[KEY] ??= (async () => {
    const out = join(await tempDir("open-series-real-"), "dist");
    const built = await runCli(["build", "--out", out, "--no-base"], { SOURCE_DATE_EPOCH: EPOCH });
    if (built.code !== 0) throw new Error(`the build of the real data failed:\n${built.stderr}`);
    return out;
  })();
  return shared[KEY];
}
