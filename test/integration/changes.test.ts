/**
 * The change report: against the data folder as committed in git, a small change
 * (one point added, one revised, one removed) is reported, refused without
 * --allow-revisions (nothing written) and accepted with it; additions alone pass.
 */
import { execFileSync } from "node:child_process";
import { cpSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import { diffData } from "../../src/source/changes.js";
import { runCli, tempDir, treeDigest } from "../helpers.js";

let repo: string;
let data: string;
const git = (...args: string[]) => execFileSync("git", ["-C", repo, ...args], { encoding: "utf8" });

/** A git repository whose first commit holds the golden fixture's data folder. */
beforeEach(async () => {
  repo = await tempDir("changes-");
  data = join(repo, "data");
  cpSync("test/fixtures/golden/data", data, { recursive: true });
  git("init", "-q");
  git("-c", "user.name=t", "-c", "user.email=t@example.test", "add", ".");
  git("-c", "user.name=t", "-c", "user.email=t@example.test", "commit", "-qm", "published");
});

const file2024 = () => join(data, "tiny-wages/2024.csv");

/** One point added (2025-01 hourly), one revised (2024-01 monthly), one removed (2024-07 monthly). */
function change(): void {
  writeFileSync(
    file2024(),
    "date,series,value,source,note\n" +
      "2024-01-01,monthly,27626.30,https://example.test/2024-01,\n" +
      "2024-01-01,hourly,145.34,https://example.test/2024-01,\n" +
      "2025-01-01,hourly,150,https://example.test/2025-01,\n",
  );
}

describe("the change report", () => {
  it("reports nothing when the data is as published", async () => {
    const r = await runCli(["validate", "--data", data]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain("tiny-wages: 0 added, 0 revised, 0 removed");
  });

  it("refuses a revision and a removal without --allow-revisions, and writes nothing", async () => {
    change();
    const validate = await runCli(["validate", "--data", data]);
    expect(validate.code).toBe(1);
    expect(validate.stdout).toContain("changes against HEAD:");
    expect(validate.stdout).toContain("tiny-wages: 1 added, 1 revised, 1 removed");
    expect(validate.stdout).toContain("  revised monthly 2024-01-01: 27626.3 → 27626.30");
    expect(validate.stdout).toContain("  removed monthly 2024-07-01 (was 27985)");
    expect(validate.stderr).toContain("2 published points would change or disappear (listed above): if the source revised them, run again with --allow-revisions");

    const out = join(repo, "dist");
    const build = await runCli(["build", "--data", data, "--out", out], { SOURCE_DATE_EPOCH: "1700000000" });
    expect(build.code).toBe(1);
    expect(build.stderr).toContain("nothing was written");
    expect(treeDigest(out).size).toBe(0);
  });

  it("accepts them with --allow-revisions, and writes the Markdown summary", async () => {
    change();
    const summary = join(repo, "summary.md");
    const r = await runCli(["validate", "--data", data, "--allow-revisions", "--summary", summary]);
    expect(r.code, r.stderr).toBe(0);
    const md = readFileSync(summary, "utf8");
    expect(md).toContain("| `tiny-wages` | 1 | 1 | 1 |");
    expect(md).toContain("- revised `tiny-wages` `monthly` 2024-01-01: 27626.3 → 27626.30");
    expect(md).toContain("Revisions and removals allowed");
  });

  it("lets additions through, and compares with any revision (--base)", async () => {
    writeFileSync(file2024(), `${readFileSync(file2024(), "utf8")}2025-01-01,hourly,150,https://example.test/2025-01,\n`);
    expect((await runCli(["validate", "--data", data])).code).toBe(0);
    git("-c", "user.name=t", "-c", "user.email=t@example.test", "commit", "-qam", "2025");
    const r = await runCli(["validate", "--data", data, "--base", "HEAD~1"]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain("tiny-wages: 1 added, 0 revised, 0 removed");
  });

  it("says so, and goes on, where there is no published version", async () => {
    const r = await runCli(["validate", "--data", data, "--base", "no-such-revision"]);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain("no-such-revision is not a git revision here: no published version to compare with");
  });
});

describe("diffData", () => {
  it("counts a new indicator's points as added and a dropped one's as removed", () => {
    const meta = (id: string) => ({ id }) as never;
    const row = (series: string, date: string, value: string) => ({ series, date, value, source: "", note: "", file: "f", line: 2 });
    const a = { meta: meta("a"), folder: "a", files: [], rows: [row("x", "2024-01-01", "1")] };
    const b = { meta: meta("b"), folder: "b", files: [], rows: [row("y", "2024-01-01", "2")] };
    const [ca, cb] = diffData([a], [b]);
    expect(ca).toMatchObject({ id: "a", isNew: false, added: [], removed: [{ series: "x", value: "1" }] });
    expect(cb).toMatchObject({ id: "b", isNew: true, added: [{ series: "y", value: "2" }], removed: [] });
  });
});
