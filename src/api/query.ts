/**
 * The query string of `/api/v1/{indicator}` (docs/DESIGN.md §2), validated once,
 * here, with zod: a typed `PageQuery` or a 400 whose `detail` begins with the
 * parameter's name. An unknown parameter is a 400 too (a typo, or `?region=X`,
 * must never silently answer everything); a repeated one is an error.
 */
import { z } from "zod";
import { badRequest } from "./api-error.js";
import { AGGREGATIONS, DIALECTS, FREQUENCIES, LIMIT, MAX_SERIES_ITEMS, OFFSET, PARAMETERS, UNITS, quote, type Parameter } from "../core/contract.js";
import { resolveDate } from "../core/dates.js";
import { FORMATS, type Format, type PageQuery, type PerTarget } from "../core/model.js";
import { SERIES_ITEM } from "../core/selection.js";

const DATE_EXPECTED = "expected an ISO 8601 date (YYYY-MM-DD, YYYY-MM or YYYY)";

const dateParam = (name: "from" | "to" | "at" | "base", edge: "start" | "end") =>
  z
    .string()
    .optional()
    .transform((text, ctx) => {
      if (text === undefined) return null;
      const day = resolveDate(text, edge);
      if (day === null) ctx.addIssue({ code: "custom", message: `${name}: ${DATE_EXPECTED}, got ${quote(text)}` });
      return day;
    });

/**
 * An integer parameter's value within `[min, max]`, or the detail of its 400: plain
 * ASCII digits only (no sign, exponent, spaces or other scripts' digits).
 */
export function integerValue(name: string, text: string, { min, max }: { min: number; max: number }): number | { detail: string } {
  const n = /^[0-9]{1,16}$/.test(text) ? Number(text) : NaN;
  return n >= min && n <= max ? n : { detail: `${name}: expected an integer from ${min} to ${max}, got ${quote(text)}` };
}

const integerParam = (name: string, bounds: { min: number; max: number; default: number }) =>
  z
    .string()
    .optional()
    .transform((text, ctx) => {
      if (text === undefined) return bounds.default;
      const value = integerValue(name, text, bounds);
      if (typeof value === "number") return value;
      ctx.addIssue({ code: "custom", message: value.detail });
      return NaN;
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

/** A parameter whose value is one of `values` (`null` when not given). */
const choiceParam = <T extends string>(name: string, values: readonly T[]) =>
  z
    .string()
    .optional()
    .transform((text, ctx): T | null => {
      if (text === undefined) return null;
      if ((values as readonly string[]).includes(text)) return text as T;
      ctx.addIssue({ code: "custom", message: `${name}: expected ${values.join(", ")}, got ${quote(text)}` });
      return null;
    });

/** `real`: a month, `YYYY-MM` only (the CPI is monthly). */
const monthParam = z
  .string()
  .optional()
  .transform((text, ctx) => {
    if (text === undefined) return null;
    if (/^\d{4}-\d{2}$/.test(text) && resolveDate(text, "start") !== null) return text;
    ctx.addIssue({ code: "custom", message: `real: expected a month YYYY-MM, got ${quote(text)}` });
    return null;
  });

/** `per`: `<indicator>:<sub-series id>`; whether they exist is the endpoint's to say. */
const perParam = z
  .string()
  .optional()
  .transform((text, ctx): PerTarget | null => {
    if (text === undefined) return null;
    const m = /^([a-z0-9][a-z0-9-]*):([a-z0-9][a-z0-9.-]*)$/.exec(text);
    if (m !== null) return { indicator: m[1] as string, series: m[2] as string };
    ctx.addIssue({ code: "custom", message: `per: expected <indicator>:<sub-series id> (no patterns), got ${quote(text)}` });
    return null;
  });

/** Combinations that have no meaning, each named by the parameter that should go. */
const CONFLICTS: readonly [check: (q: PageQuery) => boolean, detail: (q: PageQuery) => string][] = [
  [(q) => q.at !== null && q.from !== null, () => "at: cannot be combined with from (at asks for one day; from/to for a window)"],
  [(q) => q.at !== null && q.to !== null, () => "at: cannot be combined with to (at asks for one day; from/to for a window)"],
  [(q) => q.at !== null && q.frequency !== null, () => "at: cannot be combined with frequency; ask for the period with from and to"],
  [(q) => q.real !== null && q.per !== null, () => "real: cannot be combined with per (a ratio has no pesos to deflate)"],
  [(q) => q.units === "index" && q.base === null, () => "base: required with units=index (the date whose value is 100)"],
  [(q) => q.units !== "index" && q.base !== null, () => "base: only with units=index"],
  [(q) => q.from !== null && q.to !== null && q.from > q.to, (q) => `from: ${q.from} is later than to (${q.to})`],
  [(q) => q.dialect !== null && q.format !== "csv", () => "dialect: only with format=csv (the CSV a spreadsheet opens)"],
];

const querySchema = z
  .object({
    from: dateParam("from", "start"),
    to: dateParam("to", "end"),
    at: dateParam("at", "start"),
    series: seriesParam,
    frequency: choiceParam("frequency", Object.keys(FREQUENCIES) as (keyof typeof FREQUENCIES)[]),
    aggregation: choiceParam("aggregation", AGGREGATIONS),
    per: perParam,
    real: monthParam,
    units: choiceParam("units", UNITS),
    base: dateParam("base", "start"),
    limit: integerParam("limit", LIMIT),
    offset: integerParam("offset", OFFSET),
    format: formatParam,
    dialect: choiceParam("dialect", DIALECTS),
  } satisfies Record<Parameter, z.ZodType>)
  .transform((q, ctx): PageQuery => {
    if (q.aggregation !== null && q.frequency === null) {
      ctx.addIssue({ code: "custom", message: "aggregation: only with frequency (how a period's values are combined)" });
    }
    const query: PageQuery = {
      ...q,
      aggregation: q.frequency === null ? null : (q.aggregation ?? "mean"),
      units: q.units === "level" ? null : q.units,
      dialect: q.dialect === "es" ? "es" : null,
    };
    const conflict = CONFLICTS.find(([check]) => check(query));
    if (conflict !== undefined) ctx.addIssue({ code: "custom", message: conflict[1](query) });
    return query;
  });

/** A parameter's name at the start of a `detail`: as it is when plain, else quoted. */
const named = (name: string) => (/^[A-Za-z0-9_.[\]-]{1,40}$/.test(name) ? name : quote(name));

/**
 * The parameters of a query string by name, for an endpoint accepting `names`.
 * @throws ApiError for an unknown parameter or one given more than once.
 */
export function rawParameters<N extends string>(params: URLSearchParams, names: readonly N[]): Partial<Record<N, string>> {
  const known: readonly string[] = names;
  for (const name of params.keys()) {
    if (!known.includes(name)) throw badRequest(`${named(name)}: unknown parameter; the accepted ones are ${names.join(", ")}`);
  }
  const raw: Partial<Record<N, string>> = {};
  for (const name of names) {
    const values = params.getAll(name);
    if (values.length > 1) throw badRequest(`${name}: given ${values.length} times; give each parameter at most once`);
    if (values[0] !== undefined) raw[name] = values[0];
  }
  return raw;
}

/**
 * Parses the query string of a request URL.
 * @throws ApiError `bad_request`, detail naming the first faulty parameter.
 */
export function parseQuery(params: URLSearchParams): PageQuery {
  const result = querySchema.safeParse(rawParameters(params, PARAMETERS));
  if (!result.success) throw badRequest(result.error.issues[0]?.message ?? "invalid query");
  return result.data;
}
