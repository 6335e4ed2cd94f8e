import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { csvEsLine, csvLine } from "../../src/builder/dataset.js";
import { decodeAnswers, encodeAnswers, spreadsheetSection, spreadsheetText, type AnswerRow } from "../../src/core/file/answers.js";
import { dateOfDay } from "../../src/core/time/dates.js";
import { spreadsheetLineOf, spreadsheetNumber } from "../../src/core/answer/spreadsheet.js";

describe("spreadsheetNumber: a JSON number literal as a Spanish-locale spreadsheet reads it", () => {
  it.each([
    ["159.05", "159,05"],
    ["44.90", "44,90"],
    ["31178", "31178"],
    ["0", "0"],
    ["-2.5", "-2,5"],
    ["1.5944905510202967e-7", "0,00000015944905510202967"],
    ["1e-7", "0,0000001"],
    ["-4.2e-3", "-0,0042"],
    ["1.25e3", "1250"],
    ["1.2345e2", "123,45"],
    ["1e21", "1000000000000000000000"],
    ["0.5e2", "50"],
    ["5E-1", "0,5"],
  ])("%s → %s", (text, expected) => {
    expect(spreadsheetNumber(text)).toBe(expected);
  });

  it("keeps the value: the decimal point back gives the same number (property over random doubles)", () => {
    for (let i = 0; i < 2000; i++) {
      const x = (Math.random() - 0.5) * 10 ** Math.floor(Math.random() * 40 - 20);
      expect(Number(spreadsheetNumber(String(x)).replace(",", "."))).toBe(x);
    }
  });
});

describe("the spreadsheet lines an answer file does not store", () => {
  it("are made from the CSV line, each the point's own line (property over random points: exponents, fields with ; , \" and line breaks)", () => {
    const text = fc.stringMatching(/^[a-z0-9 ;,"\n\r.:/#ñ€-]{0,12}$/);
    const point = fc.record({
      date: fc.constantFrom("2024-01-01", "2024-02-01", "2025-07-01"),
      series: fc.constantFrom("a", "b.c", "d-e"),
      value: fc.oneof(fc.double({ noNaN: true, noDefaultInfinity: true }).map(String), fc.constantFrom("44.90", "1e-7", "-4.2e-3", "0")),
      source: fc.oneof(fc.constant(""), fc.constant("https://example.test/a,b"), text),
      note: fc.oneof(fc.constant(""), text),
    });
    fc.assert(
      fc.property(fc.uniqueArray(point, { minLength: 1, maxLength: 20, selector: (p) => `${p.series}@${p.date}` }), (rows) => {
        const ids = [...new Set(rows.map((r) => r.series))].sort();
        const fields = { indicator: "x", unit: "UYU", license: "CC-BY-4.0", lastUpdated: null, attribution: "x", attributionUrl: "https://x.test", rhythm: "monthly", stepwise: true };
        const data = decodeAnswers(encodeAnswers(fields, ids, rows, csvLine, csvEsLine));
        const byKey = new Map(rows.map((r) => [`${r.series}@${r.date}`, r]));
        for (let g = 0; g < data.points; g++) {
          const row = byKey.get(`${ids[data.global.series(g)]}@${dateOfDay(data.global.day(g))}`) as AnswerRow;
          expect(new TextDecoder().decode(spreadsheetText(data, g))).toBe(csvEsLine(row));
        }
        // The whole section, as data.es.csv holds it.
        expect(new TextDecoder().decode(spreadsheetSection(data).bytes)).toBe(Array.from({ length: data.points }, (_, g) => new TextDecoder().decode(spreadsheetText(data, g))).join(""));
      }),
      { numRuns: 200, seed: 11 },
    );
  });

  it("are most of them: a point whose line follows from its CSV line stores none", () => {
    const rows = [
      { date: "2024-01-01", series: "a", value: "44.90", source: "https://example.test/x", note: "" },
      { date: "2024-01-01", series: "b", value: "1", source: "https://example.test/y", note: "a; b" },
    ];
    const fields = { indicator: "x", unit: "UYU", license: "CC-BY-4.0", lastUpdated: null, attribution: "x", attributionUrl: "https://x.test", rhythm: "monthly", stepwise: true };
    const data = decodeAnswers(encodeAnswers(fields, ["a", "b"], rows, csvLine, csvEsLine));
    // Only the line with `;` in a field (quoted in the spreadsheet dialect) is stored.
    expect(new TextDecoder().decode(data.csvEs)).toBe(csvEsLine(rows[1] as AnswerRow));
    expect(spreadsheetLineOf(csvLine(rows[0] as AnswerRow))).toBe("2024-01-01;a;44,90;https://example.test/x;\r\n");
  });
});
