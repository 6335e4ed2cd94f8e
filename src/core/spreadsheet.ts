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
 * it follows from it: a line of five fields none of them quoted, whose value is
 * written as `spreadsheetNumber` writes it, the fields joined by `;` and ended by
 * CRLF. `null` when the line is quoted or has not five fields. Whether the result
 * is the point's spreadsheet line is the build's to check (a field holding `;` is
 * quoted there): an answer file stores the lines for which it is not
 * (src/core/answers.ts).
 */
export function spreadsheetLineOf(csvLine: string): string | null {
  if (csvLine.includes('"') || !csvLine.endsWith("\n")) return null;
  const fields = csvLine.slice(0, -1).split(",");
  if (fields.length !== 5) return null;
  fields[2] = spreadsheetNumber(fields[2] as string);
  return `${fields.join(";")}\r\n`;
}
