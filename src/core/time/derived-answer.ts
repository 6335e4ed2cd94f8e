/**
 * A derived answer (any query with `frequency`, `per`, `real` or `units`): the
 * pipeline of src/core/time/derive.ts over each selected sub-series, then the window,
 * `limit`/`offset` per sub-series, and the bytes. Derived answers are computed on
 * request, never prebuilt. Each value is rounded once, when written (`derivedText`); a derived
 * value has no source of its own, so the CSV's `source` and `note` are empty.
 */
import { CSV_ES_HEADER, CSV_HEADER } from "../file/answers.js";
import { FREQUENCIES, MAX_DERIVED_VALUES } from "../answer/contract.js";
import { latestOnOrBefore } from "./coverage.js";
import { dayNumber, addMonths, writeDate } from "./dates.js";
import {
  aggregate,
  applyUnits,
  coveringStep,
  deflate,
  divide,
  levelSteps,
  derivedText,
  writeDerived,
  DERIVED_MAX_BYTES,
  Steps,
  grown,
  type CoverageInputs,
  type Deflator,
  type PointSeries,
} from "./derive.js";
import type { DatasetFields, PageQuery } from "../indicator/model.js";
import { spreadsheetNumber } from "../answer/spreadsheet.js";
import type { PageSummary } from "../answer/page.js";
import { answerMeta } from "../answer/render.js";

/** An indicator as the pipeline reads it: the rule of coverage's inputs and its sub-series (sorted by id). */
export interface TimeSource extends CoverageInputs {
  readonly series: readonly (PointSeries & { readonly id: string })[];
}

/** Everything a derived answer is computed from. */
export interface DerivedInputs {
  readonly source: TimeSource;
  /** The selected sub-series (ascending indices), or `null` for all. */
  readonly chosen: readonly number[] | null;
  readonly query: PageQuery;
  /** `per`: the divisor's indicator and sub-series index. */
  readonly divisor: { readonly source: TimeSource; readonly series: number } | null;
  /** `real`: the deflator by month and its value in the `real` month. */
  readonly deflator: Deflator | null;
}

/**
 * A computed page: its points in the answer's order (date descending, then
 * sub-series ascending), as columns of the same length.
 */
export interface DerivedPage extends PageSummary {
  /** Each point's sub-series, an index into `ids`. */
  readonly series: Int32Array;
  readonly days: Int32Array;
  /** Each value, unrounded (rounded when written: `renderDerived`, `derivedText`). */
  readonly values: Float64Array;
  /** The indicator's sub-series ids, by index. */
  readonly ids: readonly string[];
  /** With `units=index`: whether any selected sub-series has a value covering `base`. */
  readonly baseFound: boolean;
}

const DAYS_PER_MONTH = 30.437;

/** The months of the query's period, or `null` without `frequency`. */
function periodMonths(query: PageQuery): number | null {
  return query.frequency === null ? null : FREQUENCIES[query.frequency];
}

/**
 * The days the periods are computed for: the window, looking back a year and a
 * period before `from` (what `units` compares with); everything without `frequency`.
 */
function span(query: PageQuery, months: number | null): { from: number; to: number } {
  if (months === null || query.from === null) return { from: -Infinity, to: query.to === null ? Infinity : dayNumber(query.to) };
  const from = query.units === null ? query.from : addMonths(query.from, -(12 + months));
  return { from: dayNumber(from), to: query.to === null ? Infinity : dayNumber(query.to) };
}

const indices = (inputs: DerivedInputs): readonly number[] => inputs.chosen ?? inputs.source.series.map((_, s) => s);

/**
 * About how many values a question computes (points read and periods made, the
 * divisor's included): what the CPU a request may spend is budgeted on. The
 * divisor is made once, then met by each sub-series it divides over that
 * sub-series' span: its steps from the sub-series' first point on (without a
 * frequency), or as many periods as the sub-series has (with one).
 */
