/**
 * What kind of document a point's source is. A point cites one address (the CSV's
 * `source`); whether that address is the publisher's own text, another public
 * body's table of it, a newspaper, a reference work or the input of a stated
 * computation is declared per indicator in `indicator.json` (`sourceKinds`: an
 * address prefix and its kind, validated in src/source/metadata.ts, every point
 * checked in src/source/load.ts), never guessed from the host by code. The kinds
 * travel with each value (the metadata document's counts, the pages, llms.txt,
 * MCP, the API's `provenance=true`), so that no answer says "official" of a value
 * a newspaper reported.
 */
import type { Localized } from "./i18n.js";

/**
 * The kinds, in the order they are listed:
 * - `official`: the issuing body's own publication (a decree as IMPO publishes it, the statistics office's workbook);
 * - `official-republication`: the values as another public body or an official portal republishes them (a ministry's indicator table);
 * - `press`: a newspaper, news site or blog reporting the value;
 * - `reference`: a reference work or a third party's compilation (an encyclopedia, a legal database, research code);
 * - `computed`: computed by a rule the indicator states (a law's formula) from the cited input.
 */
export const SOURCE_KINDS = ["official", "official-republication", "press", "reference", "computed"] as const;
export type SourceKind = (typeof SOURCE_KINDS)[number];

/** Each kind as a reader reads it, singular. */
export const SOURCE_KIND_LABELS: Readonly<Record<SourceKind, Localized>> = {
  official: { es: "publicación oficial", en: "official publication" },
  "official-republication": { es: "republicación oficial", en: "official republication" },
  press: { es: "prensa", en: "press" },
  reference: { es: "obra de referencia o recopilación", en: "reference work or compilation" },
  computed: { es: "calculado por una regla declarada", en: "computed by a stated rule" },
};

/** One declaration of `sourceKinds`: every source address that begins with `prefix` is of `kind`. */
export interface SourceKindRule {
  readonly prefix: string;
  readonly kind: SourceKind;
}

/**
 * The kind of a source address: the declaration of the longest prefix it begins
 * with (a host's rule may have an exception for one path), or `null` when none
 * does (or the point cites nothing).
 */
export function sourceKindOf(rules: readonly SourceKindRule[], source: string): SourceKind | null {
  if (source === "") return null;
  let best: SourceKindRule | null = null;
  for (const rule of rules) {
    if (source.startsWith(rule.prefix) && (best === null || rule.prefix.length > best.prefix.length)) best = rule;
  }
  return best === null ? null : best.kind;
}
