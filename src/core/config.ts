/**
 * The site configuration (`site.config.json`): the one place that names the
 * service, its public base URL and the phrase of the attribution link.
 */
import { z } from "zod";
import { escapeHtml } from "./html.js";

const siteConfigSchema = z.strictObject({
  name: z.string().trim().min(1),
  baseUrl: z.url({ protocol: /^https?$/ }).transform((url) => url.replace(/\/+$/, "")),
  attributionText: z.string().trim().min(1),
});

export type SiteConfig = z.infer<typeof siteConfigSchema>;

/** Validates the parsed configuration; throws a zod error naming the field. */
export function parseSiteConfig(raw: unknown): SiteConfig {
  return siteConfigSchema.parse(raw);
}

/** Absolute URL of an indicator's page on the site (the attribution target). */
export function indicatorPageUrl(config: SiteConfig, indicator: string): string {
  return `${config.baseUrl}/series/${indicator}/`;
}

/**
 * `meta.attribution` (DESIGN §2): an HTML anchor to the indicator's page whose query
 * string carries `utm_source=api`, `utm_medium=attribution`, `utm_campaign=backlinks`.
 */
export function attributionAnchor(config: SiteConfig, indicator: string): string {
  const href = `${indicatorPageUrl(config, indicator)}?utm_source=api&utm_medium=attribution&utm_campaign=backlinks`;
  return `<a href="${escapeHtml(href)}">${escapeHtml(config.attributionText)}</a>`;
}
