/**
 * `data.xlsx`: every point of an indicator as an Office Open XML workbook
 * (ECMA-376). Sheet `data`: one row per point in the order of `data.csv`, dates
 * as date cells, values as number cells, the facets as columns, the header row
 * frozen and an auto filter over the table (an indicator beyond a sheet's
 * 1,048,576 rows goes on in `data 2`, `data 3`, …). Sheet `metadata`: title,
 * description, unit, source, licence, notes, first point, last update, data
 * version, and the attribution text and link.
 *
 * Written here as SpreadsheetML text, the parts a reader needs and nothing else
 * (no theme, no printer settings): a general workbook library spent most of a
 * million-point build on its per-cell objects. Every part is a function of the
 * data, the document's dates are the data version, and the archive is written
 * by src/builder/formats/zip.ts (entries in name order, dated at the data
 * version, compressed in JavaScript): the same bytes on every machine. The
 * files are read back by openpyxl and exceljs in the tests.
 */
import { attributionUrl, indicatorPageUrl, type SiteConfig } from "../../core/indicator/config.js";
import type { DownloadPart } from "../../core/indicator/distributions.js";
import type { BuiltIndicator } from "../dataset.js";
import { LICENSE_URL, dateMeaning, isoDateTime, keywords, temporalCoverage } from "./facts.js";
import { pointTable, type Table } from "./table.js";
import { zipFiles } from "./zip.js";

/** The sheet names, for readers and tests. */
export const DATA_SHEET = "data";
export const METADATA_SHEET = "metadata";
/** Data rows per sheet: a worksheet holds at most 1,048,576 rows (ECMA-376 Part 1 §18.3.1.73), one is the header. */
export const MAX_DATA_ROWS = 1_048_575;

const XML_HEAD = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n';
const MAIN_NS = "http://schemas.openxmlformats.org/spreadsheetml/2006/main";
const REL_NS = "http://schemas.openxmlformats.org/officeDocument/2006/relationships";
const PACKAGE_REL_NS = "http://schemas.openxmlformats.org/package/2006/relationships";

/**
 * The cell formats of styles.xml's `cellXfs`, by index: the date cells show ISO
 * 8601 days (`yyyy-mm-dd`, custom number format 164) whatever the reader's locale.
 */
const enum Style {
  Plain = 0,
  Header = 1,
  Date = 2,
  Wrapped = 3,
  WrappedHeader = 4,
}

const STYLES =
  XML_HEAD +
  `<styleSheet xmlns="${MAIN_NS}">` +
  '<numFmts count="1"><numFmt numFmtId="164" formatCode="yyyy-mm-dd"/></numFmts>' +
  '<fonts count="2"><font><sz val="11"/><name val="Calibri"/><family val="2"/></font><font><b/><sz val="11"/><name val="Calibri"/><family val="2"/></font></fonts>' +
  '<fills count="2"><fill><patternFill patternType="none"/></fill><fill><patternFill patternType="gray125"/></fill></fills>' +
  '<borders count="1"><border><left/><right/><top/><bottom/><diagonal/></border></borders>' +
  '<cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs>' +
  '<cellXfs count="5">' +
  '<xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/>' +
  '<xf numFmtId="0" fontId="1" fillId="0" borderId="0" xfId="0" applyFont="1"/>' +
  '<xf numFmtId="164" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/>' +
  '<xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0" applyAlignment="1"><alignment vertical="top" wrapText="1"/></xf>' +
  '<xf numFmtId="0" fontId="1" fillId="0" borderId="0" xfId="0" applyFont="1" applyAlignment="1"><alignment vertical="top" wrapText="1"/></xf>' +
  "</cellXfs>" +
  '<cellStyles count="1"><cellStyle name="Normal" xfId="0" builtinId="0"/></cellStyles>' +
  "</styleSheet>";

const XML_ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" };

