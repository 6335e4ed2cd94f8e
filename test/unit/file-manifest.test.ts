/**
 * `/manifest.json` (src/core/file/file-manifest.ts): the golden build's manifest lists
 * every file of the expected tree (test/integration/golden.test.ts proves the build writes
 * that tree byte for byte) with its size and SHA-256, and no other: not itself,
 * not Cloudflare's configuration; its identity is the hash of its listing. Then the
 * format as a table: what a mirror refuses to follow.
 */
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ManifestError, listing, parseFileManifest, renderFileManifest, type ListedFile } from "../../src/core/file/file-manifest.js";
import { ROOT, treeDigest } from "../files.js";

const EXPECTED = join(ROOT, "test/fixtures/golden/expected");
const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");
const HEX = "a".repeat(64);
const HEAD = { name: "Test", site: "https://example.test", dataVersion: "2024-01-01T00:00:00Z", dataVersions: { b: "2024-01-01T00:00:00Z", a: "2023-01-01T00:00:00Z" } };

describe("the build's manifest.json (the golden tree)", () => {
  const text = readFileSync(join(EXPECTED, "manifest.json"), "utf8");
  const manifest = parseFileManifest(text);

  it("lists every file of the output with its size and SHA-256, but itself and the host's configuration", () => {
    const tree = treeDigest(EXPECTED);
    for (const unlisted of ["manifest.json", "_headers", "_routes.json"]) expect(tree.has(unlisted), unlisted).toBe(true);
    const served = [...tree].filter(([path]) => !["manifest.json", "_headers", "_routes.json"].includes(path));
    expect(manifest.files.map((f) => [f.path, f.sha256])).toEqual(served);
    for (const file of manifest.files) expect(file.bytes, file.path).toBe(readFileSync(join(EXPECTED, file.path)).length);
    expect(manifest.bytes).toBe(manifest.files.reduce((n, f) => n + f.bytes, 0));
  });

  it("names the data version and the build's identity, the SHA-256 of its listing", () => {
    expect(manifest).toMatchObject({ name: "Open Series UY", site: "https://example.test", dataVersion: "2023-11-14T22:13:20Z", dataVersions: { "tiny-wages": "2023-11-14T22:13:20Z" } });
    expect(manifest.id).toBe(sha256(listing(manifest.files)));
    // `sha256sum -c` reads the listing: a line per file, `<hex>  <path>`.
    expect(listing(manifest.files).split("\n")[0]).toMatch(/^[0-9a-f]{64} {2}404\.html$/);
  });

  it("is written again, byte for byte, from what it lists", () => {
    expect(renderFileManifest(manifest, manifest.files, manifest.id)).toBe(text);
  });
});

describe("the manifest's format", () => {
  const files: ListedFile[] = [
    { path: "z.txt", bytes: 1, sha256: HEX },
    { path: "api/v1/b.json", bytes: 2, sha256: HEX },
    { path: "api/v1/a.json", bytes: 3, sha256: HEX },
    { path: "index.html", bytes: 4, sha256: HEX },
  ];
  const text = renderFileManifest(HEAD, files, HEX);

  it("is the same text for the same files in any order: folders, names and indicators sorted", () => {
    expect(renderFileManifest(HEAD, [...files].reverse(), HEX)).toBe(text);
    const parsed = JSON.parse(text) as { folders: Record<string, Record<string, unknown>>; data_versions: Record<string, string> };
    expect(Object.keys(parsed.folders)).toEqual(["", "api/v1"]);
    expect(Object.keys(parsed.folders[""] ?? {})).toEqual(["index.html", "z.txt"]);
    expect(Object.keys(parsed.data_versions)).toEqual(["a", "b"]);
    expect(parseFileManifest(text).files.map((f) => f.path)).toEqual(["api/v1/a.json", "api/v1/b.json", "index.html", "z.txt"]);
  });

  const edit = (change: (raw: Record<string, unknown> & { folders: Record<string, Record<string, unknown>> }) => void) => {
    const raw = JSON.parse(text) as Record<string, unknown> & { folders: Record<string, Record<string, unknown>> };
    change(raw);
    return JSON.stringify(raw);
  };

  it.each([
    ["not JSON", "{", /^not JSON/],
    ["another format", edit((m) => (m.format = 2)), /^format: expected 1, got 2/],
    ["a folder leaving the mirror", edit((m) => (m.folders["../etc"] = { passwd: [1, HEX] })), /^folders\["\.\.\/etc"\]: not a relative folder/],
    ["an absolute folder", edit((m) => (m.folders["/etc"] = { passwd: [1, HEX] })), /^folders\["\/etc"\]: not a relative folder/],
    ["a name with a separator", edit((m) => ((m.folders[""] ?? {})["a/b"] = [1, HEX])), /: not a file name/],
    ["a name '..'", edit((m) => ((m.folders["api/v1"] ?? {})[".."] = [1, HEX])), /: not a file name/],
    ["a size that is not one", edit((m) => ((m.folders[""] ?? {})["x"] = [-1, HEX])), /expected a size in bytes, got -1/],
    ["a hash that is not one", edit((m) => ((m.folders[""] ?? {})["x"] = [1, "abc"])), /expected a SHA-256 in hex, got "abc"/],
    ["a file listed as a folder too", edit((m) => (m.folders["z.txt"] = { inner: [1, HEX] })), /^z\.txt\/inner: its folder z\.txt is listed as a file/],
    ["the manifest listing itself", edit((m) => ((m.folders[""] ?? {})["manifest.json"] = [1, HEX])), /^manifest\.json: a file the manifest never lists/],
    ["totals that do not add up", edit((m) => (m.bytes = 11)), /^bytes: says 11, the files add up to 10/],
    ["a count that does not", edit((m) => (m.files = 5)), /^files: says 5, the folders list 4/],
  ])("refuses %s", (_, bad, message) => {
    expect(() => parseFileManifest(bad)).toThrow(ManifestError);
    expect(() => parseFileManifest(bad)).toThrow(message);
  });
});
