/**
 * `GET|HEAD /api/v1/{indicator}`: a query a prebuilt page answers is served from
 * that file; any other is computed from the indicator's answer file with the
 * build's own pager and renderer, so both give the same bytes for the same query.
 * A question about time (`frequency`, `per`, `real`, `units`) is computed by
 * src/core/time/derived-answer.ts, within the CPU budget or refused with a 400.
 */
import { withQuery } from "../core/text/url.js";
import { badRequest, unknownIndicator } from "./api-error.js";
import { conditionalAnswer } from "./conditional-answer.js";
import type { Assets, DataStore } from "./data-store.js";
import { checkNotAfterToday, publishedVersion } from "./published.js";
import { parseQuery } from "./query.js";
import { indexByMonth, timeSource } from "./time.js";
import { shardsOf, type AnswerView, type ShardEntry } from "../core/file/answer-index.js";
import { CACHE_CONTROL, CSV_CONTENT_TYPE, FREQUENCIES, JSON_CONTENT_TYPE, MAX_DERIVED_POINTS, MAX_DERIVED_VALUES, quote } from "../core/answer/contract.js";
import { rhythmMonths } from "../core/time/coverage.js";
import { dayNumber } from "../core/time/dates.js";
import { historyShardsOf, versionIds, type HistoryVersion } from "../core/history/history.js";
import { deflatorAt } from "../core/time/derive.js";
import { derivePage, overBudget, renderDerived, type DerivedInputs } from "../core/time/derived-answer.js";
import { answerEtag } from "../core/answer/etag.js";
import { manifestEntry, prebuiltPage, type Manifest, type ManifestEntry } from "../core/file/manifest.js";
import { isDerived, type Format, type PageQuery } from "../core/indicator/model.js";
import { selectAtPage, selectPage, type PageSummary } from "../core/answer/page.js";
import { tileOf } from "../core/file/time-tiles.js";
import { CATALOG_PATH, endpointPath, metadataPath } from "../core/file/paths.js";
import { nextUrl, queryUrl, renderAnswer } from "../core/answer/render.js";
import { resolveSelection } from "../core/answer/selection.js";

/** What the headers of a success carry besides the validators. */
interface Described {
  readonly indicator: string;
  readonly format: Format;
  readonly next: string | null;
  /** For CSV, which has no `meta`: the points in the window and the attribution link's target. */
  readonly total?: number;
  readonly citeAs?: string;
}

/**
 * Headers of every 200 and 304 of the endpoint (docs/DESIGN.md §2). `Link` (RFC
 * 8288) carries the next page, the metadata document (`describedby`) and, for
 * CSV, the attribution link (`cite-as`, RFC 8574); `X-Total-Count` carries a CSV
 * answer's `meta.total`.
 */
function successHeaders(etag: string, lastModified: string, d: Described): Headers {
  const headers = new Headers({
    "Content-Type": d.format === "csv" ? CSV_CONTENT_TYPE : JSON_CONTENT_TYPE,
    "Cache-Control": CACHE_CONTROL.success,
    ETag: etag,
    "Last-Modified": lastModified,
  });
  const links = [`<${metadataPath(d.indicator)}>; rel="describedby"`];
  if (d.next !== null) links.unshift(`<${d.next}>; rel="next"`);
  if (d.citeAs !== undefined) links.push(`<${d.citeAs}>; rel="cite-as"`);
  headers.set("Link", links.join(", "));
  if (d.total !== undefined) headers.set("X-Total-Count", String(d.total));
  return headers;
}

/** The headers' description of a computed page. */
function described(indicator: string, data: AnswerView, page: PageSummary): Described {
  const next = nextUrl(indicator, page);
  return page.query.format === "csv" ? { indicator, format: "csv", next, total: page.total, citeAs: data.attributionUrl } : { indicator, format: "json", next };
}

/** The answers an indicator's question reads: now, or a past version's (`as_of`), with its validators' inputs. */
interface Loaded {
  readonly data: AnswerView;
  /** The sub-series the question selected (ascending indices; `null`: all). */
  readonly chosen: number[] | null;
  /** HTTP-date of its data version: `Last-Modified`, and the rule of coverage's version bound. */
  readonly lastModified: string;
  /** Its data tag, for the ETag (src/core/answer/etag.ts). */
  readonly tag: string;
}

/**
 * The answers of indicator `id` as published at the end of day `asOf`
 * (src/core/history/history.ts), or now when `asOf` is `null` or on or after the day of
 * the current version (the same data as without `as_of`), with the shards of
 * the sub-series `select` chooses among its ids read, or, for a question of the
 * day `at` alone (points as published), its time tile where that reads less.
 * @throws ApiError naming `parameter` when `id` had no version published by then,
 * or naming `series` when the chosen sub-series' shards are more than one request may read.
 */
