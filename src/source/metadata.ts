/**
 * `indicator.json`: the metadata of one indicator (docs/DESIGN.md §3), validated with zod.
 */
import { z } from "zod";
import { LICENSE } from "../core/contract.js";
import type { DataIssue } from "./errors.js";
import { readJson } from "./json.js";

/** Sub-series ids: lower-case words joined by `.` or `-` (docs/DESIGN.md §3). */
export const ID_PATTERN = /^[a-z0-9]+([.-][a-z0-9]+)*$/;
/**
 * Indicator ids: lower-case words joined by `-`, no dot: the id is a URL path
 * segment, and `_routes.json` tells static files from the endpoint by the dot.
 */
export const INDICATOR_ID_PATTERN = /^[a-z0-9]+(-[a-z0-9]+)*$/;

const text = z
  .string({ error: (issue) => (issue.input === undefined ? "required" : "expected a string") })
  .trim()
  .min(1, "must not be empty");
const httpUrl = z.url({ protocol: /^https?$/, error: "expected an http(s) URL" });

const seriesSchema = z.strictObject({
  id: z.string().regex(ID_PATTERN, "expected an id like `monthly` or `provider.item-name` ([a-z0-9]+([.-][a-z0-9]+)*)"),
  title: text,
  facets: z.record(z.string().regex(/^[a-z][a-z0-9_]*$/, "expected a facet name like `provider`"), text).optional(),
});

const indicatorSchema = z.strictObject({
  id: z.string().regex(INDICATOR_ID_PATTERN, "expected an id like `domestic-worker-wages` ([a-z0-9]+(-[a-z0-9]+)*)"),
  title: text,
  description: text,
  unit: text,
  rhythm: text,
  license: z.literal(LICENSE, { error: `the service publishes under ${LICENSE} only` }),
  source: z.strictObject({ name: text, url: httpUrl }),
  notes: z.array(text).default([]),
  series: z.array(seriesSchema).min(1, "declare at least one sub-series"),
});

export type IndicatorMeta = z.infer<typeof indicatorSchema>;
export type SeriesMeta = IndicatorMeta["series"][number];

/** Either the typed metadata or every issue found in it. */
export type Parsed<T> = { ok: true; value: T } | { ok: false; issues: DataIssue[] };

/**
 * Validates the text of an `indicator.json`. `folder` is the name of the folder it
 * sits in, which must equal its `id` (the id is the URL path segment).
 */
export function parseIndicatorMeta(jsonText: string, file: string, folder: string): Parsed<IndicatorMeta> {
  const json = readJson(jsonText, file);
  if (!json.ok) return { ok: false, issues: [json.issue] };
  const result = indicatorSchema.safeParse(json.value);
  if (!result.success) {
    const issues = result.error.issues.map((issue) => ({
      file,
      column: issue.path.length > 0 ? issue.path.join(".") : "(root)",
      reason: issue.message,
    }));
    return { ok: false, issues };
  }
  const meta = result.data;
  const issues: DataIssue[] = [];
  if (meta.id !== folder) {
    issues.push({ file, column: "id", reason: `must equal the folder name "${folder}", got "${meta.id}"` });
  }
  const seen = new Set<string>();
  meta.series.forEach((series, i) => {
    if (seen.has(series.id)) issues.push({ file, column: `series.${i}.id`, reason: `duplicate sub-series id "${series.id}"` });
    seen.add(series.id);
  });
  return issues.length > 0 ? { ok: false, issues } : { ok: true, value: meta };
}
