import { describe, expect, it } from "vitest";
import { spreadsheetNumber } from "../../src/core/spreadsheet.js";

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
