/**
 * Faults in the build: a build killed while writing, the file shapes a maintainer
 * produces by hand, and a fuzzed CSV corpus that must never crash the validator.
 */
import { EPOCH as SYSTEM_EPOCH } from "../epoch.js";
import { spawn } from "node:child_process";
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { DataError } from "../../src/source/errors.js";
import { nodeSourceFiles } from "../../src/builder/effects.js";
import { loadData } from "../../src/source/load.js";
import { ROOT, runCli, tempDir, treeDigest } from "../helpers.js";

const EPOCH = { SOURCE_DATE_EPOCH: SYSTEM_EPOCH };
const META = JSON.stringify({
  id: "tiny",
  title: { es: "Mínimo", en: "Tiny" },
  description: { es: "Ejemplo.", en: "Fixture." },
  unit: "UYU",
  rhythm: "monthly",
  license: "CC-BY-4.0",
  source: { name: { es: "Ejemplo", en: "Fixture" }, url: "https://example.test/" },
  sourceKinds: [{ prefix: "https://x.test/", kind: "official" }],
  series: [
    { id: "a", title: { es: "A", en: "A" } },
    { id: "b", title: { es: "B", en: "B" } },
  ],
});

/** A data folder with one indicator whose only CSV file has these bytes. */
async function dataWith(csv: string | Buffer): Promise<string> {
  const data = join(await tempDir(), "data");
  mkdirSync(join(data, "tiny"), { recursive: true });
  writeFileSync(join(data, "tiny", "indicator.json"), META);
  writeFileSync(join(data, "tiny", "x.csv"), csv);
  return data;
}

describe("a build killed while writing", () => {
  /**
   * The real data but its two largest indicators (about 400 files to write instead of
   * 4,300: the write still lasts 1.0–1.3 s after the temporary folder appears on the
   * idle machine, so both kills land mid-write, and each build costs 3 s instead of
   * 5 s with the second largest), and its output: the previous output, built once,
   * copied, never changed.
   */
  const fixture = (async () => {
    const data = join(await tempDir(), "data");
    const largest = readdirSync(join(ROOT, "data"))
      .map((name) => ({ name, size: readdirSync(join(ROOT, "data", name)).reduce((sum, file) => sum + statSync(join(ROOT, "data", name, file)).size, 0) }))
      .sort((a, b) => b.size - a.size)
      .slice(0, 2)
      .map((indicator) => indicator.name);
    cpSync(join(ROOT, "data"), data, { recursive: true, filter: (path) => !largest.includes(relative(join(ROOT, "data"), path)) });
    const previous = join(await tempDir(), "dist");
    const built = await runCli(["build", "--data", data, "--out", previous, "--no-base"], EPOCH);
    if (built.code !== 0) throw new Error(built.stderr);
    return { data, previous };
  })();
  // Awaited by each test; handled now, so a failing build is reported there, not as an unhandled rejection.
  fixture.catch(() => undefined);

  // Each kills its own child build in its own copy of the output: they run side by side.
  it.concurrent.each([0, 150])("leaves the previous output intact (killed %i ms after it starts writing)", async (delay) => {
    const { data, previous } = await fixture;
    const out = join(await tempDir(), "dist");
    cpSync(previous, out, { recursive: true });
    const before = treeDigest(out);
    const child = spawn(process.execPath, ["--import", "tsx", "scripts/cli.ts", "build", "--data", data, "--out", out, "--no-base"], { cwd: ROOT, env: { ...process.env, ...EPOCH } });
    const exited = new Promise<NodeJS.Signals | null>((done) => child.once("exit", (_code, signal) => done(signal)));
    // Wait for the temporary folder to appear, then kill the build mid-write.
    const deadline = Date.now() + 60_000;
    while (!readdirSync(dirname(out)).some((n) => n.startsWith("dist.tmp-")) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 5));
    expect(readdirSync(dirname(out)).some((n) => n.startsWith("dist.tmp-"))).toBe(true);
    await new Promise((r) => setTimeout(r, delay));
    child.kill("SIGKILL");
    // Killed, not finished before the kill (which would leave nothing to prove).
    expect(await exited).toBe("SIGKILL");
    expect(treeDigest(out)).toEqual(before);
    // The next build clears the leftovers and succeeds.
    const next = await runCli(["build", "--data", data, "--out", out, "--no-base"], EPOCH);
    expect(next.code, next.stderr).toBe(0);
    expect(readdirSync(dirname(out))).toEqual(["dist"]);
    expect(treeDigest(out)).toEqual(before);
  });
});

