/** The kind of a point's source (src/core/provenance.ts): the longest declared prefix it begins with. */
import { describe, expect, it } from "vitest";
import { sourceKindOf, type SourceKindRule } from "../../src/core/provenance.js";
import { sourceKindCounts } from "../../src/core/source-kind-counts.js";

const RULES: SourceKindRule[] = [
  { prefix: "https://news.example.test/", kind: "press" },
  { prefix: "https://example.test/", kind: "reference" },
  { prefix: "https://example.test/decrees/", kind: "official" },
];

describe("sourceKindOf", () => {
  it.each([
    ["https://example.test/decrees/45-2003#art1", "official"],
    ["https://example.test/wiki/Minimum", "reference"],
    ["https://news.example.test/2024/raise", "press"],
    ["https://example.test.evil/decrees/1", null],
    ["http://example.test/decrees/1", null],
    ["", null],
  ])("%s is %s", (source, kind) => {
    expect(sourceKindOf(RULES, source)).toBe(kind);
  });
});

describe("sourceKindCounts", () => {
  it("counts per kind overall and per sub-series, kinds in their declared order, a point citing nothing as none, kinds without points left out", () => {
    const rows = [
      { series: "a", source: "https://news.example.test/a" },
      { series: "b", source: "" },
      { series: "a", source: "https://example.test/decrees/1" },
      { series: "b", source: "https://news.example.test/b" },
    ];
    const counts = sourceKindCounts(RULES, rows);
    expect(counts.kinds).toEqual([
      { kind: "official", label: { es: "publicación oficial", en: "official publication" }, points: 1 },
      { kind: "press", label: { es: "prensa", en: "press" }, points: 2 },
      { kind: "none", label: { es: "sin fuente citada", en: "no source cited" }, points: 1 },
    ]);
    expect([...counts.bySeries]).toEqual([
      ["a", [1, 1, 0]],
      ["b", [0, 1, 1]],
    ]);
  });
});
