import { describe, expect, it } from "vitest";
import { parseCsvFile, valueFault } from "../../src/source/csv.js";
import { formatIssue } from "../../src/source/errors.js";

const declared = new Set(["a", "b"]);
const parseText = (text: string) => {
  const { rows, issues } = parseCsvFile(text, "f.csv", declared);
  return { rows: rows.map((r) => `${r.line}:${r.series}@${r.date}=${r.value}`), issues: issues.map(formatIssue) };
};

describe("valueFault", () => {
  it.each(["0", "-0", "42", "44.90", "400.081594127778", "-3.5", "1e3", "2.5E-2"])("accepts %j", (v) => {
    expect(valueFault(v)).toBeNull();
  });
  it.each([
    ["", /empty value/],
    [" 42", /surrounding white space/],
    ["1.250,50", /locale-formatted/],
    ["1,250.50", /locale-formatted/],
    ["12 UYU", /expected a number/],
    ["+5", /expected a number/],
    ["007", /expected a number/],
    [".5", /expected a number/],
    ["NaN", /expected a number/],
    ["Infinity", /expected a number/],
    ["1e999", /not a finite number/],
    ["0x1F", /expected a number/],
    ["٣", /expected a number/],
  ])("rejects %j", (v, reason) => {
    expect(valueFault(v)).toMatch(reason);
  });
});

describe("parseCsvFile", () => {
  it.each([
    ["LF with final newline", "date,series,value\n2024-01-01,a,1\n2024-01-02,b,2\n"],
    ["CRLF", "date,series,value\r\n2024-01-01,a,1\r\n2024-01-02,b,2\r\n"],
    ["no final newline", "date,series,value\n2024-01-01,a,1\n2024-01-02,b,2"],
    ["UTF-8 BOM", "\ufeffdate,series,value\n2024-01-01,a,1\n2024-01-02,b,2\n"],
    ["trailing empty lines", "date,series,value\n2024-01-01,a,1\n2024-01-02,b,2\n\n\n"],
    ["quoted fields", 'date,series,value\n"2024-01-01","a","1"\n2024-01-02,b,2\n'],
  ])("reads %s the same way", (_name, text) => {
    expect(parseText(text)).toEqual({ rows: ["2:a@2024-01-01=1", "3:b@2024-01-02=2"], issues: [] });
  });

  it("accepts columns in any order and keeps source and note", () => {
    const { rows, issues } = parseCsvFile('note,value,series,date,source\n"a, note",5,a,2024-01-01,https://x.test/p\n', "f.csv", declared);
    expect(issues).toEqual([]);
    expect(rows[0]).toMatchObject({ date: "2024-01-01", series: "a", value: "5", note: "a, note", source: "https://x.test/p" });
  });

  it("numbers lines from the physical line where a record starts, across multi-line quoted fields", () => {
    const text = 'date,series,value,note\n2024-01-01,a,1,"two\nlines"\n2024-13-01,b,2,x\n';
    expect(parseText(text).issues).toEqual(['f.csv:4: date: expected a real calendar day YYYY-MM-DD, got "2024-13-01"']);
  });

  it("reports every fault of every row, not only the first", () => {
    const text = "date,series,value\n2024-02-30,a,1\n2024-01-01,zz,\n2024-01-02,b,1.250\n";
    expect(parseText(text).issues).toEqual([
      'f.csv:2: date: expected a real calendar day YYYY-MM-DD, got "2024-02-30"',
      'f.csv:3: series: "zz" is not declared in indicator.json',
      "f.csv:3: value: empty value (a period that was not measured has no row)",
    ]);
  });
});
