/**
 * The plan knows the size of every prebuilt page before anything is rendered: a
 * page over the largest file the host takes is left to the function (and said),
 * never written; the pages kept are rendered at the sizes the plan counted.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { fitBudget, planOutput } from "../../src/build/build.js";
import { buildIndicator } from "../../src/build/dataset.js";
import { nodeSourceFiles } from "../../src/build/effects.js";
import { parseSiteConfig } from "../../src/build/site-config.js";
import { attributionAnchor, attributionUrl } from "../../src/core/config.js";
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

describe("the file budget", () => {
  const file = (path: string, indicator?: string, seriesCopy?: boolean) => ({ path, indicator, seriesCopy, render: () => "" });
  const plan = [
    file("a/index.json", "a"),
    ...Array.from({ length: 6 }, (_, i) => file(`a/series/${i}.json`, "a", true)),
    file("b/index.json", "b"),
    ...Array.from({ length: 4 }, (_, i) => file(`b/series/${i}.json`, "b", true)),
    file("manifest.json"),
  ];

  it("keeps a plan within it as it is", () => {
    expect(fitBudget(plan, 13)).toEqual({ fitted: plan, leftOut: [] });
  });

  it("leaves out the sub-series copies of the indicators with the most first, each indicator's all together, and says so", () => {
    const { fitted, leftOut } = fitBudget(plan, 12);
    expect(leftOut).toEqual([{ indicator: "a", files: 6 }]);
    expect(fitted.map((f) => f.path)).toEqual(plan.filter((f) => !f.path.startsWith("a/series/")).map((f) => f.path));
    expect(fitBudget(plan, 3).leftOut).toEqual([
      { indicator: "a", files: 6 },
      { indicator: "b", files: 4 },
    ]);
    expect(fitBudget(plan, 3).fitted).toHaveLength(3);
  });

  it("leaves the plan whole when it cannot fit even without copies (the build then stops)", () => {
    expect(fitBudget(plan, 2)).toEqual({ fitted: plan, leftOut: [] });
  });
});
