/**
 * The languages of the site and of the data's labels. Spanish (Uruguay) first: the
 * audience reads Spanish; English pages live under `/en/`. Ids, error codes and the
 * API's own messages stay language-neutral (English identifiers), see README
 * "Languages".
 */

export const LANGS = ["es", "en"] as const;
export type Lang = (typeof LANGS)[number];

/** The language of `/` and of the pages without a language prefix. */
export const DEFAULT_LANG: Lang = "es";

/** The BCP 47 locale each language formats numbers and dates with (`Intl`). */
export const LOCALES: Readonly<Record<Lang, string>> = { es: "es-UY", en: "en-US" };

/** A text in every language of the site: the shape of every label in `indicator.json`. */
export type Localized = Readonly<Record<Lang, string>>;

/** The path prefix of a language's pages: "" for the default language, "/en" for English. */
export function langPrefix(lang: Lang): string {
  return lang === DEFAULT_LANG ? "" : `/${lang}`;
}
