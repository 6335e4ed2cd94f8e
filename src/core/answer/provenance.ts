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
import type { Localized } from "../text/i18n.js";

/**
 * The kinds, in the order they are listed:
 * - `official`: the issuing body's own publication (a decree as IMPO publishes it, the statistics office's workbook);
 * - `official-republication`: the values as another public body or an official portal republishes them (a ministry's indicator table);
 * - `republication`: the publisher's own files as a third party that is not a public body republishes them (a civil-society organisation's copy of a ministry's files): who, the declaration's `name` says;
 * - `press`: a newspaper, news site or blog reporting the value;
 * - `reference`: a reference work or a third party's compilation (an encyclopedia, a legal database, research code);
 * - `computed`: computed by a rule the indicator states (a law's formula) from the cited input.
 */
export const SOURCE_KINDS = ["official", "official-republication", "republication", "press", "reference", "computed"] as const;
export type SourceKind = (typeof SOURCE_KINDS)[number];

/** Each kind as a reader reads it, singular. */
export const SOURCE_KIND_LABELS: Readonly<Record<SourceKind, Localized>> = {
  official: { es: "publicación oficial", en: "official publication" },
  "official-republication": { es: "republicación oficial", en: "official republication" },
  republication: { es: "republicación por terceros", en: "third-party republication" },
  press: { es: "prensa", en: "press" },
  reference: { es: "obra de referencia o recopilación", en: "reference work or compilation" },
  computed: { es: "calculado por una regla declarada", en: "computed by a stated rule" },
};

/** One declaration of `sourceKinds`: every source address that begins with `prefix` is of `kind`. */
export interface SourceKindRule {
  readonly prefix: string;
  readonly kind: SourceKind;
}

/** A declaration as `indicator.json` gives it: with `name`, who the cited source is, as a reader names it (absent: its host). */
export interface NamedSourceKindRule extends SourceKindRule {
  readonly name?: Localized;
}

/**
 * The name of the source a declaration covers: its declared `name`, else the
 * host of its prefix without `www.` ("elobservador.com.uy"), the same in both
 * languages.
 */
export function sourceName(rule: NamedSourceKindRule): Localized {
  if (rule.name !== undefined) return rule.name;
  const host = new URL(rule.prefix).hostname.replace(/^www\./, "");
  return { es: host, en: host };
}

/** The declaration of the longest prefix `source` begins with, or null (see {@link sourceKindOf}). */
export function sourceRuleOf<R extends SourceKindRule>(rules: readonly R[], source: string): R | null {
  if (source === "") return null;
  let best: R | null = null;
  for (const rule of rules) {
    if (source.startsWith(rule.prefix) && (best === null || rule.prefix.length > best.prefix.length)) best = rule;
  }
  return best;
}

/**
 * The kind of a source address: the declaration of the longest prefix it begins
 * with (a host's rule may have an exception for one path), or `null` when none
 * does (or the point cites nothing).
 */
export function sourceKindOf(rules: readonly SourceKindRule[], source: string): SourceKind | null {
  return sourceRuleOf(rules, source)?.kind ?? null;
}
