/**
 * The API's 12-month variation of the consumer price index
 * (`units=percent_change_a_year_ago`) against the ones INE itself publishes: the
 * column "Acum.12 meses" of its workbook (test/fixtures/ine/), read here with
 * exceljs on its own, not through the project's importer (which reads only the
 * months and the index). INE gives a variation for every month from July 1938
 * (twelve months after its first index) to July 2026.
 *
 * Two comparisons, month by month:
 * - the variation computed here from the unrounded levels of
 *   data/consumer-price-index/cpi.csv, 100 × (v / w − 1): within 0.0075 points
 *   of INE's (the largest, 0.0074, is January 2010). INE typed some months' figures
 *   with two decimals, and its own figures were not all computed from the
 *   spliced series the workbook holds, so hundredths of a point are expected
 *   (indicator.json's note says so);
 * - the API's answer, the real data built in process and answered by the handler
 *   in Node: the same months on both sides, within 0.015 points (measured: the
 *   same 0.0074 in January 2010), each the unrounded variation rounded to 8
 *   significant digits.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { parse } from "csv-parse/sync";
import ExcelJS from "exceljs";
import { beforeAll, describe, expect, inject, it } from "vitest";
import { Api } from "../../src/api/handler.js";
import { HIGH, fetched } from "../api-checks.js";
import { folderAssets } from "../../scripts/lib/folder-assets.js";
import { ROOT } from "../helpers.js";

const WORKBOOK = join(ROOT, "test/fixtures/ine/IPC gral y variaciones_base 2022.xlsx");
const LEVELS = join(ROOT, "data/consumer-price-index/cpi.csv");
const SHEET = "IPC_Cua 2.0";
/** The row of the column headers (test/fixtures/ine/README.md). */
const HEADER_ROW = 8;
/** The first month a variation over 12 months can exist: the index starts in July 1937. */
const FIRST = "1938-07";
const LAST = "2026-07";

/** Bounds, in percentage points. */
const UNROUNDED_BOUND = 0.0075;
const API_BOUND = 0.015;

/** `YYYY-MM` → value. */
type Monthly = Map<string, number>;

/** `YYYY-MM` of a date cell (exceljs gives the UTC midnight of the day). */
const monthOf = (date: Date): string => date.toISOString().slice(0, 7);

/** The month 12 months before `YYYY-MM`. */
function yearBefore(month: string): string {
  const [year, m] = month.split("-") as [string, string];
  return `${String(Number(year) - 1).padStart(4, "0")}-${m}`;
}

/** Every month from `first` to `last`, inclusive. */
function monthsBetween(first: string, last: string): string[] {
  const months: string[] = [];
  for (let [y, m] = first.split("-").map(Number) as [number, number]; `${y}-${String(m).padStart(2, "0")}` <= last; m === 12 ? ((y += 1), (m = 1)) : (m += 1)) {
    months.push(`${y}-${String(m).padStart(2, "0")}`);
  }
  return months;
}

/** A cell's text, white space collapsed, for headers. */
const textOf = (value: ExcelJS.CellValue): string => (typeof value === "string" ? value.replace(/\s+/g, " ").trim() : "");

interface IneColumn {
  /** INE's 12-month variation, percent, for every month it gives one. */
  variations: Monthly;
  /** The months the table lists (with or without a variation), in order. */
  months: string[];
  /** The header's column letter and text, as found. */
  column: string;
  header: string;
  /** Months whose figure INE typed with two decimals or fewer. */
  twoDecimals: string[];
}

/**
 * Reads the column "Acum.12 meses" of INE's workbook: the column is found by its
 * header in row 8, the months are the date cells of column A below it; every
 * non-empty cell of the column must be a plain number (not a formula, not text).
 */
async function readIneColumn(): Promise<IneColumn> {
  const book = new ExcelJS.Workbook();
  await book.xlsx.readFile(WORKBOOK);
  const sheet = book.getWorksheet(SHEET);
  if (sheet === undefined) throw new Error(`${WORKBOOK}: no sheet ${SHEET}`);
  const headers = sheet.getRow(HEADER_ROW);
  let column = 0;
  headers.eachCell((cell, c) => {
    if (/^acum\.\s*12 meses$/i.test(textOf(cell.value))) column = c;
  });
  if (column === 0) throw new Error(`no header "Acum.12 meses" in row ${HEADER_ROW}`);
  const variations: Monthly = new Map();
  const months: string[] = [];
  const twoDecimals: string[] = [];
  const faults: string[] = [];
  for (let row = HEADER_ROW + 1; row <= sheet.rowCount; row++) {
    const a = sheet.getCell(row, 1).value;
    if (!(a instanceof Date)) continue;
    const month = monthOf(a);
    months.push(month);
    const cell = sheet.getCell(row, column);
    const value = cell.value;
    if (value === null || value === undefined) continue;
    if (typeof value !== "number" || !Number.isFinite(value)) {
      faults.push(`${cell.address} (${month}): ${JSON.stringify(value)}`);
      continue;
    }
    if (Math.round(value * 100) / 100 === value) twoDecimals.push(month);
    variations.set(month, value);
  }
  if (faults.length > 0) throw new Error(`cells of "Acum.12 meses" that are not plain numbers: ${faults.join("; ")}`);
  return { variations, months, column: headers.getCell(column).address.replace(/\d+$/, ""), header: textOf(headers.getCell(column).value), twoDecimals };
}

/** The unrounded levels of data/ (`YYYY-MM` → value). */
function readLevels(): Monthly {
  const rows = parse<Record<string, string>>(readFileSync(LEVELS), { columns: true, bom: true, skip_empty_lines: true });
  return new Map(rows.filter((r) => r.series === "general").map((r) => [(r.date as string).slice(0, 7), Number(r.value)]));
}

