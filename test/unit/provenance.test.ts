/** The kind of a point's source (src/core/provenance.ts): the longest declared prefix it begins with. */
import { describe, expect, it } from "vitest";
import { countKinds, sourceKindOf, type SourceKindRule } from "../../src/core/provenance.js";

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

describe("countKinds", () => {
  it("counts per kind in the declared order of kinds, a point citing nothing as none, kinds without points left out", () => {
    const counts = countKinds(RULES, ["https://news.example.test/a", "", "https://example.test/decrees/1", "https://news.example.test/b"]);
    expect(counts).toEqual({ official: 1, press: 2, none: 1 });
    expect(Object.keys(counts)).toEqual(["official", "press", "none"]);
  });
});
