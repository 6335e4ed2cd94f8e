/**
 * The query string of `/api/v1/{indicator}` (DESIGN §2), validated once, here, with
 * zod: a typed `PageQuery` or an `ApiError("bad_request")` whose `detail` begins
 * with the parameter's name. Unknown parameters are ignored; a repeated one is an error.
 */
import { z } from "zod";
import { ApiError } from "./api-error.js";
import { resolveDate } from "../core/dates.js";
import { quote } from "../source/errors.js";
import { DEFAULT_LIMIT, MAX_LIMIT, type PageQuery } from "../core/model.js";

/** The parameters the endpoint reads. */
export const PARAMETERS = ["from", "to", "limit", "offset"] as const;

/**
 * The largest accepted offset: 15 digits keep `offset + limit` an exact integer, so
 * `meta.next` is always a plain decimal.
 */
export const MAX_OFFSET = 999_999_999_999_999;

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

const integerParam = (name: string, min: number, max: number, fallback: number, expected: string) =>
  z
    .string()
    .optional()
    .transform((text, ctx) => {
      if (text === undefined) return fallback;
      // Plain ASCII digits only: no sign, exponent, spaces or other scripts' digits.
      const n = /^[0-9]{1,16}$/.test(text) ? Number(text) : NaN;
      if (!(n >= min && n <= max)) ctx.addIssue({ code: "custom", message: `${name}: ${expected}, got ${quote(text)}` });
      return n;
    });

const querySchema = z
  .object({
    from: dateParam("from", "start"),
    to: dateParam("to", "end"),
    limit: integerParam("limit", 1, MAX_LIMIT, DEFAULT_LIMIT, `expected an integer from 1 to ${MAX_LIMIT}`),
    offset: integerParam("offset", 0, MAX_OFFSET, 0, `expected an integer from 0 to ${MAX_OFFSET}`),
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
    if (values.length > 1) throw new ApiError("bad_request", `${name}: given ${values.length} times; give each parameter at most once`);
    if (values[0] !== undefined) raw[name] = values[0];
  }
  const result = querySchema.safeParse(raw);
  if (!result.success) throw new ApiError("bad_request", result.error.issues[0]?.message ?? "invalid query");
  return result.data;
}
