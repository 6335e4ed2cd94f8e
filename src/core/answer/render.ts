/**
 * The one renderer: a selected page → the exact bytes of the answer, JSON or CSV.
 *
 * The build writes prebuilt pages with it and the function computes every other
 * answer with it, so a computed answer is byte-identical to the prebuilt file for
 * the same query. JSON is compact with a fixed key order (docs/DESIGN.md §2); the
 * points' texts are copied from the answer file (src/core/file/answers.ts).
 */
import { CSV_ES_HEADER, CSV_HEADER, assemble, assembleSpreadsheet, csvRow, pagePositions, textsOf, textStart, type AnswerData, type AnswerSeries } from "../file/answers.js";
import type { AnswerView } from "../file/answer-index.js";
import { byCodeUnits } from "../text/order.js";
import type { DatasetFields, PageQuery } from "../indicator/model.js";
import type { Page, PageSummary } from "./page.js";
import { canonicalQuery, metaEcho, metaFields } from "./parameters.js";
import { DAY, DAY_OR_NULL, closedObject, type FieldDeclarations, type JsonSchema } from "./schema.js";
import { SOURCE_KINDS } from "./provenance.js";
import { missingGroupSchema } from "./page.js";
import { endpointPath, metadataPath } from "../file/paths.js";
import { withQuery } from "../text/url.js";
import { sourceKindOf } from "./provenance.js";
import { partitionPoint } from "./sorted.js";

/**
 * The canonical relative URL of a query: every parameter that is set, in the
 * order of the declarations (src/core/answer/parameters.ts: `from, to, at, series,
 * frequency, aggregation, per, real, units, base, as_of, limit, offset, format, dialect, provenance`),
 * dates as resolved days, the selection deduplicated and sorted, `aggregation`
 * given whenever `frequency` is, `units=level` and `format=json` left out, so
 * equal queries have equal URLs. `meta.next`, the `Link` header and the ETag use it.
 */
export function queryUrl(indicator: string, query: PageQuery): string {
  return withQuery(endpointPath(indicator), canonicalQuery(query));
}

/** `meta.next`: the same query one page further, or `null` on the last page. */
export function nextUrl(indicator: string, page: PageSummary): string | null {
  if (!page.hasMore) return null;
  const { query } = page;
  return queryUrl(indicator, { ...query, offset: query.offset + query.limit });
}

/**
 * What the answer's numbers are measured in: the indicator's unit, unless
 * `units` makes them a percentage or an index, or `per` a ratio. (`real` keeps
 * the unit: `meta.real` says the month whose money it is.)
 */
export function valueUnit(unit: string, query: PageQuery): string {
  if (query.units === "percent_change" || query.units === "percent_change_a_year_ago") return "percent";
  if (query.units === "index") return "index";
  return query.per === null ? unit : "ratio";
}

/**
 * The fields of `answerMeta`, in its key order, with their schemas: OpenAPI's `Page.meta`
 * (a function, so that a bundle that writes no answer leaves it out).
 */
export function answerMetaFields(): FieldDeclarations {
  return {
    indicator: { schema: { type: "string" } },
    unit: { schema: { type: "string" } },
    value_unit: { schema: { type: "string", description: "What the values are in: the indicator's unit, or `percent`, `index`, `ratio`." } },
    total: { schema: { type: "integer", minimum: 0, description: "Points in the window, every sub-series, before `limit` and `offset`." } },
    ...metaFields("paging"),
    ...metaFields("question"),
    ...metaFields("given"),
    has_more: { schema: { type: "boolean" } },
    next: { schema: { type: ["string", "null"], description: "The canonical URL of the next page; null on the last." } },
    last_updated: { schema: DAY_OR_NULL },
    license: { schema: { type: "string" } },
    attribution: { schema: { type: "string" } },
    metadata: { schema: { type: "string", description: "The path of the indicator's metadata document." } },
    checked: {
      optional: true,
      schema: {
        ...DAY_OR_NULL,
        description:
          "Only on an `at` answer about a day after the last look at the data (the later of `checked` and `data_changed`): the day of the last recorded check of the publisher, null when none is recorded. A value given is the one in force then, whose successor was not due by the day asked.",
      },
    },
    data_changed: { optional: true, schema: { ...DAY, description: "Beside `checked`: the day the indicator's points last changed (a change of metadata alone is not one)." } },
    missing: {
      optional: true,
      schema: {
        type: "array",
        description: "Only on an `at` answer about a day after the last check, or with no point: why each selected sub-series without a point has none, grouped. Never a silent empty answer.",
        items: missingGroupSchema(),
      },
    },
  };
}

