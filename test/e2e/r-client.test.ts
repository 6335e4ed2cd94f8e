/**
 * The R client (clients/r, package `openseriesuy`) against the API served by
 * workerd: the package installed into a temporary library, then its testthat
 * tests (clients/r/tests/testthat) run by Rscript as a child process
 * (test/r/run-testthat.R), told where the servers and the data are:
 * - `OSU_BASE_URL`, `OSU_DATA`: the real data served, and its CSV files, which the
 *   R tests read with `utils::read.csv` and compare every answer with;
 * - `OSU_TIGHT_URL`: the server of 5 requests per 3 s (a 429 waited on, or signalled);
 * - `OSU_HISTORY_URL`, `OSU_HISTORY_VERSIONS`: the synthetic history and each day's
 *   data folder (`as_of`, `/changes`).
 * Each R test skips without them (so `R CMD check` passes offline: `npm run
 * check:r`); here a skip fails, as a failure or an error does.
 */
import { mkdir, readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, expect, inject, it } from "vitest";
import { ROOT, runProcess, tempDir } from "../helpers.js";

/** One testthat test, as test/r/run-testthat.R writes it. */
interface RTest {
  readonly file: string;
  readonly test: string;
  readonly expectations: number;
  readonly failed: number;
  readonly error: boolean;
  readonly skipped: boolean;
  readonly seconds: number;
}

let dir: string;
let library: string;

beforeAll(async () => {
  const ensured = await runProcess("bash", [join(ROOT, "scripts/ensure-r.sh")]);
  expect(ensured.code, ensured.stderr).toBe(0);
  dir = await tempDir("open-series-r-client-");
  library = join(dir, "library");
  await mkdir(library);
  // The help pages are R CMD check's (npm run check:r); the tests need the code.
  const installed = await runProcess("R", ["CMD", "INSTALL", "--no-docs", "-l", library, join(ROOT, "clients/r")]);
  expect(installed.code, installed.stderr).toBe(0);
}, 300_000);

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

it("passes every testthat test of the R client against the served API, none skipped", async () => {
  const system = inject("system");
  const versions = join(dir, "history-versions.json");
  await writeFile(versions, JSON.stringify(system.historyVersions));
  const results = join(dir, "results.json");
  const run = await runProcess("Rscript", [join(ROOT, "test/r/run-testthat.R"), library, join(ROOT, "clients/r/tests/testthat"), results], {
    OSU_BASE_URL: system.urls.main,
    OSU_DATA: join(ROOT, "data"),
    OSU_TIGHT_URL: system.urls.tight,
    OSU_HISTORY_URL: system.urls.history,
    OSU_HISTORY_VERSIONS: versions,
  });
  expect(run.code, `${run.stdout}\n${run.stderr}`).toBe(0);
  const { tests, compared } = JSON.parse(await readFile(results, "utf8")) as { tests: RTest[]; compared: number };
  const expectations = tests.reduce((sum, t) => sum + t.expectations, 0);
  console.log(`R client: ${tests.length} testthat tests, ${expectations} expectations, ${compared} calls compared with the CSV files`);
  expect(
    tests.filter((t) => t.failed > 0 || t.error || t.skipped).map((t) => `${t.file}: ${t.test}`),
    run.stdout,
  ).toEqual([]);
  // Every test file ran (values, provenance, selection, paging, as_of, the other endpoints, the errors, the 429s).
  expect(new Set(tests.map((t) => t.file))).toEqual(new Set(["test-values.R", "test-as-of.R", "test-endpoints.R", "test-errors.R"]));
  expect(tests.length).toBeGreaterThanOrEqual(17);
  expect(compared).toBeGreaterThanOrEqual(60);
}, 180_000);

it("passes R CMD check offline with status OK: no error, warning or note (npm run check:r)", async () => {
  // The tests above need the servers; the check runs the package's tests without them (each skips) and
  // checks the code, the help pages against it, the DESCRIPTION and the dependencies (about 14 s alone).
  const checked = await runProcess("bash", [join(ROOT, "scripts/check-r.sh")]);
  expect(checked.code, `${checked.stdout}\n${checked.stderr}`).toBe(0);
  expect(checked.stdout).toMatch(/^Status: OK$/m);
}, 180_000);
