/**
 * `npm ci` prints nothing a newcomer must judge: npm 11 skips dependencies' install
 * scripts unless package.json's `allowScripts` approves them, and warns about every
 * package it does not cover. The project needs none of them (esbuild, workerd and sharp
 * ship their binaries as optional dependencies), so each is denied there: this test
 * fails when an installed package has an install script `allowScripts` does not name.
 */
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT } from "../files.js";

const INSTALL_SCRIPTS = ["preinstall", "install", "postinstall"] as const;

interface Manifest {
  readonly name?: string;
  readonly scripts?: Record<string, string>;
  readonly gypfile?: boolean;
  readonly allowScripts?: Record<string, boolean>;
}

/** Every package.json under node_modules, nested ones included. */
async function packageFiles(dir: string): Promise<string[]> {
  const found: string[] = [];
  const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
  for (const entry of entries) {
    if (!entry.isDirectory() || entry.name.startsWith(".")) continue;
    const folder = join(dir, entry.name);
    if (entry.name.startsWith("@")) {
      found.push(...(await packageFiles(folder)));
      continue;
    }
    found.push(join(folder, "package.json"));
    found.push(...(await packageFiles(join(folder, "node_modules"))));
  }
  return found;
}

describe("install scripts", () => {
  it("every installed package with an install script is named in package.json's allowScripts", async () => {
    const project = JSON.parse(await readFile(join(ROOT, "package.json"), "utf8")) as Manifest;
    const declared = new Set(Object.keys(project.allowScripts ?? {}));
    const withScripts = new Set<string>();
    for (const file of await packageFiles(join(ROOT, "node_modules"))) {
      const text = await readFile(file, "utf8").catch(() => undefined);
      if (text === undefined) continue;
      const manifest = JSON.parse(text) as Manifest;
      if (manifest.name === undefined) continue;
      if (INSTALL_SCRIPTS.some((s) => manifest.scripts?.[s] !== undefined)) withScripts.add(manifest.name);
    }
    // The three the project relies on running without their scripts (a test that finds none would prove nothing).
    expect([...withScripts].sort()).toEqual(expect.arrayContaining(["esbuild", "workerd"]));
    expect([...withScripts].filter((name) => !declared.has(name)).sort()).toEqual([]);
    // Denied, not approved: nothing of the project's needs a dependency's script to have run.
    expect(Object.values(project.allowScripts ?? {}).every((allowed) => !allowed)).toBe(true);
  });
});
