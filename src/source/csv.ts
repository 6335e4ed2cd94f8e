/**
 * Source CSV files (docs/DESIGN.md §3): RFC 4180, UTF-8, a header row, the columns
 * `date,series,value` and the optional `source` and `note`. Parsed by csv-parse;
 * every row is checked and every fault is reported, not just the first.
 */
import { parse } from "csv-parse/sync";
import type { AnswerRow } from "../core/file/answers.js";
import { isCalendarDate } from "../core/time/dates.js";
import { quote } from "../core/answer/contract.js";
import { isHttpUrl } from "../core/text/url.js";
import type { DataIssue } from "./errors.js";

/** One validated data row (a point as the answers hold it), with where it came from. */
export interface SourceRow extends AnswerRow {
  readonly file: string;
  readonly line: number;
}

const REQUIRED = ["date", "series", "value"] as const;
const OPTIONAL = ["source", "note"] as const;
const KNOWN: readonly string[] = [...REQUIRED, ...OPTIONAL];

/** A JSON number literal (RFC 8259 §6): what the API may emit as a value unchanged. */
const JSON_NUMBER = /^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?$/;

/** Why `value` is not an acceptable value, or `null` when it is. */
export function valueFault(value: string): string | null {
  if (value === "") return "empty value (a period that was not measured has no row)";
  if (value.trim() !== value) return `surrounding white space in ${quote(value)}`;
  if (value.includes(",")) {
    return `${quote(value)} looks locale-formatted: write a dot for decimals and no thousands separator (1250.5)`;
  }
  if (!JSON_NUMBER.test(value)) return `expected a number like 1250.5 or -3, got ${quote(value)}`;
  if (!Number.isFinite(Number(value))) return `${quote(value)} is not a finite number`;
  return null;
}

/** A parsed record with the physical line it starts on. */
interface CsvRecord {
  record: string[];
  line: number;
}

/**
 * Parses CSV text into records with their line numbers. Without any quote
 * character no field can span lines, so record `k` (empty lines included) is on
 * line `k + 1`; that fast path skips csv-parse's per-record info objects, which
 * cost a third of the build on a million rows. With quotes, csv-parse's `info`
 * gives where each record ends and the line breaks inside it give where it starts.
 */
function parseRecords(text: string): CsvRecord[] {
  const common = { bom: true, relax_column_count: true } as const;
  if (!text.includes('"')) {
    const records: string[][] = parse(text, { ...common, skip_empty_lines: false });
    const out: CsvRecord[] = [];
    records.forEach((record, k) => {
      if (!(record.length === 1 && record[0] === "")) out.push({ record, line: k + 1 });
    });
    return out;
  }
  const records = parse(text, { ...common, info: true, raw: true, skip_empty_lines: true }) as unknown as {
    record: string[];
    info: { lines: number };
    raw: string;
  }[];
  // info.lines is the line where the record ends (before its delimiter); step back
  // over the line breaks inside the record.
  return records.map(({ record, info, raw }) => ({
    record,
    line: info.lines - (raw.replace(/\r?\n$|\r$/, "").match(/\n/g)?.length ?? 0),
  }));
}

/** Result of parsing one file: its valid rows and the issues of the others. */
export interface ParsedCsv {
  rows: SourceRow[];
  issues: DataIssue[];
}

/**
 * Parses and checks one CSV file. `declared` is the set of sub-series ids of the
 * indicator; a row naming another is a fault.
 */
export function parseCsvFile(text: string, file: string, declared: ReadonlySet<string>): ParsedCsv {
  const rows: SourceRow[] = [];
  const issues: DataIssue[] = [];
  let records: CsvRecord[];
  try {
    records = parseRecords(text);
  } catch (error) {
    const e = error as Error & { lines?: number };
    const reason = `not valid CSV: ${e.message}`;
    return { rows, issues: [e.lines === undefined ? { file, reason } : { file, line: e.lines, reason }] };
  }
  const [header, ...body] = records;
  if (header === undefined) return { rows, issues: [{ file, reason: "empty file: expected a header row date,series,value" }] };

  const columns = header.record;
  const headerIssues: DataIssue[] = [];
  columns.forEach((name, i) => {
    if (!KNOWN.includes(name)) {
      headerIssues.push({ file, line: 1, column: quote(name), reason: `unknown column (allowed: ${KNOWN.join(", ")})` });
    } else if (columns.indexOf(name) !== i) {
      headerIssues.push({ file, line: 1, column: name, reason: "column appears twice" });
    }
  });
  for (const name of REQUIRED) {
    if (!columns.includes(name)) headerIssues.push({ file, line: 1, column: name, reason: "missing column" });
  }
  if (headerIssues.length > 0) return { rows, issues: headerIssues };

  const at = (name: string): number => columns.indexOf(name);
  for (const { record, line } of body) {
    if (record.length !== columns.length) {
      issues.push({ file, line, reason: `expected ${columns.length} fields, got ${record.length}` });
      continue;
    }
    const field = (name: string): string => (at(name) < 0 ? "" : (record[at(name)] as string));
    const row = {
      date: field("date"),
      series: field("series"),
      value: field("value"),
      source: field("source"),
      note: field("note"),
      file,
      line,
    };
    const before = issues.length;
    if (!isCalendarDate(row.date)) {
      issues.push({ file, line, column: "date", reason: `expected a real calendar day YYYY-MM-DD, got ${quote(row.date)}` });
    }
    if (!declared.has(row.series)) {
      issues.push({ file, line, column: "series", reason: `${quote(row.series)} is not declared in indicator.json` });
    }
    const fault = valueFault(row.value);
    if (fault !== null) issues.push({ file, line, column: "value", reason: fault });
    if (row.source !== "" && !isHttpUrl(row.source)) {
      issues.push({ file, line, column: "source", reason: `expected an http(s) URL, got ${quote(row.source)}` });
    }
    if (issues.length === before) rows.push(row);
  }
  return { rows, issues };
}
