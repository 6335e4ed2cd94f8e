/**
 * How many points of each source kind an indicator and each of its sub-series
 * have (src/core/provenance.ts): what the metadata document, the page's sources
 * and llms.txt say instead of "every value cites its official source".
 */
import type { Localized } from "./i18n.js";
import { SOURCE_KINDS, SOURCE_KIND_LABELS, sourceKindOf, type SourceKind, type SourceKindRule } from "./provenance.js";

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
