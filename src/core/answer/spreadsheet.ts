/**
 * The CSV dialect Spanish-locale spreadsheets open as they are (`dialect=es`):
 * Excel and Google Sheets in Spanish, LibreOffice in es_UY read `;` as the list
 * separator and `,` as the decimal mark, and a UTF-8 file as UTF-8 only with a
 * byte order mark. Dates stay ISO 8601 (`2026-01-01`), which every locale reads
 * as a date.
 */

/**
 * A JSON number literal as such a spreadsheet reads it: plain digits with a
 * decimal comma, never an exponent (`1.5e-7` → `0,00000015`), the same digits.
 */
export function spreadsheetNumber(text: string): string {
  const e = text.search(/[eE]/);
  const plain = e < 0 ? text : expanded(text.slice(0, e), Number(text.slice(e + 1)));
  return plain.replace(".", ",");
}

/** `mantissa` × 10^`exponent` written out in plain decimal digits. */
function expanded(mantissa: string, exponent: number): string {
  const negative = mantissa.startsWith("-");
  const unsigned = negative ? mantissa.slice(1) : mantissa;
  const [whole = "", fraction = ""] = unsigned.split(".");
  const digits = whole + fraction;
  const point = whole.length + exponent;
  let text: string;
  if (point <= 0) text = `0.${"0".repeat(-point)}${digits}`;
  else if (point >= digits.length) text = digits + "0".repeat(point - digits.length);
  else text = `${digits.slice(0, point)}.${digits.slice(point)}`;
  // Leading zeros of the whole part (a mantissa like 0.5e2), but one before the point.
  text = text.replace(/^0+(?=\d)/, "");
  return negative ? `-${text}` : text;
}

/**
 * The spreadsheet CSV line of a point (`dialect=es`) from its RFC 4180 line, when
 * it follows from it: a line of five fields none of them quoted, whose value has
 * no exponent, the fields joined by `;`, the value's decimal point a comma, ended
 * by CRLF. `null` for any other line. Whether the result is the point's
 * spreadsheet line is the build's to check (a field holding `;` is quoted there):
 * an answer file stores the lines for which it is not (src/core/file/answers.ts, which
 * makes the others byte by byte, as this does: `writeSpreadsheetLine`).
 */
export function spreadsheetLineOf(csvLine: string): string | null {
  if (csvLine.includes('"') || !csvLine.endsWith("\n")) return null;
  const fields = csvLine.slice(0, -1).split(",");
  if (fields.length !== 5 || /[eE]/.test(fields[2] as string)) return null;
  fields[2] = (fields[2] as string).replaceAll(".", ",");
  return `${fields.join(";")}\r\n`;
}

const COMMA = 0x2c;
const DOT = 0x2e;
const SEMICOLON = 0x3b;
const CR = 0x0d;
const LF = 0x0a;

/**
 * `spreadsheetLineOf` on bytes: writes the spreadsheet line of the CSV line
 * `csv[from, to)` (its final LF included) into `out` at `at`, one byte longer;
 * returns where it ends. For a line `spreadsheetLineOf` gives a line for (the
 * only ones an answer file leaves to it): commas are the separators, a dot in the
 * third field is the value's, and no byte of a multi-byte character is either.
 */
export function writeSpreadsheetLine(csv: Uint8Array, from: number, to: number, out: Uint8Array, at: number): number {
  // The line copied at once, then its four separators and the value's decimal point changed in place (found natively).
  const end = to - 1;
  out.set(csv.subarray(from, end), at);
  let comma = from - 1;
  for (let field = 0; field < 4; field++) {
    comma = csv.indexOf(COMMA, comma + 1);
    if (comma < 0 || comma >= end) break;
    out[at + comma - from] = SEMICOLON;
    if (field === 2) {
      const valueStart = csv.lastIndexOf(COMMA, comma - 1) + 1;
      const dot = csv.indexOf(DOT, valueStart);
      if (dot >= 0 && dot < comma) out[at + dot - from] = COMMA;
    }
  }
  at += end - from;
  out[at++] = CR;
  out[at++] = LF;
  return at;
}
