/**
 * The importer of the Ministry of Public Health's price publications ("A tu
 * servicio": `precios.csv`, as republished by datauy/ATuServicio), registered
 * as `atuservicio-prices` (src/source/importers.ts): one publication becomes
 * `data/<indicator>/<YYYY-MM>.csv`. Pure functions over text; the command line
 * (`scripts/import.ts`) reads and writes the files.
 *
 * Which source provider and which column is which sub-series is data, not code:
 * it lives in `atuservicio-mapping.json` in the indicator's data folder (read by
 * `parseMapping`), so a new header wording or provider is a reviewed one-line
 * change next to the data it produces. The build reads only `indicator.json`
 * and `*.csv` in that folder (src/source/load.ts), so it ignores the mapping.
 *
 * The publications differ from edition to edition (2015-01 … 2026-01): `,` or
 * `;` separators, header wordings in upper or lower case, with or without
 * accents and punctuation, a stray `1 ` before the first header cell
 * (2016–2024), one 2016-01 header cell merging two columns, trailing columns
 * with no header (2017-01), thousands written `1.287` (2018, 2019) or `1,010`
 * (2022-08), unrounded floats (2024–2025). Each is handled below or in the
 * mapping; every fault is collected and reported as `file:line: column: reason`.
 */
import { parse } from "csv-parse/sync";
import { z } from "zod";
import { byCodeUnits } from "../core/text/order.js";
import { zodIssues, type DataIssue, type Parsed } from "./errors.js";
import { readRecords, type ImportedPoint } from "./import-points.js";
import { readJson } from "./json.js";

/** The mapping's file name, in the indicator's data folder. */
export const MAPPING_FILE_NAME = "atuservicio-mapping.json";

// ---------------------------------------------------------------------------
// Wordings and numbers

/**
 * The key a header wording is looked up by in the mapping: accents removed
 * (Unicode NFD, combining marks dropped), lower case, every run of characters
 * other than `a-z` and `0-9` replaced by one space, trimmed. The editions write
 * the same column as `Consulta no urgente consultorio - medicina general. FONASA`
 * and `CONSULTA NO URGENTE CONSULTORIO: MEDICINA GENERAL. FONASA`, or
 * `(Valsartán, Amlodipina` and `(Valsartán. Amlodipina`: they differ only in
 * what this removes, so one mapping entry covers them all.
 */
export function normaliseWording(text: string): string {
  return text
    .normalize("NFD")
    .replace(/\p{M}/gu, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, " ")
    .trim();
}

/** Thousands grouped with dots and no decimals: `1.287`, `1.465`. */
const DOT_GROUPED = /^\d{1,3}(\.\d{3})+$/;
/** Thousands grouped with commas, decimals after a dot: `1,010`, `1,010.50`. */
const COMMA_GROUPED = /^\d{1,3}(,\d{3})+(\.\d+)?$/;
/** A price as the data format writes it: a non-negative JSON number without exponent. */
const PRICE = /^(0|[1-9]\d*)(\.\d+)?$/;

/**
 * Whether the dots of a file's values group thousands rather than start
 * decimals. A dot is ambiguous in `887.417` (2024-01: a float) and `1.287`
 * (2019-01: 1287), so the file decides as a whole: the dot groups thousands
 * when at least one value has the grouped form and no value has a dot anywhere
 * else. The 2018 and 2019 editions write whole prices only, so their dots are
 * all grouped; the editions with decimals (2015, 2016, 2024, 2025) always have
 * values with two or more than three decimals, which settles it.
 */
export function dotGroupsThousands(values: Iterable<string>): boolean {
  let grouped = false;
  for (const value of values) {
    if (!value.includes(".")) continue;
    if (!DOT_GROUPED.test(value)) return false;
    grouped = true;
  }
  return grouped;
}

/**
 * A published price as the data format writes it, or `null` when it is not a
 * price. Thousands separators are removed (`1,010` → `1010`; `1.287` → `1287`
 * when `dotThousands`); everything else stays as written (`0.00`,
 * `400.081594127778`), since data/ keeps values as the source states them.
 * `text` is already trimmed.
 */
export function normalisePrice(text: string, dotThousands: boolean): string | null {
  let value = text;
  if (COMMA_GROUPED.test(value)) value = value.replaceAll(",", "");
  else if (dotThousands && DOT_GROUPED.test(value)) value = value.replaceAll(".", "");
  return PRICE.test(value) ? value : null;
}

// ---------------------------------------------------------------------------
// The mapping file

/** Where one field of a publication goes: the item part of the series id and the regime. */
export interface ColumnTarget {
  readonly item: string;
  readonly regime: "fonasa" | "no-fonasa";
}

