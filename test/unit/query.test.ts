import { describe, expect, it } from "vitest";
import { ApiError } from "../../src/api/api-error.js";
import { parseQuery } from "../../src/api/query.js";
import { DEFAULT_QUERY, type PageQuery } from "../../src/core/indicator/model.js";

const parse = (qs: string) => parseQuery(new URLSearchParams(qs));
/** A parsed query: the given fields over the defaults. */
const q = (fields: Partial<PageQuery>): PageQuery => ({ ...DEFAULT_QUERY, ...fields });
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
    ["", q({ from: null, to: null, series: null, limit: 500, offset: 0, format: "json" })],
    ["limit=10&offset=20", q({ from: null, to: null, series: null, limit: 10, offset: 20, format: "json" })],
    ["from=2024-02-29&to=2024-03-01", q({ from: "2024-02-29", to: "2024-03-01", series: null, limit: 500, offset: 0, format: "json" })],
    ["from=2024-02&to=2024-02", q({ from: "2024-02-01", to: "2024-02-29", series: null, limit: 500, offset: 0, format: "json" })],
    ["from=2023&to=2023", q({ from: "2023-01-01", to: "2023-12-31", series: null, limit: 500, offset: 0, format: "json" })],
    ["limit=1", q({ from: null, to: null, series: null, limit: 1, offset: 0, format: "json" })],
    ["limit=5000", q({ from: null, to: null, series: null, limit: 5000, offset: 0, format: "json" })],
    ["limit=0010", q({ from: null, to: null, series: null, limit: 10, offset: 0, format: "json" })],
    ["offset=999999999999999", q({ from: null, to: null, series: null, limit: 500, offset: 999999999999999, format: "json" })],
    ["from=2024-05-01&to=2024-05-01", q({ from: "2024-05-01", to: "2024-05-01", series: null, limit: 500, offset: 0, format: "json" })],
    ["series=b,a,b", q({ from: null, to: null, series: ["a", "b"], limit: 500, offset: 0, format: "json" })],
    ["series=casmu.*,*.fonasa&format=csv", q({ from: null, to: null, series: ["*.fonasa", "casmu.*"], limit: 500, offset: 0, format: "csv" })],
    ["format=json", q({ from: null, to: null, series: null, limit: 500, offset: 0, format: "json" })],
    ["at=2025-03", q({ at: "2025-03-01" })],
    ["at=2025-03-15&series=monthly", q({ at: "2025-03-15", series: ["monthly"] })],
    ["frequency=quarter", q({ frequency: "quarter", aggregation: "mean" })],
    ["frequency=year&aggregation=end", q({ frequency: "year", aggregation: "end" })],
    ["units=level", q({})],
    ["units=percent_change_a_year_ago&real=2026-07", q({ units: "percent_change_a_year_ago", real: "2026-07" })],
    ["units=index&base=2019", q({ units: "index", base: "2019-01-01" })],
    ["per=domestic-worker-wages:hourly", q({ per: { indicator: "domestic-worker-wages", series: "hourly" } })],
    ["format=csv&dialect=es", q({ format: "csv", dialect: "es" })],
    ["format=csv&dialect=rfc4180", q({ format: "csv" })],
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
    ["provider=CASMU", "provider: unknown parameter; the accepted ones are from, to, at, series, frequency, aggregation, per, real, units, base, as_of, limit, offset, format, dialect, provenance"],
    ["limit=1&LIMIT=9", "LIMIT: unknown parameter; the accepted ones are from, to, at, series, frequency, aggregation, per, real, units, base, as_of, limit, offset, format, dialect, provenance"],
    ["callback=x&limit=0", "callback: unknown parameter; the accepted ones are from, to, at, series, frequency, aggregation, per, real, units, base, as_of, limit, offset, format, dialect, provenance"],
    ["%3Cb%3E=1", '"<b>": unknown parameter; the accepted ones are from, to, at, series, frequency, aggregation, per, real, units, base, as_of, limit, offset, format, dialect, provenance'],
    ["=1", '"": unknown parameter; the accepted ones are from, to, at, series, frequency, aggregation, per, real, units, base, as_of, limit, offset, format, dialect, provenance'],
    ["format=xml", 'format: expected json or csv, got "xml"'],
    ["format=", 'format: expected json or csv, got ""'],
    ["format=CSV", 'format: expected json or csv, got "CSV"'],
    ["series=", 'series: expected sub-series ids or patterns with * separated by commas (letters a-z, digits, ".", "-"), got ""'],
    ["series=a,,b", 'series: expected sub-series ids or patterns with * separated by commas (letters a-z, digits, ".", "-"), got "a,,b"'],
    ["series=CASMU", 'series: expected sub-series ids or patterns with * separated by commas (letters a-z, digits, ".", "-"), got "CASMU"'],
    ["series=a%20b", 'series: expected sub-series ids or patterns with * separated by commas (letters a-z, digits, ".", "-"), got "a b"'],
    [`series=${Array.from({ length: 101 }, (_, i) => `s${i}`).join(",")}`, "series: at most 100 items, got 101"],
    ["series=a&series=b", "series: given 2 times; give each parameter at most once"],
    ["at=2025-02-30", 'at: expected an ISO 8601 date (YYYY-MM-DD, YYYY-MM or YYYY), got "2025-02-30"'],
    ["at=2025&from=2024", "at: cannot be combined with from (at asks for one day; from/to for a window)"],
    ["at=2025&to=2026", "at: cannot be combined with to (at asks for one day; from/to for a window)"],
    ["at=2025&frequency=month", "at: cannot be combined with frequency; ask for the period with from and to"],
    ["frequency=week", 'frequency: expected month, quarter, semester, year, got "week"'],
    ["aggregation=end", "aggregation: only with frequency (how a period's values are combined)"],
    ["frequency=month&aggregation=sum", 'aggregation: expected mean, end, min, max, got "sum"'],
    ["units=pct", 'units: expected level, change, percent_change, change_a_year_ago, percent_change_a_year_ago, index, got "pct"'],
    ["units=index", "base: required with units=index (the date whose value is 100)"],
    ["base=2020", "base: only with units=index"],
    ["units=change&base=2020", "base: only with units=index"],
    ["units=index&base=2020-13", 'base: expected an ISO 8601 date (YYYY-MM-DD, YYYY-MM or YYYY), got "2020-13"'],
    ["real=2026", 'real: expected a month YYYY-MM, got "2026"'],
    ["real=2026-07-01", 'real: expected a month YYYY-MM, got "2026-07-01"'],
    ["real=2026-00", 'real: expected a month YYYY-MM, got "2026-00"'],
    ["per=hourly", 'per: expected <indicator>:<sub-series id> (no patterns), got "hourly"'],
    ["per=a:b*", 'per: expected <indicator>:<sub-series id> (no patterns), got "a:b*"'],
    ["per=a:b&real=2026-07", "real: cannot be combined with per (a ratio has no pesos to deflate)"],
    ["dialect=es", "dialect: only with format=csv (the CSV a spreadsheet opens)"],
    ["format=csv&dialect=excel", 'dialect: expected rfc4180, es, got "excel"'],
  ])("%j → 400 %j", (qs, expected) => {
    expect(detail(qs)).toBe(expected);
  });

  it("echoes a long or hostile value truncated and JSON-escaped", () => {
    const d = detail(`from=${encodeURIComponent(`"</script>${"x".repeat(500)}`)}`);
    expect(d.length).toBeLessThan(150);
    expect(d).toContain('got "\\"</script>xxx');
  });
});