/** The fields `provenance=true` adds to each point (`withProvenance`; a derived answer's are null, src/core/time/derived-answer.ts). */
export function provenanceFields(): FieldDeclarations {
  return {
    note: { schema: { type: ["string", "null"], description: "The point's note as written in the data; null: none, or a derived value." } },
    source: { schema: { type: ["string", "null"], description: "The address the point cites; null: none, or a derived value." } },
    source_kind: { schema: { type: ["string", "null"], enum: [...SOURCE_KINDS, null], description: "The kind of that source, as the indicator's metadata declares it; null: no source, no declared kind, or a derived value." } },
  };
}

/** A data answer's schema (`Page`), for the `points` schema given (OpenAPI's `$ref`s to `Point` and `ProvenancePoint`). */
export function pageSchema(point: JsonSchema, provenancePoint: JsonSchema): JsonSchema {
  return closedObject({
    data: { schema: { anyOf: [{ type: "array", items: point }, { type: "array", items: provenancePoint, description: "With `provenance=true`." }] } },
    meta: { schema: closedObject(answerMetaFields()) },
  });
}

/** The `meta` of a JSON answer, in its fixed key order. */
export function answerMeta(data: DatasetFields, page: PageSummary) {
  const { query } = page;
  return {
    indicator: data.indicator,
    unit: data.unit,
    value_unit: valueUnit(data.unit, query),
    total: page.total,
    ...metaEcho(query, "paging"),
    ...metaEcho(query, "question"),
    ...metaEcho(query, "given"),
    has_more: page.hasMore,
    next: nextUrl(data.indicator, page),
    last_updated: data.lastUpdated,
    license: data.license,
    attribution: data.attribution,
    metadata: metadataPath(data.indicator),
    // Only on an `at` answer that has something to say (src/core/answer/page.ts `AtNotes`): other answers keep their bytes.
    ...(page.notes === undefined || page.notes.after === null ? {} : { checked: page.notes.after.checked, data_changed: page.notes.after.changed }),
    ...(page.notes === undefined || page.notes.missing.length === 0 ? {} : { missing: page.notes.missing }),
  };
}

const encoder = new TextEncoder();
const JSON_PREFIX = encoder.encode(`{"data":[`);
const CSV_PREFIX = encoder.encode(CSV_HEADER);
const CSV_ES_PREFIX = encoder.encode(CSV_ES_HEADER);
const NOTHING = new Uint8Array(0);

/** Renders a page to the answer's bytes in its query's format. */
export function renderAnswer(view: AnswerView, page: Page<AnswerSeries>): Uint8Array<ArrayBuffer> {
  const suffix = page.query.format === "csv" ? NOTHING : encoder.encode(`],"meta":${JSON.stringify(answerMeta(view, page))}}`);
  if (view.parts.length === 1) {
    const { data } = view.parts[0] as AnswerView["parts"][number];
    const positions = pagePositions(page, data.points);
    if (page.query.format === "csv") {
      return page.query.dialect === "es"
        ? assembleSpreadsheet([data], null, positions, CSV_ES_PREFIX)
        : assemble(textsOf([data], "csv"), null, positions, CSV_PREFIX, NOTHING, false);
    }
    if (page.query.provenance !== null) return withProvenance([data], null, positions, suffix);
    return assemble(textsOf([data], "json"), null, positions, JSON_PREFIX, suffix, true);
  }
  const datas = view.parts.map((part) => part.data);
  const { part, positions } = mergedPositions(datas, page);
  if (page.query.format === "csv") {
    return page.query.dialect === "es"
      ? assembleSpreadsheet(datas, part, positions, CSV_ES_PREFIX)
      : assemble(textsOf(datas, "csv"), part, positions, CSV_PREFIX, NOTHING, false);
  }
  if (page.query.provenance !== null) return withProvenance(datas, part, positions, suffix);
  return assemble(textsOf(datas, "json"), part, positions, JSON_PREFIX, suffix, true);
}

