/**
 * `data.xlsx`: every point of an indicator as an Office Open XML workbook
 * (ECMA-376), written by exceljs. Sheet `data`: one row per point in the order of
 * `data.csv`, dates as date cells, values as number cells, the facets as
 * columns, the header row frozen and an auto filter over the table (an indicator
 * beyond a sheet's 1,048,576 rows goes on in `data 2`, `data 3`, …). Sheet
 * `metadata`: title, description, unit, source, licence, notes, first point,
 * last update, data version, and the attribution text and link.
 *
 * exceljs's streaming writer keeps only the current row in memory, whatever the
 * indicator's size. Its archive is stored uncompressed, then rewritten
 * compressed with every entry dated at the data version (src/build/formats/zip.ts):
 * a zip entry carries its time (exceljs would date it with the clock), and a
 * compressor written in JavaScript gives the same bytes on every machine.
 * The document's created/modified dates are the data version too.
 */
import { Writable } from "node:stream";
import ExcelJS from "exceljs";
import { attributionUrl, indicatorPageUrl, type SiteConfig } from "../../core/config.js";
import type { DownloadPart } from "../../core/distributions.js";
import type { BuiltIndicator } from "../dataset.js";
import { LICENSE_URL, dateMeaning, isoDateTime, keywords, temporalCoverage } from "./facts.js";
import { pointTable, type Table } from "./table.js";
import { withFixedDates } from "./zip.js";

/** The sheet names, for readers and tests. */
export const DATA_SHEET = "data";
export const METADATA_SHEET = "metadata";
/** Data rows per sheet: a worksheet holds at most 1,048,576 rows (ECMA-376 Part 1 §18.3.1.73), one is the header. */
export const MAX_DATA_ROWS = 1_048_575;

/** The number format of the date cells: ISO 8601 days, whatever the reader's locale. */
const DATE_FORMAT = "yyyy-mm-dd";
/**
 * One style object per kind of cell: exceljs caches a style's id by the object's
 * identity, where a cell would otherwise get its own copy of its column's style.
 */
const DATE_STYLE: Partial<ExcelJS.Style> = { numFmt: DATE_FORMAT };
const PLAIN_STYLE: Partial<ExcelJS.Style> = {};
const HEADER_FONT: Partial<ExcelJS.Font> = { bold: true };

/** A date cell: the UTC midnight of the day (exceljs turns a `Date` into an Excel serial from its UTC time). */
const dateCell = (date: string): Date => new Date(`${date}T00:00:00Z`);

type Sheet = ReturnType<ExcelJS.stream.xlsx.WorkbookWriter["addWorksheet"]>;

function writeDataSheets(workbook: ExcelJS.stream.xlsx.WorkbookWriter, indicator: BuiltIndicator, table: Table, maxRows: number): void {
  const { facets, rows } = table;
  const seriesWidth = Math.min(60, Math.max(10, ...indicator.plain.map((s) => s.id.length)));
  const columns = [
    { header: "date", key: "date", width: 12 },
    { header: "series", key: "series", width: seriesWidth },
    { header: "value", key: "value", width: 14 },
    { header: "source", key: "source", width: 40 },
    { header: "note", key: "note", width: 30 },
    ...facets.map((name) => ({ header: name, key: name, width: 24 })),
  ];
  const sheets = Math.max(1, Math.ceil(rows.length / maxRows));
  for (let part = 0; part < sheets; part++) {
    const slice = rows.slice(part * maxRows, (part + 1) * maxRows);
    const sheet: Sheet = workbook.addWorksheet(part === 0 ? DATA_SHEET : `${DATA_SHEET} ${part + 1}`, {
      views: [{ state: "frozen", xSplit: 0, ySplit: 1, topLeftCell: "A2", activeCell: "A2" }],
    });
    sheet.columns = columns;
    // ECMA-376 Part 1 §18.3.1.2 autoFilter: the header row and every data row.
    sheet.autoFilter = { from: { row: 1, column: 1 }, to: { row: slice.length + 1, column: columns.length } };
    const header = sheet.getRow(1);
    header.font = HEADER_FONT;
    header.commit();
    for (const r of slice) {
      const row = sheet.addRow([dateCell(r.date), r.series, r.value, r.source, r.note, ...r.facets]);
      row.eachCell((cell, column) => (cell.style = column === 1 ? DATE_STYLE : PLAIN_STYLE));
      row.commit();
    }
    sheet.commit();
  }
}

