/**
 * The importer of the Unidad Indexada (UI), registered as `ui-ley-17761`
 * (src/source/importers.ts): it reads the monthly changes of INE's CPI
 * workbook (column C, "Mensual", of the layout
 * src/source/import-ine-cpi.ts knows and checks) and computes the daily UI by
 * Ley 17.761 (src/source/ley-17761.ts) from one published value, the anchor.
 *
 * The anchor is data, not code: `ui-anchor.json` in the indicator's folder
 * (the build reads only `indicator.json` and `*.csv` there) gives its date (a
 * 5th), its value with four decimals and the URL it was published at, which its
 * point cites. Every other point cites the cell of the change that determines
 * it (`<url>#C<row>`).
 *
 * The change "as INE publishes it" is the cell as the workbook shows it, with
 * two decimals (the cells hold the unrounded change, `2.439409489223965`, shown
 * `2.44`): rounded as a spreadsheet rounds for display, on the cell's value to
 * 15 significant digits, half away from zero (`shownHundredths`).
 */
import { z } from "zod";
import { isCalendarDate } from "../core/time/dates.js";
import { zodIssues, type DataIssue, type Parsed } from "./errors.js";
import { address, at, describe, formatMonth, readWorkbookTable, type Cell, type ColumnReader, type Workbook } from "./import-ine-cpi.js";
import type { ImportedPoint } from "./import-points.js";
import { readJson } from "./json.js";
import { START_DAY, UNITS, computeUi, type Anchor, type Month, type Units } from "./ley-17761.js";
import { httpUrl } from "./zod-fields.js";

/** The anchor's file name, in the indicator's data folder. */
export const ANCHOR_FILE_NAME = "ui-anchor.json";

/** The sub-series the UI is written to. */
export const UI_SERIES = "ui";

/** The workbook's column of monthly changes, "Mensual". */
const CHANGE_COLUMN = 3;

// ---------------------------------------------------------------------------
// Numbers

/** Four decimals, as the UI is published and written: 29482 → `2.9482`. */
export function formatUnits(value: Units): string {
  return `${Math.floor(value / UNITS)}.${String(value % UNITS).padStart(4, "0")}`;
}

/**
 * A change cell's value in hundredths of a percent, as a spreadsheet shows it
 * with two decimals: Excel and LibreOffice show a number from its 15 significant
 * digits, rounded half away from zero. So 1.005 (whose double is
 * 1.00499999999999989…) shows 1.01 (101), 0.12499999999999999 (15 digits:
 * 0.125000000000000) shows 0.13, −0.725 shows −0.73; decided on decimal digits,
 * not on the double.
 */
export function shownHundredths(value: number): number {
  // toPrecision rounds the double's exact value to 15 digits: "1.00500000000000", "1.00000000000000e-7".
  const [mantissa = "", exponent = "0"] = Math.abs(value).toPrecision(15).split("e");
  const [whole = "", fraction = ""] = mantissa.split(".");
  const digits = whole + fraction;
  // The decimal point sits after `point` digits of `digits`; hundredths are the digits up to point + 2.
  const point = whole.length + Number(exponent);
  const keep = point + 2;
  const kept = keep <= 0 ? 0 : Number(digits.slice(0, keep).padEnd(keep, "0"));
  const next = keep < 0 ? 0 : Number(digits[keep] ?? "0");
  const rounded = kept + (next >= 5 ? 1 : 0);
  return value < 0 && rounded !== 0 ? -rounded : rounded;
}

// ---------------------------------------------------------------------------
// The anchor

/** The published value the computation starts from, and where it was published. */
export interface PublishedAnchor extends Anchor {
  readonly date: string;
  readonly source: string;
}

const anchorSchema = z.strictObject({
  $comment: z.union([z.string(), z.array(z.string())]).optional(),
  date: z
    .string()
    .refine((date) => isCalendarDate(date) && Number(date.slice(8)) === START_DAY, `expected the date of a ${START_DAY}th, YYYY-MM-0${START_DAY}: a period's value starts from it`),
  value: z.string().regex(/^(0|[1-9]\d*)\.\d{4}$/, "expected the published value with its four decimals, as a string (\"2.9482\")"),
  source: httpUrl,
});

/** Validates the text of `ui-anchor.json`. */
export function parseAnchor(jsonText: string, file: string): Parsed<PublishedAnchor> {
  const json = readJson(jsonText, file);
  if (!json.ok) return { ok: false, issues: [json.issue] };
  const result = anchorSchema.safeParse(json.value);
  if (!result.success) return { ok: false, issues: zodIssues(result.error, file) };
  const { date, value, source } = result.data;
  const month = Number(date.slice(0, 4)) * 12 + Number(date.slice(5, 7)) - 1;
  return { ok: true, value: { date, month, value: Number(value.replace(".", "")), source } };
}