async function loadAt(
  id: string,
  entry: ManifestEntry,
  asOf: string | null,
  parameter: string,
  select: (ids: readonly string[]) => number[] | null,
  assets: Assets,
  store: DataStore,
  url: URL,
  at: string | null = null,
): Promise<Loaded> {
  const { days } = entry.history;
  const v = asOf === null ? days.length - 1 : publishedVersion(parameter, id, days, asOf, `as_of=${asOf}`);
  if (v === days.length - 1) {
    const index = await store.answerIndex(assets, url, entry.answers, entry.lastModified);
    const chosen = select(index.ids);
    const bytes = readSize(index.shards, shardsOf(index, chosen));
    // A day of sub-series whose shards take more than its time tile: the tile, which holds what the day needs of each (src/core/file/time-tiles.ts).
    const t = at === null || index.tiles.length === 0 ? -1 : tileOf(index.tiles, dayNumber(at));
    const tile = index.tiles[t];
    if (tile !== undefined && tile.bytes < bytes) {
      checkReadBytes(id, tile.bytes, chosen, index.ids.length, store.readBytes, entry);
      const data = await store.tileView(assets, url, id, entry.answers, entry.lastModified, t);
      return { data, chosen, lastModified: entry.lastModified, tag: entry.tag };
    }
    checkReadBytes(id, bytes, chosen, index.ids.length, store.readBytes, entry);
    const data = await store.view(assets, url, id, entry.answers, entry.lastModified, chosen);
    return { data, chosen, lastModified: entry.lastModified, tag: entry.tag };
  }
  // An earlier version exists, so its table does (src/builder/history.ts): the shards of the chosen sub-series are read.
  const path = entry.history.path as string;
  const { tag } = entry.history;
  const index = await store.historyIndex(assets, url, path, tag);
  const ids = versionIds(index, v);
  const chosen = select(ids);
  checkReadBytes(id, readSize(index.shards, historyShardsOf(index, v, chosen)), chosen, ids.length, store.readBytes);
  const data = await store.historyView(assets, url, id, path, tag, v, chosen);
  const version = index.versions[v] as HistoryVersion;
  return { data, chosen, lastModified: new Date(version.bound.time * 1000).toUTCString(), tag: `${tag}.${v}` };
}

/** The bytes of the shards `wanted` of `shards`. */
export const readSize = (shards: readonly ShardEntry[], wanted: readonly number[]) => wanted.reduce((sum, k) => sum + (shards[k]?.bytes ?? 0), 0);

/**
 * A question reads the files of the sub-series it selects (the shards or a time
 * tile, src/core/file/answer-index.ts; a past version's shards, src/core/history/history.ts):
 * at most `most` bytes of them (`MAX_READ_BYTES`), what one request can fetch and
 * answer from within its CPU time and the isolate's memory. `bytes` are the
 * files' the store would read for the sub-series `chosen` (`null`: all `total`),
 * each file counted once; `entry`: today's data, whose prebuilt pages a question
 * of every sub-series is pointed to.
 * @throws ApiError naming `series` and how many sub-series would fit.
 */
export function checkReadBytes(indicator: string, bytes: number, chosen: readonly number[] | null, total: number, most: number, entry?: ManifestEntry): void {
  if (bytes <= most) return;
  const series = chosen === null ? total : chosen.length;
  const mib = (n: number) => `${(n / 2 ** 20).toFixed(1)} MiB`;
  const fitting = Math.max(1, Math.floor((series * most) / bytes));
  // A question of every sub-series of today's data: the largest limit whose pages are prebuilt (files, no reading), if any.
  const pages = chosen === null ? (entry?.pages ?? {}) : {};
  const prebuilt = Object.entries(pages)
    .filter(([, sizes]) => (sizes[0] ?? 0) > 0)
    .map(([limit]) => Number(limit))
    .sort((a, b) => b - a)[0];
  throw badRequest(
    `series: this question reads the points of ${grouped(series)} sub-series of ${indicator} (${mib(bytes)}), over the ${mib(most)} one request may read; ` +
      `select at most about ${grouped(fitting)} sub-series (series, a list or a pattern such as prefix.*; they are listed at ${metadataPath(indicator)})` +
      (prebuilt !== undefined ? `, or ask a prebuilt page of every sub-series: limit and offset alone, such as ${withQuery(endpointPath(indicator), [["limit", String(prebuilt)]])}` : ""),
  );
}

