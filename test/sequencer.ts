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
 *
 * Within a group, one project's files run together, the project of the longest file
 * first. A worker serves one project: when the next file in the queue is another
 * project's, vitest ends the worker and starts a new one, which imports every module
 * again. Long files of both projects in turn made twelve workers for the group, and
 * each paid its imports; one project after the other makes four.
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

/** What the order reads of a test file: its group of layers, its project, its path from the root. */
export interface Queued {
  readonly group: number;
  readonly project: string;
  readonly path: string;
}

/**
 * `files` in the order they run: by group; within one, a project's files together,
 * the project of the longest file first; within a project, the long files longest
 * first, then the others in their given order.
 */
export function runOrder<T extends Queued>(files: readonly T[]): T[] {
  const rank = (file: Queued) => {
    const at = LONG_FILES.indexOf(file.path);
    return at < 0 ? LONG_FILES.length : at;
  };
  // A project ranks as its longest file.
  const projectRank = new Map<string, number>();
  for (const file of files) projectRank.set(file.project, Math.min(projectRank.get(file.project) ?? Infinity, rank(file)));
  const project = (file: Queued) => projectRank.get(file.project) as number;
  const position = new Map(files.map((file, i) => [file, i]));
  return [...files].sort(
    (a, b) =>
      a.group - b.group ||
      project(a) - project(b) ||
      a.project.localeCompare(b.project) ||
      rank(a) - rank(b) ||
      (position.get(a) as number) - (position.get(b) as number),
  );
}

export class LongFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const root = this.ctx.config.root;
    // Stable: within a rank, vitest's own order (project, then its rules).
    const base = (await super.sort(files)).map((spec) => ({ spec, group: spec.project.config.sequence.groupOrder, project: spec.project.name, path: relative(root, spec.moduleId) }));
    return runOrder(base).map((file) => file.spec);
  }
}