/** The validated mapping: every key already normalised. */
export interface PriceMapping {
  /** Normalised wordings of the provider id column. */
  readonly providerIdColumns: ReadonlySet<string>;
  /** Source provider id → the provider part of the series ids. */
  readonly providers: ReadonlyMap<string, string>;
  /** Source provider ids left out on purpose → why. */
  readonly excludedProviders: ReadonlyMap<string, string>;
  /** Normalised header wording → one target per field the header cell spans. */
  readonly columns: ReadonlyMap<string, readonly ColumnTarget[]>;
}

const SLUG = /^[a-z0-9]+(-[a-z0-9]+)*$/;
const slug = z.string().regex(SLUG, "expected lower-case words joined by - (like consult-dentistry)");
const sourceId = z.string().regex(/^\S+$/, "expected the provider id as the publication writes it, without spaces");
const targetSchema = z.strictObject({ item: slug, regime: z.enum(["fonasa", "no-fonasa"]) });
const mappingSchema = z.strictObject({
  $comment: z.union([z.string(), z.array(z.string())]).optional(),
  providerIdColumns: z.array(z.string()).min(1, "name at least one wording of the provider id column"),
  providers: z.record(sourceId, slug),
  excludedProviders: z.record(sourceId, z.string().trim().min(1, "give the reason the provider is left out")),
  // Checked entry by entry below: a zod union would only say "Invalid input".
  columns: z.record(z.string(), z.unknown()),
});
const mergedSchema = z.array(targetSchema).min(2, "a list is for a header cell spanning several fields");

/**
 * Validates the text of `atuservicio-mapping.json`. Besides the shape, every
 * wording must already be normalised (an unnormalised key could never match)
 * and no provider id may be both mapped and excluded.
 */
export function parseMapping(jsonText: string, file: string): Parsed<PriceMapping> {
  const json = readJson(jsonText, file);
  if (!json.ok) return { ok: false, issues: [json.issue] };
  const result = mappingSchema.safeParse(json.value);
  if (!result.success) return { ok: false, issues: zodIssues(result.error, file) };
  const raw = result.data;
  const issues: DataIssue[] = [];
  const columns = new Map<string, readonly ColumnTarget[]>();
  for (const [wording, value] of Object.entries(raw.columns)) {
    const entry = Array.isArray(value) ? mergedSchema.safeParse(value) : targetSchema.safeParse(value);
    if (!entry.success) issues.push(...zodIssues(entry.error, file, ["columns", wording]));
    else columns.set(wording, Array.isArray(entry.data) ? entry.data : [entry.data]);
  }
  const checkNormalised = (wording: string, column: string) => {
    const key = normaliseWording(wording);
    if (key !== wording) issues.push({ file, column, reason: `not a normalised wording: write ${JSON.stringify(key)}` });
  };
  raw.providerIdColumns.forEach((wording, i) => checkNormalised(wording, `providerIdColumns.${i}`));
  for (const wording of Object.keys(raw.columns)) {
    checkNormalised(wording, `columns.${wording}`);
    if (raw.providerIdColumns.includes(wording)) {
      issues.push({ file, column: `columns.${wording}`, reason: "also listed in providerIdColumns" });
    }
  }
  for (const id of Object.keys(raw.providers)) {
    if (Object.hasOwn(raw.excludedProviders, id)) {
      issues.push({ file, column: `excludedProviders.${id}`, reason: "also mapped in providers: keep it in one of the two" });
    }
  }
  if (issues.length > 0) return { ok: false, issues };
  return {
    ok: true,
    value: {
      providerIdColumns: new Set(raw.providerIdColumns),
      providers: new Map(Object.entries(raw.providers)),
      excludedProviders: new Map(Object.entries(raw.excludedProviders)),
      columns,
    },
  };
}

// ---------------------------------------------------------------------------
// Reading CSV

/**
 * The separator of a publication: the one that splits its header line into
 * more cells. The 2015-01 edition uses `,` (quoting the cells that hold one);
 * the later ones use `;` and have commas inside cells (`Valsartán, Amlodipina`)
 * and values (`1,010`), so counting characters would not do: csv-parse splits.
 */
function sniffDelimiter(text: string): ";" | "," {
  const cells = (delimiter: string): number => {
    try {
      const records: string[][] = parse(text, { bom: true, relax_column_count: true, delimiter, to_line: 1 });
      return records[0]?.length ?? 0;
    } catch {
      return 0; // e.g. a quote that is unbalanced under this separator
    }
  };
  return cells(";") > cells(",") ? ";" : ",";
}

// ---------------------------------------------------------------------------
// Importing a publication

/** A provider of the publication left out on purpose (mapping: excludedProviders). */
export interface LeftOut {
  readonly id: string;
  readonly line: number;
  readonly reason: string;
}

