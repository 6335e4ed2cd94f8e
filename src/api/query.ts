/**
 * The query string of `/api/v1/{indicator}` (docs/DESIGN.md §2), validated once, here, with
 * zod: a typed `PageQuery` or an `ApiError("bad_request")` whose `detail` begins
 * with the parameter's name. Unknown parameters are ignored; a repeated one is an error.
 */
import { z } from "zod";
import { badRequest } from "./api-error.js";
import { LIMIT, OFFSET, PARAMETERS, quote } from "../core/contract.js";
import { resolveDate } from "../core/dates.js";
import type { PageQuery } from "../core/model.js";

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

const querySchema = z
  .object({
    from: dateParam("from", "start"),
    to: dateParam("to", "end"),
    limit: integerParam("limit", LIMIT),
    offset: integerParam("offset", OFFSET),
  })
  .refine((q) => q.from === null || q.to === null || q.from <= q.to, {
    error: (issue) => {
      const q = issue.input as { from: string; to: string };
      return `from: ${q.from} is later than to (${q.to})`;
    },
  });

/**
 * Parses the query string of a request URL.
 * @throws ApiError `bad_request`, detail naming the first faulty parameter.
 */
export function parseQuery(params: URLSearchParams): PageQuery {
  const raw: Record<string, string> = {};
  for (const name of PARAMETERS) {
    const values = params.getAll(name);
    if (values.length > 1) throw badRequest(`${name}: given ${values.length} times; give each parameter at most once`);
    if (values[0] !== undefined) raw[name] = values[0];
  }
  const result = querySchema.safeParse(raw);
  if (!result.success) throw badRequest(result.error.issues[0]?.message ?? "invalid query");
  return result.data;
}
