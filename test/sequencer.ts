/**
 * The order of the test files within a group of layers (vitest.config.ts). The
 * integration and system layers share one pool of two workers; vitest's own
 * sequencer runs one project's files before the next one's, and on a fresh clone
 * (no timings cached) in the order it found them, so the longest file, the browser
 * test (about 100 s then), started last and ran alone while the other worker idled.
 * Here the files known to be long start first, longest first, each on a worker of
 * its own while the short files fill the other: the group ends when its work,
 * shared by two, is done. The order is fixed, not learned from a cache, so a fresh
 * clone runs as a developer's checkout does.
 */
import { relative } from "node:path";
import { BaseSequencer, type TestSpecification } from "vitest/node";

/** The long files, longest first (seconds in a fresh clone's `npm test` on two cores, b4efccb, 2026-11-28). */
export const LONG_FILES = [
  "test/e2e/browser.test.ts", // ~56 s
  "test/integration/update.test.ts", // ~41 s
  "test/e2e/r-client.test.ts", // ~29 s
  "test/e2e/tail-files.test.ts", // ~24 s
  "test/integration/api-real-data.test.ts", // ~23 s
  "test/integration/build-real.test.ts", // ~21 s
  "test/e2e/history.test.ts", // ~17 s
  "test/e2e/time-oracle.test.ts", // ~17 s
  "test/e2e/api.test.ts", // ~15 s
  "test/reliability/build-faults.test.ts", // ~14 s
  // The unit layer's longest properties.
  "test/unit/due-agreement.test.ts",
  "test/unit/answer-schema.test.ts",
];

export class LongFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const root = this.ctx.config.root;
    const rank = (file: TestSpecification) => {
      const at = LONG_FILES.indexOf(relative(root, file.moduleId));
      return at < 0 ? LONG_FILES.length : at;
    };
    const group = (file: TestSpecification) => file.project.config.sequence.groupOrder;
    // Stable: within a rank, vitest's own order (project, then its rules).
    const base = await super.sort(files);
    const position = new Map(base.map((file, i) => [file, i]));
    return [...base].sort((a, b) => group(a) - group(b) || rank(a) - rank(b) || (position.get(a) as number) - (position.get(b) as number));
  }
}
