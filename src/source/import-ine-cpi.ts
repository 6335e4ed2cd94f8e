/**
 * The importer of the Instituto Nacional de Estadística's consumer price index
 * workbook (`IPC gral y variaciones_base 2022.xlsx`: the general index, whole
 * country, base October 2022 = 100, one row per month since July 1937),
 * registered as `ine-cpi-workbook` (src/source/importers.ts). The workbook is
 * read with exceljs into plain cells (`cellOf`, the one place that knows
 * exceljs's value shapes); everything after is a pure function over them.
 *
 * It knows one layout, and refuses any other rather than guess (every fault is
 * listed as `file!cell: reason`, the way spreadsheets name a cell):
 *
 * - the sheet `IPC_Cua 2.0`;
 * - A1 the title "Índice de Precios del Consumo", A2 the coverage "Total País",
 *   A4 the base "Base Octubre 2022 = 100" (a new base or a regional index is a
 *   different series, not a new edition of this one); A3 (a description of the
 *   table) and A5 (the period) are not checked: the rows themselves say it;
 * - row 8 the column headers "Mes y año", "Índice", "Mensual", "Acum. año",
 *   "Acum.12 meses", "Trimestre", "Cuatrimestre", "Semestre". Only A and B are
 *   read, but a changed header row means a changed table: someone looks once.
 *   Texts are compared with runs of white space collapsed, trimmed and case
 *   folded (A5 ends in a stray space; case is not meaning);
 * - the table: see `readTable`. Each row is a month (a date cell in column A)
 *   and its index (a number in column B, unrounded: INE displays two decimals).
 *
 * The layout and the table are read by `readWorkbookTable`, which the importer of
 * the UI (src/source/import-ine-ui.ts) shares to read the monthly changes
 * of column C.
 */
import type ExcelJS from "exceljs";
import type { DataIssue, Parsed } from "./errors.js";
import type { ImportedPoint } from "./import-points.js";

/** The sub-series the workbook's one index is written to. */
export const CPI_SERIES = "general";

/** The sheet holding the table. */
export const CPI_SHEET = "IPC_Cua 2.0";

/** The row of the column headers; the table is looked for below it. */
const HEADER_ROW = 8;

/** A checked cell of the layout and what it must read. */
interface Expected {
  readonly cell: string;
  readonly what: string;
  readonly text: string;
}

/** The cells that identify the workbook as the one this importer knows. */
const LAYOUT: readonly Expected[] = [
  { cell: "A1", what: "the title", text: "Índice de Precios del Consumo" },
  { cell: "A2", what: "the coverage", text: "Total País" },
  { cell: "A4", what: "the base", text: "Base Octubre 2022 = 100" },
  ...["Mes y año", "Índice", "Mensual", "Acum. año", "Acum.12 meses", "Trimestre", "Cuatrimestre", "Semestre"].map((text, i) => ({
    cell: `${String.fromCharCode(65 + i)}${HEADER_ROW}`,
    what: "the column header",
    text,
  })),
];

// ---------------------------------------------------------------------------
// Cells

/** A cell's content, as far as the importer cares. */
export type Cell =
  | { readonly kind: "empty" }
  | { readonly kind: "number"; readonly value: number }
  | { readonly kind: "text"; readonly text: string }
  | { readonly kind: "date"; readonly date: Date }
  /** A formula, an error value or a boolean: never what the table holds. */
  | { readonly kind: "other"; readonly what: string };

/** A sheet as the importer reads it: cells by 1-based row and column. */
export interface Grid {
  /** The last row that may hold anything. */
  readonly rowCount: number;
  cell(row: number, column: number): Cell;
}

/**
 * The content of one exceljs cell value. exceljs gives a date cell (a number
 * whose format is a date format) as a `Date` at the UTC midnight of the day
 * (it converts Excel's serial day count without a time zone), so its calendar
 * month is read with the UTC getters, whatever the machine's zone. Text cells
 * holding only white space count as empty: they show nothing.
 */
