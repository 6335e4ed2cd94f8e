/**
 * The sub-series of an indicator as people read them: each id with its title (in
 * every language) and facets, from the declarations in `indicator.json` (or the
 * metadata document, in the browser). One lookup for the catalog, the site and
 * the page script.
 */
import type { Localized } from "../text/i18n.js";

/** A sub-series' declared title and facets. */
export interface SeriesLabel {
  readonly id: string;
  readonly title: Localized;
  readonly facets: Readonly<Record<string, string>>;
}

/** A declaration as `indicator.json` and the catalog hold it (facets optional). */
export interface SeriesDeclaration {
  readonly id: string;
  readonly title: Localized;
  readonly facets?: Readonly<Record<string, string>> | undefined;
}

/**
 * The labels of `ids`, in their order: the declared title and facets, or the id
 * itself and no facets for an id nothing declares.
 */
export function seriesLabels(ids: readonly string[], declared: readonly SeriesDeclaration[]): SeriesLabel[] {
  const byId = new Map(declared.map((d) => [d.id, d]));
  return ids.map((id) => {
    const d = byId.get(id);
    return { id, title: d?.title ?? { es: id, en: id }, facets: d?.facets ?? {} };
  });
}
