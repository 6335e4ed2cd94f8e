// Three layers, `npm test` runs them all:
// - `unit`: pure modules, the in-process build of small fixtures, the handler in
//   Node; the inner loop (`npm run test:unit`, seconds);
// - `integration`: the real data built in process and answered by the handler in
//   Node: every prebuilt page against the reference, random windows, properties;
// - `system`: what only workerd, Chromium, nginx or a child process can show,
//   against servers started once per run by test/e2e/global-setup.ts.
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    testTimeout: 60_000,
    hookTimeout: 120_000,
    projects: [
      { extends: true, test: { name: "unit", include: ["test/unit/**/*.test.ts"] } },
      { extends: true, test: { name: "integration", include: ["test/integration/**/*.test.ts"] } },
      {
        extends: true,
        test: {
          name: "system",
          include: ["test/e2e/**/*.test.ts", "test/reliability/**/*.test.ts"],
          globalSetup: ["test/e2e/global-setup.ts"],
        },
      },
    ],
  },
});
