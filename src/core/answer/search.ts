/**
 * Finding sub-series by what people type ("casmu gineco", "médica uruguaya",
 * "gynaecology"): the index the build writes (`_data/search.json` and its shards)
 * and the matching the function (and, next, the site) runs over it.
 *
 * Texts are folded (accents and case dropped: "Médica" → "medica") and split
 * into words. Every word of the query must begin a word of the sub-series' own
 * labels — its title and its facet values' labels, in both languages, and its
 * id — or of its indicator's title. Ranked by where the words matched (the
 * sub-series' labels count 2, the indicator's title 1), then by indicator and id.
 */

/** A facet of a sub-series: name, value and the value's label. */
export interface SearchFacet {
  readonly name: string;
  readonly value: string;
  readonly label: { readonly es: string; readonly en: string };
}

/** One sub-series in the index. */
export interface SearchEntry {
  /** Index into `SearchIndex.indicators`. */
  readonly i: number;
  readonly series: string;
  readonly title: { readonly es: string; readonly en: string };
  readonly facets: readonly SearchFacet[];
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

/**
 * The index as the function reads it: this top file (`_data/search.json`) and
 * shards (`_data/search/<n>.json`), so that a query reads the entries its words
 * can match, not the whole index. An entry is in the shards of the key of each of
 * its words: the word's first character, or more of them where one key would
 * hold more than a shard's bytes (docs/api.md "Search"); and, once more, in its
 * indicator's shards, for a word that matches the indicator's title and so every
 * entry of it.
 */
export interface SearchTop {
  readonly indicators: SearchIndex["indicators"];
  /** Every distinct facet of the entries, in order of first appearance: a shard's entries name theirs by position here. */
  readonly facets: readonly SearchFacet[];
  /**
   * Word keys, sorted, each with its shards: an entry with a word under the key
   * (the longest key that begins the word) is in one of them. `null` for a key
   * more than half the entries have (weighed in bytes): its word reads `byIndicator`.
   */
  readonly keys: readonly (readonly [string, readonly number[] | null])[];
  /** By indicator, in `indicators`' order: the shards of all its entries. */
  readonly byIndicator: readonly (readonly number[])[];
  /** Each shard's size in bytes, by number. */
  readonly sizes: readonly number[];
}

/** An entry as a shard holds it: its rank in the index (`r`) and its facets by position in `SearchTop.facets` (`f`). */
export interface ShardEntry {
  readonly r: number;
  readonly i: number;
  readonly series: string;
  readonly title: SearchEntry["title"];
  readonly f: readonly number[];
  readonly newest: SearchEntry["newest"];
  readonly words: string;
}

/**
 * The shards that hold every entry a word can match (under the indicator at
 * `indicator` when given), each once; `exact`: every entry with the word itself
 * among its own words.
 */
function shardsOfWord(top: SearchTop, word: string, indicator: number | null, exact = false): number[] {
  // Every entry once (of the indicator when given): never more, and less for a word most entries have.
  const all = indicator === null ? top.byIndicator.flat() : (top.byIndicator[indicator] ?? []);
  const found = new Set<number>();
  // The keys the word begins hold the words it begins. When there is none, those
  // words (if any) are under the longest key that begins the word: a key is split
  // into longer ones only when it is too large, and then keeps only the words equal to it.
  // So the word itself is under that longest key (itself, if it is a key).
  let longest: readonly number[] | null = [];
  let longestKey = "";
  let begun = false;
  for (const [key, shards] of top.keys) {
    if (!exact && key.startsWith(word)) {
      if (shards === null) return [...all];
      for (const n of shards) found.add(n);
      begun = true;
    } else if (word.startsWith(key) && key.length > longestKey.length) [longest, longestKey] = [shards, key];
  }
  if (!begun) {
    if (longest === null) return [...all];
    for (const n of longest) found.add(n);
  }
  top.indicators.forEach((ind, i) => {
    if (!exact && hasPrefix(ind.words, word)) for (const n of top.byIndicator[i] ?? []) found.add(n);
  });
  return bytesOf(top, all) <= bytesOf(top, found) ? [...all] : [...found];
}

function bytesOf(top: SearchTop, shards: Iterable<number>): number {
  let total = 0;
  for (const n of shards) total += top.sizes[n] ?? 0;
  return total;
}

/** The choice of fewest bytes (the first such), or `null` when there is none. */
function cheapest(top: SearchTop, choices: readonly number[][]): number[] | null {
  let best: number[] | null = null;
  let bestBytes = Infinity;
  for (const shards of choices) {
    const bytes = bytesOf(top, shards);
    if (bytes < bestBytes) [best, bestBytes] = [shards, bytes];
  }
  return best;
}

/**
 * The shards a query reads: those of its word whose shards are the fewest bytes
 * (the first such word). Every entry that matches all the words matches that one,
 * so it is in them; `candidates` then keeps the index's order. A facet filter
 * narrows as a word does: an entry with a facet's value has the value's words
 * among its own, so a filter reads, for each value it admits, the shards of that
 * value's cheapest word (the word itself, not the words it begins).
 */
export function shardsToRead(top: SearchTop, words: readonly string[], indicator: number | null, facets: readonly FacetFilter[] = []): number[] {
  const choices = words.map((word) => shardsOfWord(top, word, indicator));
  const byName = new Map<string, string[]>();
  for (const f of facets) byName.set(f.name, [...(byName.get(f.name) ?? []), f.value]);
  for (const values of byName.values()) {
    const each = values.map((value) => cheapest(top, queryWords(value).map((word) => shardsOfWord(top, word, indicator, true))));
    if (each.every((shards) => shards !== null)) choices.push([...new Set(each.flat())]);
  }
  return (cheapest(top, choices) ?? []).sort((a, b) => a - b);
}

/** An entry of a shard with its facets resolved, as the function keeps it: `r`, its rank in the index. */
export interface RankedEntry extends SearchEntry {
  readonly r: number;
}

/** The entries of a shard as `candidates` takes them. */
export function shardEntries(top: SearchTop, shard: readonly ShardEntry[]): RankedEntry[] {
  return shard.map((e) => ({ r: e.r, i: e.i, series: e.series, title: e.title, facets: e.f.map((k) => top.facets[k] as SearchFacet), newest: e.newest, words: e.words }));
}

/**
 * The entries of `shards` (of the indicator at `indicator` when given), each once
 * and in the index's order, as an index `search` runs over: the same ranking as
 * over the whole index, for the words whose shards these are.
 */
export function candidates(top: SearchTop, shards: readonly (readonly RankedEntry[])[], indicator: number | null): SearchIndex {
  const entries = shards.flat().filter((e) => indicator === null || e.i === indicator);
  // Shards in number order that each hold other entries (an indicator's, every entry's) are in order already.
  if (entries.every((e, k) => k === 0 || (entries[k - 1] as RankedEntry).r < e.r)) return { indicators: top.indicators, entries };
  const byRank = new Map(entries.map((e) => [e.r, e]));
  return { indicators: top.indicators, entries: [...byRank.values()].sort((a, b) => a.r - b.r) };
}
