/**
 * The query parameters' declarations (src/core/answer/parameters.ts) are the one place a
 * parameter lives: the parser, the canonical URL, `meta`, OpenAPI, llms.txt, MCP
 * and the home page are made from them. A parsed query's canonical URL parses back
 * to the same query; every 400 names the parameter it is about.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseQuery } from "../../src/api/query.js";
import { ApiError } from "../../src/api/api-error.js";
import { DEFAULT_QUERY } from "../../src/core/indicator/model.js";
import { DECLARATIONS, PARAMETERS, canonicalQuery, metaEcho, shortParams } from "../../src/core/answer/parameters.js";
import { queryParameters } from "../../src/api/operation.js";

/** The detail of the 400 a query string gets, or null when it parses. */
function detail(text: string): string | null {
  try {
    parseQuery(new URLSearchParams(text));
    return null;
  } catch (error) {
    if (error instanceof ApiError) return error.detail;
    throw error;
  }
}

/** Query strings of valid values, some combinations meaningless (those are 400s). */
const queryText = fc
  .record(
    {
      from: fc.constantFrom("2020", "2021-05", "2022-02-28"),
      to: fc.constantFrom("2024", "2019-12", "2023-06-30"),
      at: fc.constantFrom("2025-03-15", "2025"),
      series: fc.constantFrom("b,a,b", "casmu.*", "*.x,a"),
      frequency: fc.constantFrom("month", "year"),
      aggregation: fc.constantFrom("end", "max"),
      per: fc.constantFrom("wages:hourly"),
      real: fc.constantFrom("2026-07"),
      units: fc.constantFrom("level", "index", "change"),
      base: fc.constantFrom("2019-01-01", "2019"),
      limit: fc.constantFrom("1", "500", "5000"),
      offset: fc.constantFrom("0", "3"),
      format: fc.constantFrom("json", "csv"),
      dialect: fc.constantFrom("es", "rfc4180"),
    },
    { requiredKeys: [] },
  )
  .map((r) => new URLSearchParams(Object.entries(r)).toString());

describe("the parameters' declarations", () => {
  it("declare every field of a query, once, in the canonical order", () => {
    expect(PARAMETERS).toEqual(Object.keys(DEFAULT_QUERY));
    expect(new Set(PARAMETERS).size).toBe(PARAMETERS.length);
  });

  it("a query's canonical and short URLs parse back to the same query (property)", () => {
    fc.assert(
      fc.property(queryText, (text) => {
        if (detail(text) !== null) return;
        const query = parseQuery(new URLSearchParams(text));
        expect(parseQuery(new URLSearchParams(canonicalQuery(query)))).toEqual(query);
        expect(parseQuery(new URLSearchParams(shortParams(query)))).toEqual(query);
      }),
      { numRuns: 2000 },
    );
  });

  it("every 400 of a query string names a declared parameter first (property)", () => {
    const named = new RegExp(`^(${PARAMETERS.join("|")}): `);
    fc.assert(
      fc.property(queryText, (text) => {
        const d = detail(text);
        if (d !== null) expect(d).toMatch(named);
      }),
      { numRuns: 2000 },
    );
  });

  it("each conflict is named by the parameter that declares it", () => {
    for (const p of DECLARATIONS) {
      for (const conflict of p.conflicts ?? []) {
        const query = { ...DEFAULT_QUERY, from: "2025-01-01", to: "2024-01-01", at: "2025-01-01", frequency: "year", aggregation: "end", real: "2026-07", per: { indicator: "a", series: "b" }, units: "index", dialect: "es" } as const;
        const detail = conflict.detail(query);
        expect(detail.startsWith(`${p.name}: `), detail).toBe(true);
      }
    }
  });

  it("the first fault in declaration order is the one named", () => {
    // A bad value before a meaningless combination, and of two combinations the first declared.
    expect(detail("limit=0&at=2025&from=2024")).toMatch(/^limit: /);
    expect(detail("from=2025&to=2024&aggregation=end")).toMatch(/^from: 2025-01-01 is later than to/);
    expect(detail("aggregation=end&dialect=es")).toMatch(/^aggregation: only with frequency/);
  });

  it("meta echoes limit and offset, then the question's parameters, in declaration order", () => {
    const query = parseQuery(new URLSearchParams("per=wages:hourly&frequency=year&limit=3"));
    expect(Object.keys({ ...metaEcho(query, "paging"), ...metaEcho(query, "question") })).toEqual(["limit", "offset", "from", "to", "at", "series", "frequency", "aggregation", "per", "real", "units", "base"]);
    expect(metaEcho(query, "question")).toMatchObject({ per: "wages:hourly", frequency: "year", aggregation: "mean" });
  });

  it("OpenAPI lists every parameter with its declared schema and English description", () => {
    expect(queryParameters().map((p) => p.name)).toEqual(PARAMETERS);
    for (const p of DECLARATIONS) {
      expect(p.description.es.length).toBeGreaterThan(10);
      expect(p.summary.es.length).toBeGreaterThan(3);
    }
  });
});