/** The indices of the sub-series `series` selects (`null`: all). @throws ApiError naming an item that matches nothing. */
export function choose(indicator: string, ids: readonly string[], series: readonly string[] | null): number[] | null {
  if (series === null) return null;
  const { indices, unmatched } = resolveSelection(ids, series);
  if (unmatched[0] !== undefined) {
    throw badRequest(`series: ${quote(unmatched[0])} matches no sub-series of ${indicator}; they are listed at ${metadataPath(indicator)}`);
  }
  return indices;
}

/** A frequency shorter than a periodic indicator's rhythm has no period made of its points. */
function checkFrequency(parameter: string, indicator: string, source: AnswerView, query: PageQuery): void {
  if (query.frequency === null || source.stepwise) return;
  const rhythm = rhythmMonths(source.rhythm);
  if (rhythm !== undefined && rhythm > FREQUENCIES[query.frequency]) {
    const longer = Object.entries(FREQUENCIES).filter(([, months]) => months >= rhythm).map(([name]) => name);
    throw badRequest(`${parameter}: ${indicator} is ${source.rhythm}, each point the value of its period; frequency=${query.frequency} is shorter: use ${longer.join(", ")}`);
  }
}

/**
 * Answers the endpoint for `indicator` (the raw path segment); `now` is the clock
 * in milliseconds (`as_of` may not name a later day). Throws `ApiError` for 400 and 404.
 */
export async function serveIndicator(request: Request, indicator: string, assets: Assets, store: DataStore, now: number = Date.now()): Promise<Response> {
  const url = new URL(request.url);
  const manifest = await store.manifest(assets, url);
  const entry = manifestEntry(manifest, indicator);
  if (entry === undefined) throw unknownIndicator(indicator);
  const query = parseQuery(url.searchParams);
  const canonical = queryUrl(indicator, query);
  if (query.as_of !== null) checkNotAfterToday("as_of", query.as_of, now);

  const prebuilt = prebuiltPage(indicator, entry, query);
  if (prebuilt !== undefined) {
    // The ETag needs no body, so a 304 or a HEAD never reads the file.
    const headers = successHeaders(await answerEtag([entry.tag], canonical), entry.lastModified, { indicator, format: "json", next: prebuilt.next });
    return conditionalAnswer(request, headers, () => store.prebuilt(assets, new URL(prebuilt.path, url), prebuilt.bytes));
  }

  const self = await loadAt(indicator, entry, query.as_of, "as_of", (ids) => choose(indicator, ids, query.series), assets, store, url, isDerived(query) ? null : query.at);
  const { data, chosen } = self;
  if (!isDerived(query)) {
    const page =
      query.at === null
        ? selectPage(data.series, query, chosen, data.global)
        : selectAtPage(data.series, query, chosen, timeSource(data, self.lastModified));
    if (query.provenance !== null) checkProvenancePoints(page.slices.reduce((n, slice) => n + slice.end - slice.start, 0), page.slices.length);
    const headers = successHeaders(await answerEtag([self.tag], canonical), self.lastModified, described(indicator, data, page));
    return conditionalAnswer(request, headers, () => renderAnswer(data, page));
  }

  const used: Loaded[] = [self];
  // Another indicator (the divisor of per, the deflator of real) as it was published at as_of too.
  const load = async (id: string, parameter: string, series: string): Promise<Loaded | undefined> => {
    const other = manifestEntry(manifest, id);
    if (other === undefined) return undefined;
    const loaded = await loadAt(id, other, query.as_of, parameter, (ids) => resolveSelection(ids, [series]).indices, assets, store, url);
    // The indicator's own sub-series (a ratio of two of its own) reads its shard, not another version: one tag.
    if (id !== indicator) used.push(loaded);
    return loaded;
  };
  const inputs = await derivedInputs(indicator, self, chosen, query, manifest, load);
  const tooMuch = overBudget(inputs);
  if (tooMuch !== null) throw badRequest(budgetDetail(query, tooMuch));
  const page = derivePage(inputs);
  if (page.days.length > MAX_DERIVED_POINTS) {
    const series = new Set(page.series).size;
    const limit = Math.floor(MAX_DERIVED_POINTS / series);
    throw badRequest(
      `limit: this answer would hold ${grouped(page.days.length)} points, over the ${grouped(MAX_DERIVED_POINTS)} a derived answer may hold; ` +
        (limit >= 1 ? `ask for at most limit=${limit} per sub-series (and page with offset), or select fewer sub-series (series)` : `select at most ${grouped(MAX_DERIVED_POINTS)} sub-series (series)`),
    );
  }
  if (query.units === "index" && !page.baseFound) {
    throw badRequest(`base: no selected sub-series of ${indicator} has a value on ${query.base as string}${query.frequency === null ? "" : ` (frequency=${query.frequency})`}; choose a date the data covers`);
  }
  const lastModified = used.map((u) => u.lastModified).reduce((a, b) => (Date.parse(b) > Date.parse(a) ? b : a));
  const headers = successHeaders(await answerEtag(used.map((u) => u.tag), canonical), lastModified, described(indicator, data, page));
  return conditionalAnswer(request, headers, () => renderDerived(data, page));
}