/** `text` as XML character data or an attribute value. */
function xmlText(text: string): string {
  return text.replace(/[&<>"]/g, (c) => XML_ESCAPES[c] ?? c);
}

/**
 * `text` as a cell string (ECMA-376 Part 1 §22.9.2.19 ST_Xstring): a character
 * XML 1.0 cannot carry, or would change (a parser turns CR into LF), is written
 * `_xHHHH_`, and so is the `_` of a literal `_xHHHH_`, which a reader would
 * otherwise decode.
 */
function cellText(text: string): string {
  return xmlText(
    text
      .replace(/_(x[0-9A-Fa-f]{4}_)/g, "_x005F_$1")
      .replace(/[\u0000-\u0008\u000B-\u001F\uFFFE\uFFFF]/g, (c) => `_x${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, "0")}_`),
  );
}

/** The column's letters of a 0-based column index (0 → A, 26 → AA). */
function columnName(index: number): string {
  let name = "";
  for (let n = index + 1; n > 0; n = Math.floor((n - 1) / 26)) name = String.fromCharCode(65 + ((n - 1) % 26)) + name;
  return name;
}

/** Excel's serial day of an ISO date: days since 1899-12-30 (the 1900 date system, right from March 1900 on). */
const EXCEL_EPOCH_MS = Date.UTC(1899, 11, 30);
const serialDay = (date: string): number => (Date.UTC(Number(date.slice(0, 4)), Number(date.slice(5, 7)) - 1, Number(date.slice(8, 10))) - EXCEL_EPOCH_MS) / 86_400_000;

/** The workbook's shared strings (ECMA-376 Part 1 §18.4): each distinct text once, cells refer to it by index. */
class SharedStrings {
  private readonly index = new Map<string, number>();
  private readonly texts: string[] = [];
  private uses = 0;

  /** The index of `text`, added on first use. */
  of(text: string): number {
    this.uses++;
    let i = this.index.get(text);
    if (i === undefined) {
      i = this.texts.length;
      this.index.set(text, i);
      this.texts.push(text);
    }
    return i;
  }

  xml(out: TextSink): void {
    out.write(`${XML_HEAD}<sst xmlns="${MAIN_NS}" count="${this.uses}" uniqueCount="${this.texts.length}">`);
    for (const text of this.texts) {
      const space = /^\s|\s$/.test(text) ? ' xml:space="preserve"' : "";
      out.write(`<si><t${space}>${cellText(text)}</t></si>`);
    }
    out.write("</sst>");
  }
}

/**
 * UTF-8 bytes written as text in pieces, encoded a megabyte at a time: a sheet of
 * a million rows would pass the longest string V8 can hold.
 */
class TextSink {
  private readonly chunks: Uint8Array[] = [];
  private pending: string[] = [];
  private pendingLength = 0;
  private readonly encoder = new TextEncoder();

  write(text: string): void {
    this.pending.push(text);
    this.pendingLength += text.length;
    if (this.pendingLength >= 1 << 20) this.flush();
  }

  private flush(): void {
    if (this.pending.length > 0) this.chunks.push(this.encoder.encode(this.pending.join("")));
    this.pending = [];
    this.pendingLength = 0;
  }

  bytes(): Uint8Array {
    this.flush();
    if (this.chunks.length === 1) return this.chunks[0] as Uint8Array;
    const out = new Uint8Array(this.chunks.reduce((n, c) => n + c.length, 0));
    let at = 0;
    for (const chunk of this.chunks) {
      out.set(chunk, at);
      at += chunk.length;
    }
    return out;
  }
}

/** A cell of the metadata sheet: a text, optionally a link. */
interface MetaCell {
  readonly text: string | null;
  readonly link?: string;
}

interface SheetPart {
  readonly name: string;
  readonly xml: Uint8Array;
  /** The external links the sheet's hyperlinks point at, `rId1` first. */
  readonly links: readonly string[];
}

/** `<sheetViews>` with the first row frozen (§18.3.1.66 pane). */
const FROZEN_HEADER =
  '<sheetViews><sheetView workbookViewId="0"><pane ySplit="1" topLeftCell="A2" activePane="bottomLeft" state="frozen"/>' +
  '<selection pane="bottomLeft" activeCell="A2" sqref="A2"/></sheetView></sheetViews>';

function colsXml(widths: readonly number[], styles: readonly Style[] = []): string {
  const cols = widths.map((width, i) => {
    const style = styles[i] ?? Style.Plain;
    return `<col min="${i + 1}" max="${i + 1}" width="${width}"${style === Style.Plain ? "" : ` style="${style}"`} customWidth="1"/>`;
  });
  return `<cols>${cols.join("")}</cols>`;
}

/** The header row: shared strings in bold. */
function headerRow(names: readonly string[], strings: SharedStrings, styles: readonly Style[] = []): string {
  const cells = names.map((name, i) => `<c r="${columnName(i)}1" s="${styles[i] ?? Style.Header}" t="s"><v>${strings.of(name)}</v></c>`);
  return `<row r="1">${cells.join("")}</row>`;
}

function dataSheets(indicator: BuiltIndicator, table: Table, maxRows: number, strings: SharedStrings): SheetPart[] {
  const { facets, rows } = table;
  const header = ["date", "series", "value", "source", "note", ...facets];
  const seriesWidth = Math.min(60, Math.max(10, ...indicator.plain.map((s) => s.id.length)));
  const cols = colsXml([12, seriesWidth, 14, 40, 30, ...facets.map(() => 24)]);
  const letters = header.map((_, i) => columnName(i));
  const last = letters[letters.length - 1] ?? "A";
  const sheets: SheetPart[] = [];
  const count = Math.max(1, Math.ceil(rows.length / maxRows));
  for (let part = 0; part < count; part++) {
    const from = part * maxRows;
    const to = Math.min(rows.length, from + maxRows);
    const out = new TextSink();
    out.write(`${XML_HEAD}<worksheet xmlns="${MAIN_NS}" xmlns:r="${REL_NS}">${FROZEN_HEADER}${cols}<sheetData>${headerRow(header, strings)}`);
    for (let i = from; i < to; i++) {
      const r = rows[i];
      if (r === undefined) continue;
      const n = i - from + 2;
      let row = `<row r="${n}"><c r="A${n}" s="${Style.Date}"><v>${serialDay(r.date)}</v></c><c r="B${n}" t="s"><v>${strings.of(r.series)}</v></c><c r="C${n}"><v>${r.value}</v></c>`;
      if (r.source !== null) row += `<c r="D${n}" t="s"><v>${strings.of(r.source)}</v></c>`;
      if (r.note !== null) row += `<c r="E${n}" t="s"><v>${strings.of(r.note)}</v></c>`;
      for (let f = 0; f < r.facets.length; f++) {
        const value = r.facets[f];
        if (value !== null && value !== undefined) row += `<c r="${letters[f + 5]}${n}" t="s"><v>${strings.of(value)}</v></c>`;
      }
      out.write(`${row}</row>`);
    }
    // §18.3.1.2 autoFilter: the header row and every data row.
    out.write(`</sheetData><autoFilter ref="A1:${last}${to - from + 1}"/></worksheet>`);
    sheets.push({ name: part === 0 ? DATA_SHEET : `${DATA_SHEET} ${part + 1}`, xml: out.bytes(), links: [] });
  }
  return sheets;
}

function metadataSheet(config: SiteConfig, indicator: BuiltIndicator, version: number, strings: SharedStrings): SheetPart {
  const { meta } = indicator.source;
  const coverage = temporalCoverage(indicator);
  const page = indicatorPageUrl(config, meta.id);
  const credit = attributionUrl(config, meta.id);
  const text = (value: string | null): MetaCell => ({ text: value });
  const link = (value: string, url: string): MetaCell => ({ text: value, link: url });
  const fields: [string, MetaCell][] = [
    ["indicator", text(meta.id)],
    ["title", text(meta.title.en)],
    ["description", text(meta.description.en)],
    ["unit", text(meta.display.unit?.en ?? meta.unit)],
    ["unit code", text(meta.unit)],
    ["dates", text(dateMeaning(meta))],
    ["rhythm", text(meta.rhythm)],
    ["source", link(meta.source.name.en, meta.source.url)],
    ["source URL", link(meta.source.url, meta.source.url)],
    ["licence", link(meta.license, LICENSE_URL)],
    ...meta.notes.map((note): [string, MetaCell] => ["note", text(note.en)]),
    ["first point", text(coverage?.start ?? null)],
    ["last update", text(coverage?.end ?? null)],
    ["data version", text(isoDateTime(version))],
    ["page", link(page, page)],
    ["attribution", text(config.attributionText)],
    ["attribution link", link(credit, credit)],
  ];
  const links: string[] = [];
  const hyperlinks: string[] = [];
  const out = new TextSink();
  out.write(`${XML_HEAD}<worksheet xmlns="${MAIN_NS}" xmlns:r="${REL_NS}">${colsXml([16, 100], [Style.Plain, Style.Wrapped])}<sheetData>`);
  out.write(headerRow(["field", "value"], strings, [Style.Header, Style.WrappedHeader]));
  fields.forEach(([field, cell], i) => {
    const n = i + 2;
    const value = cell.text === null ? "" : `<c r="B${n}" s="${Style.Wrapped}" t="s"><v>${strings.of(cell.text)}</v></c>`;
    out.write(`<row r="${n}"><c r="A${n}" t="s"><v>${strings.of(field)}</v></c>${value}</row>`);
    if (cell.link !== undefined && cell.text !== null) {
      links.push(cell.link);
      hyperlinks.push(`<hyperlink ref="B${n}" r:id="rId${links.length}"/>`);
    }
  });
  out.write(`</sheetData>${hyperlinks.length > 0 ? `<hyperlinks>${hyperlinks.join("")}</hyperlinks>` : ""}</worksheet>`);
  return { name: METADATA_SHEET, xml: out.bytes(), links };
}

/** A relationships part (`.rels`, ECMA-376 Part 2 §9.3), as its bytes: the parts `targets` a package or part refers to, numbered `rId1`, `rId2`… in order. */
function relationships(targets: readonly { type: string; target: string; external?: boolean }[]): Uint8Array {
  const items = targets.map(
    ({ type, target, external }, i) => `<Relationship Id="rId${i + 1}" Type="${type}" Target="${xmlText(target)}"${external === true ? ' TargetMode="External"' : ""}/>`,
  );
  return new TextEncoder().encode(`${XML_HEAD}<Relationships xmlns="${PACKAGE_REL_NS}">${items.join("")}</Relationships>`);
}

/** docProps/core.xml (ECMA-376 Part 2 §11): fixed, from the data, never the clock. */
function coreProperties(config: SiteConfig, indicator: BuiltIndicator, version: number): string {
  const { meta } = indicator.source;
  const when = isoDateTime(version);
  return (
    `${XML_HEAD}<cp:coreProperties xmlns:cp="http://schemas.openxmlformats.org/package/2006/metadata/core-properties" xmlns:dc="http://purl.org/dc/elements/1.1/" ` +
    'xmlns:dcterms="http://purl.org/dc/terms/" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">' +
    `<dc:creator>${xmlText(config.name)}</dc:creator><dc:title>${xmlText(meta.title.en)}</dc:title><dc:subject>${xmlText(meta.title.en)}</dc:subject>` +
    `<dc:description>${xmlText(meta.description.en)}</dc:description><cp:keywords>${xmlText(keywords(indicator).join(", "))}</cp:keywords>` +
    `<cp:lastModifiedBy>${xmlText(config.name)}</cp:lastModifiedBy>` +
    `<dcterms:created xsi:type="dcterms:W3CDTF">${when}</dcterms:created><dcterms:modified xsi:type="dcterms:W3CDTF">${when}</dcterms:modified>` +
    "</cp:coreProperties>"
  );
}

/** docProps/app.xml (ECMA-376 Part 1 §22.2): the application and the sheets' names. */
function appProperties(config: SiteConfig, sheets: readonly SheetPart[]): string {
  return (
    `${XML_HEAD}<Properties xmlns="http://schemas.openxmlformats.org/officeDocument/2006/extended-properties" xmlns:vt="http://schemas.openxmlformats.org/officeDocument/2006/docPropsVTypes">` +
    `<Application>${xmlText(config.name)}</Application>` +
    `<HeadingPairs><vt:vector size="2" baseType="variant"><vt:variant><vt:lpstr>Worksheets</vt:lpstr></vt:variant><vt:variant><vt:i4>${sheets.length}</vt:i4></vt:variant></vt:vector></HeadingPairs>` +
    `<TitlesOfParts><vt:vector size="${sheets.length}" baseType="lpstr">${sheets.map((s) => `<vt:lpstr>${xmlText(s.name)}</vt:lpstr>`).join("")}</vt:vector></TitlesOfParts>` +
    "</Properties>"
  );
}

const TYPE = {
  officeDocument: `${REL_NS}/officeDocument`,
  core: `${PACKAGE_REL_NS}/metadata/core-properties`,
  extended: `${REL_NS}/extended-properties`,
  styles: `${REL_NS}/styles`,
  sharedStrings: `${REL_NS}/sharedStrings`,
  worksheet: `${REL_NS}/worksheet`,
  hyperlink: `${REL_NS}/hyperlink`,
};

const CONTENT_TYPE = "application/vnd.openxmlformats-officedocument.spreadsheetml";

/**
 * Renders the indicator as a workbook; `version` is its data version (seconds
 * since the epoch). `maxRows` (data rows per sheet) is Excel's limit unless a
 * test asks for less. With `part`, the workbook holds that part's points alone
 * (an indicator in parts, src/builder/download-parts.ts).
 */
export function renderXlsx(config: SiteConfig, indicator: BuiltIndicator, version: number, maxRows = MAX_DATA_ROWS, part?: DownloadPart): Promise<Uint8Array> {
  const strings = new SharedStrings();
  const sheets = [...dataSheets(indicator, pointTable(indicator, part), maxRows, strings), metadataSheet(config, indicator, version, strings)];
  const sharedStrings = new TextSink();
  strings.xml(sharedStrings);
  const text = (xml: string) => new TextEncoder().encode(xml);
  const files = new Map<string, Uint8Array>([
    [
      "[Content_Types].xml",
      text(
        `${XML_HEAD}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">` +
          '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/>' +
          `<Override PartName="/xl/workbook.xml" ContentType="${CONTENT_TYPE}.sheet.main+xml"/>` +
          sheets.map((_, i) => `<Override PartName="/xl/worksheets/sheet${i + 1}.xml" ContentType="${CONTENT_TYPE}.worksheet+xml"/>`).join("") +
          `<Override PartName="/xl/styles.xml" ContentType="${CONTENT_TYPE}.styles+xml"/>` +
          `<Override PartName="/xl/sharedStrings.xml" ContentType="${CONTENT_TYPE}.sharedStrings+xml"/>` +
          '<Override PartName="/docProps/core.xml" ContentType="application/vnd.openxmlformats-package.core-properties+xml"/>' +
          '<Override PartName="/docProps/app.xml" ContentType="application/vnd.openxmlformats-officedocument.extended-properties+xml"/>' +
          "</Types>",
      ),
    ],
    [
      "_rels/.rels",
      relationships([
        { type: TYPE.officeDocument, target: "xl/workbook.xml" },
        { type: TYPE.core, target: "docProps/core.xml" },
        { type: TYPE.extended, target: "docProps/app.xml" },
      ]),
    ],
    ["docProps/core.xml", text(coreProperties(config, indicator, version))],
    ["docProps/app.xml", text(appProperties(config, sheets))],
    [
      "xl/workbook.xml",
      text(
        `${XML_HEAD}<workbook xmlns="${MAIN_NS}" xmlns:r="${REL_NS}"><sheets>` +
          sheets.map((s, i) => `<sheet name="${xmlText(s.name)}" sheetId="${i + 1}" r:id="rId${i + 3}"/>`).join("") +
          "</sheets></workbook>",
      ),
    ],
    [
      "xl/_rels/workbook.xml.rels",
      relationships([
        { type: TYPE.styles, target: "styles.xml" },
        { type: TYPE.sharedStrings, target: "sharedStrings.xml" },
        ...sheets.map((_, i) => ({ type: TYPE.worksheet, target: `worksheets/sheet${i + 1}.xml` })),
      ]),
    ],
    ["xl/styles.xml", text(STYLES)],
    ["xl/sharedStrings.xml", sharedStrings.bytes()],
  ]);
  sheets.forEach((sheet, i) => {
    files.set(`xl/worksheets/sheet${i + 1}.xml`, sheet.xml);
    if (sheet.links.length > 0) {
      files.set(`xl/worksheets/_rels/sheet${i + 1}.xml.rels`, relationships(sheet.links.map((target) => ({ type: TYPE.hyperlink, target, external: true }))));
    }
  });
  return zipFiles(files, new Date(version * 1000));
}
