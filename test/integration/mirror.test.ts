/**
 * `npm run mirror` (src/mirror/cli.ts, src/mirror/sync.ts) over two builds of the
 * golden fixture, the second with one point changed, each served by a plain static
 * server: the first sync copies every file, the second fetches only the files
 * whose hash changed and removes those no longer listed; a fault (the host
 * unreachable, a bad manifest, a download that is not what the manifest lists)
 * leaves the folder as it was; `--check` names what differs. The real data's
 * figures are test/integration/mirror-sync.test.ts's; the real servers',
 * test/e2e/offline-mirror.test.ts's.
 */
import { cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseFileManifest, type FileManifest } from "../../src/core/file/file-manifest.js";
import { runMirror } from "../../src/mirror/cli.js";
import { MirrorError, syncMirror, type SyncReport } from "../../src/mirror/sync.js";
import { ROOT, runCli, serveFolder, tempDir, treeDigest, type FolderServer } from "../helpers.js";

let before: string;
let after: string;
let server: FolderServer;
const manifestOf = (dir: string): FileManifest => parseFileManifest(readFileSync(join(dir, "manifest.json"), "utf8"));
/** What a mirror of `out` holds: its files but the host's configuration. */
const served = (out: string) => new Map([...treeDigest(out)].filter(([path]) => path !== "_headers" && path !== "_routes.json"));
const quiet = { fetch, log: () => undefined };

async function build(data: string): Promise<string> {
  const out = join(await tempDir(), "dist");
  const r = await runCli(["build", "--data", data, "--out", out, "--limits", "2", "--no-base", "--no-history", "--site-url", "https://example.test"], { SOURCE_DATE_EPOCH: "1700000000" });
  expect(r.code, r.stderr).toBe(0);
  return out;
}

beforeAll(async () => {
  const data = join(await tempDir(), "data");
  cpSync(join(ROOT, "test/fixtures/golden/data"), data, { recursive: true });
  before = await build(data);
  // One point changed: the hourly wage of January 2024.
  const csv = join(data, "tiny-wages/2024.csv");
  writeFileSync(csv, readFileSync(csv, "utf8").replace("2024-01-01,hourly,145.34,", "2024-01-01,hourly,145.35,"));
  after = await build(data);
  server = await serveFolder(before);
});

afterAll(() => server.close());

/** Runs the command in process, its output captured. */
async function mirror(...argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runMirror(argv, { out: (l) => out.push(l), err: (l) => err.push(l), fetch });
  return { code, out: out.join("\n"), err: err.join("\n") };
}