/**
 * What a question about time is computed from: the indicator, the divisor of
 * `per`, the deflator of `real`.
 * @throws ApiError for a `per` or `real` that names nothing, or a frequency a periodic indicator cannot have.
 */
async function derivedInputs(
  indicator: string,
  self: Loaded,
  chosen: number[] | null,
  query: PageQuery,
  manifest: Manifest,
  load: (id: string, parameter: string, series: string) => Promise<Loaded | undefined>,
): Promise<DerivedInputs> {
  checkFrequency("frequency", indicator, self.data, query);
  let divisor: DerivedInputs["divisor"] = null;
  if (query.per !== null) {
    const { indicator: id, series } = query.per;
    const other = await load(id, "per", series);
    if (other === undefined) throw badRequest(`per: there is no indicator ${quote(id)}; the list is at ${CATALOG_PATH}`);
    const s = resolveSelection(other.data.ids, [series]).indices[0];
    if (s === undefined) throw badRequest(`per: ${quote(series)} is not a sub-series of ${id}; they are listed at ${metadataPath(id)}`);
    checkFrequency("per", id, other.data, query);
    divisor = { source: timeSource(other.data, other.lastModified), series: s };
  }
  let deflator: DerivedInputs["deflator"] = null;
  if (query.real !== null) {
    const ref = Object.hasOwn(manifest.deflators, self.data.unit) ? manifest.deflators[self.data.unit] : undefined;
    if (ref === undefined) {
      const units = Object.keys(manifest.deflators);
      throw badRequest(`real: ${indicator} is in ${self.data.unit}, not a currency any index deflates${units.length === 0 ? "" : ` (real applies to values in ${units.join(", ")})`}`);
    }
    const cpi = await load(ref.indicator, "real", ref.series);
    const s = cpi === undefined ? undefined : resolveSelection(cpi.data.ids, [ref.series]).indices[0];
    if (cpi === undefined || s === undefined) throw new Error(`the manifest's deflator of ${self.data.unit} (${ref.indicator}:${ref.series}) is not in the output`);
    const index = indexByMonth(cpi.data, s);
    deflator = deflatorAt(index, query.real);
    if (deflator === null) {
      const name = (m: number) => `${String(Math.floor(m / 12)).padStart(4, "0")}-${String((m % 12) + 1).padStart(2, "0")}`;
      throw badRequest(`real: ${ref.indicator} has no value for ${query.real}; it has months from ${name(index.first)} to ${name(index.first + index.values.length - 1)}`);
    }
  }
  return { source: timeSource(self.data, self.lastModified), chosen, query, divisor, deflator };
}

/**
 * An answer with \`provenance=true\` is written point by point from the answer file
 * (about 0.5 µs a point), not copied as one range: it holds at most as many points
 * as a derived answer, within the 10 ms of CPU of a request.
 * @throws ApiError naming \`provenance\` and how to narrow the question.
 */
function checkProvenancePoints(points: number, series: number): void {
  if (points <= MAX_DERIVED_POINTS) return;
  const limit = Math.floor(MAX_DERIVED_POINTS / Math.max(series, 1));
  throw badRequest(
    `provenance: this answer would hold ${grouped(points)} points, over the ${grouped(MAX_DERIVED_POINTS)} an answer with provenance may hold; ` +
      (limit >= 1 ? `ask for at most limit=${limit} per sub-series (and page with offset), or select fewer sub-series (series)` : `select at most ${grouped(MAX_DERIVED_POINTS)} sub-series (series)`),
  );
}

/** A whole number with thousands separated by commas (no Intl: the same text everywhere). */
const grouped = (n: number) => String(Math.round(n)).replace(/\B(?=(\d{3})+$)/g, ",");

/** The 400 of a question over the CPU budget: how big it is and how to narrow it. */
function budgetDetail(query: PageQuery, over: { work: number; series: number; fitting: number }): string {
  const name = query.frequency === null ? "series" : "frequency";
  const ways = [`at most ${grouped(over.fitting)} of the ${grouped(over.series)} sub-series (series)`];
  if (query.frequency !== null) ways.push("fewer years (from/to)", "a longer period (frequency)");
  return (
    `${name}: this question computes about ${grouped(over.work)} values, over the ${grouped(MAX_DERIVED_VALUES)} one request may compute ` +
    `(${(over.work / MAX_DERIVED_VALUES).toFixed(1)}× as many); narrow it: ${ways.join(", or ")}`
  );
}