export function derivedWork(inputs: DerivedInputs): number {
  const months = periodMonths(inputs.query);
  const { from, to } = span(inputs.query, months);
  const periodsOf = (one: PointSeries, source: TimeSource, lo: number, hi: number) => {
    if (months === null || one.length === 0) return 0;
    const first = Math.max(one.day(one.length - 1), lo);
    const last = Math.min(source.versionEnd, hi + 1);
    return last <= first ? 0 : Math.ceil((last - first) / (DAYS_PER_MONTH * months)) + 1 + (inputs.query.units === "index" ? 1 : 0);
  };
  const divisor = inputs.divisor === null ? null : (inputs.divisor.source.series[inputs.divisor.series] as PointSeries);
  let work = 0;
  for (const s of indices(inputs)) {
    const one = inputs.source.series[s] as PointSeries;
    const periods = periodsOf(one, inputs.source, from, to);
    work += one.length + periods;
    if (divisor !== null && one.length > 0) {
      // The divisor's points from the one in force at this sub-series' first point on: ranks 0 to its rank, newest first.
      const rank = latestOnOrBefore(divisor, one.day(one.length - 1));
      work += months !== null ? periods : rank < 0 ? divisor.length : rank + 1;
    }
  }
  if (inputs.divisor !== null && divisor !== null) work += divisor.length + periodsOf(divisor, inputs.divisor.source, -Infinity, Infinity);
  return work;
}

/** Whether a question fits the budget, and by how much it must narrow when not. */
export function overBudget(inputs: DerivedInputs): { work: number; series: number; fitting: number } | null {
  const work = derivedWork(inputs);
  if (work <= MAX_DERIVED_VALUES) return null;
  const series = indices(inputs).length;
  return { work, series, fitting: Math.max(1, Math.floor((series * MAX_DERIVED_VALUES) / work)) };
}

/** Where one sub-series' steps are made: two buffers, each transform reading one and writing the other. */
class Workspace {
  readonly first = new Steps();
  private readonly second = new Steps();
  /** The buffer `steps` is not. */
  other(steps: Steps): Steps {
    return steps === this.first ? this.second : this.first;
  }
}

/** The sub-series' steps after frequency, per and real, over periods starting within `[from, to]`, made in `work`. */
function transformed(inputs: DerivedInputs, one: PointSeries, divisor: Steps | null, from: number, to: number, work: Workspace): Steps {
  const { source, query, deflator } = inputs;
  const months = periodMonths(query);
  let steps = levelSteps(one, source, work.first);
  if (months !== null) steps = aggregate(steps, months, query.aggregation ?? "mean", source.stepwise, from, to, work.other(steps));
  if (divisor !== null) steps = divide(steps, divisor, work.other(steps));
  if (deflator !== null) steps = deflate(steps, deflator, months, work.other(steps));
  return steps;
}

/** The divisor of `per`, on the query's periods when it has a frequency, made in `work`. */
function divisorSteps(inputs: DerivedInputs, work: Workspace): Steps | null {
  if (inputs.divisor === null) return null;
  const { source, series } = inputs.divisor;
  const months = periodMonths(inputs.query);
  const steps = levelSteps(source.series[series] as PointSeries, source, work.first);
  return months === null ? steps : aggregate(steps, months, inputs.query.aggregation ?? "mean", source.stepwise, -Infinity, Infinity, work.other(steps));
}

/** Columns of points, grown by doubling: sub-series index, day, value. */
class Points {
  series = new Int32Array(256);
  days = new Int32Array(256);
  values = new Float64Array(256);
  length = 0;

  clear(): this {
    this.length = 0;
    return this;
  }

  push(series: number, day: number, value: number): void {
    const m = this.length;
    if (m === this.days.length) this.grow();
    this.series[m] = series;
    this.days[m] = day;
    this.values[m] = value;
    this.length = m + 1;
  }

  private grow(): void {
    const capacity = 2 * this.days.length;
    this.series = grown(this.series, capacity);
    this.days = grown(this.days, capacity);
    this.values = grown(this.values, capacity);
  }
}

/**
 * The points in the answer's order, date descending then sub-series ascending.
 * They come sub-series by sub-series, ascending, each newest first: a stable
 * sort by date alone is that order. A counting sort over the days between the
 * oldest and the newest when they are few for the points; else a comparison
 * sort (`count`: how many sub-series the indicator has).
 */
