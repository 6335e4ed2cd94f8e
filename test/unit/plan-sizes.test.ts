/**
 * The plan knows the size of every prebuilt page before anything is rendered: a
 * page over the largest file the host takes is left to the function (and said),
 * never written; the pages kept are rendered at the sizes the plan counted.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { planOutput } from "../../src/builder/build.js";
import { buildIndicator } from "../../src/builder/dataset.js";
import { nodeSourceFiles } from "../../src/builder/effects.js";
import { parseSiteConfig } from "../../src/builder/site-config.js";
import { attributionAnchor, attributionUrl } from "../../src/core/indicator/config.js";
import { loadData } from "../../src/source/load.js";

const GOLDEN = "test/fixtures/golden/data";

describe("the plan's prebuilt pages", () => {
  it("leaves out the pages over the file limit, says which, and renders the others at the sizes it counted", async () => {
    const config = parseSiteConfig(readFileSync("site.config.json", "utf8"), "site.config.json", undefined);
    const { indicators } = await loadData(GOLDEN, nodeSourceFiles());
    const built = indicators.map((source) => buildIndicator(source, attributionAnchor(config, source.meta.id), attributionUrl(config, source.meta.id)));
    const plan = (maxFileBytes: number) => {
      const leftOut: { path: string; bytes: number }[] = [];
      const files = planOutput({
        config,
        indicators: built,
        limits: [1, 2, 5000],
        versions: new Map(built.map((b) => [b.source.meta.id, 1_700_000_000])),
        publicFiles: new Map(),
        scripts: { page: new Uint8Array(0), early: "" },
        seriesFiles: false,
        maxFileBytes,
        leftOut: (path, bytes) => leftOut.push({ path, bytes }),
      });
      return { files, leftOut };
    };
    const all = plan(2 ** 30);
    expect(all.leftOut).toEqual([]);
    const pages = all.files.filter((f) => /\/limit-\d+\/offset-\d+\.json$|\/index\.json$/.test(f.path) && f.path.includes("api/v1/tiny-wages/"));
    const sizes = new Map<string, number>();
    for (const page of pages) sizes.set(page.path, (await page.render()).length);
    // Between the smallest and the largest page: the larger ones are left out, each with its exact size.
    const sorted = [...sizes.values()].sort((a, b) => a - b);
    const max = sorted[Math.floor(sorted.length / 2)] as number;
    const cut = plan(max);
    const kept = new Set(cut.files.map((f) => f.path));
    for (const [path, size] of sizes) expect(kept.has(path), path).toBe(size <= max);
    expect(cut.leftOut.map((l) => l.path).sort()).toEqual([...sizes].filter(([, size]) => size > max).map(([path]) => path).sort());
    for (const { path, bytes } of cut.leftOut) expect(bytes).toBe(sizes.get(path));
    expect(cut.leftOut.length).toBeGreaterThan(0);
  });
});