export function cellOf(value: ExcelJS.CellValue): Cell {
  if (value === null || value === undefined) return { kind: "empty" };
  if (typeof value === "number") return { kind: "number", value };
  if (typeof value === "string") return value.trim() === "" ? { kind: "empty" } : { kind: "text", text: value };
  if (typeof value === "boolean") return { kind: "other", what: `the boolean ${value ? "TRUE" : "FALSE"}` };
  if (value instanceof Date) return { kind: "date", date: value };
  if ("richText" in value) return cellOf(value.richText.map((run) => run.text).join(""));
  if ("hyperlink" in value) return cellOf(value.text);
  if ("error" in value) return { kind: "other", what: `the error ${value.error}` };
  // A formula's cached result may be stale or absent: the table holds numbers.
  return { kind: "other", what: "formula" in value && typeof value.formula === "string" ? `the formula =${value.formula}` : "a shared formula" };
}

/** A worksheet of exceljs as a grid, reading cells without creating them. */
export function gridOf(sheet: ExcelJS.Worksheet): Grid {
  return { rowCount: sheet.rowCount, cell: (row, column) => cellOf(sheet.findCell(row, column)?.value) };
}

/** A cell as an error message quotes it. */
export function describe(cell: Cell): string {
  switch (cell.kind) {
    case "empty":
      return "an empty cell";
    case "number":
      return String(cell.value);
    case "text":
      return JSON.stringify(cell.text);
    case "date":
      return `the date ${cell.date.toISOString().replace("T00:00:00.000Z", "")}`;
    case "other":
      return cell.what;
  }
}

/** A wording compared as the layout is: white space collapsed and trimmed, case folded. */
function wording(text: string): string {
  return text.normalize("NFC").replace(/\s+/g, " ").trim().toLocaleLowerCase("es");
}

/** Column letter and row, as spreadsheets name a cell (only A to H are ever named). */
export const address = (column: number, row: number): string => `${String.fromCharCode(64 + column)}${row}`;

// ---------------------------------------------------------------------------
// Months

/** A month as a count of months since year 0 (year × 12 + month − 1, as src/core/time/dates.ts counts), so the next month is `+ 1`. */
export type MonthIndex = number;

/** The month of a date cell, or `null` when it is not the first day of a month at midnight. */
function monthOf(date: Date): MonthIndex | null {
  if (Number.isNaN(date.getTime()) || date.getUTCDate() !== 1) return null;
  if (date.getUTCHours() + date.getUTCMinutes() + date.getUTCSeconds() + date.getUTCMilliseconds() !== 0) return null;
  return date.getUTCFullYear() * 12 + date.getUTCMonth();
}

/** `YYYY-MM`. */
export function formatMonth(month: MonthIndex): string {
  return `${String(Math.floor(month / 12)).padStart(4, "0")}-${String((month % 12) + 1).padStart(2, "0")}`;
}

// ---------------------------------------------------------------------------
// The workbook

/** The workbook to import. */
export interface Workbook {
  /** The names of its sheets, in order (to name them when the known one is missing). */
  readonly sheets: readonly string[];
  /** The sheet `CPI_SHEET`, or `null` when the workbook has none of that name. */
  readonly grid: Grid | null;
  /** Its path as the user gave it: faults are located in it (`file!B12`). */
  readonly file: string;
  /** The URL the points cite, without fragment (each point adds `#B<row>`). */
  readonly sourceUrl: string;
}

/** Where the sub-series must be declared, to name it in errors. */
export interface CpiContext {
  /** The sub-series ids indicator.json declares. */
  readonly declared: ReadonlySet<string>;
  readonly indicatorFile: string;
}

/** The imported table: one point per month, oldest first, and its first and last months (`YYYY-MM`). */
export interface ImportedCpi {
  readonly points: readonly ImportedPoint[];
  readonly first: string;
  readonly last: string;
}

