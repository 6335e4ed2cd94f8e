/** URL checks on web-standard `URL` alone, for every runtime. */

/** Whether `text` is an absolute http(s) URL. */
export function isHttpUrl(text: string): boolean {
  if (!URL.canParse(text)) return false;
  const { protocol } = new URL(text);
  return protocol === "http:" || protocol === "https:";
}

/** A query's parameters, in the order they are written: `[name, value]` pairs (a `URLSearchParams` is one). */
export type QueryParams = Iterable<readonly [string, string]>;

/**
 * The separators of the API's lists and references (`series=a,b`, `per=<indicator>:<series>`,
 * `facet=<name>:<value>`): legal in a query (RFC 3986 §3.4, `pchar`), with no meaning in
 * one, and easier to read unescaped, so the API's URLs keep them.
 */
export const LIST_SEPARATORS: ReadonlySet<string> = new Set([",", ":"]);

/** For a value whose separators are escaped too (the words of a search, as its canonical URL has always written them). */
export const NO_SEPARATORS: ReadonlySet<string> = new Set();

/**
 * A name or value as a query string writes it: escaped as `encodeURIComponent`
 * escapes it (a space is `%20`, `&`, `=`, `+`, `#` escaped), but the characters of
 * `keep` as they are.
 */
export function queryComponent(text: string, keep: ReadonlySet<string> = LIST_SEPARATORS): string {
  let out = "";
  for (const c of text) out += keep.has(c) ? c : encodeURIComponent(c);
  return out;
}

/**
 * The one writer of a query string (no `?`): `name=value` pairs in the order given,
 * joined by `&`, each escaped by `queryComponent`. Every URL with a query that
 * src/ writes goes through it or `withQuery` (test/unit/url.test.ts finds any
 * other), so no URL is escaped by hand.
 */
export function queryString(params: QueryParams, keep: ReadonlySet<string> = LIST_SEPARATORS): string {
  const pairs: string[] = [];
  for (const [name, value] of params) pairs.push(`${queryComponent(name)}=${queryComponent(value, keep)}`);
  return pairs.join("&");
}

/** `path` with the query of `params` (`path?a=1&b=2`), or `path` alone when there are none. */
export function withQuery(path: string, params: QueryParams, keep: ReadonlySet<string> = LIST_SEPARATORS): string {
  const query = queryString(params, keep);
  return query === "" ? path : `${path}?${query}`;
}
