/**
 * `_data/search.json`: the search index (src/core/search.ts) of every sub-series
 * of every indicator, made at build time: titles and facet labels in both
 * languages, folded into words, and each sub-series' newest point. What each
 * indicator's `indicator.json` declares for search (`search`, src/source/metadata.ts)
 * goes in here too: its keywords with its title's words, and the equivalents of a
 * word beside that word wherever it is. The matching (src/core/search.ts) knows
 * nothing of either: the function's work per query stays the same.
 */
import type { BuiltIndicator } from "./dataset.js";
import { fold, foldedWords, type SearchIndex } from "../core/search.js";
import type { SearchMeta } from "../source/metadata.js";

/** A folded word → the folded words that find it too. */
function equivalentsOf(search: SearchMeta): Map<string, string[]> {
  const map = new Map<string, string[]>();
  for (const [word, others] of Object.entries(search.equivalents)) map.set(fold(word), [...(map.get(fold(word)) ?? []), ...others.map(fold)]);
  return map;
}

/** `words` (the index's form) with the equivalents of each word after it, each word once. */
function withEquivalents(words: string, equivalents: ReadonlyMap<string, readonly string[]>): string {
  if (equivalents.size === 0) return words;
  const list = words.split(" ");
  return foldedWords(...list.flatMap((word) => [word, ...(equivalents.get(word) ?? [])]));
}

/** The index of the indicators, in their order, each's sub-series in id order. */
export function searchIndex(indicators: readonly BuiltIndicator[]): SearchIndex {
  const equivalents = indicators.map(({ source }) => equivalentsOf(source.meta.search));
  return {
    indicators: indicators.map(({ source }, i) => {
      const { title, search } = source.meta;
      return {
        id: source.meta.id,
        title,
        words: withEquivalents(foldedWords(title.es, title.en, ...search.keywords.es, ...search.keywords.en), equivalents[i] as Map<string, string[]>),
      };
    }),
    entries: indicators.flatMap(({ source, labels, plain }, i) => {
      const facetLabels = new Map(source.meta.facets.map((f) => [f.name, new Map(f.values.map((v) => [v.value, v.label]))]));
      return labels.map((label, s) => {
        const facets = Object.entries(label.facets).map(([name, value]) => ({ name, value, label: facetLabels.get(name)?.get(value) ?? { es: value, en: value } }));
        const series = plain[s];
        const newest = series === undefined || series.dates.length === 0 ? null : { date: series.dates[0] as string, value: Number(series.values[0]) };
        const texts = [label.title.es, label.title.en, label.id, ...facets.flatMap((f) => [f.value, f.label.es, f.label.en])];
        return { i, series: label.id, title: label.title, facets, newest, words: withEquivalents(foldedWords(...texts), equivalents[i] as Map<string, string[]>) };
      });
    }),
  };
}
