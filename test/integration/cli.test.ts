/** The command line's contract: exit codes, the file budget, nothing written on failure. */
import { statSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCli, tempDir, treeDigest } from "../helpers.js";

const GOLDEN = "test/fixtures/golden/data";

describe.concurrent("cli", () => {
  it.each([
    [["build", "--limits", "0"], /--limits.*expected integers from 1 to 5000/],
    [["build", "--limits", "10,abc"], /--limits.*"abc"/],
    [["build", "--max-files", "-3"], /--max-files/],
    [["build", "--site-url", "ftp://x"], /--site-url.*http\(s\) URL/],
    [["build", "--frobnicate"], /unknown option '--frobnicate'/],
    [["deploy-everything"], /unknown command/],
  ])("%j is a usage error: exit 2", async (args, message) => {
    const result = await runCli(args);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(message);
  });

  it("rejects a malformed SOURCE_DATE_EPOCH with exit 2", async () => {
    const result = await runCli(["build", "--data", GOLDEN, "--out", join(await tempDir(), "d")], { SOURCE_DATE_EPOCH: "yesterday" });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("SOURCE_DATE_EPOCH");
  });

  it("stops over the file budget before writing, naming the options to change", async () => {
    const out = join(await tempDir(), "dist");
    expect((await runCli(["build", "--data", GOLDEN, "--out", out], { SOURCE_DATE_EPOCH: "1" })).code).toBe(0);
    const before = treeDigest(out);
    const result = await runCli(["build", "--data", GOLDEN, "--out", out, "--limits", "1,2,3", "--max-files", "15"]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("over the budget of 15");
    expect(result.stderr).toMatch(/--limits.*--max-files/);
    expect(treeDigest(out)).toEqual(before);
  });

  it("moves files to R2 to keep within the file budget, instead of leaving any out, and writes them beside the output by their SHA-256", async () => {
    const out = join(await tempDir(), "dist");
    expect((await runCli(["build", "--data", GOLDEN, "--out", out], { SOURCE_DATE_EPOCH: "1" })).code).toBe(0);
    const all = treeDigest(out);
    const result = await runCli(["build", "--data", GOLDEN, "--out", out, "--max-files", String(all.size - 5), "--no-r2-state"], { SOURCE_DATE_EPOCH: "1" });
    expect(result.code, result.stderr).toBe(0);
    const onPages = treeDigest(out);
    expect(onPages.size).toBe(all.size - 5);
    // The indicator's index (one more file) and six of its files moved: the prebuilt pages of other limits first.
    const moved = [...all.keys()].filter((path) => !onPages.has(path));
    expect(moved.sort()).toEqual([10, 100, 1000, 50, 500, 5000].map((limit) => `api/v1/tiny-wages/limit-${limit}/offset-0.json`));
    // In one object, the indicator's pack (src/builder/r2-pack.ts), named by the SHA-256 of its bytes.
    const packs = treeDigest(`${out}.r2`);
    expect([...packs].map(([key, sha256]) => key === sha256)).toEqual([true]);
    expect(result.stdout).toContain(`6 files moved to R2 (src/builder/host-plan.ts): 1 object (a pack per tail indicator) in ${out}.r2`);
  });

  it("stops at a file over the size limit (Cloudflare Pages: 25 MiB), naming it, and leaves the previous output as it was", async () => {
    const out = join(await tempDir(), "dist");
    expect((await runCli(["build", "--data", GOLDEN, "--out", out], { SOURCE_DATE_EPOCH: "1" })).code).toBe(0);
    const before = treeDigest(out);
    const largest = [...before.keys()].map((path) => ({ path, size: statSync(join(out, path)).size })).sort((a, b) => b.size - a.size)[0] as { path: string; size: number };
    const result = await runCli(["build", "--data", GOLDEN, "--out", out, "--max-file-bytes", String(largest.size - 1)], { SOURCE_DATE_EPOCH: "1" });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`${largest.path}: ${largest.size} bytes`);
    expect(result.stderr).toContain("--max-file-bytes");
    expect(treeDigest(out)).toEqual(before);
    // At exactly its size, the build passes.
    expect((await runCli(["build", "--data", GOLDEN, "--out", out, "--max-file-bytes", String(largest.size)], { SOURCE_DATE_EPOCH: "1" })).code).toBe(0);
  });

  it("validates data without writing anything", async () => {
    const result = await runCli(["validate", "--data", GOLDEN]);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("ok: 1 indicators, 6 points");
  });

  it("says so when the data folder does not exist", async () => {
    const result = await runCli(["validate", "--data", "no/such/folder"]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("no/such/folder: no indicator folders");
  });
});
