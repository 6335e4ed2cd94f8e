/**
 * `scripts/cli.ts` as npm runs it, in a child process: what the in-process tests of
 * src/builder/cli.ts cannot show (the process's exit code and streams).
 */
import { describe, expect, it } from "vitest";
import { runCliProcess } from "../helpers.js";

describe.concurrent("the CLI as a process", () => {
  it("exits 2 on a usage error, printing it on stderr", async () => {
    const result = await runCliProcess(["build", "--limits", "0"]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/--limits.*expected integers from 1 to 5000/);
  });

  it("exits 1 on bad data, naming file:line, and 0 on good data", async () => {
    const bad = await runCliProcess(["validate", "--data", "test/fixtures/bad/bad-values/data"]);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/^test\/fixtures\/bad\/bad-values\/data\/tiny\/a\.csv:\d+: value: /m);
    const good = await runCliProcess(["validate", "--data", "test/fixtures/golden/data"]);
    expect(good.code, good.stderr).toBe(0);
    expect(good.stdout).toContain("ok: 1 indicators, 6 points");
  });
});
