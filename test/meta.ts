/** Indicator metadata for tests that build an indicator in memory (no `indicator.json`). */
import type { Localized } from "../src/core/text/i18n.js";
import type { IndicatorMeta } from "../src/source/metadata.js";
import { NEUTRAL_DISPLAY } from "../src/core/indicator/display.js";

/** The same text in every language (tests of escaping and layout, not of translation). */
export const both = (text: string): Localized => ({ es: text, en: text });

/** Complete metadata: `overrides` over neutral defaults. */
export function indicatorMeta(overrides: Partial<IndicatorMeta> & Pick<IndicatorMeta, "series">): IndicatorMeta {
  return {
    id: "tiny",
    title: both("Tiny"),
    description: both("A tiny indicator."),
    unit: "UYU",
    rhythm: "semiannual",
    stepwise: false,
    license: "CC-BY-4.0",
    source: { name: both("Source"), url: "https://example.test/source" },
    notes: [],
    facets: [],
    view: { default: {}, ratios: [] },
    glossary: [],
    schedule: null,
    deflates: [],
    adjusts: [],
    noteTranslations: {},
    sourceKinds: [],
    consult: [],
    search: { keywords: { es: [], en: [] }, equivalents: {} },
    display: NEUTRAL_DISPLAY,
    ...overrides,
  };
}