function answerOrder(picked: Points, count: number): Int32Array {
  const n = picked.length;
  const { days, series } = picked;
  const order = new Int32Array(n);
  let newest = -Infinity;
  let oldest = Infinity;
  let sorted = true;
  for (let m = 0; m < n; m++) {
    const day = days[m] as number;
    if (day > newest) newest = day;
    if (day < oldest) oldest = day;
    // Already in order (one sub-series, or one date each): nothing to sort.
    if (m > 0 && day > (days[m - 1] as number)) sorted = false;
    order[m] = m;
  }
  if (sorted || n < 2) return order;
  const range = newest - oldest + 1;
  if (range <= 4 * n + 1024) {
    // Slot r holds the day newest − r: where its points start, after the counting.
    const starts = new Int32Array(range + 1);
    for (let m = 0; m < n; m++) {
      const r = newest - (days[m] as number) + 1;
      starts[r] = (starts[r] as number) + 1;
    }
    for (let r = 1; r <= range; r++) starts[r] = (starts[r] as number) + (starts[r - 1] as number);
    for (let m = 0; m < n; m++) {
      const r = newest - (days[m] as number);
      const slot = starts[r] as number;
      order[slot] = m;
      starts[r] = slot + 1;
    }
    return order;
  }
  const keys = new Float64Array(n);
  for (let m = 0; m < n; m++) keys[m] = (newest - (days[m] as number)) * count + (series[m] as number);
  return order.sort((a, b) => (keys[a] as number) - (keys[b] as number));
}

const idLists = new WeakMap<TimeSource["series"], readonly string[]>();

/** The ids of an indicator's sub-series, by index (made once per isolate and data version, as the source). */
function idsOf(source: TimeSource): readonly string[] {
  let list = idLists.get(source.series);
  if (list === undefined) {
    list = source.series.map((one) => one.id);
    idLists.set(source.series, list);
  }
  return list;
}

/**
 * The buffers `derivePage` works in, made once and reused (grown to the largest
 * question asked, which the budget bounds): a call is synchronous and keeps
 * nothing of them, the page's columns are its own. Made anew for each request,
 * their growing measured about 5% of a request's CPU.
 */
const scratch = { work: new Workspace(), baseWork: new Workspace(), divisor: new Workspace(), picked: new Points() };

/**
 * The derived page of a question: every selected sub-series through frequency →
 * per → real → units, rounded; then the window (`from`/`to` on the points' dates,
 * or `at`: the point covering that day) and `limit`/`offset` per sub-series.
 */
export function derivePage(inputs: DerivedInputs): DerivedPage {
  const { source, query } = inputs;
  const months = periodMonths(query);
  const { from, to } = span(query, months);
  const { work, baseWork } = scratch;
  const divisor = divisorSteps(inputs, scratch.divisor);
  const windowFrom = query.from === null ? -Infinity : dayNumber(query.from);
  const windowTo = query.to === null ? Infinity : dayNumber(query.to);
  const at = query.at === null ? null : dayNumber(query.at);
  const base = query.base === null ? null : dayNumber(query.base);
  const first = query.offset;
  const stop = query.offset + query.limit;
  const picked = scratch.picked.clear();
  let total = 0;
  let hasMore = false;
  let baseFound = false;
  for (const s of indices(inputs)) {
    const one = source.series[s] as PointSeries;
    let steps = transformed(inputs, one, divisor, from, to, work);
    let against = NaN;
    if (query.units === "index") {
      // The value covering `base`: with a frequency, on the base's own period, made in buffers of its own.
      const around = months === null ? steps : transformed(inputs, one, divisor, base as number, base as number, baseWork);
      const k = coveringStep(around, base as number);
      if (k < 0) continue;
      baseFound = true;
      against = around.value[k] as number;
    }
    if (query.units !== null) steps = applyUnits(steps, query.units, against, work.other(steps));
    // The window, newest first: the steps with a finite value; rank r of it is on the page when offset ≤ r < offset + limit.
    const { start, value } = steps;
    let rank = 0;
    if (at !== null) {
      const k = coveringStep(steps, at);
      if (k >= 0 && Number.isFinite(value[k])) {
        if (first === 0) picked.push(s, start[k] as number, value[k] as number);
        rank = 1;
      }
    } else {
      for (let k = steps.length - 1; k >= 0; k--) {
        const day = start[k] as number;
        if (day < windowFrom) break;
        if (day > windowTo || !Number.isFinite(value[k])) continue;
        if (rank >= first && rank < stop) picked.push(s, day, value[k] as number);
        rank++;
      }
    }
    total += rank;
    if (rank > stop) hasMore = true;
  }
  const order = answerOrder(picked, source.series.length);
  const count = picked.length;
  const series = new Int32Array(count);
  const days = new Int32Array(count);
  const values = new Float64Array(count);
  for (let m = 0; m < count; m++) {
    const from = order[m] as number;
    series[m] = picked.series[from] as number;
    days[m] = picked.days[from] as number;
    values[m] = picked.values[from] as number;
  }
  return { query, total, hasMore, baseFound, series, days, values, ids: idsOf(source) };
}

