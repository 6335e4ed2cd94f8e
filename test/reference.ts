/**
 * An independent reference for API pages, written naively and separately from
 * src/core/answer/page.ts and src/core/answer/render.ts: filter, group, sort and slice plain arrays. Tests
 * compare what the build (and the function) produce with what this computes.
 */
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { parse } from "csv-parse/sync";

export interface RefPoint {
  date: string;
  series: string;
  /** The value's source text. */
  raw: string;
  source: string;
  note: string;
}

export interface RefIndicator {
  id: string;
  unit: string;
  points: RefPoint[];
}

export interface RefQuery {
  from?: string | null;
  to?: string | null;
  /** Ids and patterns (`*`: any run of characters), as the API echoes them: deduplicated and sorted. */
  series?: readonly string[] | null;
  limit?: number;
  offset?: number;
  format?: "json" | "csv";
}

/** Reads an indicator's points straight from its CSV files. */
export function readIndicator(folder: string): RefIndicator {
  const meta = JSON.parse(readFileSync(join(folder, "indicator.json"), "utf8")) as { id: string; unit: string };
  const points: RefPoint[] = [];
  for (const name of readdirSync(folder).filter((n) => n.endsWith(".csv"))) {
    const rows = parse<Record<string, string>>(readFileSync(join(folder, name)), { columns: true, bom: true, skip_empty_lines: true });
    for (const row of rows) {
      points.push({ date: row.date as string, series: row.series as string, raw: row.value as string, source: row.source ?? "", note: row.note ?? "" });
    }
  }
  return { id: meta.id, unit: meta.unit, points };
}

/**
 * Whether `pattern` names `id`: the pattern's pieces between `*`s must occur in
 * `id` in order, the first at its start and the last at its end (written without
 * regular expressions, unlike src/core/answer/selection.ts).
 */
export function refMatches(pattern: string, id: string): boolean {
  const pieces = pattern.split("*");
  if (pieces.length === 1) return pattern === id;
  const first = pieces[0] as string;
  const last = pieces[pieces.length - 1] as string;
  if (!id.startsWith(first) || !id.endsWith(last) || first.length + last.length > id.length) return false;
  let at = first.length;
  for (const piece of pieces.slice(1, -1)) {
    const found = id.indexOf(piece, at);
    if (found < 0 || found + piece.length > id.length - last.length) return false;
    at = found + piece.length;
  }
  return true;
}

/** Two texts in code-unit order (dates as `YYYY-MM-DD` sort so; `localeCompare` would ask the locale's collation, many times slower); written here, as the reference imports nothing of src/. */
const byText = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** Each indicator's newest date, found once (every expected answer's `last_updated`). */
const newest = new WeakMap<RefIndicator, string | null>();
function newestDate(ind: RefIndicator): string | null {
  if (!newest.has(ind)) newest.set(ind, ind.points.reduce<string | null>((max, p) => (max === null || p.date > max ? p.date : max), null));
  return newest.get(ind) ?? null;
}

/** Each indicator's points in answer order (newest first, then by sub-series), sorted once: a query's points are a filter of them. */
const ordered = new WeakMap<RefIndicator, readonly RefPoint[]>();
function answerOrder(ind: RefIndicator): readonly RefPoint[] {
  let points = ordered.get(ind);
  if (points === undefined) ordered.set(ind, (points = [...ind.points].sort((a, b) => byText(b.date, a.date) || byText(a.series, b.series))));
  return points;
}

/** The points a query selects, in answer order, with the page's figures. */
function expectedPage(ind: RefIndicator, query: RefQuery) {
  const from = query.from ?? null;
  const to = query.to ?? null;
  const series = query.series ?? null;
  const limit = query.limit ?? 500;
  const offset = query.offset ?? 0;
  // Whether a sub-series is selected, decided once per sub-series (not once per point).
  const selected = new Map<string, boolean>();
  const isSelected = (id: string) => {
    let known = selected.get(id);
    if (known === undefined) selected.set(id, (known = series === null || series.some((item) => refMatches(item, id))));
    return known;
  };
  // In answer order, each sub-series' points newest first, and a filter keeps that order.
  // A sub-series' page is its points from rank `offset` to `offset + limit`.
  const inWindow = answerOrder(ind).filter((p) => (from === null || p.date >= from) && (to === null || p.date <= to) && isSelected(p.series));
  const rank = new Map<string, number>();
  let hasMore = false;
  const chosen = inWindow.filter((p) => {
    const k = rank.get(p.series) ?? 0;
    rank.set(p.series, k + 1);
    if (k >= offset + limit) hasMore = true;
    return k >= offset && k < offset + limit;
  });
  const next = hasMore ? refCanonicalUrl(ind.id, { ...query, offset: offset + limit }) : null;
  return { from, to, series, limit, offset, chosen, total: inWindow.length, hasMore, next };
}

/**
 * The documented canonical URL of a query of points as published: from, to,
 * series (commas as they are), limit, offset, format (when csv). `meta.next`
 * and the ETag use it.
 */
