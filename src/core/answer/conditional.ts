/**
 * Conditional GET (RFC 9110 §13): whether a request's preconditions make the
 * answer `304 Not Modified`.
 */
import { parseHttpDate } from "../text/http-date.js";

/** The entity tags of an `If-None-Match` field, or `"*"`. Malformed members are dropped. */
function entityTags(field: string): "*" | string[] {
  if (field.trim() === "*") return "*";
  return field
    .split(",")
    .map((member) => member.trim())
    .filter((member) => /^(W\/)?"[^"]*"$/.test(member));
}

/** Weak comparison (RFC 9110 §8.8.3.2): the opaque tags match, ignoring `W/`. */
function weakMatch(a: string, b: string): boolean {
  return a.replace(/^W\//, "") === b.replace(/^W\//, "");
}

/**
 * True when a GET/HEAD for a representation with `etag` and `lastModified` (an
 * HTTP-date) should be answered `304`:
 * - `If-None-Match` present: 304 when any of its tags weakly matches `etag`, or it
 *   is `*` (§13.1.2); `If-Modified-Since` is then ignored (§13.2.2 step 3).
 * - else a valid `If-Modified-Since`: 304 when the representation has not changed
 *   since that date (§13.1.3). An invalid date is ignored.
 */
export function notModified(headers: Headers, etag: string, lastModified: string): boolean {
  const ifNoneMatch = headers.get("If-None-Match");
  if (ifNoneMatch !== null) {
    const tags = entityTags(ifNoneMatch);
    return tags === "*" || tags.some((tag) => weakMatch(tag, etag));
  }
  const ifModifiedSince = headers.get("If-Modified-Since");
  if (ifModifiedSince === null) return false;
  const since = parseHttpDate(ifModifiedSince.trim());
  const modified = parseHttpDate(lastModified);
  return since !== null && modified !== null && modified <= since;
}
