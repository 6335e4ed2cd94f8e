/**
 * The CPI workbook importer over small workbooks written here with exceljs in
 * the layout of INE's (test/fixtures/ine/README.md): the points it reads (dates
 * from the cells' calendar months in any time zone, values as JavaScript writes
 * them), the notes it leaves out, and every fault as `file!cell: reason`.
 */
import ExcelJS from "exceljs";
import { describe, expect, it } from "vitest";
import { formatIssue } from "../../src/source/errors.js";
import { CPI_SHEET, cellOf, importCpi, readWorkbook } from "../../src/source/import-ine-cpi.js";

const URL = "https://example.test/ipc.xlsx";
const HEADERS = ["Mes y año", "Índice", "Mensual", "Acum. año", "Acum.12 meses", "Trimestre", "Cuatrimestre", "Semestre"];
const month = (year: number, m: number) => new Date(Date.UTC(year, m - 1, 1));

/**
 * The bytes of a workbook in INE's layout holding three months (2026-04 to
 * 2026-06, rows 11–13) and a note in row 15; `edit` changes the sheet first.
 */
async function workbook(edit: (sheet: ExcelJS.Worksheet) => void = () => {}, name = CPI_SHEET): Promise<Uint8Array> {
  const book = new ExcelJS.Workbook();
  const sheet = book.addWorksheet(name);
  sheet.getCell("A1").value = "Índice de Precios del Consumo";
  sheet.getCell("A2").value = "Total País";
  sheet.getCell("A3").value = "Índice General y variación mensual";
  sheet.getCell("A4").value = "Base Octubre 2022 = 100";
  sheet.getCell("A5").value = "Período: desde Julio 1937 ";
  HEADERS.forEach((text, i) => (sheet.getCell(8, i + 1).value = text));
  const rows: [Date, number][] = [
    [month(2026, 4), 116.86352],
    [month(2026, 5), 117.68661769],
    [month(2026, 6), 1.5944905510202967e-7],
  ];
  rows.forEach(([date, value], i) => {
    sheet.getCell(11 + i, 1).value = date;
    sheet.getCell(11 + i, 1).numFmt = "mmm-yy";
    sheet.getCell(11 + i, 2).value = value;
  });
  sheet.getCell("A15").value = "Fuente: Instituto Nacional de Estadística (INE).";
  edit(sheet);
  return new Uint8Array(await book.xlsx.writeBuffer());
}

/** Imports `bytes` as `w.xlsx`: the points, or the faults as the CLI prints them. */
async function run(bytes: Uint8Array, declared: ReadonlySet<string> = new Set(["general"])) {
  const read = await readWorkbook(bytes, "w.xlsx", URL);
  if (!read.ok) return { points: [], errors: read.issues.map(formatIssue) };
  const result = importCpi(read.value, { declared, indicatorFile: "indicator.json" });
  return result.ok ? { points: result.value.points, errors: [] } : { points: [], errors: result.issues.map(formatIssue) };
}

/** Deletes the month of `row` (A and B), moving the rows below up: what deleting the row does. */
function moveUp(sheet: ExcelJS.Worksheet, row: number): void {
  // Not spliceRows: exceljs 4 leaves the last rows of a sparse sheet in place.
  for (let r = row; r < sheet.rowCount; r++) {
    for (const column of [1, 2]) sheet.getCell(r, column).value = sheet.getCell(r + 1, column).value;
  }
  clear(sheet, sheet.rowCount);
}

function clear(sheet: ExcelJS.Worksheet, row: number): void {
  for (const column of [1, 2]) sheet.getCell(row, column).value = null;
}

async function faults(edit: (sheet: ExcelJS.Worksheet) => void): Promise<string[]> {
  return (await run(await workbook(edit))).errors;
}

