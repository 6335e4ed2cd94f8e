/**
 * The importers of `npm run import`, registered by name. Which importer turns an
 * indicator's publications into points is data, not code: the `importer` key of
 * the indicator's `indicator.json` names one of `IMPORTERS`. Nothing here (nor in
 * the command line, `scripts/import.ts`) knows an indicator, so a second
 * indicator published the same way needs one key in its indicator.json.
 *
 * Each importer states the publication it reads, its options (a `--date
 * YYYY-MM` it needs, or none), the file it writes in the indicator's folder, and
 * a run function that reads what it needs through `ImportFiles` and returns the
 * points; writing them (with the notes kept, atomically) is the command line's,
 * the same for every importer. An import writes every indicator whose importer
 * reads the publication given (`fedBy`): INE's CPI workbook gives the CPI and,
 * from its monthly changes, the UI, so one command updates both.
 */
import { join } from "node:path";
import { DataError, UsageError, unwrap } from "./errors.js";
import { MAPPING_FILE_NAME, importPrices, parseMapping } from "./import-atuservicio.js";
import { importCpi, readWorkbook } from "./import-ine-cpi.js";
import type { ImportedPoint } from "./import-points.js";
import { ANCHOR_FILE_NAME, importUi, parseAnchor } from "./import-ine-ui.js";
import type { IndicatorMeta } from "./metadata.js";

/** What an importer reads, passed in: the file system in the command line. */
export interface ImportFiles {
  /** A UTF-8 text file; rejects with a DataError naming it. */
  text(file: string): Promise<string>;
  /** A file's bytes; rejects with a DataError naming it. */
  bytes(file: string): Promise<Uint8Array>;
}

/** One import: the publication and the indicator it goes to. */
export interface ImportRequest {
  /** The publication's path as the user gave it: faults are located in it. */
  readonly file: string;
  /** The URL the points cite, without fragment (the importer adds one per point). */
  readonly sourceUrl: string;
  /** The indicator's data folder (`<data>/<indicator>`), where an importer finds its own files. */
  readonly folder: string;
  readonly indicatorFile: string;
  /** The indicator's validated metadata. */
  readonly meta: IndicatorMeta;
}

/** What an import gives: the points and the words the command line reports them with. */
export interface Imported {
  readonly points: readonly ImportedPoint[];
  /** E.g. `1360 points of 34 providers`; printed after `wrote <file>: `. */
  readonly summary: string;
}

/** What every importer states. */
interface ImporterBase {
  /**
   * The kind of publication it reads. Importers reading the same kind run
   * together: importing one such publication into one of their indicators
   * writes all of them (src/source/import-cli.ts).
   */
  readonly publication: string;
}

/** An importer of publications that do not state their own date: `--date YYYY-MM` is required. */
export interface DatedImporter extends ImporterBase {
  /** What the month given with `--date` means, for the usage error when it is missing. */
  readonly date: string;
  /** The file it writes in the indicator's folder, from the month. */
  outputFile(month: string): string;
  run(request: ImportRequest, month: string, files: ImportFiles): Promise<Imported>;
}

/** An importer of publications that date their points themselves: `--date` is refused. */
export interface UndatedImporter extends ImporterBase {
  readonly date: null;
  /** The file it writes in the indicator's folder. */
  readonly outputFile: string;
  run(request: ImportRequest, files: ImportFiles): Promise<Imported>;
}

export type Importer = DatedImporter | UndatedImporter;

const declaredSeries = (meta: IndicatorMeta): ReadonlySet<string> => new Set(meta.series.map((s) => s.id));

/** The health ministry's price publications (`precios.csv`): src/source/import-atuservicio.ts. */
const atuservicioPrices: DatedImporter = {
  publication: "the health ministry's price publication (precios.csv)",
  date: "the month from which the prices apply (the publication does not say it)",
  outputFile: (month) => `${month}.csv`,
  async run({ file, sourceUrl, folder, indicatorFile, meta }, month, files) {
    const mappingFile = join(folder, MAPPING_FILE_NAME);
    const mapping = unwrap(parseMapping(await files.text(mappingFile), mappingFile));
    const context = { mapping, mappingFile, declared: declaredSeries(meta), indicatorFile };
    const imported = unwrap(importPrices({ text: await files.text(file), file, month, sourceUrl }, context));
    // Every point cites its provider's line: distinct sources are the providers read.
    const providers = new Set(imported.points.map((p) => p.source)).size;
    const leftOut = imported.leftOut.map((l) => `${l.id} (line ${l.line})`).join(", ");
    return {
      points: imported.points,
      summary: `${imported.points.length} points of ${providers} providers${leftOut === "" ? "" : `; left out: ${leftOut}`}`,
    };
  },
};

/** The publication of the two importers below. */
const INE_CPI_WORKBOOK = "INE's consumer price index workbook (IPC gral y variaciones_base 2022.xlsx)";

/** INE's consumer price index workbook (`IPC gral y variaciones_base 2022.xlsx`): src/source/import-ine-cpi.ts. */
const ineCpiWorkbook: UndatedImporter = {
  publication: INE_CPI_WORKBOOK,
  date: null,
  outputFile: "cpi.csv",
  async run({ file, sourceUrl, indicatorFile, meta }, files) {
    const workbook = unwrap(await readWorkbook(await files.bytes(file), file, sourceUrl));
    const cpi = unwrap(importCpi(workbook, { declared: declaredSeries(meta), indicatorFile }));
    return { points: cpi.points, summary: `${cpi.points.length} points, months ${cpi.first} to ${cpi.last}` };
  },
};