describe("files as maintainers write them", () => {
  const rows = "2024-01-01,a,1.50\n2024-02-01,b,2\n";
  it.each([
    ["a UTF-8 BOM", `\ufeffdate,series,value\n${rows}`],
    ["CRLF line ends", `date,series,value\r\n${rows.replace(/\n/g, "\r\n")}`],
    ["a trailing empty line", `date,series,value\n${rows}\n`],
    ["quoted fields", `"date","series","value"\n"2024-01-01","a","1.50"\n"2024-02-01","b","2"\n`],
    ["no final newline", `date,series,value\n${rows.trimEnd()}`],
  ])("accepts %s and reads the same values", async (_name, csv) => {
    const data = await dataWith(csv);
    const out = join(dirname(data), "dist");
    const r = await runCli(["build", "--data", data, "--out", out], EPOCH);
    expect(r.code, r.stderr).toBe(0);
    const text = readFileSync(join(out, "api/v1/tiny/index.json"), "utf8");
    // No BOM in a column name, no \r in a value: exactly the two points.
    expect((JSON.parse(text) as { data: unknown }).data).toEqual([
      { date: "2024-02-01", series: "b", value: 2 },
      { date: "2024-01-01", series: "a", value: 1.5 },
    ]);
    expect(text).toContain('"value":1.50}');
  });

  it("rejects an unreadable CSV file with a clear message", async () => {
    // Tests run as root, where permissions do not stop reading: a folder named y.csv
    // and a broken link named z.csv do.
    const data = await dataWith("date,series,value\n");
    mkdirSync(join(data, "tiny", "y.csv"));
    symlinkSync(join(data, "nowhere"), join(data, "tiny", "z.csv"));
    const r = await runCli(["validate", "--data", data]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`${join(data, "tiny", "y.csv")}: cannot read: EISDIR`);
    expect(r.stderr).toContain(`${join(data, "tiny", "z.csv")}: cannot read: ENOENT`);
  });

  it("rejects an empty indicator folder: every folder is an indicator", async () => {
    const data = await dataWith("date,series,value\n2024-01-01,a,1\n");
    mkdirSync(join(data, "empty"));
    const r = await runCli(["validate", "--data", data]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`${join(data, "empty", "indicator.json")}: missing or unreadable`);
  });
});

describe("a fuzzed CSV corpus", () => {
  it("never crashes the validator: it succeeds or lists located faults", async () => {
    const base = "date,series,value,source,note\n2024-01-01,a,1.5,https://x.test/,\n2024-02-01,b,2,,\"a, note\"\n";
    const mutation = fc.oneof(
      fc.record({ kind: fc.constant("insert" as const), at: fc.nat(), text: fc.oneof(fc.string({ maxLength: 8 }), fc.constantFrom('"', ",", "\n", "\r\n", "\r", "\u0000", "\ufeff", "é", "x".repeat(5000))) }),
      fc.record({ kind: fc.constant("delete" as const), at: fc.nat(), length: fc.integer({ min: 1, max: 10 }) }),
      fc.record({ kind: fc.constant("bytes" as const), at: fc.nat(), bytes: fc.uint8Array({ minLength: 1, maxLength: 4 }) }),
    );
    const data = await dataWith(base);
    const file = join(data, "tiny", "x.csv");
    let tried = 0;
    let accepted = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(mutation, { minLength: 1, maxLength: 4 }), async (mutations) => {
        let bytes = Buffer.from(base);
        for (const m of mutations) {
          const at = m.at % (bytes.length + 1);
          if (m.kind === "insert") bytes = Buffer.concat([bytes.subarray(0, at), Buffer.from(m.text), bytes.subarray(at)]);
          else if (m.kind === "delete") bytes = Buffer.concat([bytes.subarray(0, at), bytes.subarray(at + m.length)]);
          else bytes = Buffer.concat([bytes.subarray(0, at), Buffer.from(m.bytes), bytes.subarray(at)]);
        }
        writeFileSync(file, bytes);
        tried++;
        try {
          await loadData(data, nodeSourceFiles());
          accepted++;
        } catch (error) {
          expect(error).toBeInstanceOf(DataError);
          for (const issue of (error as DataError).issues) {
            expect(issue.file).toContain("x.csv");
            expect(issue.reason.length).toBeGreaterThan(0);
          }
        }
      }),
      { numRuns: 600, seed: 99 },
    );
    console.log(`fuzzed CSV files: ${tried} tried, ${accepted} accepted, ${tried - accepted} rejected with located faults`);
    expect(existsSync(file)).toBe(true);
  });
});
