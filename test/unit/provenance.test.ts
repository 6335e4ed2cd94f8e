/** The kind of a point's source (src/core/answer/provenance.ts): the longest declared prefix it begins with. */
import { describe, expect, it } from "vitest";
import { SOURCE_KIND_LABELS, sourceKindOf, type SourceKindRule } from "../../src/core/answer/provenance.js";
import { NO_SOURCE_LABEL, citedSources, sourceKindCounts } from "../../src/core/answer/source-kind-counts.js";
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
    expect(issues([{ prefix: "https://example.test/", kind: "newspaper" }])).toEqual(["sourceKinds.0.kind: expected one of official, official-republication, republication, press, reference, computed"]);
    expect(issues([{ prefix: "example.test", kind: "press" }])).toEqual(["sourceKinds.0.prefix: expected an http(s) URL"]);
    expect(
      issues([
        { prefix: "https://example.test/", kind: "press" },
        { prefix: "https://example.test/", kind: "official" },
      ]),
    ).toEqual(['sourceKinds.1.prefix: "https://example.test/" is declared twice']);
  });

  it("wants a republication to say who republishes (name), and takes a name for any kind", () => {
    expect(issues([{ prefix: "https://example.test/copies/", kind: "republication" }])).toEqual(["sourceKinds.0.name: required for a republication: who republishes the publisher's files"]);
    expect(issues([{ prefix: "https://example.test/copies/", kind: "republication", name: { es: "Una ONG", en: "An NGO" } }])).toEqual([]);
    expect(issues([{ prefix: "https://example.test/", kind: "press", name: { es: "Diario" } }])).toEqual(["sourceKinds.0.name.en: required"]);
  });
});

describe("the sources the values cite (citedSources)", () => {
  it("names each cited source by its declared name or its host, by kind in the declared order, most cited first", () => {
    const rules = [
      { prefix: "https://www.news.example.test/", kind: "press" as const },
      { prefix: "http://news.example.test/", kind: "press" as const },
      { prefix: "https://example.test/compiled/", kind: "reference" as const, name: { es: "Una recopilación", en: "A compilation" } },
      { prefix: "https://example.test/decrees/", kind: "official" as const },
    ];
    const rows = ["https://www.news.example.test/a", "http://news.example.test/b", "https://example.test/compiled/1", "https://example.test/compiled/2", "https://example.test/compiled/3", ""].map((source) => ({ source }));
    expect(citedSources(rules, rows)).toEqual([
      { kind: "press", label: SOURCE_KIND_LABELS.press, points: 2, sources: [{ name: { es: "news.example.test", en: "news.example.test" }, url: "https://www.news.example.test/", points: 2 }] },
      { kind: "reference", label: SOURCE_KIND_LABELS.reference, points: 3, sources: [{ name: { es: "Una recopilación", en: "A compilation" }, url: "https://example.test/compiled/", points: 3 }] },
      { kind: "none", label: NO_SOURCE_LABEL, points: 1, sources: [] },
    ]);
  });
});
