/**
 * The Python client (clients/python) against the served API: installed with pip
 * offline into a temporary folder, then its own unittest suite run against the
 * system layer's servers — the real data (`main`, compared with `data/`'s CSV files
 * read by Python's csv module), the usage limit (`tight`) and the synthetic history
 * (`history`, each day compared with that day's data folder). The suite's runner
 * prints a JSON summary; a failed or skipped Python test fails this file.
 *
 * Python runs as an asynchronous child process (`runProcess`, test/helpers.ts).
 */
import { cp, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { beforeAll, describe, expect, inject, it } from "vitest";
import { ROOT, runProcess, tempDir } from "../helpers.js";

const PYTHON = "/usr/bin/python3";
const CLIENT = join(ROOT, "clients/python");
/** The tests of clients/python/tests: a test added or removed there changes this count. */
const TESTS = 29;

interface Summary {
  tests: number;
  failures: number;
  errors: number;
  skipped: number;
  compared: number;
  facts: Record<string, unknown>;
  package: string;
}

let target = "";
let versions = "";

beforeAll(async () => {
  const ensured = await runProcess("bash", [join(ROOT, "scripts/ensure-python.sh")]);
  expect(ensured.code, ensured.stderr).toBe(0);
  const dir = await tempDir("open-series-python-client-");
  // pip builds in the source folder (build/, *.egg-info): it builds a copy, so nothing is written under clients/python.
  const source = join(dir, "source");
  await cp(CLIENT, source, { recursive: true, filter: (path) => !path.includes("__pycache__") });
  target = join(dir, "target");
  const started = Date.now();
  const pip = ["-m", "pip", "install", "--no-build-isolation", "--no-index", "--no-cache-dir", "--no-compile", "--disable-pip-version-check", "--root-user-action=ignore", "--target", target, source];
  const installed = await runProcess(PYTHON, pip);
  expect(installed.code, installed.stdout + installed.stderr).toBe(0);
  console.log(`pip install (${Date.now() - started} ms): ${installed.stdout.trim().split("\n").at(-1) ?? ""}`);
  versions = join(dir, "history-versions.json");
  await writeFile(versions, JSON.stringify(inject("system").historyVersions));
}, 300_000);

describe("the Python client openseriesuy, installed with pip", () => {
  it("passes its whole unittest suite against the served API, nothing skipped", async () => {
    const { urls } = inject("system");
    const started = Date.now();
    const run = await runProcess(PYTHON, [join(CLIENT, "tests/run.py")], {
      PYTHONPATH: target,
      // No __pycache__ written under clients/python.
      PYTHONDONTWRITEBYTECODE: "1",
      OSU_BASE_URL: urls.main,
      OSU_DATA: join(ROOT, "data"),
      OSU_TIGHT_URL: urls.tight,
      OSU_HISTORY_URL: urls.history,
      OSU_HISTORY_VERSIONS: versions,
    });
    const last = run.stdout.trim().split("\n").at(-1) ?? "";
    expect(last.startsWith("{"), run.stdout + run.stderr).toBe(true);
    const summary = JSON.parse(last) as Summary;
    console.log(`python tests (${Date.now() - started} ms): ${last}`);
    expect({ tests: summary.tests, failures: summary.failures, errors: summary.errors, skipped: summary.skipped }, run.stderr).toEqual({ tests: TESTS, failures: 0, errors: 0, skipped: 0 });
    expect(run.code, run.stderr).toBe(0);
    // The installed copy was tested, not the source folder.
    expect(summary.package.startsWith(target), summary.package).toBe(true);
    expect(summary.compared).toBeGreaterThan(80);
  }, 120_000);
});