/**
 * The size in bytes of the JSON answer `renderAnswer` writes for `page` (without
 * provenance), counted without writing it: what the build checks a prebuilt
 * page against before planning it.
 */
export function jsonAnswerSize(view: AnswerView, page: Page<AnswerSeries>): number {
  let size = JSON_PREFIX.length + encoder.encode(`],"meta":${JSON.stringify(answerMeta(view, page))}}`).length;
  let points = 0;
  const datas = view.parts.map((p) => p.data);
  for (const { series, start, end } of page.slices) {
    const { jsonEnds, starts } = datas[datas.length === 1 ? 0 : partIndex(datas, series.id)] as AnswerData;
    for (let i = start; i < end; i++) {
      const g = series.global(i);
      size += (jsonEnds[g] as number) - textStart(jsonEnds, g, starts?.json);
    }
    points += end - start;
  }
  // The last point's separating comma is left out.
  return points > 0 ? size - 1 : size;
}

/** The index in `datas` (shards in id order) of the one holding sub-series `id`: the last whose first id is not after it. */
function partIndex(datas: readonly AnswerData[], id: string): number {
  return (
    partitionPoint(1, datas.length, (k) => {
      const first = (datas[k] as AnswerData).ids[0];
      return first !== undefined && byCodeUnits(first, id) <= 0;
    }) - 1
  );
}

/**
 * The points of a page over several shards in the answer's order: each shard's
 * positions (`pagePositions`), merged by date descending, the shard of the lower
 * sub-series ids first on equal dates (shards hold runs of sub-series in id
 * order, so this is the order of sub-series ids). `part[m]` and `positions[m]`:
 * the shard and position of the answer's `m`-th point.
 */
function mergedPositions(datas: readonly AnswerData[], page: Page<AnswerSeries>): { part: Uint32Array; positions: Uint32Array } {
  const slices: Page<AnswerSeries>["slices"][number][][] = datas.map(() => []);
  for (const slice of page.slices) slices[partIndex(datas, slice.series.id)]?.push(slice);
  const lists = datas.map((data, p) => pagePositions({ ...page, slices: slices[p] as Page<AnswerSeries>["slices"] }, data.points));
  const n = lists.reduce((sum, list) => sum + list.length, 0);
  const part = new Uint32Array(n);
  const positions = new Uint32Array(n);
  const cursor = new Uint32Array(datas.length);
  let m = 0;
  while (m < n) {
    let newest = -Infinity;
    for (let p = 0; p < datas.length; p++) {
      const list = lists[p] as Uint32Array;
      const c = cursor[p] as number;
      if (c < list.length) newest = Math.max(newest, (datas[p] as AnswerData).global.day(list[c] as number));
    }
    for (let p = 0; p < datas.length; p++) {
      const list = lists[p] as Uint32Array;
      const { global } = datas[p] as AnswerData;
      let c = cursor[p] as number;
      while (c < list.length && global.day(list[c] as number) === newest) {
        part[m] = p;
        positions[m++] = list[c++] as number;
      }
      cursor[p] = c;
    }
  }
  return { part, positions };
}

const NOTE = encoder.encode(',"note":');
const SOURCE = encoder.encode(',"source":');
const KIND = encoder.encode(',"source_kind":');
const NULL = encoder.encode("null");

const COMMA = 0x2c;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const CLOSE_BRACE = 0x7d;