interface Difference {
  month: string;
  ine: number;
  ours: number;
  diff: number;
}

/** Month by month: INE's figure and the other's, absolute difference, largest first. */
function differences(ine: Monthly, other: Monthly): Difference[] {
  const out: Difference[] = [];
  for (const [month, value] of ine) {
    const ours = other.get(month);
    if (ours !== undefined) out.push({ month, ine: value, ours, diff: Math.abs(value - ours) });
  }
  return out.sort((x, y) => y.diff - x.diff || x.month.localeCompare(y.month));
}

/** The months present in one map and not in the other, from `FIRST` on. */
function missing(ine: Monthly, other: Monthly): { notInOther: string[]; notInIne: string[] } {
  const from = (keys: Iterable<string>) => [...keys].filter((m) => m >= FIRST).sort();
  return { notInOther: from(ine.keys()).filter((m) => !other.has(m)), notInIne: from(other.keys()).filter((m) => !ine.has(m)) };
}

function report(title: string, diffs: readonly Difference[], count = 8): void {
  const lines = diffs.slice(0, count).map((d) => `  ${d.month}  INE ${d.ine}  ours ${d.ours}  |diff| ${d.diff.toFixed(6)}`);
  console.log(`${title}: ${diffs.length} months, largest |difference| ${diffs[0]?.diff.toFixed(6)} points\n${lines.join("\n")}`);
}

let ine: IneColumn;
let levels: Monthly;

beforeAll(async () => {
  ine = await readIneColumn();
  levels = readLevels();
});

describe("INE's published 12-month variations of the CPI", () => {
  it("are read from the column E 'Acum.12 meses', one per month from 1938-07 to 2026-07", () => {
    expect([ine.column, ine.header]).toEqual(["E", "Acum.12 meses"]);
    // The table: every month from July 1937, none missing or repeated.
    expect(ine.months).toEqual(monthsBetween("1937-07", LAST));
    // A variation for every month from the thirteenth on, none before.
    expect([...ine.variations.keys()]).toEqual(monthsBetween(FIRST, LAST));
    expect(ine.variations.size).toBe(1057);
    console.log(`INE figures typed with two decimals or fewer: ${ine.twoDecimals.length} months (${ine.twoDecimals.join(", ")})`);
  });

  it(`agree with the ones computed from data/'s unrounded levels, 100 × (v / w − 1), within ${UNROUNDED_BOUND} points`, () => {
    const computed: Monthly = new Map();
    for (const [month, v] of levels) {
      const w = levels.get(yearBefore(month));
      if (w !== undefined) computed.set(month, 100 * (v / w - 1));
    }
    expect(missing(ine.variations, computed)).toEqual({ notInOther: [], notInIne: [] });
    const diffs = differences(ine.variations, computed);
    expect(diffs).toHaveLength(1057);
    report("unrounded levels vs INE", diffs);
    const [largest] = diffs as [Difference];
    expect(largest.diff).toBeLessThan(UNROUNDED_BOUND);
    // The figure quoted in this file's comment.
    expect(largest.month).toBe("2010-01");
    expect(largest.diff).toBeCloseTo(0.0074, 4);
  });
});

describe("the API's units=percent_change_a_year_ago on the real data, built in process", () => {
  let api: Monthly;

  beforeAll(async () => {
    // The shared build of the real data (test/real-build.ts).
    const out = inject("realDist");
    const handler = new Api();
    const answer = await fetched(
      await handler.fetch(new Request("http://api.test/api/v1/consumer-price-index?units=percent_change_a_year_ago&limit=5000"), { ASSETS: folderAssets(out), ...HIGH }),
    );
    expect(answer.status, answer.text.slice(0, 500)).toBe(200);
    const body = JSON.parse(answer.text) as {
      data: { date: string; series: string; value: unknown }[];
      meta: { total: number; has_more: boolean; units: unknown; value_unit: unknown };
    };
    expect(body.meta).toMatchObject({ total: body.data.length, has_more: false, units: "percent_change_a_year_ago", value_unit: "percent" });
    api = new Map();
    for (const point of body.data) {
      expect(point.series).toBe("general");
      expect(typeof point.value, `${point.date}: ${JSON.stringify(point.value)}`).toBe("number");
      expect(point.date).toMatch(/^\d{4}-\d{2}-01$/);
      expect(api.has(point.date.slice(0, 7)), `${point.date} twice`).toBe(false);
      api.set(point.date.slice(0, 7), point.value as number);
    }
  }, 240_000);

  it("gives a variation for exactly the months INE does, and none before 1938-07", () => {
    expect(missing(ine.variations, api)).toEqual({ notInOther: [], notInIne: [] });
    expect([...api.keys()].filter((m) => m < FIRST)).toEqual([]);
    expect(api.size).toBe(1057);
  });

  it(`is within ${API_BOUND} points of INE's every month`, () => {
    const diffs = differences(ine.variations, api);
    report("API vs INE", diffs);
    expect(diffs[0]?.diff).toBeLessThan(API_BOUND);
  });

  it("is the variation of the unrounded levels, 100 × (v − w) / w, rounded to 8 significant digits", () => {
    const off: string[] = [];
    for (const [month, value] of api) {
      const [v, w] = [levels.get(month) as number, levels.get(yearBefore(month)) as number];
      const exact = (100 * (v - w)) / w;
      // Rounding to 8 significant digits moves a value by 5e-8 of it at most; 1e-12 for float noise.
      if (!(Math.abs(value - exact) <= 5e-8 * Math.abs(exact) + 1e-12)) off.push(`${month}: API ${value}, 100 × (v − w) / w = ${exact}`);
    }
    expect(off).toEqual([]);
  });
});
