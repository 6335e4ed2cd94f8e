/**
 * Finding sub-series by what people type ("casmu gineco", "médica uruguaya",
 * "gynaecology"): the index the build writes (`_data/search.json`) and the
 * matching the function (and, next, the site) runs over it.
 *
 * Texts are folded (accents and case dropped: "Médica" → "medica") and split
 * into words. Every word of the query must begin a word of the sub-series' own
 * labels — its title and its facet values' labels, in both languages, and its
 * id — or of its indicator's title. Ranked by where the words matched (the
 * sub-series' labels count 2, the indicator's title 1), then by indicator and id.
 */

/** One sub-series in the index. */
export interface SearchEntry {
  /** Index into `SearchIndex.indicators`. */
  readonly i: number;
  readonly series: string;
  readonly title: { readonly es: string; readonly en: string };
  /** The sub-series' facets: name, value and the value's label. */
  readonly facets: readonly { readonly name: string; readonly value: string; readonly label: { readonly es: string; readonly en: string } }[];
  /** The newest point: date and value (its JSON text as a number), or `null`. */
  readonly newest: { readonly date: string; readonly value: number } | null;
  /** Folded words of the sub-series' own labels, space-separated. */
  readonly words: string;
}

export interface SearchIndex {
  readonly indicators: readonly { readonly id: string; readonly title: { readonly es: string; readonly en: string }; readonly words: string }[];
  readonly entries: readonly SearchEntry[];
}

/** Accents and case dropped: the form texts and queries are compared in. */
export function fold(text: string): string {
  return text.normalize("NFD").replace(/\p{M}/gu, "").toLowerCase();
}

/** The folded words of texts, each once, space-separated (the index's form). */
export function foldedWords(...texts: readonly string[]): string {
  const words = new Set<string>();
  for (const text of texts) for (const word of fold(text).split(/[^\p{L}\p{N}]+/u)) if (word !== "") words.add(word);
  return [...words].join(" ");
}

/** The words of a query, folded. */
export function queryWords(q: string): string[] {
  return foldedWords(q).split(" ").filter((w) => w !== "");
}

/** Whether a word of `words` (space-separated) begins with `prefix`. */
function hasPrefix(words: string, prefix: string): boolean {
  let at = words.indexOf(prefix);
  while (at >= 0) {
    if (at === 0 || words.charCodeAt(at - 1) === 32) return true;
    at = words.indexOf(prefix, at + 1);
  }
  return false;
}

/** The score of an entry for the query's words: 0 when a word matches nowhere. */
export function score(index: SearchIndex, entry: SearchEntry, words: readonly string[]): number {
  let total = 0;
  const indicatorWords = (index.indicators[entry.i] as SearchIndex["indicators"][number]).words;
  for (const word of words) {
    if (hasPrefix(entry.words, word)) total += 2;
    else if (hasPrefix(indicatorWords, word)) total += 1;
    else return 0;
  }
  return total;
}

/** A filter on a facet's value (`facet=provider:CASMU`). */
export interface FacetFilter {
  readonly name: string;
  readonly value: string;
}

/** The entries matching every word, of the indicator at `indicator` when given, ranked. */
export function search(index: SearchIndex, words: readonly string[], indicator: number | null): SearchEntry[] {
  const scored: { entry: SearchEntry; score: number; rank: number }[] = [];
  index.entries.forEach((entry, rank) => {
    if (indicator !== null && entry.i !== indicator) return;
    const s = score(index, entry, words);
    if (s > 0) scored.push({ entry, score: s, rank });
  });
  // The index is in indicator and id order: the rank breaks ties.
  scored.sort((a, b) => b.score - a.score || a.rank - b.rank);
  return scored.map((s) => s.entry);
}

/** How many of `entries` have each value of each facet (name → value → count). */
export function facetCounts(entries: readonly SearchEntry[]): Record<string, Record<string, number>> {
  // Objects without a prototype: a facet value is data, and "__proto__" must stay a key.
  const counts = Object.create(null) as Record<string, Record<string, number>>;
  for (const entry of entries) {
    for (const f of entry.facets) {
      const byValue = (counts[f.name] ??= Object.create(null) as Record<string, number>);
      byValue[f.value] = (byValue[f.value] ?? 0) + 1;
    }
  }
  return counts;
}
