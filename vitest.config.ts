// Three layers, `npm test` runs them all:
// - `unit`: pure modules, small fixtures built in process, the handler in Node; the
//   inner loop (`npm run test:unit`, seconds): no git, no build of the real data or of
//   thousands of sub-series, no thousands of property runs;
// - `integration`: the real data built in process and answered by the handler in
//   Node (every prebuilt page against the reference, random windows, properties), and
//   what runs git, the CLI's fault corpus or long properties over small fixtures;
// - `system`: what only workerd, Chromium, nginx or a child process can show,
//   against servers started once per run by test/e2e/global-setup.ts, two files at
//   a time; then `system-limits`, the file that times a usage-limit window of 3 s, alone.
// The real data is built once per run (test/real-build.ts) for both last layers.
import { availableParallelism } from "node:os";
import { defineConfig } from "vitest/config";
import { LongFirstSequencer } from "./test/sequencer.js";

/**
 * The system file whose assertions need its requests inside one usage-limit window of
 * 3 s (the `tight` server). The load test and the OpenAPI test count requests against
 * the `load` server's 20 per 20 s without depending on speed (the load test checks each
 * client by whether its requests fell in one window; the OpenAPI test needs 21 of its
 * 30 requests in 20 s): they run with the other system files.
 */
const SERIAL_SYSTEM_FILES = ["test/e2e/usage-limit.test.ts"];

export default defineConfig({
  test: {
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // expect.poll waits for what a page or a server does next (a group file fetched and
    // drawn): with two system files at a time a render can take seconds, not the default 1 s.
    expect: { poll: { timeout: 15_000 } },
    // The long files first within a group (test/sequencer.ts).
    sequence: { sequencer: LongFirstSequencer },
    // Transformed modules kept between runs (node_modules/.experimental-vitest-cache,
    // keyed by each file's content): a second `npm run test:unit` skips about 3.5 s of
    // its 4 s of transforms, 11 s → 8.5–9 s on two cores. A fresh clone's first run
    // transforms everything, as without it.
    experimental: { fsModuleCache: true },
    projects: [
      {
        extends: true,
        test: {
          name: "unit",
          include: ["test/unit/**/*.test.ts"],
          // The inner loop. Each worker runs its files in one module graph
          // (isolate: false): the build and what it imports (exceljs, esbuild, zod…)
          // are loaded, and the page script bundled (test/helpers.ts), once per
          // worker instead of once per file. So a unit test leaves no global state
          // behind: fake timers restored after each test, no vi.mock, no env writes.
          isolate: false,
          // Two workers even on two cores (vitest's default is cores − 1).
          maxWorkers: Math.max(2, availableParallelism() - 1),
          // A project with its own maxWorkers needs its own group (run first).
          sequence: { groupOrder: 0 },
        },
      },
      {
        extends: true,
        test: {
          name: "integration",
          include: ["test/integration/**/*.test.ts"],
          // The real data built once for the files that read it (test/real-build.ts,
          // shared with the system layer); a file that writes builds or copies its own.
          // The files share nothing else (no server): two at a time.
          globalSetup: ["test/integration/global-setup.ts"],
          // One module graph per worker, as in the unit layer (the same rules hold: no
          // module mocks, no env writes, no fake timers here): the build and the handler are
          // imported once per worker, not once per file.
          isolate: false,
          maxWorkers: 2,
          sequence: { groupOrder: 1 },
        },
      },
      {
        extends: true,
        test: {
          name: "system",
          include: ["test/e2e/**/*.test.ts", "test/reliability/**/*.test.ts"],
          exclude: SERIAL_SYSTEM_FILES,
          globalSetup: ["test/e2e/global-setup.ts"],
          // A deadline on every request to those servers, naming a request never answered.
          setupFiles: ["test/e2e/deadline.ts"],
          isolate: false,
          // Two files at a time: they share the servers of the global setup but no
          // counter (each sends its own CF-Connecting-IP) and no file.
          maxWorkers: 2,
          // The same group as the integration layer: one pool of two workers for both,
          // so neither layer's last long file leaves a core idle.
          sequence: { groupOrder: 1 },
        },
      },
      {
        extends: true,
        test: {
          name: "system-limits",
          include: SERIAL_SYSTEM_FILES,
          // The same servers (the setup starts them once per run).
          globalSetup: ["test/e2e/global-setup.ts"],
          setupFiles: ["test/e2e/deadline.ts"],
          // Alone, after the others: a busy second worker could stretch its 5 requests
          // past the 3-s window.
          maxWorkers: 1,
          sequence: { groupOrder: 2 },
        },
      },
    ],
  },
});