// ---------------------------------------------------------------------------
// The workbook

/** A month's published change: hundredths of a percent, and the row of its cell. */
interface Change {
  readonly hundredths: number;
  readonly row: number;
}

/**
 * Column C, the monthly change in percent: a finite number above −100 in every
 * row but the first (the first month has no month before it: its cell is
 * empty), rounded as shown.
 */
const CHANGE: ColumnReader<number | null> = {
  column: CHANGE_COLUMN,
  read(cell: Cell, first: boolean) {
    if (first && cell.kind === "empty") return { value: null };
    if (cell.kind === "number" && Number.isFinite(cell.value) && cell.value > -100) return { value: shownHundredths(cell.value) };
    return `expected the monthly change in percent, a number above -100, got ${describe(cell)}`;
  },
};

/** Where the importer finds what the workbook does not say. */
export interface UiContext {
  readonly anchor: PublishedAnchor;
  readonly anchorFile: string;
  /** The sub-series ids indicator.json declares. */
  readonly declared: ReadonlySet<string>;
  readonly indicatorFile: string;
}

/** The computed series and the words its import is reported with. */
export interface ImportedUi {
  readonly points: readonly ImportedPoint[];
  readonly summary: string;
}

/** `2014-01-05`, the 5th of a month. */
const fifth = (month: Month): string => `${formatMonth(month)}-0${START_DAY}`;

/**
 * Computes the UI from the workbook's changes and the anchor: one point per day,
 * from the earliest day the backward computation reaches to the 5th after the
 * newest change's period. Every fault is listed: those of the workbook's layout
 * and table (as the CPI's importer finds them), a change cell that is not a
 * number, an anchor the changes do not reach (the change of the period it ends
 * must be in the table), changes that contradict the anchor (no value of a 5th
 * computes forward to the known next one), and a `ui` sub-series that
 * indicator.json does not declare.
 */
export function importUi(workbook: Workbook, context: UiContext): Parsed<ImportedUi> {
  const { anchor, anchorFile } = context;
  const table = readWorkbookTable(workbook, CHANGE);
  if (workbook.grid === null) return { ok: false, issues: table.issues };
  const issues: DataIssue[] = [...table.issues];
  if (!context.declared.has(UI_SERIES)) {
    issues.push({ file: context.indicatorFile, column: "series", reason: `declare the sub-series "${UI_SERIES}", which the computed UI is written to` });
  }
  const changes = new Map<Month, Change>();
  for (const { row, month, value } of table.rows) if (value !== null) changes.set(month, { hundredths: value, row });
  const months = [...changes.keys()];
  if (!changes.has(anchor.month - 2) && months.length > 0) {
    const range = `${formatMonth(Math.min(...months))} to ${formatMonth(Math.max(...months))}`;
    issues.push({
      file: anchorFile,
      column: "date",
      reason: `the workbook's changes (${range}) do not include ${formatMonth(anchor.month - 2)}'s, which determines the anchor's value of ${anchor.date}`,
    });
  }
  if (issues.length > 0) return { ok: false, issues };

  const series = computeUi(anchor, (month) => changes.get(month)?.hundredths);
  const { stop } = series;
  if (stop.kind === "contradiction") {
    const cell = address(CHANGE_COLUMN, (changes.get(stop.change) as Change).row);
    const shown = ((changes.get(stop.change) as Change).hundredths / 100).toFixed(2);
    const reason =
      `no value of ${fifth(stop.month)} computes with this change (${shown} %) to ${formatUnits(stop.end)} on ${fifth(stop.month + 1)}: ` +
      `a revised change, or an anchor (${anchorFile}) that does not belong with these changes`;
    return { ok: false, issues: [at(workbook.file, cell, reason)] };
  }

  const points: ImportedPoint[] = series.days.map(({ date, value, change }) => ({
    date,
    series: UI_SERIES,
    value: formatUnits(value),
    source: change === null ? anchor.source : `${workbook.sourceUrl}#${address(CHANGE_COLUMN, (changes.get(change) as Change).row)}`,
  }));
  const why =
    stop.kind === "ambiguous"
      ? `before it, ${fifth(stop.month)} could be ${stop.candidates.map(formatUnits).join(" or ")}`
      : `before it, the workbook has no change for ${formatMonth(stop.change)}`;
  const [first, last] = [points[0] as ImportedPoint, points.at(-1) as ImportedPoint];
  return {
    ok: true,
    value: { points, summary: `${points.length} points, ${first.date} to ${last.date}, from ${formatUnits(anchor.value)} on ${anchor.date} (${why})` },
  };
}
