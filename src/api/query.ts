/**
 * The query string of `/api/v1/{indicator}` (docs/DESIGN.md §2), validated once,
 * here, with zod: a typed `PageQuery` or a 400 whose `detail` begins with the
 * parameter's name. An unknown parameter is a 400 too (a typo, or `?region=X`,
 * must never silently answer everything); a repeated one is an error.
 */
import { z } from "zod";
import { badRequest } from "./api-error.js";
import { LIMIT, MAX_SERIES_ITEMS, OFFSET, PARAMETERS, quote, type Parameter } from "../core/contract.js";
import { resolveDate } from "../core/dates.js";
import { FORMATS, type Format, type PageQuery } from "../core/model.js";
import { SERIES_ITEM } from "../core/selection.js";

const DATE_EXPECTED = "expected an ISO 8601 date (YYYY-MM-DD, YYYY-MM or YYYY)";

const dateParam = (name: "from" | "to", edge: "start" | "end") =>
  z
    .string()
    .optional()
    .transform((text, ctx) => {
      if (text === undefined) return null;
      const day = resolveDate(text, edge);
      if (day === null) ctx.addIssue({ code: "custom", message: `${name}: ${DATE_EXPECTED}, got ${quote(text)}` });
      return day;
    });

const integerParam = (name: string, { min, max, default: fallback }: { min: number; max: number; default: number }) =>
  z
    .string()
    .optional()
    .transform((text, ctx) => {
      if (text === undefined) return fallback;
      const expected = `expected an integer from ${min} to ${max}`;
      // Plain ASCII digits only: no sign, exponent, spaces or other scripts' digits.
      const n = /^[0-9]{1,16}$/.test(text) ? Number(text) : NaN;
      if (!(n >= min && n <= max)) ctx.addIssue({ code: "custom", message: `${name}: ${expected}, got ${quote(text)}` });
      return n;
    });

/**
 * `series`: a comma-separated list of sub-series ids or patterns (`*` matches any
 * run of characters). Echoed deduplicated and sorted, so that the same selection
 * always has the same URL, bytes and ETag.
 */
const seriesParam = z
  .string()
  .optional()
  .transform((text, ctx) => {
    if (text === undefined) return null;
    const items = text.split(",");
    const bad = items.find((item) => !SERIES_ITEM.test(item));
    if (bad !== undefined) {
      ctx.addIssue({
        code: "custom",
        message: `series: expected sub-series ids or patterns with * separated by commas (letters a-z, digits, ".", "-"), got ${quote(bad === "" ? text : bad)}`,
      });
      return null;
    }
    const unique = [...new Set(items)].sort();
    if (unique.length > MAX_SERIES_ITEMS) {
      ctx.addIssue({ code: "custom", message: `series: at most ${MAX_SERIES_ITEMS} items, got ${unique.length}` });
    }
    return unique;
  });

const formatParam = z
  .string()
  .optional()
  .transform((text, ctx): Format => {
    if (text === undefined) return "json";
    if ((FORMATS as readonly string[]).includes(text)) return text as Format;
    ctx.addIssue({ code: "custom", message: `format: expected ${FORMATS.join(" or ")}, got ${quote(text)}` });
    return "json";
  });

const querySchema = z
  .object({
    from: dateParam("from", "start"),
    to: dateParam("to", "end"),
    series: seriesParam,
    limit: integerParam("limit", LIMIT),
    offset: integerParam("offset", OFFSET),
    format: formatParam,
  } satisfies Record<Parameter, z.ZodType>)
  .refine((q) => q.from === null || q.to === null || q.from <= q.to, {
    error: (issue) => {
      const q = issue.input as { from: string; to: string };
      return `from: ${q.from} is later than to (${q.to})`;
    },
  });

/** A parameter's name at the start of a `detail`: as it is when plain, else quoted. */
const named = (name: string) => (/^[A-Za-z0-9_.[\]-]{1,40}$/.test(name) ? name : quote(name));

/**
 * Parses the query string of a request URL.
 * @throws ApiError `bad_request`, detail naming the first faulty parameter.
 */
export function parseQuery(params: URLSearchParams): PageQuery {
  const known: readonly string[] = PARAMETERS;
  for (const name of params.keys()) {
    if (!known.includes(name)) throw badRequest(`${named(name)}: unknown parameter; the accepted ones are ${PARAMETERS.join(", ")}`);
  }
  const raw: Partial<Record<Parameter, string>> = {};
  for (const name of PARAMETERS) {
    const values = params.getAll(name);
    if (values.length > 1) throw badRequest(`${name}: given ${values.length} times; give each parameter at most once`);
    if (values[0] !== undefined) raw[name] = values[0];
  }
  const result = querySchema.safeParse(raw);
  if (!result.success) throw badRequest(result.error.issues[0]?.message ?? "invalid query");
  return result.data;
}