/**
 * What importing a publication gives: its points (dated `YYYY-MM-01`, the value
 * as the publication wrote it with thousands separators removed, citing
 * `#L<line>` of the provider's line), sorted by series id, and the providers
 * left out.
 */
export interface ImportedPrices {
  readonly points: readonly ImportedPoint[];
  readonly leftOut: readonly LeftOut[];
}

/** The publication to import. */
export interface Publication {
  /** Its text (UTF-8 decoded). */
  readonly text: string;
  /** Its path as the user gave it: errors are located in it. */
  readonly file: string;
  /** The month from which its prices apply, `YYYY-MM`. */
  readonly month: string;
  /** The URL the points cite, without fragment. */
  readonly sourceUrl: string;
}

/** Where the mapping and the series come from, to name them in errors. */
export interface ImportContext {
  readonly mapping: PriceMapping;
  readonly mappingFile: string;
  /** The sub-series ids indicator.json declares. */
  readonly declared: ReadonlySet<string>;
  readonly indicatorFile: string;
}

/** What one field of a publication holds, from its header cell. */
type Slot =
  | { readonly kind: "id"; readonly header: string }
  | { readonly kind: "blank"; readonly header: string }
  | { readonly kind: "unknown"; readonly header: string }
  | { readonly kind: "price"; readonly header: string; readonly target: ColumnTarget };

/** A header cell named in errors: quoted, since wordings hold `:` and `,`. */
const label = (header: string): string => JSON.stringify(header);

/**
 * The field layout from the header row: one slot per field (a merged header
 * cell gives several), with every unknown or doubtful cell reported.
 */
function readHeader(cells: readonly string[], file: string, line: number, context: ImportContext) {
  const { mapping, mappingFile } = context;
  const slots: Slot[] = [];
  const issues: DataIssue[] = [];
  const targetAt = new Map<string, string>();
  for (const header of cells) {
    const key = normaliseWording(header);
    const targets = mapping.columns.get(key);
    if (key === "") {
      // 2017-01 pads every line with 82 empty fields under empty header cells.
      slots.push({ kind: "blank", header });
    } else if (mapping.providerIdColumns.has(key)) {
      if (slots.some((s) => s.kind === "id")) issues.push({ file, line, column: label(header), reason: "a second provider id column" });
      slots.push({ kind: "id", header });
    } else if (targets === undefined) {
      issues.push({
        file,
        line,
        column: label(header),
        reason: `unknown column header (normalised ${JSON.stringify(key)}): add it to "columns" in ${mappingFile}`,
      });
      slots.push({ kind: "unknown", header });
    } else {
      for (const target of targets) {
        const name = `${target.item}.${target.regime}`;
        const earlier = targetAt.get(name);
        if (earlier !== undefined) {
          issues.push({ file, line, column: label(header), reason: `maps to ${name} as column ${label(earlier)} does` });
        }
        targetAt.set(name, header);
        slots.push({ kind: "price", header, target });
      }
    }
  }
  if (!slots.some((s) => s.kind === "id")) {
    const expected = [...mapping.providerIdColumns].map((w) => JSON.stringify(w)).join(", ");
    issues.push({ file, line, reason: `no provider id column: expected a header cell reading one of ${expected} (normalised), as listed in ${mappingFile}` });
  }
  return { slots, issues };
}

/** What reading the lines of one provider needs besides the line itself. */
interface RowReader {
  readonly publication: Publication;
  readonly context: ImportContext;
  readonly slots: readonly Slot[];
  readonly dotThousands: boolean;
  /** Series already reported as undeclared: one issue per series is enough. */
  readonly undeclared: Set<string>;
  /** The line each series got its point from: two provider ids mapped to one provider would collide. */
  readonly seriesLine: Map<string, number>;
}

/** The points of one provider's line, and the faults of its cells. */
function readRow(fields: readonly string[], line: number, provider: string, reader: RowReader) {
  const { publication, context, slots, dotThousands, undeclared, seriesLine } = reader;
  const { file, month, sourceUrl } = publication;
  const points: ImportedPoint[] = [];
  const issues: DataIssue[] = [];
  slots.forEach((slot, i) => {
    const cell = (fields[i] ?? "").trim();
    // An empty cell: the provider did not publish that price, so no point (as in data/).
    if (cell === "" || slot.kind === "id") return;
    if (slot.kind !== "price") {
      issues.push({ file, line, column: `field ${i + 1}`, reason: `value ${JSON.stringify(cell)} under a column with no header` });
      return;
    }
    const value = normalisePrice(cell, dotThousands);
    if (value === null) {
      issues.push({ file, line, column: label(slot.header), reason: `expected a price like 1287, 1,010 or 197.60, got ${JSON.stringify(cell)}` });
      return;
    }
    const series = `${provider}.${slot.target.item}.${slot.target.regime}`;
    const earlier = seriesLine.get(series);
    if (earlier !== undefined) {
      const reason = `a second point for ${series} (line ${earlier} has one): two provider ids are mapped to ${provider} in ${context.mappingFile}`;
      issues.push({ file, line, column: label(slot.header), reason });
    } else if (context.declared.has(series)) {
      seriesLine.set(series, line);
      points.push({ date: `${month}-01`, series, value, source: `${sourceUrl}#L${line}` });
    } else if (!undeclared.has(series)) {
      undeclared.add(series);
      const reason = `series ${JSON.stringify(series)} (from ${context.mappingFile}) is not declared in ${context.indicatorFile}`;
      issues.push({ file, line, column: label(slot.header), reason });
    }
  });
  return { points, issues };
}