/** The declared kinds of an answer file's sources, as bytes: each prefix, longest first, with its kind's JSON. */
const kindTables = new WeakMap<AnswerData, readonly { readonly prefix: Uint8Array; readonly json: Uint8Array }[]>();
function kindTable(data: AnswerData) {
  let table = kindTables.get(data);
  if (table === undefined) {
    const rules = [...(data.sourceKinds ?? [])].sort((a, b) => b.prefix.length - a.prefix.length);
    kindTables.set(data, (table = rules.map((r) => ({ prefix: encoder.encode(r.prefix), json: encoder.encode(JSON.stringify(r.kind)) }))));
  }
  return table;
}

/** The index in `table` of the kind of the source at `bytes[from, to)`: the longest declared prefix it begins with (src/core/answer/provenance.ts), or -1. */
function kindAt(table: ReturnType<typeof kindTable>, bytes: Uint8Array, from: number, to: number): number {
  if (from === to) return -1;
  for (let t = 0; t < table.length; t++) {
    const { prefix } = table[t] as (typeof table)[number];
    if (prefix.length > to - from) continue;
    let k = 0;
    while (k < prefix.length && bytes[from + k] === prefix[k]) k++;
    if (k === prefix.length) return t;
  }
  return -1;
}

/**
 * What `provenance=true` reads of each point's CSV line, found the first time the
 * point is asked for and kept for the isolate's later requests (the scan of the
 * line is most of the work): where its source begins and ends (its third and
 * fourth commas), and `state`: 0 not read yet, 1 read by `csvRow` (a quoted field,
 * or a text JSON must escape), 2 a source of no declared kind or none, 3 + t the
 * kind `table[t]`.
 */
interface LineIndex {
  readonly third: Uint32Array;
  readonly fourth: Uint32Array;
  readonly state: Uint8Array;
}
const lineIndexes = new WeakMap<AnswerData, LineIndex>();
function lineIndex(data: AnswerData): LineIndex {
  let index = lineIndexes.get(data);
  if (index === undefined) {
    const n = data.points;
    lineIndexes.set(data, (index = { third: new Uint32Array(n), fourth: new Uint32Array(n), state: new Uint8Array(n) }));
  }
  return index;
}

/**
 * `provenance=true`: each point's JSON object (`{"date":…,"series":…,"value":…}`,
 * copied) followed by its note, source and kind of source, read from its CSV line
 * in the same file (which holds the source and note as data.csv writes them) and
 * the indicator's declared kinds. An empty note or source is `null`. Written as
 * bytes copied from the file's, each line's fields found once per isolate
 * (`lineIndex`); a line with a quote (a note with a comma) or a text JSON must
 * escape is read with `csvRow` and written with `JSON.stringify`. The points are
 * `positions[m]` of the file `datas[part[m]]` (of `datas[0]` when `part` is null).
 */
