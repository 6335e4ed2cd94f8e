/**
 * Golden test: a tiny hand-written data folder built by the CLI and compared file by
 * file with the expected tree in test/fixtures/golden/expected. The expected tree is
 * never regenerated in CI; after an intended change, regenerate it locally with
 * `UPDATE_GOLDEN=1 npx vitest run test/integration/golden.test.ts` and review the diff.
 */
import { cpSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT, runCli, tempDir, treeDigest } from "../helpers.js";

const FIXTURE = join(ROOT, "test/fixtures/golden");
const EXPECTED = join(FIXTURE, "expected");

describe("golden build", () => {
  it("builds the tiny fixture into exactly the expected tree", async () => {
    const out = join(await tempDir(), "dist");
    const result = await runCli(
      ["build", "--data", "test/fixtures/golden/data", "--out", out, "--limits", "2,3", "--site-url", "https://example.test", "--no-history"],
      { SOURCE_DATE_EPOCH: "1700000000" },
    );
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    if (process.env.UPDATE_GOLDEN === "1" && process.env.CI === undefined) {
      rmSync(EXPECTED, { recursive: true, force: true });
      cpSync(out, EXPECTED, { recursive: true });
    }
    const actual = treeDigest(out);
    const expected = treeDigest(EXPECTED);
    expect([...actual.keys()]).toEqual([...expected.keys()]);
    for (const path of expected.keys()) {
      // Compare the text, so a failure shows the diff of the file that changed.
      expect(readFileSync(join(out, path), "utf8"), path).toBe(readFileSync(join(EXPECTED, path), "utf8"));
    }
  });
});
