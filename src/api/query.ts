/**
 * The query string of `/api/v1/{indicator}` (docs/DESIGN.md §2), validated once,
 * here, by the parameters' declarations (src/core/answer/parameters.ts): a typed
 * `PageQuery` or a 400 whose `detail` begins with the parameter's name. An unknown
 * parameter is a 400 too (a typo, or `?region=X`, must never silently answer
 * everything); a repeated one is an error. The first fault in declaration order is
 * the one named: each parameter's own value first, then the combinations.
 */
import { badRequest } from "./api-error.js";
import { quote } from "../core/answer/contract.js";
import type { PageQuery } from "../core/indicator/model.js";
import { DECLARATIONS, PARAMETERS, isInvalid, readDeclared } from "../core/answer/parameters.js";

export { integerValue } from "../core/answer/parameters.js";

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
  const query = readDeclared(rawParameters(params, PARAMETERS), DECLARATIONS);
  if (isInvalid(query)) throw badRequest(query.invalid);
  // `mean` when frequency comes alone: one canonical query (docs/time.md).
  return query.frequency === null ? query : { ...query, aggregation: query.aggregation ?? "mean" };
}