/** Why the provider id of a line cannot be imported, or `null` when it can. */
function providerFault(id: string, known: boolean, earlier: number | undefined, mappingFile: string): string | null {
  if (id === "") return "empty provider id";
  if (!known) {
    return `unknown provider id ${JSON.stringify(id)}: add it to "providers" (with the provider part of its series ids) or to "excludedProviders" (with the reason) in ${mappingFile}`;
  }
  return earlier === undefined ? null : `provider id ${JSON.stringify(id)} already on line ${earlier}`;
}

/**
 * Imports one publication: every provider of the mapping, every column of the
 * mapping, one point per non-empty cell (an empty cell means the provider did
 * not publish that price: no point, as in data/). Points are sorted by series
 * id, the order of the files in data/.
 *
 * Faults, all reported and sorted by line: an unknown column header, a provider
 * id neither mapped nor excluded, a line with another number of fields than the
 * header gives, a value that is not a price, a value under a column with no
 * header, a provider listed twice, two provider ids mapped to one provider,
 * and a series id the mapping produces that indicator.json does not declare
 * (once per series).
 */
export function importPrices(publication: Publication, context: ImportContext): Parsed<ImportedPrices> {
  const { text, file } = publication;
  const { mapping, mappingFile } = context;
  const parsed = readRecords(text, sniffDelimiter(text), file);
  if (!parsed.ok) return parsed;
  // Spreadsheet exports may end with lines of empty fields: they hold nothing.
  const [header, ...body] = parsed.value.filter((r) => r.fields.some((f) => f.trim() !== ""));
  if (header === undefined) return { ok: false, issues: [{ file, reason: "empty file: expected a header line and a line per provider" }] };

  const { slots, issues } = readHeader(header.fields, file, header.line, context);
  const idIndex = slots.findIndex((s) => s.kind === "id");
  const idSlot = slots[idIndex];
  if (idSlot === undefined) return { ok: false, issues };
  // With an unknown header cell its span is unknown, so field counts and values
  // cannot be checked; provider ids still can, so those faults are listed too.
  const complete = !slots.some((s) => s.kind === "unknown");
  const rows = body.filter(({ fields, line }) => {
    if (!complete || fields.length === slots.length) return true;
    issues.push({ file, line, reason: `expected ${slots.length} fields as the header gives, got ${fields.length}` });
    return false;
  });
  const priceCells = rows.flatMap(({ fields }) => slots.flatMap((slot, i) => (slot.kind === "price" ? [(fields[i] ?? "").trim()] : [])));
  const reader: RowReader = { publication, context, slots, dotThousands: dotGroupsThousands(priceCells), undeclared: new Set(), seriesLine: new Map() };

  const points: ImportedPoint[] = [];
  const leftOut: LeftOut[] = [];
  const providerLine = new Map<string, number>();
  for (const { fields, line } of rows) {
    const id = (fields[idIndex] ?? "").trim();
    const excluded = mapping.excludedProviders.get(id);
    const provider = mapping.providers.get(id);
    const earlier = providerLine.get(id);
    const fault = providerFault(id, excluded !== undefined || provider !== undefined, earlier, mappingFile);
    providerLine.set(id, earlier ?? line);
    if (fault !== null) {
      issues.push({ file, line, column: label(idSlot.header), reason: fault });
    } else if (excluded !== undefined) {
      leftOut.push({ id, line, reason: excluded });
    } else if (provider !== undefined && complete) {
      const row = readRow(fields, line, provider, reader);
      for (const point of row.points) points.push(point);
      for (const issue of row.issues) issues.push(issue);
    }
  }
  if (issues.length > 0) return { ok: false, issues: issues.sort((a, b) => (a.line ?? 0) - (b.line ?? 0)) };
  points.sort((a, b) => byCodeUnits(a.series, b.series));
  return { ok: true, value: { points, leftOut } };
}
