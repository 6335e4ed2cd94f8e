/**
 * `sitemap.xml` (the sitemaps.org protocol 0.9) listing every HTML page of the
 * site with its absolute URL, and `robots.txt`, whose rules are the site's
 * (every page allowed, the internal `_data/` files not) plus the `Sitemap:` line
 * pointing to the sitemap (sitemaps.org, "Informing search engine crawlers").
 */
import { indicatorPageUrl, type SiteConfig } from "../../core/indicator/config.js";
import { escapeHtml } from "../../core/text/html.js";
import { LANGS, type Lang } from "../../core/text/i18n.js";
import { SITEMAP_PATH, homePath } from "../../core/file/paths.js";
import type { BuiltIndicator } from "../dataset.js";
import { absoluteUrl } from "./facts.js";

/**
 * The sitemap: the home page, then each indicator's page, in each language, each
 * with its translations as `xhtml:link rel="alternate" hreflang` (Google's
 * sitemap extension for localized pages). `lastmod` (W3C Datetime, a day) is the
 * newest point's date: a page changes when its data does. Embed pages are not
 * listed: they ask not to be indexed.
 */
export function renderSitemap(config: SiteConfig, indicators: readonly BuiltIndicator[]): string {
  const pages: { url: (lang: Lang) => string; lastmod: string | null }[] = [];
  let newest: string | null = null;
  for (const indicator of indicators) {
    const end = indicator.answers.lastUpdated;
    if (end !== null && (newest === null || end > newest)) newest = end;
    pages.push({ url: (lang) => indicatorPageUrl(config, indicator.source.meta.id, lang), lastmod: end });
  }
  pages.unshift({ url: (lang) => `${config.baseUrl}${homePath(lang)}`, lastmod: newest });
  // sitemaps.org: URLs entity-escaped, UTF-8.
  const urls = pages.flatMap(({ url, lastmod }) =>
    LANGS.map(
      (lang) =>
        `<url><loc>${escapeHtml(url(lang))}</loc>${lastmod === null ? "" : `<lastmod>${lastmod}</lastmod>`}` +
        LANGS.map((other) => `<xhtml:link rel="alternate" hreflang="${other}" href="${escapeHtml(url(other))}"/>`).join("") +
        "</url>\n",
    ),
  );
  return (
    `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml">\n` +
    `${urls.join("")}</urlset>\n`
  );
}

/** `robots.txt` (RFC 9309): the crawling rules and the sitemap's absolute URL. */
export function renderRobots(config: SiteConfig): string {
  return `User-agent: *\nAllow: /\nDisallow: /_data/\n\nSitemap: ${absoluteUrl(config, SITEMAP_PATH)}\n`;
}