/** A fault at a cell: spreadsheets name it `file!A4`, which the issue's file carries. */
export const at = (file: string, cell: string, reason: string): DataIssue => ({ file: `${file}!${cell}`, reason });

/** The faults of the title block and the header row. */
function checkLayout(grid: Grid, file: string): DataIssue[] {
  return LAYOUT.flatMap(({ cell, what, text }) => {
    const column = cell.charCodeAt(0) - 64;
    const found = grid.cell(Number(cell.slice(1)), column);
    if (found.kind === "text" && wording(found.text) === wording(text)) return [];
    return [at(file, cell, `expected ${what} ${JSON.stringify(text)}, got ${describe(found)}`)];
  });
}

/** Whether a row holds table data: a date in A or a number in B. */
function isDataRow(grid: Grid, row: number): boolean {
  return grid.cell(row, 1).kind === "date" || grid.cell(row, 2).kind === "number";
}

/** How a column of the table is read: a value per row, or why the cell holds none. */
export interface ColumnReader<T> {
  /** The column, 1-based (B is 2). */
  readonly column: number;
  /** The value of the cell, in the table's first row or another; a string is the fault's reason. */
  read(cell: Cell, first: boolean): { value: T } | string;
}

/** A month of the table and the value its row holds in the column read. */
export interface TableRow<T> {
  readonly row: number;
  readonly month: MonthIndex;
  readonly value: T;
}

/**
 * The rows of the table with the value of one column, and their faults. The
 * table is every row from the first to the last one below the header row whose
 * A cell holds a date or whose B cell holds a number; rows above it (two blank
 * rows in the known layout) and below it (the notes, "Fuente: Instituto Nacional
 * de Estadística (INE).") are not read. Ending the table at the first row whose
 * A cell is not a month date would do for the known workbook, but would silently
 * cut the series short at one month typed as text or one cleared cell; with this
 * rule such a row is inside the table, and a fault.
 *
 * Inside the table, every row must be the month after the row above (a month
 * missing, repeated or out of order is a fault at its A cell, counted on from
 * the nearest readable month above it) and its cell in the column read must hold
 * a value (`reader`). Two months swapped are three faults: each row that is not
 * the month after the row above it. Faults are listed row by row, A first.
 */
export function readTable<T>(grid: Grid, file: string, reader: ColumnReader<T>): { rows: TableRow<T>[]; issues: DataIssue[] } {
  const dataRows: number[] = [];
  for (let row = HEADER_ROW + 1; row <= grid.rowCount; row++) if (isDataRow(grid, row)) dataRows.push(row);
  const [first, last] = [dataRows[0], dataRows.at(-1)];
  if (first === undefined || last === undefined) {
    return { rows: [], issues: [at(file, `A${HEADER_ROW + 1}`, `empty table: no month (a date in column A) below the header row ${HEADER_ROW}`)] };
  }
  const rows: TableRow<T>[] = [];
  const issues: DataIssue[] = [];
  let previous: { month: MonthIndex; row: number } | null = null;
  for (let row = first; row <= last; row++) {
    const a = grid.cell(row, 1);
    const month = a.kind === "date" ? monthOf(a.date) : null;
    if (month === null) {
      issues.push(at(file, address(1, row), `expected the month as a date (the first day of a month), got ${describe(a)}`));
    } else if (previous !== null && month !== previous.month + (row - previous.row)) {
      // Counted from the nearest readable month above, so one unreadable month
      // cell is one fault, not two.
      const steps = row - previous.row;
      const after = steps === 1 ? `the month after A${previous.row}` : `${steps} months after A${previous.row}`;
      issues.push(at(file, address(1, row), `expected ${formatMonth(previous.month + steps)} (${after}), got ${formatMonth(month)}`));
    }
    const read = reader.read(grid.cell(row, reader.column), row === first);
    if (typeof read === "string") issues.push(at(file, address(reader.column, row), read));
    if (month !== null) previous = { month, row };
    if (month !== null && typeof read !== "string") rows.push({ row, month, value: read.value });
  }
  return { rows, issues };
}

