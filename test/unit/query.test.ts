import { describe, expect, it } from "vitest";
import { ApiError } from "../../src/api/api-error.js";
import { parseQuery } from "../../src/api/query.js";

const parse = (qs: string) => parseQuery(new URLSearchParams(qs));
const detail = (qs: string): string => {
  try {
    parse(qs);
  } catch (error) {
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).code).toBe("bad_request");
    return (error as ApiError).detail;
  }
  throw new Error(`expected ${qs} to be rejected`);
};

describe("parseQuery", () => {
  it.each([
    ["", { from: null, to: null, series: null, limit: 500, offset: 0, format: "json" }],
    ["limit=10&offset=20", { from: null, to: null, series: null, limit: 10, offset: 20, format: "json" }],
    ["from=2024-02-29&to=2024-03-01", { from: "2024-02-29", to: "2024-03-01", series: null, limit: 500, offset: 0, format: "json" }],
    ["from=2024-02&to=2024-02", { from: "2024-02-01", to: "2024-02-29", series: null, limit: 500, offset: 0, format: "json" }],
    ["from=2023&to=2023", { from: "2023-01-01", to: "2023-12-31", series: null, limit: 500, offset: 0, format: "json" }],
    ["limit=1", { from: null, to: null, series: null, limit: 1, offset: 0, format: "json" }],
    ["limit=5000", { from: null, to: null, series: null, limit: 5000, offset: 0, format: "json" }],
    ["limit=0010", { from: null, to: null, series: null, limit: 10, offset: 0, format: "json" }],
    ["offset=999999999999999", { from: null, to: null, series: null, limit: 500, offset: 999999999999999, format: "json" }],
    ["from=2024-05-01&to=2024-05-01", { from: "2024-05-01", to: "2024-05-01", series: null, limit: 500, offset: 0, format: "json" }],
    ["series=b,a,b", { from: null, to: null, series: ["a", "b"], limit: 500, offset: 0, format: "json" }],
    ["series=casmu.*,*.fonasa&format=csv", { from: null, to: null, series: ["*.fonasa", "casmu.*"], limit: 500, offset: 0, format: "csv" }],
    ["format=json", { from: null, to: null, series: null, limit: 500, offset: 0, format: "json" }],
  ])("%j", (qs, expected) => {
    expect(parse(qs)).toEqual(expected);
  });

  it.each([
    ["from=2024-13-01", 'from: expected an ISO 8601 date (YYYY-MM-DD, YYYY-MM or YYYY), got "2024-13-01"'],
    ["from=2023-02-29", 'from: expected an ISO 8601 date (YYYY-MM-DD, YYYY-MM or YYYY), got "2023-02-29"'],
    ["to=2024-1-5", 'to: expected an ISO 8601 date (YYYY-MM-DD, YYYY-MM or YYYY), got "2024-1-5"'],
    ["to=2024-01-05T00:00:00Z", 'to: expected an ISO 8601 date (YYYY-MM-DD, YYYY-MM or YYYY), got "2024-01-05T00:00:00Z"'],
    ["from=2024-W05", 'from: expected an ISO 8601 date (YYYY-MM-DD, YYYY-MM or YYYY), got "2024-W05"'],
    ["from=", 'from: expected an ISO 8601 date (YYYY-MM-DD, YYYY-MM or YYYY), got ""'],
    ["from=24", 'from: expected an ISO 8601 date (YYYY-MM-DD, YYYY-MM or YYYY), got "24"'],
    ["limit=0", 'limit: expected an integer from 1 to 5000, got "0"'],
    ["limit=5001", 'limit: expected an integer from 1 to 5000, got "5001"'],
    ["limit=-1", 'limit: expected an integer from 1 to 5000, got "-1"'],
    ["limit=1.5", 'limit: expected an integer from 1 to 5000, got "1.5"'],
    ["limit=1e3", 'limit: expected an integer from 1 to 5000, got "1e3"'],
    ["limit=", 'limit: expected an integer from 1 to 5000, got ""'],
    ["limit=%2010", 'limit: expected an integer from 1 to 5000, got " 10"'],
    ["limit=١٠", 'limit: expected an integer from 1 to 5000, got "١٠"'],
    ["offset=-0", 'offset: expected an integer from 0 to 999999999999999, got "-0"'],
    ["offset=abc", 'offset: expected an integer from 0 to 999999999999999, got "abc"'],
    ["offset=1000000000000000", 'offset: expected an integer from 0 to 999999999999999, got "1000000000000000"'],
    ["from=2024-05-01&to=2024-01-01", "from: 2024-05-01 is later than to (2024-01-01)"],
    ["from=2024-06&to=2024-05", "from: 2024-06-01 is later than to (2024-05-31)"],
    ["limit=10&limit=10", "limit: given 2 times; give each parameter at most once"],
    ["from=2024&to=2025&from=2023", "from: given 2 times; give each parameter at most once"],
    ["provider=CASMU", "provider: unknown parameter; the accepted ones are from, to, series, limit, offset, format"],
    ["limit=1&LIMIT=9", "LIMIT: unknown parameter; the accepted ones are from, to, series, limit, offset, format"],
    ["callback=x&limit=0", "callback: unknown parameter; the accepted ones are from, to, series, limit, offset, format"],
    ["%3Cb%3E=1", '"<b>": unknown parameter; the accepted ones are from, to, series, limit, offset, format'],
    ["=1", '"": unknown parameter; the accepted ones are from, to, series, limit, offset, format'],
    ["format=xml", 'format: expected json or csv, got "xml"'],
    ["format=", 'format: expected json or csv, got ""'],
    ["format=CSV", 'format: expected json or csv, got "CSV"'],
    ["series=", 'series: expected sub-series ids or patterns with * separated by commas (letters a-z, digits, ".", "-"), got ""'],
    ["series=a,,b", 'series: expected sub-series ids or patterns with * separated by commas (letters a-z, digits, ".", "-"), got "a,,b"'],
    ["series=CASMU", 'series: expected sub-series ids or patterns with * separated by commas (letters a-z, digits, ".", "-"), got "CASMU"'],
    ["series=a%20b", 'series: expected sub-series ids or patterns with * separated by commas (letters a-z, digits, ".", "-"), got "a b"'],
    [`series=${Array.from({ length: 101 }, (_, i) => `s${i}`).join(",")}`, "series: at most 100 items, got 101"],
    ["series=a&series=b", "series: given 2 times; give each parameter at most once"],
  ])("%j → 400 %j", (qs, expected) => {
    expect(detail(qs)).toBe(expected);
  });

  it("echoes a long or hostile value truncated and JSON-escaped", () => {
    const d = detail(`from=${encodeURIComponent(`"</script>${"x".repeat(500)}`)}`);
    expect(d.length).toBeLessThan(150);
    expect(d).toContain('got "\\"</script>xxx');
  });
});