export function refCanonicalUrl(id: string, query: RefQuery): string {
  const params = [
    query.from == null ? null : `from=${query.from}`,
    query.to == null ? null : `to=${query.to}`,
    query.series == null ? null : `series=${query.series.join(",")}`,
    `limit=${query.limit ?? 500}`,
    `offset=${query.offset ?? 0}`,
    query.format === "csv" ? "format=csv" : null,
  ].filter((p) => p !== null);
  return `/api/v1/${id}?${params.join("&")}`;
}

/** The response body the contract (docs/DESIGN.md §2) requires for `query`, as a plain object. */
export function expectedResponse(ind: RefIndicator, query: RefQuery, siteUrl: string, phrase: string) {
  const page = expectedPage(ind, query);
  return { data: page.chosen.map((p) => ({ date: p.date, series: p.series, value: Number(p.raw) })), meta: expectedMeta(ind, page, siteUrl, phrase) };
}

/**
 * `expectedResponse`'s text as the function writes it, and its next page: compact JSON in
 * the contract's key order, each value as its CSV file writes it (`44.90`, not `44.9`).
 */
export function expectedAnswer(ind: RefIndicator, query: RefQuery, siteUrl: string, phrase: string): { text: string; next: string | null } {
  const page = expectedPage(ind, query);
  return { text: `{"data":[${page.chosen.map(itemText).join(",")}],"meta":${JSON.stringify(expectedMeta(ind, page, siteUrl, phrase))}}`, next: page.next };
}

/** An answer's `meta` for a page of points. */
function expectedMeta(ind: RefIndicator, page: ReturnType<typeof expectedPage>, siteUrl: string, phrase: string) {
  const { from, to, series, limit, offset, total, hasMore, next } = page;
  const href = `${siteUrl}/series/${ind.id}/?utm_source=api&amp;utm_medium=attribution&amp;utm_campaign=backlinks`;
  return {
    indicator: ind.id,
    unit: ind.unit,
    value_unit: ind.unit,
    total,
    limit,
    offset,
    from,
    to,
    at: null,
    series,
    frequency: null,
    aggregation: null,
    per: null,
    real: null,
    units: null,
    base: null,
    has_more: hasMore,
    next,
    last_updated: newestDate(ind),
    license: "CC-BY-4.0",
    attribution: `<a href="${href}">${phrase}</a>`,
    metadata: `/api/v1/${ind.id}/metadata.json`,
  };
}

/** A point as an item of a JSON answer, written once per point (the random queries ask for the same points many times). */
const itemTexts = new WeakMap<RefPoint, string>();
function itemText(p: RefPoint): string {
  let text = itemTexts.get(p);
  if (text === undefined) itemTexts.set(p, (text = `{"date":${JSON.stringify(p.date)},"series":${JSON.stringify(p.series)},"value":${p.raw}}`));
  return text;
}

/** A CSV field as RFC 4180 writes it: quoted, its quotes doubled, when it holds a comma, a quote or a line break. */
const csvField = (text: string) => (/[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text);

/** `expectedCsv`'s rows as a CSV answer's text: the header, then a line per row, each ended by a line feed. */
export function expectedCsvText(rows: readonly Record<string, string>[]): string {
  return `date,series,value,source,note\n${rows.map((r) => `${[r.date, r.series, r.value, r.source, r.note].map((f) => csvField(f ?? "")).join(",")}\n`).join("")}`;
}

/** The rows (as a CSV library parses them, header as keys) and headers' figures a CSV answer to `query` must have. */
export function expectedCsv(ind: RefIndicator, query: RefQuery) {
  const { chosen, total, next } = expectedPage(ind, { ...query, format: "csv" });
  return { rows: chosen.map((p) => ({ date: p.date, series: p.series, value: p.raw, source: p.source, note: p.note })), total, next };
}

/** The values' source texts in the order the body holds them, read from the raw JSON text. */
export function rawValues(body: string): string[] {
  return [...body.matchAll(/"value":(-?[0-9][0-9.eE+-]*)\}/g)].map((m) => m[1] as string);
}

/**
 * Resolves a query date of full or reduced precision to a day, independently of
 * src/core/time/dates.ts: with the platform's UTC calendar arithmetic. `null` when invalid.
 */
export function resolveRef(text: string, edge: "start" | "end"): string | null {
  const m = /^(\d{4})(?:-(\d{2})(?:-(\d{2}))?)?$/.exec(text);
  if (!m) return null;
  const year = Number(m[1]);
  const iso = (d: Date) => d.toISOString().slice(0, 10);
  const utc = (y: number, monthIndex: number, day: number) => {
    const d = new Date(Date.UTC(2000, monthIndex, day));
    d.setUTCFullYear(y, monthIndex, day);
    return d;
  };
  if (m[2] === undefined) return edge === "start" ? `${m[1]}-01-01` : `${m[1]}-12-31`;
  const month = Number(m[2]);
  if (month < 1 || month > 12) return null;
  if (m[3] === undefined) return iso(edge === "start" ? utc(year, month - 1, 1) : utc(year, month, 0));
  const d = utc(year, month - 1, Number(m[3]));
  return iso(d) === text ? text : null;
}
