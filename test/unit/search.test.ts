/**
 * The search index (src/builder/search-index.ts) and its matching (src/core/answer/search.ts),
 * over indicators shaped like the real ones: the words an `indicator.json` declares
 * for search (`search.keywords`, `search.equivalents`) find the right sub-series
 * first, and without them the same queries find nothing.
 * test/integration/time-questions.test.ts asks the same of the real data through the handler.
 */
import { describe, expect, it } from "vitest";
import { buildIndicator, type BuiltIndicator } from "../../src/builder/dataset.js";
import { searchIndex } from "../../src/builder/search-index.js";
import { queryWords, search } from "../../src/core/answer/search.js";
import type { Localized } from "../../src/core/text/i18n.js";
import { parseIndicatorMeta, type IndicatorMeta, type SearchMeta } from "../../src/source/metadata.js";
import { both, indicatorMeta } from "../meta.js";

const NONE: SearchMeta = { keywords: { es: [], en: [] }, equivalents: {} };

function built(meta: Partial<IndicatorMeta> & Pick<IndicatorMeta, "id" | "title" | "series">): BuiltIndicator {
  const full = indicatorMeta(meta);
  const rows = full.series.map((s, i) => ({ date: "2026-01-01", series: s.id, value: "100", source: "https://example.test/s", note: "", file: "a.csv", line: i + 2 }));
  return buildIndicator({ meta: full, folder: `data/${full.id}`, files: [], rows }, "", "https://example.test/");
}

const l = (es: string, en: string): Localized => ({ es, en });

/** Four indicators as the real data has them, with or without their search declarations. */
function indicators(declared: boolean): BuiltIndicator[] {
  const items = [
    { key: "consult-general-medicine", label: l("Orden de consulta: medicina general", "Consultation order: general medicine") },
    { key: "consult-gynaecology", label: l("Orden de consulta: ginecología", "Consultation order: gynaecology") },
    { key: "consult-paediatrics", label: l("Orden de consulta: pediatría", "Consultation order: paediatrics") },
  ];
  const providers = ["CASMU", "COSEM"];
  const regimes = [
    { key: "fonasa", label: l("FONASA", "FONASA") },
    { key: "no-fonasa", label: l("Sin FONASA", "Non-FONASA") },
  ];
  return [
    built({
      id: "prices",
      title: l("Precios de órdenes y tickets de las mutualistas", "Prices of mutual health insurance providers"),
      facets: [
        { name: "provider", title: l("Mutualista", "Provider"), values: providers.map((p) => ({ value: p, label: both(p) })) },
        { name: "item", title: l("Prestación", "Item"), values: items.map((i) => ({ value: i.key, label: i.label })) },
        { name: "regime", title: l("Afiliación", "Membership"), values: regimes.map((r) => ({ value: r.key, label: r.label })) },
      ],
      series: providers.flatMap((p) =>
        items.flatMap((i) =>
          regimes.map((r) => ({
            id: `${p.toLowerCase()}.${i.key}.${r.key}`,
            title: l(`${p} — ${i.label.es} (${r.label.es})`, `${p} — ${i.label.en} (${r.label.en})`),
            facets: { provider: p, item: i.key, regime: r.key },
          })),
        ),
      ),
      search: declared ? { ...NONE, equivalents: { gynaecology: ["gynecology"], paediatrics: ["pediatrics"] } } : NONE,
    }),
    built({
      id: "index",
      title: l("Índice de Precios del Consumo (IPC)", "Consumer price index (CPI)"),
      series: [{ id: "general", title: l("Índice general, total país", "General index, whole country"), facets: {} }],
      search: declared ? { ...NONE, keywords: { es: ["inflación", "costo de vida"], en: ["inflation", "cost of living"] } } : NONE,
    }),
    built({
      id: "domestic",
      title: l("Salario mínimo del servicio doméstico", "Minimum wage of domestic service"),
      series: [{ id: "monthly", title: l("Salario mínimo mensual", "Minimum monthly wage"), facets: {} }],
    }),
    built({
      id: "national",
      title: l("Salario mínimo nacional", "National minimum wage"),
      series: [{ id: "monthly", title: l("Salario mínimo nacional mensual", "National monthly minimum wage"), facets: {} }],
      search: declared ? { ...NONE, keywords: { es: ["sueldo mínimo", "SMN"], en: ["minimum salary"] } } : NONE,
    }),
  ];
}