describe("reading the table", () => {
  it("gives one point per month, its value as JavaScript writes the number, citing its cell; notes are not read", async () => {
    const { points, errors } = await run(await workbook());
    expect(errors).toEqual([]);
    expect(points).toEqual([
      { date: "2026-04-01", series: "general", value: "116.86352", source: `${URL}#B11` },
      { date: "2026-05-01", series: "general", value: "117.68661769", source: `${URL}#B12` },
      { date: "2026-06-01", series: "general", value: "1.5944905510202967e-7", source: `${URL}#B13` },
    ]);
  });

  it("dates a point by its cell's calendar month whatever the machine's time zone", async () => {
    const bytes = await workbook();
    const saved = process.env.TZ;
    try {
      for (const zone of ["America/Montevideo", "Pacific/Kiritimati", "Pacific/Pago_Pago"]) {
        process.env.TZ = zone; // Node re-reads the zone on assignment
        if (zone === "Pacific/Pago_Pago") expect(month(2026, 4).getDate()).toBe(31); // local time is the day before: the zone took
        expect((await run(bytes)).points.map((p) => p.date), zone).toEqual(["2026-04-01", "2026-05-01", "2026-06-01"]);
      }
    } finally {
      if (saved === undefined) delete process.env.TZ;
      else process.env.TZ = saved;
    }
  });

  it("compares the layout's texts with white space collapsed and case folded", async () => {
    const { errors } = await run(await workbook((s) => (s.getCell("A4").value = "  BASE octubre  2022 = 100 ")));
    expect(errors).toEqual([]);
  });

  it("reads the notes below a table that ends in rows of empty cells or text, and rich text cells", async () => {
    const { points, errors } = await run(
      await workbook((s) => {
        s.getCell("A14").value = "   ";
        s.getCell("A1").value = { richText: [{ text: "Índice de Precios " }, { text: "del Consumo" }] };
        s.getCell("C20").value = 5; // a number outside A and B is not table data
      }),
    );
    expect(errors).toEqual([]);
    expect(points).toHaveLength(3);
  });
});

