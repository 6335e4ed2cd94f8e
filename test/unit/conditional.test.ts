import { describe, expect, it } from "vitest";
import { notModified } from "../../src/core/answer/conditional.js";
import { parseHttpDate } from "../../src/core/text/http-date.js";

const ETAG = '"abc123"';
const LAST_MODIFIED = "Tue, 14 Nov 2023 22:13:20 GMT";
const check = (headers: Record<string, string>) => notModified(new Headers(headers), ETAG, LAST_MODIFIED);

describe("notModified (RFC 9110 §13)", () => {
  it.each([
    [{}, false],
    [{ "If-None-Match": '"abc123"' }, true],
    [{ "If-None-Match": 'W/"abc123"' }, true],
    [{ "If-None-Match": '"other", "abc123"' }, true],
    [{ "If-None-Match": "*" }, true],
    [{ "If-None-Match": '"other"' }, false],
    [{ "If-None-Match": "abc123" }, false],
    [{ "If-None-Match": "" }, false],
    // If-None-Match takes precedence over If-Modified-Since (§13.2.2).
    [{ "If-None-Match": '"other"', "If-Modified-Since": "Wed, 15 Nov 2023 00:00:00 GMT" }, false],
    [{ "If-None-Match": '"abc123"', "If-Modified-Since": "Mon, 01 Jan 2001 00:00:00 GMT" }, true],
    [{ "If-Modified-Since": LAST_MODIFIED }, true],
    [{ "If-Modified-Since": "Wed, 15 Nov 2023 00:00:00 GMT" }, true],
    [{ "If-Modified-Since": "Tue, 14 Nov 2023 22:13:19 GMT" }, false],
    [{ "If-Modified-Since": "Wednesday, 15-Nov-23 00:00:00 GMT" }, true],
    [{ "If-Modified-Since": "Wed Nov 15 00:00:00 2023" }, true],
    // An invalid date is ignored: the request is unconditional.
    [{ "If-Modified-Since": "yesterday" }, false],
    [{ "If-Modified-Since": "2030" }, false],
    [{ "If-Modified-Since": "Wed, 31 Feb 2024 00:00:00 GMT" }, false],
    [{ "If-Modified-Since": "x".repeat(10_000) }, false],
  ])("%j → %s", (headers, expected) => {
    expect(check(headers)).toBe(expected);
  });
});

describe("parseHttpDate", () => {
  it("reads the three formats of RFC 9110 §5.6.7 as the same instant", () => {
    const t = Date.UTC(1994, 10, 6, 8, 49, 37);
    expect(parseHttpDate("Sun, 06 Nov 1994 08:49:37 GMT")).toBe(t);
    expect(parseHttpDate("Sunday, 06-Nov-94 08:49:37 GMT")).toBe(t);
    expect(parseHttpDate("Sun Nov  6 08:49:37 1994")).toBe(t);
  });
  it.each(["", "Sun, 6 Nov 1994 08:49:37 GMT", "Sun, 06 Nov 1994 08:49:37 UTC", "1994-11-06T08:49:37Z", "Sun, 06 Nov 1994 25:00:00 GMT"])(
    "rejects %j",
    (text) => {
      expect(parseHttpDate(text)).toBeNull();
    },
  );
});