function writeMetadataSheet(workbook: ExcelJS.stream.xlsx.WorkbookWriter, config: SiteConfig, indicator: BuiltIndicator, version: number): void {
  const { meta } = indicator.source;
  const sheet: Sheet = workbook.addWorksheet(METADATA_SHEET);
  sheet.columns = [
    { header: "field", key: "field", width: 16 },
    { header: "value", key: "value", width: 100, style: { alignment: { wrapText: true, vertical: "top" } } },
  ];
  sheet.getRow(1).font = HEADER_FONT;
  const link = (text: string, hyperlink: string) => ({ text, hyperlink });
  const coverage = temporalCoverage(indicator);
  const page = indicatorPageUrl(config, meta.id);
  const credit = attributionUrl(config, meta.id);
  const rows: [string, ExcelJS.CellValue][] = [
    ["indicator", meta.id],
    ["title", meta.title.en],
    ["description", meta.description.en],
    ["unit", meta.display.unit?.en ?? meta.unit],
    ["unit code", meta.unit],
    ["dates", dateMeaning(meta)],
    ["rhythm", meta.rhythm],
    ["source", link(meta.source.name.en, meta.source.url)],
    ["source URL", link(meta.source.url, meta.source.url)],
    ["licence", link(meta.license, LICENSE_URL)],
    ...meta.notes.map((note): [string, ExcelJS.CellValue] => ["note", note.en]),
    ["first point", coverage?.start ?? null],
    ["last update", coverage?.end ?? null],
    ["data version", isoDateTime(version)],
    ["page", link(page, page)],
    ["attribution", config.attributionText],
    ["attribution link", link(credit, credit)],
  ];
  for (const row of rows) sheet.addRow(row).commit();
  sheet.commit();
}

/** A writable stream that keeps what is written, in order. */
function collector(): { stream: Writable; bytes(): Uint8Array } {
  const chunks: Buffer[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      chunks.push(chunk);
      done();
    },
  });
  return { stream, bytes: () => Buffer.concat(chunks) };
}

/**
 * Renders the indicator as a workbook; `version` is its data version (seconds
 * since the epoch). `maxRows` (data rows per sheet) is Excel's limit unless a
 * test asks for less. With `part`, the workbook holds that part's points alone
 * (an indicator in parts, src/build/download-parts.ts).
 */
export async function renderXlsx(config: SiteConfig, indicator: BuiltIndicator, version: number, maxRows = MAX_DATA_ROWS, part?: DownloadPart): Promise<Uint8Array> {
  const { meta } = indicator.source;
  const versionDate = new Date(version * 1000);
  const out = collector();
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out.stream, useStyles: true, useSharedStrings: true, zip: { store: true } });
  // docProps/core.xml (ECMA-376 Part 2 §11): fixed, from the data, never the clock.
  workbook.creator = config.name;
  workbook.lastModifiedBy = config.name;
  workbook.created = versionDate;
  workbook.modified = versionDate;
  workbook.title = meta.title.en;
  workbook.subject = meta.title.en;
  workbook.description = meta.description.en;
  workbook.keywords = keywords(indicator).join(", ");
  writeDataSheets(workbook, indicator, pointTable(indicator, part), maxRows);
  writeMetadataSheet(workbook, config, indicator, version);
  await workbook.commit();
  return withFixedDates(out.bytes(), versionDate);
}
