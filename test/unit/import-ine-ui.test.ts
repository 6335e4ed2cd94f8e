/**
 * The UI importer's reading (src/source/import-ine-ui.ts): a change cell
 * rounded to two decimals as a spreadsheet shows it, the UI's four decimals as
 * written, and the anchor file with its faults. The import of the real workbook
 * is test/integration/import-ine-ui.test.ts.
 */
import { describe, expect, it } from "vitest";
import { formatIssue } from "../../src/source/errors.js";
import { formatUnits, parseAnchor, shownHundredths } from "../../src/source/import-ine-ui.js";

describe("a change as the workbook shows it, two decimals", () => {
  it.each<[number, number]>([
    [2.439409489223965, 244], // January 2014
    [-0.721059644172739, -72], // December 2013
    [0.33743583, 34],
    [0.06565982, 7],
    [-0.029545006893849646, -3],
    // Ties on the decimal, half away from zero, whatever the double's binary value.
    [1.005, 101], // the double is 1.00499999999999989…
    [-0.725, -73],
    [0.125, 13],
    [0.12499999999999999, 13], // 15 significant digits: 0.125000000000000
    [0.1249999, 12],
    [0.005, 1],
    [0.0049, 0],
    [1e-7, 0],
    [-1e-7, 0],
    [0, 0],
    [100, 10_000],
    [1234.5678, 123_457],
  ])("%d shows %d hundredths", (value, expected) => {
    expect(shownHundredths(value)).toBe(expected);
    expect(Object.is(shownHundredths(value), -0)).toBe(false);
  });
});

describe("four decimals as written", () => {
  it.each<[number, string]>([
    [29482, "2.9482"],
    [27280, "2.7280"],
    [66378, "6.6378"],
    [5, "0.0005"],
    [10_000, "1.0000"],
  ])("%d is %s", (units, text) => {
    expect(formatUnits(units)).toBe(text);
  });
});

describe("the anchor file", () => {
  const FILE = "data/x/ui-anchor.json";
  const parse = (json: unknown) => parseAnchor(JSON.stringify(json), FILE);

  it("reads the date, the value in ten-thousandths, the month and the source", () => {
    expect(parse({ $comment: "why", date: "2015-02-05", value: "2.9482", source: "https://example.test/ui" })).toEqual({
      ok: true,
      value: { date: "2015-02-05", month: 2015 * 12 + 1, value: 29482, source: "https://example.test/ui" },
    });
  });

  it.each<[string, unknown, string[]]>([
    ["a day other than the 5th", { date: "2015-02-06", value: "2.9482", source: "https://example.test/" }, ["date: expected the date of a 5th, YYYY-MM-05: a period's value starts from it"]],
    ["an impossible date", { date: "2015-13-05", value: "2.9482", source: "https://example.test/" }, ["date: expected the date of a 5th, YYYY-MM-05: a period's value starts from it"]],
    ["three decimals", { date: "2015-02-05", value: "2.948", source: "https://example.test/" }, ['value: expected the published value with its four decimals, as a string ("2.9482")']],
    ["a number", { date: "2015-02-05", value: 2.9482, source: "https://example.test/" }, ["value: Invalid input: expected string, received number"]],
    ["no source", { date: "2015-02-05", value: "2.9482" }, ["source: expected an http(s) URL"]],
    ["a source that is not a URL", { date: "2015-02-05", value: "2.9482", source: "INE" }, ["source: expected an http(s) URL"]],
    ["an unknown key", { date: "2015-02-05", value: "2.9482", source: "https://example.test/", note: "x" }, ['(root): Unrecognized key: "note"']],
  ])("refuses %s", (_, json, reasons) => {
    const parsed = parse(json);
    expect(parsed.ok ? [] : parsed.issues.map(formatIssue)).toEqual(reasons.map((r) => `${FILE}: ${r}`));
  });

  it("locates a JSON syntax fault", () => {
    const parsed = parseAnchor('{\n  "date": "2015-02-05",\n}', FILE);
    expect(parsed.ok ? [] : parsed.issues.map((i) => i.line)).toEqual([3]);
  });
});
