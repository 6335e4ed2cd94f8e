/**
 * Zod schemas of fields that more than one JSON input has, so that each is
 * checked, and its fault worded, the same way everywhere.
 */
import { z } from "zod";

/** An absolute http(s) URL, as `indicator.json`'s `source.url` and `site.config.json`'s `baseUrl` take. */
export const httpUrl = z.url({ protocol: /^https?$/, error: "expected an http(s) URL" });
