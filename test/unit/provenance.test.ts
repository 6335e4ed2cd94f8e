/** The kind of a point's source (src/core/provenance.ts): the longest declared prefix it begins with. */
import { describe, expect, it } from "vitest";
import { sourceKindOf, type SourceKindRule } from "../../src/core/provenance.js";
import { sourceKindCounts } from "../../src/core/source-kind-counts.js";
import { parseIndicatorMeta } from "../../src/source/metadata.js";

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

describe("sourceKinds in indicator.json", () => {
  const meta = (sourceKinds: unknown) =>
    JSON.stringify({
      id: "tiny",
      title: { es: "t", en: "t" },
      description: { es: "d", en: "d" },
      unit: "UYU",
      rhythm: "annual",
      license: "CC-BY-4.0",
      source: { name: { es: "s", en: "s" }, url: "https://example.test/" },
      sourceKinds,
      series: [{ id: "a", title: { es: "a", en: "a" } }],
    });
  const issues = (sourceKinds: unknown) => {
    const parsed = parseIndicatorMeta(meta(sourceKinds), "tiny/indicator.json", "tiny");
    return parsed.ok ? [] : parsed.issues.map((i) => `${i.column ?? ""}: ${i.reason}`);
  };

  it("takes prefixes and kinds, and names a kind outside the list, a prefix that is no address and a prefix declared twice", () => {
    expect(issues([{ prefix: "https://example.test/decrees/", kind: "official" }])).toEqual([]);
    expect(issues([{ prefix: "https://example.test/", kind: "newspaper" }])).toEqual(["sourceKinds.0.kind: expected one of official, official-republication, press, reference, computed"]);
    expect(issues([{ prefix: "example.test", kind: "press" }])).toEqual(["sourceKinds.0.prefix: expected an http(s) URL"]);
    expect(
      issues([
        { prefix: "https://example.test/", kind: "press" },
        { prefix: "https://example.test/", kind: "official" },
      ]),
    ).toEqual(['sourceKinds.1.prefix: "https://example.test/" is declared twice']);
  });
});
