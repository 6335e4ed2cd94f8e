/**
 * What every importer shares (src/source/importers.ts): the point it produces,
 * the file it writes and the notes it keeps when it replaces one. An importer
 * turns a publication into points; the command line (`scripts/import.ts`)
 * writes them with `formatPointsCsv`, after `keepNotes` when a file is replaced.
 */
import { parse } from "csv-parse/sync";
import { stringify } from "csv-stringify/sync";
import type { AnswerRow } from "../core/file/answers.js";
import type { DataIssue, Parsed } from "./errors.js";

/**
 * One imported point, in the data format (docs/data.md "Source data format"): a point
 * as the answers hold it (`date` `YYYY-MM-DD`, `value` as the publication states
 * it, written as a JSON number literal), whose `source` is the publication's URL
 * with a fragment locating the point in it (`#L<line>`, `#B<row>`). A
 * publication has no notes: the note comes with the output row.
 */
export type ImportedPoint = Omit<AnswerRow, "note">;

// ---------------------------------------------------------------------------
// Reading CSV

/** A parsed record with the physical line it starts on. */
export interface CsvRecord {
  readonly fields: readonly string[];
  readonly line: number;
}

/**
 * Parses CSV text into records with the line each starts on, as src/source/csv.ts
 * does: csv-parse's `info.lines` is where a record ends, so the line breaks
 * inside it are stepped back over. Empty lines are skipped; records may differ
 * in length (the caller says what a short or long one means).
 */
export function readRecords(text: string, delimiter: string, file: string): Parsed<CsvRecord[]> {
  try {
    const records = parse(text, { bom: true, relax_column_count: true, delimiter, info: true, raw: true, skip_empty_lines: true }) as unknown as {
      record: string[];
      info: { lines: number };
      raw: string;
    }[];
    const value = records.map(({ record, info, raw }) => ({
      fields: record,
      line: info.lines - (raw.replace(/\r?\n$|\r$/, "").match(/\n/g)?.length ?? 0),
    }));
    return { ok: true, value };
  } catch (error) {
    const e = error as Error & { lines?: number };
    const reason = `not valid CSV: ${e.message}`;
    return { ok: false, issues: [e.lines === undefined ? { file, reason } : { file, line: e.lines, reason }] };
  }
}

// ---------------------------------------------------------------------------
// Notes and output

/** A row of the output file: an imported point with its note (`""` for none). */
export type OutputRow = AnswerRow;

/** The output rows with the notes kept, and the notes that could not be. */
export interface NotesKept {
  readonly rows: readonly OutputRow[];
  /** One warning per note dropped, located in the file being replaced. */
  readonly dropped: readonly DataIssue[];
}

/**
 * Carries the maintainers' notes of the file being replaced over to the new
 * points. A publication has no notes, so re-importing must not lose the
 * audit's: a note stays with its point (same date and series) when the value is
 * unchanged, even if the line it cites moved; when the value changed or the
 * point is gone, the note no longer describes it and is dropped, with a warning
 * naming it so a maintainer can rewrite it.
 */
export function keepNotes(points: readonly ImportedPoint[], existing: { text: string; file: string }): Parsed<NotesKept> {
  const parsed = readRecords(existing.text, ",", existing.file);
  if (!parsed.ok) return parsed;
  const [header, ...body] = parsed.value;
  const at = (name: string) => header?.fields.indexOf(name) ?? -1;
  const [seriesAt, dateAt, valueAt, noteAt] = [at("series"), at("date"), at("value"), at("note")];
  if (header === undefined || seriesAt < 0 || dateAt < 0 || valueAt < 0) {
    return { ok: false, issues: [{ file: existing.file, line: 1, reason: "expected a header with the columns date, series and value" }] };
  }
  const byKey = new Map(points.map((p) => [`${p.date} ${p.series}`, p]));
  const notes = new Map<string, string>();
  const dropped: DataIssue[] = [];
  for (const { fields, line } of noteAt < 0 ? [] : body) {
    const note = fields[noteAt] ?? "";
    if (note === "") continue;
    const [series, date, value] = [fields[seriesAt] ?? "", fields[dateAt] ?? "", fields[valueAt] ?? ""];
    const point = byKey.get(`${date} ${series}`);
    const quoted = JSON.stringify(note);
    if (point === undefined) {
      dropped.push({ file: existing.file, line, column: "note", reason: `dropped: ${series} ${date} is no longer in the publication (note: ${quoted})` });
    } else if (point.value !== value) {
      dropped.push({ file: existing.file, line, column: "note", reason: `dropped: ${series} ${date} changed from ${value} to ${point.value} (note: ${quoted})` });
    } else notes.set(`${date} ${series}`, note);
  }
  const rows = points.map((p) => ({ ...p, note: notes.get(`${p.date} ${p.series}`) ?? "" }));
  return { ok: true, value: { rows, dropped } };
}

/**
 * The output file: `date,series,value,source`, plus `note` when a row has one
 * (as in data/: only files with notes have the column), RFC 4180 with LF line
 * ends, quoting only the fields that need it.
 */
export function formatPointsCsv(rows: readonly OutputRow[]): string {
  const withNotes = rows.some((r) => r.note !== "");
  const columns = withNotes ? ["date", "series", "value", "source", "note"] : ["date", "series", "value", "source"];
  const records = rows.map((r) => (withNotes ? [r.date, r.series, r.value, r.source, r.note] : [r.date, r.series, r.value, r.source]));
  return stringify(records, { header: true, columns, record_delimiter: "\n" });
}