const encoder = new TextEncoder();

/** How a format writes a point: `before` date `idBefore` id `idAfter` number `after`, points apart by `separator`. */
interface Layout {
  readonly head: string;
  readonly idBefore: string;
  readonly idAfter: string;
  /** Before the first point's date; between one point's number and the next one's date; after the last number. */
  readonly before: Uint8Array;
  readonly between: Uint8Array;
  readonly after: Uint8Array;
  /** The decimal mark's character code. */
  readonly decimal: number;
  /** A number's text as the format writes it, from `derivedText`'s (the spreadsheet's decimal comma, no exponent). */
  readonly text: (json: string) => string;
}

/** A layout from its texts (`separator` between two points: JSON's comma). */
function layout(head: string, before: string, idBefore: string, idAfter: string, after: string, separator: string, decimal: string, text: (json: string) => string): Layout {
  const bytes = (t: string) => encoder.encode(t);
  return { head, idBefore, idAfter, before: bytes(before), between: bytes(after + separator + before), after: bytes(after), decimal: decimal.charCodeAt(0), text };
}

const same = (text: string) => text;
// Pure: the page script, which computes pages but writes no answer, leaves them out of its bundle.
const LAYOUTS = {
  json: /* @__PURE__ */ layout('{"data":[', '{"date":"', '","series":"', '","value":', "}", ",", ".", same),
  // provenance=true: a derived value has no source or note of its own (the CSV's are empty).
  jsonProvenance: /* @__PURE__ */ layout('{"data":[', '{"date":"', '","series":"', '","value":', ',"note":null,"source":null,"source_kind":null}', ",", ".", same),
  csv: /* @__PURE__ */ layout(CSV_HEADER, "", ",", ",", ",,\n", "", ".", same),
  csvEs: /* @__PURE__ */ layout(CSV_ES_HEADER, "", ";", ";", ";;\r\n", "", ",", spreadsheetNumber),
};

/** Writes the UTF-8 of `text` at `at`; returns the position after it (ASCII by a loop, anything else by the encoder). */
function writeText(bytes: Uint8Array, at: number, text: string): number {
  for (let c = 0; c < text.length; c++) {
    const code = text.charCodeAt(c);
    if (code >= 0x80) return at + c + encoder.encodeInto(text.slice(c), bytes.subarray(at + c)).written;
    bytes[at + c] = code;
  }
  return at + text.length;
}

/** The most bytes `writeText` writes for `text`. */
const utf8Bound = (text: string) => 3 * text.length;

/** `bytes` with room for `size` bytes, its first `used` kept. */
function withRoom(bytes: Uint8Array<ArrayBuffer>, used: number, size: number): Uint8Array<ArrayBuffer> {
  if (size <= bytes.length) return bytes;
  const larger = new Uint8Array(Math.max(size, 2 * bytes.length));
  larger.set(bytes.subarray(0, used));
  return larger;
}

/** The bytes between a point's date and its number, `","series":"<id>","value":` in JSON, by sub-series index; the longest. */
interface Mids {
  readonly list: (Uint8Array | undefined)[];
  widest: number;
}

const midLists = new WeakMap<readonly string[], Map<Layout, Mids>>();

