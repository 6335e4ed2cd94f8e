/**
 * A mirror of the real data kept up to date by `npm run mirror` (src/mirror/sync.ts):
 * the copy of the shared build (test/real-build.ts) is synced to a build of the same
 * repository with one point of a small indicator changed, as a revision is published
 * (a clone of the repository at HEAD, the point changed in its working tree: the
 * same history, the same data version). The sync fetches exactly the files whose
 * hash changed, 0.47 % of a full copy's bytes (24 files: the indicator's own, its
 * pages, the service feed's revision entry), and the manifest, 0.58 % more (480 KB,
 * fetched by every sync): 1.05 % in all (docs/operations.md "Offline mirrors").
 */
import { execFileSync } from "node:child_process";
import { cpSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { parseFileManifest } from "../../src/core/file/file-manifest.js";
import { syncMirror } from "../../src/mirror/sync.js";
import { EPOCH } from "../epoch.js";
import { ROOT, runCli, serveFolder, tempDir, treeDigest, type FolderServer } from "../helpers.js";

const FILE = "data/bpc/bpc.csv";
let before: string;
let after: string;
let server: FolderServer;

beforeAll(async () => {
  before = inject("realDist");
  const repo = join(await tempDir("open-series-mirror-"), "repo");
  execFileSync("git", ["clone", "--quiet", "--no-checkout", ROOT, repo]);
  execFileSync("git", ["-C", repo, "checkout", "--quiet", execFileSync("git", ["-C", ROOT, "rev-parse", "HEAD"], { encoding: "utf8" }).trim()]);
  // The shared build is of ROOT's data/ as committed: the clone's working tree differs from it by this one point.
  expect(readFileSync(join(repo, FILE), "utf8")).toBe(readFileSync(join(ROOT, FILE), "utf8"));
  const csv = readFileSync(join(repo, FILE), "utf8");
  const changed = csv.replace(/^2008-01-01,bpc,1775,/m, "2008-01-01,bpc,1776,");
  expect(changed).not.toBe(csv);
  writeFileSync(join(repo, FILE), changed);
  after = join(await tempDir(), "dist");
  const built = await runCli(["build", "--data", join(repo, "data"), "--out", after, "--no-base"], { SOURCE_DATE_EPOCH: EPOCH });
  expect(built.code, built.stderr).toBe(0);
  server = await serveFolder(after);
}, 240_000);

afterAll(() => server.close());

describe("a mirror of the real data, after one point changed", () => {
  it("fetches only the files whose hash changed, under 1 % of a full copy's bytes, and the manifest", async () => {
    const dir = join(await tempDir(), "mirror");
    cpSync(before, dir, { recursive: true });
    const old = new Map(parseFileManifest(readFileSync(join(before, "manifest.json"), "utf8")).files.map((f) => [f.path, f.sha256]));
    const lines: string[] = [];
    const report = await syncMirror(server.url, dir, { fetch, log: (line) => lines.push(line) });
    const changed = report.manifest.files.filter((f) => old.get(f.path) !== f.sha256);
    expect(report.fetched).toBe(changed.length);
    expect(changed.every((f) => f.path.includes("bpc") || !f.path.startsWith("api/v1/")), changed.map((f) => f.path).join(", ")).toBe(true);
    const full = report.manifest.bytes + report.manifestBytes;
    expect(report.fetchedBytes).toBe(changed.reduce((n, f) => n + f.bytes, 0));
    expect(report.fetchedBytes / full, lines.join("\n")).toBeLessThanOrEqual(0.01);
    // The manifest, fetched whole by every sync: about 111 bytes a file listed.
    expect(report.manifestBytes / report.manifest.files.length, lines.join("\n")).toBeLessThan(120);
    // The mirror holds the new build's files, as listed.
    const held = treeDigest(dir);
    for (const file of report.manifest.files) expect(held.get(file.path), file.path).toBe(file.sha256);
  });
});