/**
 * The table of a workbook read by `reader`, with every fault of the layout (the
 * title block and header row first) and of the table; a workbook without the
 * sheet `CPI_SHEET` is that one fault.
 */
export function readWorkbookTable<T>(workbook: Workbook, reader: ColumnReader<T>): { rows: TableRow<T>[]; issues: DataIssue[] } {
  const { grid, file } = workbook;
  if (grid === null) {
    const found = workbook.sheets.map((name) => JSON.stringify(name)).join(", ");
    return { rows: [], issues: [{ file, reason: `expected the sheet ${JSON.stringify(CPI_SHEET)}, found ${found === "" ? "no sheet" : found}` }] };
  }
  const table = readTable(grid, file, reader);
  return { rows: table.rows, issues: [...checkLayout(grid, file), ...table.issues] };
}

/** The index of column B: a positive finite number, unrounded. */
const INDEX: ColumnReader<number> = {
  column: 2,
  read: (cell) => (cell.kind === "number" && Number.isFinite(cell.value) && cell.value > 0 ? { value: cell.value } : `expected the index, a positive number, got ${describe(cell)}`),
};

/**
 * Imports the workbook's table: one point per month, dated its first day,
 * citing its index cell (`<url>#B<row>`). Every fault is listed: a missing
 * sheet; a title, coverage, base or column header other than the known one; an
 * empty table; a month missing, repeated or out of order; a month cell that is
 * not the first day of a month; an index that is not a positive finite number;
 * and a `general` sub-series that indicator.json does not declare.
 */
export function importCpi(workbook: Workbook, context: CpiContext): Parsed<ImportedCpi> {
  const table = readWorkbookTable(workbook, INDEX);
  // A missing sheet is the one fault: the sub-series is not checked for a workbook of another kind.
  if (workbook.grid === null) return { ok: false, issues: table.issues };
  const issues = [...table.issues];
  if (!context.declared.has(CPI_SERIES)) {
    issues.push({ file: context.indicatorFile, column: "series", reason: `declare the sub-series "${CPI_SERIES}", which the workbook's index is written to` });
  }
  // String(number): the shortest text that reads back as the same double
  // (ECMAScript Number::toString), so the value is the cell's, unrounded.
  const points: ImportedPoint[] = table.rows.map(({ row, month, value }) => ({
    date: `${formatMonth(month)}-01`,
    series: CPI_SERIES,
    value: String(value),
    source: `${workbook.sourceUrl}#${address(INDEX.column, row)}`,
  }));
  const [first, last] = [points[0], points.at(-1)];
  if (issues.length > 0 || first === undefined || last === undefined) return { ok: false, issues };
  return { ok: true, value: { points, first: first.date.slice(0, 7), last: last.date.slice(0, 7) } };
}

/**
 * Reads the bytes of an xlsx file with exceljs; a file that is not one is a
 * fault of the file, not a crash.
 */
export async function readWorkbook(bytes: Uint8Array, file: string, sourceUrl: string): Promise<Parsed<Workbook>> {
  // Loaded when a workbook is read, not with the importers (half a second of module load
  // that the build, the validator and the update's other indicators never need).
  const { Workbook } = (await import("exceljs")).default;
  const book = new Workbook();
  try {
    await book.xlsx.load(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength) as unknown as ExcelJS.Buffer);
  } catch (error) {
    return { ok: false, issues: [{ file, reason: `not an xlsx workbook: ${(error as Error).message}` }] };
  }
  const sheet = book.getWorksheet(CPI_SHEET);
  return { ok: true, value: { sheets: book.worksheets.map((s) => s.name), grid: sheet === undefined ? null : gridOf(sheet), file, sourceUrl } };
}
