/**
 * `data.parquet`: every point of an indicator as Apache Parquet, written by
 * hyparquet-writer. Typed columns: `date` DATE (INT32 days since the epoch, the
 * Parquet format's DATE logical type), `value` DOUBLE, `series`, `source`,
 * `note` and one column per facet as UTF-8 strings; rows in the order of
 * `data.csv`. Nothing in the file depends on the clock.
 */
import { parquetWriteBuffer, type ColumnSource, type SchemaElement } from "hyparquet-writer";
import { dayNumber } from "../../core/time/dates.js";
import type { DownloadPart } from "../../core/indicator/distributions.js";
import type { BuiltIndicator } from "../dataset.js";
import { pointTable } from "./table.js";

/** A string column: required, or optional with `null` for a missing value. */
const text = (name: string, required: boolean): SchemaElement => ({
  name,
  type: "BYTE_ARRAY",
  converted_type: "UTF8",
  logical_type: { type: "STRING" },
  repetition_type: required ? "REQUIRED" : "OPTIONAL",
});

/** Renders the indicator's points as a Parquet file: all of them, or those of `part` (an indicator in parts, src/builder/download-parts.ts). */
export function renderParquet(indicator: BuiltIndicator, part?: DownloadPart): Uint8Array {
  const { facets, rows } = pointTable(indicator, part);
  const columnData: ColumnSource[] = [
    // Parquet's DATE is the day number: days since 1970-01-01.
    { name: "date", data: rows.map((r) => dayNumber(r.date)) },
    { name: "series", data: rows.map((r) => r.series) },
    { name: "value", data: Float64Array.from(rows, (r) => r.value) },
    { name: "source", data: rows.map((r) => r.source) },
    { name: "note", data: rows.map((r) => r.note) },
    ...facets.map((name, i) => ({ name, data: rows.map((r) => r.facets[i] ?? null) })),
  ];
  const schema: SchemaElement[] = [
    { name: "root", num_children: columnData.length },
    { name: "date", type: "INT32", converted_type: "DATE", logical_type: { type: "DATE" }, repetition_type: "REQUIRED" },
    text("series", true),
    { name: "value", type: "DOUBLE", repetition_type: "REQUIRED" },
    text("source", false),
    text("note", false),
    ...facets.map((name) => text(name, false)),
  ];
  // One row group: the files are small (the largest, 23k points, is a few hundred KB),
  // and a reader then sees the whole column's statistics at once.
  const buffer = parquetWriteBuffer({ columnData, schema, rowGroupSize: Math.max(1, rows.length), createdBy: "Open Series UY (hyparquet-writer)" });
  return new Uint8Array(buffer);
}
