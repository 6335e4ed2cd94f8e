/**
 * `_data/search.json`: the search index (src/core/search.ts) of every sub-series
 * of every indicator, made at build time: titles and facet labels in both
 * languages, folded into words, and each sub-series' newest point.
 */
import type { BuiltIndicator } from "./dataset.js";
import { foldedWords, type SearchIndex } from "../core/search.js";

/** The index of the indicators, in their order, each's sub-series in id order. */
export function searchIndex(indicators: readonly BuiltIndicator[]): SearchIndex {
  return {
    indicators: indicators.map(({ source }) => ({
      id: source.meta.id,
      title: source.meta.title,
      words: foldedWords(source.meta.title.es, source.meta.title.en),
    })),
    entries: indicators.flatMap(({ source, labels, plain }, i) => {
      const facetLabels = new Map(source.meta.facets.map((f) => [f.name, new Map(f.values.map((v) => [v.value, v.label]))]));
      return labels.map((label, s) => {
        const facets = Object.entries(label.facets).map(([name, value]) => ({ name, value, label: facetLabels.get(name)?.get(value) ?? { es: value, en: value } }));
        const series = plain[s];
        const newest = series === undefined || series.dates.length === 0 ? null : { date: series.dates[0] as string, value: Number(series.values[0]) };
        const texts = [label.title.es, label.title.en, label.id, ...facets.flatMap((f) => [f.value, f.label.es, f.label.en])];
        return { i, series: label.id, title: label.title, facets, newest, words: foldedWords(...texts) };
      });
    }),
  };
}
