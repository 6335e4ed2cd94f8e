/**
 * How many points of each source kind an indicator and each of its sub-series
 * have (src/core/answer/provenance.ts): what the metadata document, the page's sources
 * and llms.txt say instead of "every value cites its official source".
 */
import type { Localized } from "../text/i18n.js";
import { SOURCE_KINDS, SOURCE_KIND_LABELS, sourceKindOf, sourceName, sourceRuleOf, type NamedSourceKindRule, type SourceKind, type SourceKindRule } from "./provenance.js";

/** A kind the points cite, or `none` for points that cite no source. */
export type KindOrNone = SourceKind | "none";

/** The label of points that cite no source. */
export const NO_SOURCE_LABEL: Localized = { es: "sin fuente citada", en: "no source cited" };

/** The label of a kind, or of `none`. */
export const kindLabel = (kind: KindOrNone): Localized => (kind === "none" ? NO_SOURCE_LABEL : SOURCE_KIND_LABELS[kind]);

export interface SourceKindCounts {
  /** The kinds the points cite, in `SOURCE_KINDS` order (`none` last), each with its label and number of points. */
  readonly kinds: readonly { readonly kind: KindOrNone; readonly label: Localized; readonly points: number }[];
  /** By sub-series id, its number of points of each kind of `kinds`, in that order. */
  readonly bySeries: ReadonlyMap<string, readonly number[]>;
}

/** Counts the points of `rows` by kind, overall and per sub-series. */
export function sourceKindCounts(rules: readonly SourceKindRule[], rows: readonly { readonly series: string; readonly source: string }[]): SourceKindCounts {
  const order: readonly KindOrNone[] = [...SOURCE_KINDS, "none"];
  const perSeries = new Map<string, number[]>();
  const total = order.map(() => 0);
  for (const row of rows) {
    const k = order.indexOf(sourceKindOf(rules, row.source) ?? "none");
    let counts = perSeries.get(row.series);
    if (counts === undefined) perSeries.set(row.series, (counts = order.map(() => 0)));
    counts[k] = (counts[k] as number) + 1;
    total[k] = (total[k] as number) + 1;
  }
  const used = order.map((_, k) => k).filter((k) => (total[k] as number) > 0);
  return {
    kinds: used.map((k) => ({ kind: order[k] as KindOrNone, label: kindLabel(order[k] as KindOrNone), points: total[k] as number })),
    bySeries: new Map([...perSeries].map(([id, counts]) => [id, used.map((k) => counts[k] as number)])),
  };
}

/** A source the points cite, named as a reader names it, with one of its addresses and how many points cite it. */
export interface CitedSource {
  readonly name: Localized;
  /** The prefix of its first declaration (a home page or folder to link). */
  readonly url: string;
  readonly points: number;
}

/** The points of one kind of source, and the sources of that kind they cite, most cited first. */
export interface CitedKind {
  readonly kind: KindOrNone;
  readonly label: Localized;
  readonly points: number;
  readonly sources: readonly CitedSource[];
}

/**
 * The sources the points of `rows` actually cite, by kind (in `SOURCE_KINDS`
 * order, `none` last) and, within a kind, by source name (a declaration's
 * `name`, else its host: two declarations of one host are one source), most
 * cited first: what the page's source box and citation name, so that neither
 * credits a publisher with values the press or a compilation reported.
 */
export function citedSources(rules: readonly NamedSourceKindRule[], rows: readonly { readonly source: string }[]): CitedKind[] {
  const byKind = new Map<KindOrNone, Map<string, { name: Localized; url: string; points: number }>>();
  for (const row of rows) {
    const rule = sourceRuleOf(rules, row.source);
    const kind: KindOrNone = rule?.kind ?? "none";
    let sources = byKind.get(kind);
    if (sources === undefined) byKind.set(kind, (sources = new Map<string, { name: Localized; url: string; points: number }>()));
    if (rule === null) continue;
    const name = sourceName(rule);
    const known = sources.get(name.en);
    if (known === undefined) sources.set(name.en, { name, url: rule.prefix, points: 1 });
    else known.points++;
  }
  const order: readonly KindOrNone[] = [...SOURCE_KINDS, "none"];
  return order
    .filter((kind) => byKind.has(kind))
    .map((kind) => {
      const sources = [...(byKind.get(kind) as Map<string, CitedSource>).values()].sort((a, b) => b.points - a.points || (a.name.en < b.name.en ? -1 : a.name.en > b.name.en ? 1 : 0));
      const points = kind === "none" ? rows.filter((r) => sourceRuleOf(rules, r.source) === null).length : sources.reduce((n, s) => n + s.points, 0);
      return { kind, label: kindLabel(kind), points, sources };
    });
}