function withProvenance(datas: readonly AnswerData[], part: Uint32Array | null, positions: Uint32Array, suffix: Uint8Array): Uint8Array<ArrayBuffer> {
  const files = datas.map((data) => {
    const { json, jsonEnds, csv, csvEnds, starts } = data;
    return {
      data,
      table: kindTable(data),
      index: lineIndex(data),
      json,
      jsonEnds,
      csv,
      csvEnds,
      // Where a point's texts begin: after the one before, or where a past version's view says (`AnswerData.starts`).
      jsonStart: (g: number) => textStart(jsonEnds, g, starts?.json),
      csvStart: (g: number) => textStart(csvEnds, g, starts?.csv),
    };
  });
  const widestKind = (files[0]?.table ?? []).reduce((w, t) => Math.max(w, t.json.length), NULL.length);
  const extra = NOTE.length + SOURCE.length + KIND.length + widestKind + 2 * NULL.length + 4;
  let size = JSON_PREFIX.length + suffix.length;
  for (let m = 0; m < positions.length; m++) {
    const g = positions[m] as number;
    const f = files[part === null ? 0 : (part[m] as number)] as (typeof files)[number];
    size += (f.jsonEnds[g] as number) - f.jsonStart(g) + (f.csvEnds[g] as number) - f.csvStart(g) + extra;
  }
  let out = new Uint8Array(size);
  let at = copyInto(out, 0, JSON_PREFIX, 0, JSON_PREFIX.length);
  for (let m = 0; m < positions.length; m++) {
    const g = positions[m] as number;
    const { data, table, index, json, jsonEnds, csv, csvEnds, jsonStart, csvStart } = files[part === null ? 0 : (part[m] as number)] as (typeof files)[number];
    if (m > 0) out[at++] = COMMA;
    // The stored object ends in "},": the closing brace and the separating comma.
    at = copyInto(out, at, json, jsonStart(g), (jsonEnds[g] as number) - 2);
    const end = (csvEnds[g] as number) - 1; // before the line's "\n"
    if (index.state[g] === 0) readLine(index, g, table, csv, csvStart(g), end);
    const state = index.state[g] as number;
    if (state === 1) {
      const row = csvRow(data, g);
      const text = `,"note":${JSON.stringify(row.note === "" ? null : row.note)},"source":${JSON.stringify(row.source === "" ? null : row.source)},"source_kind":${JSON.stringify(sourceKindOf(data.sourceKinds ?? [], row.source))}}`;
      const bytes = encoder.encode(text);
      if (at + bytes.length + size > out.length) {
        const larger = new Uint8Array(at + bytes.length + size);
        larger.set(out.subarray(0, at));
        out = larger;
      }
      at = copyInto(out, at, bytes, 0, bytes.length);
      continue;
    }
    const third = index.third[g] as number;
    const fourth = index.fourth[g] as number;
    at = copyInto(out, at, NOTE, 0, NOTE.length);
    at = fourth + 1 === end ? copyInto(out, at, NULL, 0, NULL.length) : quoted(out, at, csv, fourth + 1, end);
    at = copyInto(out, at, SOURCE, 0, SOURCE.length);
    at = third + 1 === fourth ? copyInto(out, at, NULL, 0, NULL.length) : quoted(out, at, csv, third + 1, fourth);
    at = copyInto(out, at, KIND, 0, KIND.length);
    const kind = state === 2 ? NULL : (table[state - 3] as (typeof table)[number]).json;
    at = copyInto(out, at, kind, 0, kind.length);
    out[at++] = CLOSE_BRACE;
  }
  if (at + suffix.length > out.length) {
    const larger = new Uint8Array(at + suffix.length);
    larger.set(out.subarray(0, at));
    out = larger;
  }
  out.set(suffix, at);
  return out.subarray(0, at + suffix.length);
}

/** Reads point `g`'s CSV line `csv[start, end)` into `index`: date,series,value,source,note, the third comma opening the source and the fourth the note. */
function readLine(index: LineIndex, g: number, table: ReturnType<typeof kindTable>, csv: Uint8Array, start: number, end: number): void {
  let third = -1;
  let fourth = -1;
  let plain = true;
  let commas = 0;
  for (let k = start; k < end; k++) {
    const b = csv[k] as number;
    if (b === COMMA) {
      commas++;
      if (commas === 3) third = k;
      else if (commas === 4) fourth = k;
    } else if (b === QUOTE || b === BACKSLASH || b < 0x20) plain = false;
  }
  if (!plain || commas !== 4) {
    index.state[g] = 1;
    return;
  }
  index.third[g] = third;
  index.fourth[g] = fourth;
  index.state[g] = 3 + kindAt(table, csv, third + 1, fourth);
}

/** Copies `bytes[from, to)` into `out` at `at`; returns the position after it. */
function copyInto(out: Uint8Array, at: number, bytes: Uint8Array, from: number, to: number): number {
  if (to - from > 24) {
    out.set(bytes.subarray(from, to), at);
    return at + to - from;
  }
  for (let k = from; k < to; k++) out[at++] = bytes[k] as number;
  return at;
}

/** `bytes[from, to)` between quotes: a JSON string, for a text without a quote, backslash or control character. */
function quoted(out: Uint8Array, at: number, bytes: Uint8Array, from: number, to: number): number {
  out[at++] = QUOTE;
  at = copyInto(out, at, bytes, from, to);
  out[at++] = QUOTE;
  return at;
}