/** Indicator and sub-series of each result, best first. */
function found(declared: boolean, q: string): string[] {
  const index = searchIndex(indicators(declared));
  return search(index, queryWords(q), null).map((e) => `${index.indicators[e.i]?.id as string}:${e.series}`);
}

describe("search by the words an indicator.json declares", () => {
  it.each([
    ["casmu gynecology", "prices:casmu.consult-gynaecology.fonasa", 2],
    ["casmu pediatrics", "prices:casmu.consult-paediatrics.fonasa", 2],
    ["inflation", "index:general", 1],
    ["inflación", "index:general", 1],
    ["sueldo mínimo", "national:monthly", 1],
  ])("%s: finds %s first (%d results), and nothing without the declarations", (q, first, total) => {
    const results = found(true, q);
    expect(results[0]).toBe(first);
    expect(results).toHaveLength(total);
    expect(found(false, q)).toEqual([]);
  });

  it("keeps what the labels find: the British spelling, a prefix, and the equivalents' prefixes", () => {
    expect(found(true, "casmu gynaecology")[0]).toBe("prices:casmu.consult-gynaecology.fonasa");
    expect(found(true, "cosem gyneco")).toEqual(["prices:cosem.consult-gynaecology.fonasa", "prices:cosem.consult-gynaecology.no-fonasa"]);
    expect(found(true, "pediatr").every((r) => r.includes(".consult-paediatrics."))).toBe(true);
    // A keyword counts as the indicator's title does: the sub-series' own words rank first.
    expect(found(true, "salario mínimo")).toEqual(["domestic:monthly", "national:monthly"]);
    expect(found(true, "smn")).toEqual(["national:monthly"]);
  });

  it("applies an indicator's equivalents to its own words only", () => {
    const index = searchIndex(indicators(true));
    const words = (id: string) => index.entries.filter((e) => index.indicators[e.i]?.id === id).map((e) => e.words);
    expect(words("prices").filter((w) => w.includes("gynaecology")).every((w) => w.includes("gynecology"))).toBe(true);
    expect(words("index").join(" ")).not.toContain("gynecology");
    expect(index.indicators.find((i) => i.id === "index")?.words.split(" ")).toEqual(expect.arrayContaining(["inflacion", "inflation", "costo", "vida"]));
  });
});

describe("indicator.json's search key", () => {
  const parse = (search: unknown) =>
    parseIndicatorMeta(
      JSON.stringify({
        id: "tiny",
        title: both("Tiny"),
        description: both("Tiny."),
        unit: "UYU",
        rhythm: "annual",
        license: "CC-BY-4.0",
        source: { name: both("Source"), url: "https://example.test/" },
        search,
        series: [{ id: "monthly", title: l("Mensual", "Monthly") }],
      }),
      "data/tiny/indicator.json",
      "tiny",
    );
  const reasons = (search: unknown) => {
    const parsed = parse(search);
    return parsed.ok ? [] : parsed.issues.map((i) => `${i.column ?? ""}: ${i.reason}`);
  };

  it("is optional, every part of it too", () => {
    for (const search of [undefined, {}, { keywords: { es: ["sueldo"], en: ["salary"] } }, { equivalents: { Monthly: ["mensually"] } }]) expect(reasons(search)).toEqual([]);
    const parsed = parse(undefined);
    expect(parsed.ok && parsed.value.search).toEqual(NONE);
  });

  it("wants keywords in every language, and an equivalent of one word of the labels", () => {
    expect(reasons({ keywords: { es: ["sueldo"] } })).toEqual(["search.keywords.en: required"]);
    expect(reasons({ keywords: { es: [], en: ["wage"] } })).toEqual(["search.keywords.es: list at least one"]);
    expect(reasons({ equivalents: { monthly: [] } })).toEqual(["search.equivalents.monthly: list at least one"]);
    expect(reasons({ equivalents: { colour: ["color"] } })).toEqual([
      `search.equivalents.colour: "colour" is not a word of this indicator's titles, sub-series ids or facet labels: an equivalent of it would find nothing`,
    ]);
    expect(reasons({ keywords: { es: "sueldo", en: ["wage"] } })).toEqual(['search.keywords.es: expected a list of words, ["…"]']);
    expect(reasons({ synonyms: {} })).toEqual(['search: Unrecognized key: "synonyms"']);
  });
});