/**
 * The middles of the sub-series `ids` in `layout`, made as answers need them and
 * kept (per isolate and data version, as the ids): an answer may name every one
 * of 1,554 sub-series, and encoding each for each answer measured a third of its CPU.
 */
function midsOf(ids: readonly string[], layout: Layout): Mids {
  let byLayout = midLists.get(ids);
  if (byLayout === undefined) {
    byLayout = new Map();
    midLists.set(ids, byLayout);
  }
  let mids = byLayout.get(layout);
  if (mids === undefined) {
    mids = { list: new Array<Uint8Array | undefined>(ids.length).fill(undefined), widest: 0 };
    byLayout.set(layout, mids);
  }
  return mids;
}

function addMid(mids: Mids, s: number, id: string, layout: Layout): void {
  const mid = new Uint8Array(utf8Bound(layout.idBefore) + utf8Bound(id) + utf8Bound(layout.idAfter));
  let at = writeText(mid, 0, layout.idBefore);
  at = writeText(mid, at, id);
  at = writeText(mid, at, layout.idAfter);
  mids.list[s] = mid.subarray(0, at);
  mids.widest = Math.max(mids.widest, at);
}

/**
 * A derived page's bytes: JSON with `meta`, or CSV with empty `source` and
 * `note`. Written in one buffer sized beforehand: each sub-series' middle
 * (`","series":"<id>","value":`) made once (`midsOf`) and copied, dates and numbers
 * written digit by digit, no string per point (measured about three times as fast
 * as concatenating the text and encoding it once). Ids (`[a-z0-9.-]`,
 * src/source/metadata.ts), dates and numbers need no escaping. The answer is a
 * view of that buffer.
 */
export function renderDerived(fields: DatasetFields, page: DerivedPage): Uint8Array<ArrayBuffer> {
  const json = page.query.format !== "csv";
  const layout = json ? (page.query.provenance === null ? LAYOUTS.json : LAYOUTS.jsonProvenance) : page.query.dialect === "es" ? LAYOUTS.csvEs : LAYOUTS.csv;
  const { series, days, values, ids } = page;
  const n = days.length;
  // Each sub-series' middle, made when first met and kept for the next answers.
  const mids = midsOf(ids, layout);
  for (let m = 0; m < n; m++) {
    const s = series[m] as number;
    if (mids.list[s] === undefined) addMid(mids, s, ids[s] as string, layout);
  }
  const { list, widest } = mids;
  const { before, between, after } = layout;
  const end = json ? `],"meta":${JSON.stringify(answerMeta(fields, page))}}` : "";
  // The most a point takes when its number is on the fast path (the others make room for themselves).
  const point = between.length + 10 + widest + DERIVED_MAX_BYTES;
  let bytes = new Uint8Array(utf8Bound(layout.head) + before.length + n * point + utf8Bound(end));
  let at = writeText(bytes, 0, layout.head);
  let dateAt = 0;
  for (let m = 0; m < n; m++) {
    const lead = m === 0 ? before : between;
    bytes.set(lead, at);
    at += lead.length;
    // The date, or the one before again (the points of a date are together).
    const day = days[m] as number;
    if (m > 0 && day === days[m - 1]) {
      for (let b = dateAt; b < dateAt + 10; b++) bytes[at++] = bytes[b] as number;
    } else {
      writeDate(bytes, at, day);
      at += 10;
    }
    dateAt = at - 10;
    const mid = list[series[m] as number] as Uint8Array;
    bytes.set(mid, at);
    at += mid.length;
    const value = values[m] as number;
    const next = writeDerived(bytes, at, value, layout.decimal);
    if (next >= 0) at = next;
    else {
      // What the fast path leaves, as text (a tiny value in the spreadsheet's digits may be long).
      const text = layout.text(derivedText(value) as string);
      bytes = withRoom(bytes, at, at + utf8Bound(text) + (n - m) * point + utf8Bound(end));
      at = writeText(bytes, at, text);
    }
  }
  if (n > 0) {
    bytes.set(after, at);
    at += after.length;
  }
  at = writeText(bytes, at, end);
  return bytes.subarray(0, at);
}