describe("faults, each as file!cell: reason", () => {
  it.each<[string, (s: ExcelJS.Worksheet) => void, string[]]>([
    ["another title", (s) => (s.getCell("A1").value = "Índice de Precios al Productor"), ['w.xlsx!A1: expected the title "Índice de Precios del Consumo", got "Índice de Precios al Productor"']],
    ["a regional index", (s) => (s.getCell("A2").value = "Montevideo"), ['w.xlsx!A2: expected the coverage "Total País", got "Montevideo"']],
    ["another base", (s) => (s.getCell("A4").value = "Base Diciembre 2010 = 100"), ['w.xlsx!A4: expected the base "Base Octubre 2022 = 100", got "Base Diciembre 2010 = 100"']],
    ["no base", (s) => (s.getCell("A4").value = null), ['w.xlsx!A4: expected the base "Base Octubre 2022 = 100", got an empty cell']],
    [
      "columns moved",
      (s) => {
        s.getCell("B8").value = "Mensual";
        s.getCell("C8").value = "Índice";
      },
      ['w.xlsx!B8: expected the column header "Índice", got "Mensual"', 'w.xlsx!C8: expected the column header "Mensual", got "Índice"'],
    ],
    ["a month missing", (s) => moveUp(s, 12), ["w.xlsx!A12: expected 2026-05 (the month after A11), got 2026-06"]],
    [
      "two months swapped",
      (s) => {
        s.getCell("A11").value = month(2026, 5);
        s.getCell("A12").value = month(2026, 4);
      },
      ["w.xlsx!A12: expected 2026-06 (the month after A11), got 2026-04", "w.xlsx!A13: expected 2026-05 (the month after A12), got 2026-06"],
    ],
    ["a month repeated", (s) => (s.getCell("A12").value = month(2026, 4)), ["w.xlsx!A12: expected 2026-05 (the month after A11), got 2026-04", "w.xlsx!A13: expected 2026-05 (the month after A12), got 2026-06"]],
    ["a mid-month date", (s) => (s.getCell("A12").value = new Date(Date.UTC(2026, 4, 15))), ["w.xlsx!A12: expected the month as a date (the first day of a month), got the date 2026-05-15"]],
    ["a zero", (s) => (s.getCell("B12").value = 0), ["w.xlsx!B12: expected the index, a positive number, got 0"]],
    ["a negative number", (s) => (s.getCell("B12").value = -117.5), ["w.xlsx!B12: expected the index, a positive number, got -117.5"]],
    ["a text", (s) => (s.getCell("B12").value = "117,68"), ['w.xlsx!B12: expected the index, a positive number, got "117,68"']],
    ["an empty index", (s) => (s.getCell("B12").value = null), ["w.xlsx!B12: expected the index, a positive number, got an empty cell"]],
    ["a formula", (s) => (s.getCell("B12").value = { formula: "B11*1.01", result: 118.03 }), ["w.xlsx!B12: expected the index, a positive number, got the formula =B11*1.01"]],
    ["an error value", (s) => (s.getCell("B12").value = { error: "#N/A" }), ["w.xlsx!B12: expected the index, a positive number, got the error #N/A"]],
  ])("%s", async (_, edit, expected) => {
    expect(await faults(edit)).toEqual(expected);
  });

  it("does not end the table silently at a month typed as text or cleared: one fault, the months below still checked", async () => {
    expect(await faults((s) => (s.getCell("A12").value = "may-26"))).toEqual(['w.xlsx!A12: expected the month as a date (the first day of a month), got "may-26"']);
    expect(await faults((s) => (s.getCell("A12").value = null))).toEqual(["w.xlsx!A12: expected the month as a date (the first day of a month), got an empty cell"]);
    const cleared = await faults((s) => {
      s.getCell("A12").value = null;
      s.getCell("A13").value = month(2026, 7);
    });
    expect(cleared).toEqual([
      "w.xlsx!A12: expected the month as a date (the first day of a month), got an empty cell",
      "w.xlsx!A13: expected 2026-06 (2 months after A11), got 2026-07",
    ]);
  });

  it("takes a month below the notes as part of the table, so the rows between are faults", async () => {
    const errors = await faults((s) => {
      s.getCell("A16").value = month(2026, 9);
      s.getCell("B16").value = 118.2;
    });
    expect(errors).toEqual([
      "w.xlsx!A14: expected the month as a date (the first day of a month), got an empty cell",
      "w.xlsx!B14: expected the index, a positive number, got an empty cell",
      'w.xlsx!A15: expected the month as a date (the first day of a month), got "Fuente: Instituto Nacional de Estadística (INE)."',
      "w.xlsx!B15: expected the index, a positive number, got an empty cell",
    ]);
  });

  it("refuses an empty table", async () => {
    expect(await faults((s) => [11, 12, 13].forEach((row) => clear(s, row)))).toEqual(["w.xlsx!A9: empty table: no month (a date in column A) below the header row 8"]);
  });

  it("lists every fault of the layout and the table at once", async () => {
    const errors = await faults((s) => {
      s.getCell("A1").value = "IPC";
      s.getCell("A8").value = "Fecha";
      s.getCell("B13").value = 0;
    });
    expect(errors).toEqual([
      'w.xlsx!A1: expected the title "Índice de Precios del Consumo", got "IPC"',
      'w.xlsx!A8: expected the column header "Mes y año", got "Fecha"',
      "w.xlsx!B13: expected the index, a positive number, got 0",
    ]);
  });

  it("names the sheets of a workbook without the known one, and refuses a file that is no workbook", async () => {
    expect((await run(await workbook(() => {}, "Hoja1"))).errors).toEqual(['w.xlsx: expected the sheet "IPC_Cua 2.0", found "Hoja1"']);
    expect((await run(new TextEncoder().encode("date,value\n"))).errors).toEqual([expect.stringMatching(/^w\.xlsx: not an xlsx workbook: /)]);
  });

  it("needs the sub-series general declared in indicator.json", async () => {
    expect((await run(await workbook(), new Set(["other"]))).errors).toEqual([
      'indicator.json: series: declare the sub-series "general", which the workbook\'s index is written to',
    ]);
  });
});

describe("cells", () => {
  it.each<[ExcelJS.CellValue, ReturnType<typeof cellOf>]>([
    [null, { kind: "empty" }],
    [" \t", { kind: "empty" }],
    [1.5, { kind: "number", value: 1.5 }],
    ["Índice", { kind: "text", text: "Índice" }],
    [{ richText: [{ text: "Ín" }, { text: "dice" }] }, { kind: "text", text: "Índice" }],
    [{ text: "INE", hyperlink: "https://www.ine.gub.uy" }, { kind: "text", text: "INE" }],
    [true, { kind: "other", what: "the boolean TRUE" }],
    [{ error: "#REF!" }, { kind: "other", what: "the error #REF!" }],
    [{ formula: "B1/B2", result: 3 }, { kind: "other", what: "the formula =B1/B2" }],
    [{ sharedFormula: "F1077", result: 3 }, { kind: "other", what: "a shared formula" }],
  ])("%j is %j", (value, cell) => {
    expect(cellOf(value)).toEqual(cell);
  });
});
