/**
 * Reading `site.config.json`: validated once, with zod; a fault is reported like a
 * data fault, `site.config.json: field: reason`.
 */
import { z } from "zod";
import type { SiteConfig } from "../core/indicator/config.js";
import { DataError, zodIssues } from "../source/errors.js";
import { parseJson } from "../source/json.js";
import { httpUrl } from "../source/zod-fields.js";

const siteConfigSchema = z.strictObject({
  name: z.string({ error: "expected a string" }).trim().min(1, "must not be empty"),
  baseUrl: httpUrl.transform((url) => url.replace(/\/+$/, "")),
  attributionText: z.string({ error: "expected a string" }).trim().min(1, "must not be empty"),
});

/**
 * Validates the text of the site configuration; `baseUrl`, when given, replaces
 * the file's (the `--site-url` option).
 * @throws DataError naming the file and each faulty field.
 */
export function parseSiteConfig(text: string, file: string, baseUrl?: string): SiteConfig {
  const raw = parseJson(text, file);
  const input = baseUrl === undefined || typeof raw !== "object" || raw === null ? raw : { ...raw, baseUrl };
  const result = siteConfigSchema.safeParse(input);
  if (!result.success) throw new DataError(zodIssues(result.error, file));
  return result.data;
}
