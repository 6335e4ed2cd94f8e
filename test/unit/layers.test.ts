/**
 * The folders' roles as a test: the tools under scripts/ (the CLI, the bench, the
 * phone measurement, the answer recorder) never import from test/, so a test can be
 * changed without breaking a tool; what both need lives in scripts/lib/ or src/.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = join(import.meta.dirname, "../..");

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? files(path) : /\.(ts|mjs|js)$/.test(name) ? [path] : [];
  });
}

/** The relative module specifiers a source file imports (static and dynamic). */
function imports(text: string): string[] {
  return [...text.matchAll(/(?:from\s+|import\s*\(\s*)["'](\.[^"']+)["']/g)].map((m) => m[1] as string);
}

describe("the folders' roles", () => {
  it("no file under scripts/ imports from test/", () => {
    const offending = files(join(ROOT, "scripts")).flatMap((file) =>
      imports(readFileSync(file, "utf8"))
        .filter((spec) => relative(ROOT, resolve(file, "..", spec)).startsWith("test/"))
        .map((spec) => `${relative(ROOT, file)} imports ${spec}`),
    );
    expect(offending).toEqual([]);
  });

  it("finds an import from test/ when there is one (the check can fail)", () => {
    const file = join(ROOT, "scripts/bench/run.ts");
    expect(relative(ROOT, resolve(file, "..", imports('import { x } from "../../test/helpers.js";')[0] as string))).toBe("test/helpers.js");
  });
});

describe("the order of the long test files (test/sequencer.ts)", () => {
  it("names files that exist, each once: a renamed file would silently lose its place", async () => {
    const { LONG_FILES } = await import("../sequencer.js");
    expect(LONG_FILES.filter((file) => !statSync(join(ROOT, file), { throwIfNoEntry: false })?.isFile())).toEqual([]);
    expect(new Set(LONG_FILES).size).toBe(LONG_FILES.length);
  });

  it("runs one project's files together, the project of the longest file first, its long files first", async () => {
    const { LONG_FILES, runOrder } = await import("../sequencer.js");
    const [longest, second, third] = LONG_FILES as [string, string, string];
    const queued = [
      { group: 1, project: "b", path: "b/short.test.ts" },
      { group: 1, project: "b", path: third },
      { group: 1, project: "a", path: second },
      { group: 1, project: "a", path: "a/short.test.ts" },
      { group: 0, project: "u", path: "u/short.test.ts" },
      { group: 1, project: "b", path: longest },
    ];
    expect(runOrder(queued).map((file) => file.path)).toEqual(["u/short.test.ts", longest, third, "b/short.test.ts", second, "a/short.test.ts"]);
  });
});
