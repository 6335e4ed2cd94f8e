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
    ["", { from: null, to: null, limit: 500, offset: 0 }],
    ["limit=10&offset=20", { from: null, to: null, limit: 10, offset: 20 }],
    ["from=2024-02-29&to=2024-03-01", { from: "2024-02-29", to: "2024-03-01", limit: 500, offset: 0 }],
    ["from=2024-02&to=2024-02", { from: "2024-02-01", to: "2024-02-29", limit: 500, offset: 0 }],
    ["from=2023&to=2023", { from: "2023-01-01", to: "2023-12-31", limit: 500, offset: 0 }],
    ["limit=1", { from: null, to: null, limit: 1, offset: 0 }],
    ["limit=5000", { from: null, to: null, limit: 5000, offset: 0 }],
    ["limit=0010", { from: null, to: null, limit: 10, offset: 0 }],
    ["offset=999999999999999", { from: null, to: null, limit: 500, offset: 999999999999999 }],
    ["from=2024-05-01&to=2024-05-01", { from: "2024-05-01", to: "2024-05-01", limit: 500, offset: 0 }],
    ["unknown=1&LIMIT=9&callback=x", { from: null, to: null, limit: 500, offset: 0 }],
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
  ])("%j → 400 %j", (qs, expected) => {
    expect(detail(qs)).toBe(expected);
  });

  it("echoes a long or hostile value truncated and JSON-escaped", () => {
    const d = detail(`from=${encodeURIComponent(`"</script>${"x".repeat(500)}`)}`);
    expect(d.length).toBeLessThan(150);
    expect(d).toContain('got "\\"</script>xxx');
  });
});
