/**
 * The calculator's amount as people in Uruguay type it (src/site/client/amount.ts):
 * one rule for the Spanish and the English pages, as a table of what is typed and
 * what the API is sent (`null`: not an amount, the page says so in its language).
 */
import { describe, expect, it } from "vitest";
import { parseAmount } from "../../src/site/client/amount.js";

describe("parseAmount", () => {
  it.each([
    // As written in Montevideo: a dot groups thousands, a comma marks the decimals.
    ["25.000", "25000"],
    ["25.000,50", "25000.5"],
    ["25000,5", "25000.5"],
    ["25000", "25000"],
    ["1.234.567,89", "1234567.89"],
    ["1.500", "1500"],
    ["1000", "1000"],
    // As an English reader writes it: a comma groups thousands, a point marks the decimals.
    ["25,000", "25000"],
    ["25,000.50", "25000.5"],
    ["1,234,567.89", "1234567.89"],
    // One or two digits after the last separator, or four and more: decimals, whichever the symbol.
    ["25.5", "25.5"],
    ["25,5", "25.5"],
    ["25.50", "25.5"],
    ["0,05", "0.05"],
    ["1234.5678", "1234.5678"],
    ["25000,00", "25000"],
    // Spaces, a no-break space and a leading $ are ignored; leading zeros go.
    [" 25 000 ", "25000"],
    ["25\u00a0000,50", "25000.5"],
    ["$25.000", "25000"],
    ["$ 1.000", "1000"],
    ["007", "7"],
    ["0", "0"],
    // Not amounts.
    ["", null],
    ["   ", null],
    ["25.", null],
    [",5", null],
    ["-5", null],
    ["+5", null],
    ["1e3", null],
    ["abc", null],
    ["25 pesos", null],
    ["1.5.5", null],
    ["1,2,3", null],
    ["25,5.000", null],
    ["25.000.50", null],
    ["25,000,50", null],
    ["2.50.000", null],
    ["0.500", null],
    ["1.000,000", null],
    ["١٠", null],
  ])("%j → %j", (typed, sent) => {
    expect(parseAmount(typed)).toBe(sent);
  });

  it("sends what the API reads back as the same number", () => {
    for (const typed of ["25.000", "25.000,50", "25000,5", "1.234.567,89", "0,05"]) {
      const sent = parseAmount(typed) as string;
      expect(sent).toMatch(/^(?:0|[1-9][0-9]*)(?:\.[0-9]+)?$/);
      expect(String(Number(sent))).toBe(sent);
    }
  });
});
