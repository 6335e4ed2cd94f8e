/**
 * The build joins a CSV line itself when the CSV library would quote none of its
 * fields (src/builder/dataset.ts `csvLine`, `csvEsLine`): held here to the
 * library's bytes, field by field kinds and every point of the real data.
 */
import { stringify } from "csv-stringify/sync";
import { describe, expect, it } from "vitest";
import { csvEsLine, csvLine } from "../../src/builder/dataset.js";
import { nodeSourceFiles } from "../../src/builder/effects.js";
import type { AnswerRow } from "../../src/core/file/answers.js";
import { spreadsheetNumber } from "../../src/core/answer/spreadsheet.js";
import { loadData } from "../../src/source/load.js";

const library = (row: AnswerRow) => stringify([[row.date, row.series, row.value, row.source, row.note]]);
const libraryEs = (row: AnswerRow) =>
  stringify([[row.date, row.series, spreadsheetNumber(row.value), row.source, row.note]], { delimiter: ";", record_delimiter: "\r\n" });

const TEXTS = ["", "plain", "a,b", "a;b", 'say "x"', "line\nbreak", "cr\rhere", " leading", "trailing ", "tab\there", "#hash", "=1+1", "ñandú áé", "1.250,50", "'quote'", "\\back", "a\u2028b"];

describe("CSV lines", () => {
  it("are the library's bytes for every kind of note and source", () => {
    for (const note of TEXTS) {
      for (const source of ["", "https://example.test/a?b=1&c=2", "https://example.test/a,b"]) {
        const row = { date: "2024-01-01", series: "a.b-c", value: "-12.50", source, note };
        expect(csvLine(row), JSON.stringify(row)).toBe(library(row));
        expect(csvEsLine(row), JSON.stringify(row)).toBe(libraryEs(row));
      }
    }
  });

  it("are the library's bytes for every point of the real data", async () => {
    const { indicators } = await loadData("data", nodeSourceFiles());
    let n = 0;
    for (const { rows } of indicators) {
      for (const row of rows) {
        const line = { ...row, source: row.source, note: row.note };
        if (csvLine(line) !== library(line) || csvEsLine(line) !== libraryEs(line)) expect({ line: csvLine(line), es: csvEsLine(line) }).toEqual({ line: library(line), es: libraryEs(line) });
        n++;
      }
    }
    expect(n).toBeGreaterThan(20_000);
  });
});
