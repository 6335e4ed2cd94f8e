/**
 * The site configuration (`site.config.json`, validated by src/builder/site-config.ts):
 * the one place that names the service, its public base URL and the phrase of the
 * attribution link.
 */
import { escapeHtml } from "../text/html.js";
import type { Lang } from "../text/i18n.js";
import { seriesPagePath } from "../file/paths.js";

export interface SiteConfig {
  readonly name: string;
  /** Public base URL, without a final slash. */
  readonly baseUrl: string;
  readonly attributionText: string;
}

/** Absolute URL of an indicator's page on the site in `lang` (by default Spanish: the attribution target). */
export function indicatorPageUrl(config: SiteConfig, indicator: string, lang?: Lang): string {
  return `${config.baseUrl}${seriesPagePath(indicator, lang)}`;
}

/**
 * The attribution link's target: the indicator's page (in `lang`; by default the
 * Spanish one) with `utm_source=api`, `utm_medium=attribution`, `utm_campaign=backlinks`.
 */
export function attributionUrl(config: SiteConfig, indicator: string, lang?: Lang): string {
  return `${indicatorPageUrl(config, indicator, lang)}?utm_source=api&utm_medium=attribution&utm_campaign=backlinks`;
}

/**
 * `meta.attribution` (docs/DESIGN.md §2): an HTML anchor to `attributionUrl` with
 * the configured phrase. The site offers it in a page's language: `lang` and that
 * language's `text` ("Datos: Open Series UY").
 */
export function attributionAnchor(config: SiteConfig, indicator: string, lang?: Lang, text = config.attributionText): string {
  return `<a href="${escapeHtml(attributionUrl(config, indicator, lang))}">${escapeHtml(text)}</a>`;
}
