/**
 * From validated source rows to what the build renders from: the sub-series
 * sorted by id, newest first, as plain arrays; and the function's answer file,
 * encoded and decoded back, so the build renders its pages from exactly what the
 * function will read.
 */
import type { DownloadPart } from "../core/indicator/distributions.js";
import { stringify } from "csv-stringify/sync";
import { decodeAnswers, encodeAnswers, sliceAnswers, spreadsheetSection, type AnswerData, type AnswerFields, type AnswerRow, type AnswerSeries } from "../core/file/answers.js";
import type { DeflatorRef, Manifest } from "../core/file/manifest.js";
import { byCodeUnits } from "../core/text/order.js";
import { seriesLabels, type SeriesLabel } from "../core/indicator/series-meta.js";
import { spreadsheetNumber } from "../core/answer/spreadsheet.js";
import { tileRanks } from "../core/file/time-tiles.js";
import type { SourceRow } from "../source/csv.js";
import type { IndicatorSource } from "../source/load.js";
import { temporalCoverage } from "./formats/facts.js";

/** A sub-series' points as the build has them. */
export interface PlainSeries {
  readonly id: string;
  /** Strictly descending `YYYY-MM-DD` dates. */
  readonly dates: readonly string[];
  /** JSON number literals, as the source wrote them. */
  readonly values: readonly string[];
}

/** Groups rows by sub-series, newest first; declared sub-series without points are kept, empty. */
export function plainSeries(source: IndicatorSource): PlainSeries[] {
  const bySeries = new Map<string, SourceRow[]>(source.meta.series.map((s) => [s.id, []]));
  for (const row of source.rows) bySeries.get(row.series)?.push(row);
  return [...bySeries.entries()]
    .sort(([a], [b]) => byCodeUnits(a, b))
    .map(([id, rows]) => {
      rows.sort((a, b) => byCodeUnits(b.date, a.date));
      return { id, dates: rows.map((r) => r.date), values: rows.map((r) => r.value) };
    });
}

/**
 * An indicator as the build renders it: its source (metadata and rows), its
 * sub-series as plain arrays with their labels, and the function's answer file
 * with what is decoded from it: the build renders from exactly what the function reads.
 */
export interface BuiltIndicator {
  readonly source: IndicatorSource;
  /** The sub-series sorted by id (declared ones without points included, empty). */
  readonly plain: readonly PlainSeries[];
  /** Title and facets of each sub-series, in the order of `plain`. */
  readonly labels: readonly SeriesLabel[];
  /** The function's answer file (src/core/file/answers.ts) and its decoding (`answers.lastUpdated`: the newest point's date). */
  readonly answersFile: Uint8Array;
  readonly answers: AnswerData;
  /** The fields of its answer files' headers (src/core/file/answers.ts), for its shards (`encodeShard`). */
  readonly answerFields: AnswerFields;
  /** Every point's spreadsheet line (`data.es.csv`), which the answer file stores only where it does not follow from the CSV line. */
  readonly spreadsheet: { readonly bytes: Uint8Array; readonly ends: Uint32Array };
  /** The parts of its whole-indicator downloads when they would pass the largest file (src/builder/download-parts.ts); absent: whole files. */
  readonly parts?: readonly DownloadPart[];
}