describe("npm run mirror", () => {
  let dir: string;
  let first: SyncReport;

  it("copies the site into an empty folder, every file verified, and says what it fetched", async () => {
    dir = join(await tempDir(), "mirror");
    server.serve(before);
    first = await syncMirror(server.url, dir, quiet);
    expect(treeDigest(dir)).toEqual(served(before));
    expect(first.fetched).toBe(first.manifest.files.length);
    expect(first.fetchedBytes).toBe(first.manifest.bytes);
    const r = await mirror(server.url, dir);
    expect(r.code, r.err).toBe(0);
    expect(r.out).toContain(`fetched 0 of ${first.manifest.files.length} files (missing or changed), removed 0`);
  });

  it("after one point changed, fetches exactly the files whose hash changed, removes the ones no longer listed, writes the manifest last", async () => {
    const old = new Map(manifestOf(before).files.map((f) => [f.path, f.sha256]));
    const next = manifestOf(after);
    const changed = next.files.filter((f) => old.get(f.path) !== f.sha256);
    const gone = [...old.keys()].filter((path) => !next.files.some((f) => f.path === path));
    expect(changed.length).toBeGreaterThan(0);
    expect(changed.length).toBeLessThan(next.files.length / 2);
    server.serve(after);
    const report = await syncMirror(server.url, dir, quiet);
    expect(report.fetched).toBe(changed.length);
    expect(report.fetchedBytes).toBe(changed.reduce((n, f) => n + f.bytes, 0));
    expect(report.removed).toBe(gone.length);
    expect(treeDigest(dir)).toEqual(served(after));
    expect((await mirror("--check", dir)).code).toBe(0);
  });

  it("leaves the folder as it was when the host is unreachable, the manifest is bad, or a download is not what it lists", async () => {
    const state = treeDigest(dir);
    // The host answers nothing.
    const gone = await serveFolder(null);
    const url = gone.url;
    await gone.close();
    await expect(syncMirror(url, dir, quiet)).rejects.toThrow(/^cannot reach http:\/\/127\.0\.0\.1:\d+\/manifest\.json: ECONNREFUSED$/);
    // No manifest, a manifest whose identity is not its files', a file whose bytes are not the listed ones.
    const site = join(await tempDir(), "site");
    cpSync(before, site, { recursive: true });
    server.serve(site);
    rmSync(join(site, "manifest.json"));
    await expect(syncMirror(server.url, dir, quiet)).rejects.toThrow(/manifest\.json: HTTP 404, expected 200$/);
    writeFileSync(join(site, "manifest.json"), readFileSync(join(before, "manifest.json"), "utf8").replace(/"id":"[0-9a-f]{64}"/, `"id":"${"0".repeat(64)}"`));
    await expect(syncMirror(server.url, dir, quiet)).rejects.toThrow(/not a manifest a mirror can follow: id: 0{64}, but its files' listing hashes to [0-9a-f]{64}$/);
    cpSync(join(before, "manifest.json"), join(site, "manifest.json"));
    const page = join(site, "series/tiny-wages/index.html");
    writeFileSync(page, readFileSync(page, "utf8").replace("Tiny wages", "Tiny wageZ"));
    await expect(syncMirror(server.url, dir, quiet)).rejects.toThrow(MirrorError);
    await expect(syncMirror(server.url, dir, quiet)).rejects.toThrow(/series\/tiny-wages\/index\.html: \d+ bytes with SHA-256 [0-9a-f]{64}, where the manifest lists \d+ bytes with [0-9a-f]{64}$/);
    expect(treeDigest(dir)).toEqual(state);
    // The command says so and exits 1.
    const r = await mirror(server.url, dir);
    expect([r.code, r.err]).toEqual([1, expect.stringMatching(/SHA-256[\s\S]*\nthe folder is as it was$/)]);
  });

  it("--check names every file missing, changed or extra, and passes on a faithful copy", async () => {
    const copy = join(await tempDir(), "copy");
    cpSync(dir, copy, { recursive: true });
    const faithful = await mirror("--check", copy);
    expect([faithful.code, faithful.out]).toEqual([0, expect.stringMatching(/: all \d+ files as listed/) as unknown]);
    writeFileSync(join(copy, "api/v1/tiny-wages/data.csv"), "date,series,value,source,note\n");
    rmSync(join(copy, "api/v1/tiny-wages/feed.atom"));
    mkdirSync(join(copy, "more"));
    writeFileSync(join(copy, "more/extra.txt"), "x");
    const r = await mirror("--check", copy);
    expect(r.code).toBe(1);
    expect(r.err).toContain("missing (1): api/v1/tiny-wages/feed.atom");
    expect(r.err).toContain("changed (1): api/v1/tiny-wages/data.csv");
    expect(r.err).toContain("extra (1): more/extra.txt");
  });

  it("refuses what it cannot do (exit 2)", async () => {
    expect((await mirror()).code).toBe(2);
    expect(await mirror("ftp://example.test", dir)).toMatchObject({ code: 2, err: "error: <base-url>: expected an http(s) URL, got ftp://example.test" });
    expect(await mirror(server.url)).toMatchObject({ code: 2, err: "error: expected <base-url> <dir> (or --check <dir>)" });
    expect((await mirror("--check", dir, dir)).code).toBe(2);
  });
});
