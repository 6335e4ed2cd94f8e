/**
 * `_data/search.json` and its shards: the search index (src/core/answer/search.ts) of every sub-series
 * of every indicator, made at build time: titles and facet labels in both
 * languages, folded into words, and each sub-series' newest point. What each
 * indicator's `indicator.json` declares for search (`search`, src/source/metadata.ts)
 * goes in here too: its keywords with its title's words, and the equivalents of a
 * word beside that word wherever it is. The matching (src/core/answer/search.ts) knows
 * nothing of either: the function's work per query stays the same.
 */
import type { BuiltIndicator } from "./dataset.js";
import { fold, foldedWords, type SearchFacet, type SearchIndex, type SearchTop } from "../core/answer/search.js";
import { byCodeUnits } from "../core/text/order.js";
import { BuildError } from "../source/errors.js";
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

/**
 * The largest shard, in bytes: what one key's entries are split at, and, with the
 * keys' lengths, what a query reads for a word whose matches are fewer.
 * The top file is checked against `SEARCH_TOP_BYTES`: it grows with the distinct
 * facet values and keys, not with the entries.
 */
export const SEARCH_SHARD_BYTES = 64 * 1024;
export const SEARCH_TOP_BYTES = 1024 * 1024;

const encoder = new TextEncoder();

/**
 * The index in shards (src/core/answer/search.ts `SearchTop`): the top file and the
 * shards' texts by number. Each key (a word's first characters) whose entries
 * weigh more than `cap` is split into keys one character longer, down to whole
 * words; what still weighs more is cut into parts, in rank order.
 * @throws BuildError when one entry or the top file is over its limit.
 */
export function searchShards(index: SearchIndex, cap = SEARCH_SHARD_BYTES): { top: SearchTop; shards: string[] } {
  const facets: SearchFacet[] = [];
  const facetAt = new Map<string, number>();
  const texts = index.entries.map((e, r) => {
    const f = e.facets.map((facet) => {
      const key = JSON.stringify(facet);
      let at = facetAt.get(key);
      if (at === undefined) facetAt.set(key, (at = facets.push(facet) - 1));
      return at;
    });
    return JSON.stringify({ r, i: e.i, series: e.series, title: e.title, f, newest: e.newest, words: e.words });
  });
  // Each entry's bytes in a shard: its text and a separator.
  const bytes = texts.map((t) => encoder.encode(t).length + 1);
  bytes.forEach((b, r) => {
    const e = index.entries[r] as SearchIndex["entries"][number];
    if (b + 1 > cap) throw new BuildError(`search: the entry of ${index.indicators[e.i]?.id ?? ""} ${e.series} is ${b - 1} bytes, over the ${cap}-byte shard`);
  });
  const shards: string[] = [];
  /** The entries at `ranks` (ascending) as shards of at most `cap` bytes; their numbers. */
  const write = (ranks: readonly number[]): number[] => {
    const numbers: number[] = [];
    let part: string[] = [];
    let size = 1;
    const flush = () => {
      if (part.length === 0) return;
      numbers.push(shards.push(`[${part.join(",")}]`) - 1);
      [part, size] = [[], 1];
    };
    for (const r of ranks) {
      if (size + (bytes[r] as number) > cap) flush();
      part.push(texts[r] as string);
      size += bytes[r] as number;
    }
    flush();
    return numbers;
  };
  const byIndicator = index.indicators.map((_, i) => write(index.entries.flatMap((e, r) => (e.i === i ? [r] : []))));
  const ranksOf = new Map<string, number[]>();
  index.entries.forEach((e, r) => {
    for (const word of e.words.split(" ")) {
      const ranks = ranksOf.get(word);
      if (ranks !== undefined) ranks.push(r);
      else if (word !== "") ranksOf.set(word, [r]);
    }
  });
  const union = (words: readonly string[]) => [...new Set(words.flatMap((w) => ranksOf.get(w) ?? []))].sort((a, b) => a - b);
  const weight = (ranks: readonly number[]) => ranks.reduce((sum, r) => sum + (bytes[r] as number), 1);
  const everything = weight(index.entries.map((_, r) => r));
  const keys: [string, number[] | null][] = [];
  // A key more than half the entries have is not written: reading every entry once costs less than twice it.
  const key = (name: string, ranks: readonly number[]) => keys.push([name, 2 * weight(ranks) > everything ? null : write(ranks)]);
  /** `words` begin with `name`: one key, or keys one character longer for those longer than it. */
  const place = (name: string, words: readonly string[]) => {
    const ranks = union(words);
    const longer = words.filter((w) => w.length > name.length);
    if (longer.length === 0 || weight(ranks) <= cap) {
      key(name, ranks);
      return;
    }
    if (longer.length < words.length) key(name, union(words.filter((w) => w.length === name.length)));
    for (const [child, group] of byPrefix(longer, name.length + 1)) place(child, group);
  };
  for (const [key, group] of byPrefix([...ranksOf.keys()], 1)) place(key, group);
  const top: SearchTop = { indicators: index.indicators, facets, keys, byIndicator, sizes: shards.map((s) => encoder.encode(s).length) };
  const topBytes = encoder.encode(JSON.stringify(top)).length;
  if (topBytes > SEARCH_TOP_BYTES) throw new BuildError(`search: the index's top file is ${topBytes} bytes, over ${SEARCH_TOP_BYTES}: too many distinct facet values or word keys`);
  return { top, shards };
}

/** `words` grouped by their first `length` characters, the groups in key order. */
function byPrefix(words: readonly string[], length: number): [string, string[]][] {
  const groups = new Map<string, string[]>();
  for (const w of words) {
    const key = w.slice(0, length);
    const group = groups.get(key);
    if (group !== undefined) group.push(w);
    else groups.set(key, [w]);
  }
  return [...groups].sort(([a], [b]) => byCodeUnits(a, b));
}