/** A field the CSV library quotes: one with the delimiter, a quote or a line break. */
const QUOTED = /[",\n\r]/;
const QUOTED_ES = /[";\n\r]/;

/**
 * One point as a CSV line: the CSV library's quoting, so `data.csv` and CSV
 * answers agree. A line none of whose fields the library would quote is joined
 * here (most lines: the library's per-call set-up is most of a million points'
 * build); a unit test holds the two to the same bytes.
 */
export function csvLine(row: AnswerRow): string {
  const fields = [row.date, row.series, row.value, row.source, row.note];
  return fields.some((f) => QUOTED.test(f)) ? stringify([fields]) : `${fields.join(",")}\n`;
}

/** One point as a spreadsheet CSV line (`dialect=es`, src/core/answer/spreadsheet.ts): `;`, decimal comma, CRLF; joined here as `csvLine` is. */
export function csvEsLine(row: AnswerRow): string {
  const fields = [row.date, row.series, spreadsheetNumber(row.value), row.source, row.note];
  return fields.some((f) => QUOTED_ES.test(f)) ? stringify([fields], { delimiter: ";", record_delimiter: "\r\n" }) : `${fields.join(";")}\r\n`;
}

/** Builds one indicator. `attribution` is the ready-made anchor, `attributionUrl` its target. */
export function buildIndicator(source: IndicatorSource, attribution: string, attributionUrl: string, changed?: string): BuiltIndicator {
  const plain = plainSeries(source);
  const lastUpdated = temporalCoverage({ plain })?.end ?? null;
  const fields = { indicator: source.meta.id, unit: source.meta.unit, license: source.meta.license, lastUpdated, attribution };
  const ids = plain.map((s) => s.id);
  const labels = seriesLabels(ids, source.meta.series);
  const answerFields: AnswerFields = {
    ...fields,
    attributionUrl,
    rhythm: source.meta.rhythm,
    stepwise: source.meta.stepwise,
    // The answers carry each point's kind; the names are the page's (src/core/answer/source-kind-counts.ts `citedSources`).
    sourceKinds: source.meta.sourceKinds.map(({ prefix, kind }) => ({ prefix, kind })),
    ...(source.meta.check === undefined ? {} : { checked: source.meta.check.day }),
    ...(changed === undefined ? {} : { changed }),
    ...(source.meta.schedule === null ? {} : { schedule: source.meta.schedule }),
  };
  const answersFile = encodeAnswers(answerFields, ids, source.rows, csvLine, csvEsLine);
  const answers = decodeAnswers(answersFile);
  return { source, plain, labels, answersFile, answers, answerFields, spreadsheet: spreadsheetSection(answers) };
}

/**
 * The answer file of the sub-series `first … first + count - 1` of an indicator:
 * one shard of its answers (src/core/file/answer-index.ts), copied from its whole
 * answer file. A shard of every sub-series is the whole answer file.
 */
export function encodeShard(indicator: BuiltIndicator, first: number, count: number): Uint8Array {
  if (first === 0 && count === indicator.answers.ids.length) return indicator.answersFile;
  return sliceAnswers(indicator.answers, indicator.answerFields, first, count);
}

/** Time tile `t` of an indicator (src/core/file/time-tiles.ts), whose tiles start on the days `starts`: every sub-series' points it holds, copied from its whole answer file. */
export function encodeTile(indicator: BuiltIndicator, starts: readonly number[], t: number): Uint8Array {
  const { answers } = indicator;
  const start = t === 0 ? -Infinity : (starts[t] as number);
  const end = t + 1 < starts.length ? (starts[t + 1] as number) : Infinity;
  return sliceAnswers(answers, indicator.answerFields, 0, answers.ids.length, (s) => tileRanks(answers.series[s] as AnswerSeries, start, end));
}

/** The sub-series that adjust amounts (`/api/v1/adjust?by=`), from the indicators' `adjusts`. */
export function adjustersOf(indicators: readonly BuiltIndicator[]): Manifest["adjusters"] {
  return indicators.flatMap(({ source }) => source.meta.adjusts.map((a) => ({ indicator: source.meta.id, series: a.series, unit: a.unit ?? null })));
}

/** By unit, the index that deflates it (`deflates` in `indicator.json`; one per unit, src/source/load.ts). */
export function deflatorsOf(indicators: readonly BuiltIndicator[]): Manifest["deflators"] {
  const deflators: Record<string, DeflatorRef> = {};
  for (const { source } of indicators) for (const d of source.meta.deflates) deflators[d.unit] = { indicator: source.meta.id, series: d.series };
  return deflators;
}
