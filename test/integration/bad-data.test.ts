/**
 * The corpus of bad data (test/fixtures/bad/<case>/): each case fails `build` and
 * `validate` with exit 1 and exactly the `file:line: column: reason` lines of its
 * expected.txt, while an existing output folder stays byte-identical.
 */
import { cpSync, existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { ROOT, runCli, tempDir, treeDigest } from "../helpers.js";

const CORPUS = join(ROOT, "test/fixtures/bad");
const cases = readdirSync(CORPUS).sort();
const EPOCH = { SOURCE_DATE_EPOCH: "1700000000" };

/** The issue lines of the CLI's error output (its header and footer lines left out). */
const issueLines = (stderr: string) => stderr.split("\n").filter((line) => line.startsWith("test/fixtures/bad/"));

/** A good build, copied as the "previous output" of every case. */
let previous: string;
beforeAll(async () => {
  previous = join(await tempDir(), "dist");
  const first = await runCli(["build", "--data", "test/fixtures/golden/data", "--out", previous], EPOCH);
  expect(first.code, first.stderr).toBe(0);
});

describe.concurrent("bad data corpus", () => {
  it("has at least 12 cases", () => {
    expect(cases.length).toBeGreaterThanOrEqual(12);
  });

  it.each(cases)("%s: rejected with file:line and reason; the previous output stays intact", async (name) => {
    const expected = readFileSync(join(CORPUS, name, "expected.txt"), "utf8").trimEnd().split("\n");
    const out = join(await tempDir(), "dist");
    cpSync(previous, out, { recursive: true });
    const before = treeDigest(out);

    const build = await runCli(["build", "--data", `test/fixtures/bad/${name}/data`, "--out", out], EPOCH);
    expect(build.code).toBe(1);
    expect(issueLines(build.stderr)).toEqual(expected);
    expect(build.stderr).toContain("nothing was written; the previous output is unchanged");
    expect(treeDigest(out)).toEqual(before);
    expect(readdirSync(dirname(out))).toEqual(["dist"]);

    const validate = await runCli(["validate", "--data", `test/fixtures/bad/${name}/data`]);
    expect(validate.code).toBe(1);
    expect(issueLines(validate.stderr)).toEqual(expected);
    expect(existsSync(join(ROOT, `test/fixtures/bad/${name}/data/tiny`))).toBe(true);
  });

  it("warns, without failing, about a declared sub-series that has no point", async () => {
    const result = await runCli(["validate", "--data", "test/fixtures/golden/data"]);
    expect(result.code).toBe(0);
    const onlyMonthly = await runCli(["validate", "--data", "test/fixtures/warn/data"]);
    expect(onlyMonthly.code).toBe(0);
    expect(onlyMonthly.stderr).toContain('warning: test/fixtures/warn/data/tiny/indicator.json: series.1: sub-series "hourly" has no points');
  });

  it("warns at its row, without stopping the build, about a note without a translation; the page shows it as written, marked with its language", async () => {
    const warning =
      "warning: test/fixtures/warn/data/tiny/a.csv:2: note: no es translation of this note in test/fixtures/warn/data/tiny/indicator.json noteTranslations.es: the es pages show it in en, as written";
    const validated = await runCli(["validate", "--data", "test/fixtures/warn/data"]);
    expect(validated.code, validated.stderr).toBe(0);
    expect(validated.stderr).toContain(warning);
    const out = join(await tempDir(), "dist");
    const built = await runCli(["build", "--data", "test/fixtures/warn/data", "--out", out, "--no-base"], EPOCH);
    expect(built.code, built.stderr).toBe(0);
    expect(built.stderr).toContain(warning);
    const es = readFileSync(join(out, "series/tiny/index.html"), "utf8");
    expect(es).toContain('<span lang="en">Provisional figure</span>');
    // The English page shows it as its own language's: nothing to mark.
    const en = readFileSync(join(out, "en/series/tiny/index.html"), "utf8");
    expect(en).toContain("Provisional figure");
    expect(en).not.toContain('<span lang="en">');
  });
});
