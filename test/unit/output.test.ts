import { existsSync, mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { nodeFileEffects, writeOutput as writeWith, type FileEffects } from "../../src/builder/output.js";
import { tempDir, treeDigest } from "../files.js";

async function existingOutput(): Promise<{ parent: string; out: string; before: Map<string, string> }> {
  const parent = await tempDir();
  const out = join(parent, "dist");
  mkdirSync(join(out, "api"), { recursive: true });
  writeFileSync(join(out, "index.html"), "old home");
  writeFileSync(join(out, "api", "old.json"), "{}");
  return { parent, out, before: treeDigest(out) };
}

const tree = new Map<string, string | Uint8Array>([
  ["index.html", "new home"],
  ["api/v1/x/index.json", "{}"],
  ["_headers", new TextEncoder().encode("/*\n  X: y\n")],
]);

/** Writes the tree through the writer, as the build does file by file. */
const writeOutput = (files: Map<string, string | Uint8Array>, out: string, fx: FileEffects) =>
  writeWith(out, fx, async (write) => {
    for (const [path, body] of files) await write(path, body);
  });

describe("writeOutput", () => {
  it("replaces the old output with exactly the new tree", async () => {
    const { parent, out } = await existingOutput();
    await writeOutput(tree, out, await nodeFileEffects());
    expect([...treeDigest(out).keys()].sort()).toEqual(["_headers", "api/v1/x/index.json", "index.html"]);
    expect(readdirSync(parent)).toEqual(["dist"]);
  });

  it("leaves the old output intact when a write fails midway", async () => {
    const { parent, out, before } = await existingOutput();
    const real = await nodeFileEffects();
    let writes = 0;
    const failing: FileEffects = {
      ...real,
      writeFile: async (path, data) => {
        if (++writes === 2) throw new Error("ENOSPC: no space left on device");
        await real.writeFile(path, data);
      },
    };
    await expect(writeOutput(tree, out, failing)).rejects.toThrow("ENOSPC");
    expect(treeDigest(out)).toEqual(before);
    expect(readdirSync(parent)).toEqual(["dist"]);
  });

  it("restores the output a build killed between its two renames left aside, and clears leftovers", async () => {
    const { parent, out, before } = await existingOutput();
    const fx = await nodeFileEffects();
    await fx.rename(out, `${out}.old-4242`);
    mkdirSync(`${out}.tmp-4242`);
    mkdirSync(`${out}.tmp-777`);
    const failing: FileEffects = { ...fx, writeFile: () => Promise.reject(new Error("disk failure")) };
    await expect(writeOutput(tree, out, failing)).rejects.toThrow("disk failure");
    expect(existsSync(out)).toBe(true);
    expect(treeDigest(out)).toEqual(before);
    expect(readdirSync(parent)).toEqual(["dist"]);
  });
});
