// Three layers, `npm test` runs them all:
// - `unit`: pure modules, the in-process build of small fixtures, the handler in
//   Node; the inner loop (`npm run test:unit`, seconds);
// - `integration`: the real data built in process and answered by the handler in
//   Node: every prebuilt page against the reference, random windows, properties;
// - `system`: what only workerd, Chromium, nginx or a child process can show,
//   against servers started once per run by test/e2e/global-setup.ts.
import { availableParallelism } from "node:os";
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    testTimeout: 60_000,
    hookTimeout: 120_000,
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
          // Its files share nothing (each builds into its own temporary folders, copies
          // the data it writes to, and starts no server): two at a time.
          maxWorkers: 2,
          sequence: { groupOrder: 1 },
        },
      },
      {
        extends: true,
        test: {
          name: "system",
          include: ["test/e2e/**/*.test.ts", "test/reliability/**/*.test.ts"],
          globalSetup: ["test/e2e/global-setup.ts"],
          // One file at a time: the files share the servers of the global setup (the
          // usage-limit ones count every request), so two files at once disturb each other.
          sequence: { groupOrder: 2 },
        },
      },
    ],
  },
});