/**
 * The daily UI computed by Ley 17.761 from the same workbook's monthly changes
 * and the published value in the indicator's `ui-anchor.json`: src/source/import-ine-ui.ts.
 */
const uiLey17761: UndatedImporter = {
  publication: INE_CPI_WORKBOOK,
  date: null,
  outputFile: "ui.csv",
  async run({ file, sourceUrl, folder, indicatorFile, meta }, files) {
    const anchorFile = join(folder, ANCHOR_FILE_NAME);
    const anchor = unwrap(parseAnchor(await files.text(anchorFile), anchorFile));
    const workbook = unwrap(await readWorkbook(await files.bytes(file), file, sourceUrl));
    return unwrap(importUi(workbook, { anchor, anchorFile, declared: declaredSeries(meta), indicatorFile }));
  },
};

/** Every importer, by the name an indicator.json gives in its `importer` key. */
export const IMPORTERS: ReadonlyMap<string, Importer> = new Map<string, Importer>([
  ["atuservicio-prices", atuservicioPrices],
  ["ine-cpi-workbook", ineCpiWorkbook],
  ["ui-ley-17761", uiLey17761],
]);

/**
 * The indicators of `importable` other than `indicator` whose importer reads
 * the same publication as `chosen`: an import writes them too, so a series
 * computed from a publication never lags behind the one read from it.
 */
export function fedAlongside<T extends ImportableIndicator>(indicator: string, chosen: Chosen, importable: readonly T[]): T[] {
  return importable.filter((other) => other.indicator !== indicator && IMPORTERS.get(other.importer)?.publication === chosen.importer.publication);
}

// ---------------------------------------------------------------------------
// Choosing the importer

/** An indicator whose indicator.json names a registered importer. */
export interface ImportableIndicator {
  readonly indicator: string;
  readonly importer: string;
}

/** The indicator's metadata as read from `file`, or `null` when it has no indicator.json. */
export interface IndicatorFound {
  readonly file: string;
  readonly meta: IndicatorMeta | null;
}

/** The importer chosen for an indicator, with its registered name and the indicator's metadata. */
export interface Chosen {
  readonly name: string;
  readonly importer: Importer;
  readonly meta: IndicatorMeta;
}

/** `a (x), b (y)`: the indicators that have an importer, for a usage error. */
function importableList(importable: readonly ImportableIndicator[]): string {
  if (importable.length === 0) return "no indicator names an importer in its indicator.json";
  const list = importable.map(({ indicator, importer }) => `${indicator} (${importer})`).join(", ");
  return `the indicators with an importer are ${list}`;
}

/**
 * The importer an indicator's indicator.json names. `importable` lists, from
 * data/, the indicators that have one; it is read only to say so in an error.
 * @throws UsageError (exit 2) when the indicator has no indicator.json or names
 *   no importer; DataError (exit 1) when it names one that is not registered.
 */
export async function chooseImporter(
  indicator: string,
  found: IndicatorFound,
  importable: () => Promise<readonly ImportableIndicator[]>,
): Promise<Chosen> {
  const { file, meta } = found;
  if (meta === null) throw new UsageError(`no importer for "${indicator}": there is no ${file}; ${importableList(await importable())}`);
  const name = meta.importer;
  if (name === undefined) {
    throw new UsageError(`no importer for "${indicator}": ${file} names none (its "importer" key); ${importableList(await importable())}`);
  }
  const importer = IMPORTERS.get(name);
  if (importer === undefined) {
    const known = [...IMPORTERS.keys()].join(", ");
    throw new DataError([{ file, column: "importer", reason: `unknown importer "${name}": the importers are ${known} (src/source/importers.ts)` }]);
  }
  return { name, importer, meta };
}

/** An import ready to run: the file it writes and the run with its options applied. */
export interface ImportPlan {
  readonly outputFile: string;
  run(request: ImportRequest, files: ImportFiles): Promise<Imported>;
}

/**
 * Applies the options to the chosen importer: `--date` is required by an
 * importer of undated publications and refused by one whose publications date
 * their points (a date given there would be silently ignored).
 * @throws UsageError (exit 2) for a missing or superfluous `--date`.
 */
export function planImport(indicator: string, { name, importer }: Chosen, month: string | undefined): ImportPlan {
  if (importer.date === null) {
    if (month !== undefined) throw new UsageError(`--date: the importer ${name} of "${indicator}" takes no date: the publication dates its points`);
    return { outputFile: importer.outputFile, run: (request, files) => importer.run(request, files) };
  }
  if (month === undefined) {
    throw new UsageError(`required option '--date <YYYY-MM>' not specified: the importer ${name} of "${indicator}" needs ${importer.date}`);
  }
  return { outputFile: importer.outputFile(month), run: (request, files) => importer.run(request, month, files) };
}

// ---------------------------------------------------------------------------
// Arguments

/** Whether `text` is a month `YYYY-MM` (01 to 12). */
export function isMonth(text: string): boolean {
  return /^\d{4}-(0[1-9]|1[0-2])$/.test(text);
}
