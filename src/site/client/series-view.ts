/**
 * What an indicator page shows for a selection of its sub-series, in one language:
 * the value in force (a card), the charts, the comparison across the compared facet,
 * the data table and the downloads of the selection, as HTML. The build renders the
 * default selection into the static page; the page script (src/site/client/series-page.ts)
 * renders the visitor's choice with this same code, so both always agree.
 *
 * - Indicators with a compared facet (`view.compare` in `indicator.json`) show,
 *   for the chosen values of the other facets, one
 *   line per value of the compared facet, the chosen one highlighted, and a table
 *   comparing them.
 * - Indicators without one show every sub-series, one chart per group of similar
 *   magnitude so that no line is flattened against the axis.
 *
 * Charts are honest about what the data says (src/site/client/chart.ts): steps for values
 * that hold until the next one, gaps where a point is missing, a zero as what the
 * indicator says it means (`display.zero`), notes marked.
 */
import { withQuery } from "../../core/text/url.js";
import { lineChart, seriesColor, seriesDash, type ChartPoint, type ChartSeries, type ChartText } from "./chart.js";
import { absenceDay, answeringRank, coverageEndDay, coverageRule, coveringRank, daySeries, gapsBetween, newestSuccessor, nextDueOf, onDates, publications, type CoverageRule, type Gap, type NextDue, type NextDueDay } from "../../core/time/coverage.js";
import type { Schedule } from "../../core/time/schedule.js";
import { Formatter } from "./format.js";
import { MESSAGES, type Messages } from "./messages/index.js";
import { addMonths, dateOfDay, dayNumber } from "../../core/time/dates.js";
import { html, raw, type SafeHtml } from "../../core/text/html.js";
import type { Display } from "../../core/indicator/display.js";
import type { Lang, Localized } from "../../core/text/i18n.js";
import { kindLabel, type KindOrNone } from "../../core/answer/source-kind-counts.js";
import { byCodeUnits } from "../../core/text/order.js";
import { derivedText } from "../../core/time/derive.js";
import { LIMIT } from "../../core/answer/contract.js";
import { csvEsPath, csvPath, endpointPath, seriesPagePath } from "../../core/file/paths.js";
import { questionUrl } from "./questions.js";
import { ADDRESS_ATTRIBUTE } from "./origin.js";
import type { SeriesRevisions } from "../../core/history/revised.js";

/** A sub-series with its labels and points (dates newest first, values as written). */
export interface ViewSeries {
  readonly id: string;
  readonly title: Localized;
  readonly facets: Readonly<Record<string, string>>;
  readonly dates: readonly string[];
  readonly values: readonly string[];
  /** The note of each point that has one, by date, in every language (`noteTranslations` in `indicator.json`). */
  readonly notes: Readonly<Record<string, Localized>>;
  /**
   * By date, the languages a point's note has no translation into: their pages
   * show it as written, in `display.noteLanguage`, and mark it so (`lang`). Absent: none.
   */
  readonly untranslated?: Readonly<Record<string, readonly Lang[]>>;
  /**
   * The kind of source of most of its points (src/core/answer/provenance.ts), and by date
   * the kind of the points whose kind differs: compact for the many sub-series
   * whose points all cite one kind. Absent: not known (a view made in a test).
   */
  readonly kind?: KindOrNone;
  readonly kindAt?: Readonly<Record<string, KindOrNone>>;
  /**
   * By date, the points whose value was revised after it was first published
   * (src/core/history/revised.ts): the day of the last change and the value before it,
   * as written. Absent: none (most sub-series), so their view files stay as they were.
   */
  readonly revised?: SeriesRevisions;
}

/** The kind of source of the point of `s` at `date`, or null when not known. */
export function pointKind(s: ViewSeries, date: string): KindOrNone | null {
  return s.kindAt?.[date] ?? s.kind ?? null;
}

/** A facet as `indicator.json` declares it: values in display order with their labels. */
export interface ViewFacet {
  readonly name: string;
  readonly title: Localized;
  readonly values: readonly { readonly value: string; readonly label: Localized }[];
}

/** Everything about an indicator the view needs besides the chosen language and selection. */
export interface ViewIndicator {
  readonly id: string;
  readonly title: Localized;
  readonly unit: string;
  readonly rhythm: string;
  readonly stepwise: boolean;
  /** What the numbers mean to a reader (`display` in `indicator.json`). */
  readonly display: Display;
  readonly facets: readonly ViewFacet[];
  /** The facet compared across (one line per value), or null. */
  readonly compare: string | null;
  /** The selection the page opens on (`view.default`), completed from the first sub-series. */
  readonly defaults: Selection;
  readonly series: readonly ViewSeries[];
  /**
   * The last look at the data (`YYYY-MM-DD`: the later of the recorded check and
   * the last change of points, src/core/time/schedule.ts `lookBound`): the rule of
   * coverage's bound (src/core/time/coverage.ts `versionEndDay`); a day after it is
   * answered as `answeringRankDay` says.
   */
  readonly version: string;
  /** What that look is made of, as the page says it: the recorded check (null: none) and the day the points last changed. */
  readonly look: { readonly check: { readonly day: string; readonly by: string } | null; readonly changed: string };
  /** When values are due (`schedule` in `indicator.json`); absent or null: none declared (the rhythm says when a successor is due). */
  readonly schedule?: Schedule | null;
  /**
   * The indicator's publications (every date with a point), ascending, when
   * `series` holds only some sub-series (the page script loads the group it
   * shows); absent: read from `series`.
   */
  readonly publications?: readonly string[];
  /** Its whole-indicator files are in yearly parts (docs/formats.md "Files within the host's limit"): no `data.csv` to link. */
  readonly inParts?: true;
  /** Every sub-series id, where `series` holds only some of them (a group read in part); absent: those of `series`. */
  readonly ids?: readonly string[];
  /** The `series` parameter naming a whole group (the build's, where `series` holds only some); absent: worked out from `series`. */
  readonly groupParameter?: (key: string) => string | null | undefined;
  /**
   * The most points any one sub-series of the indicator has (the build's, where
   * `series` holds only some): whether a download of every sub-series fits in
   * one answer of the API. Absent: worked out from `series`.
   */
  readonly longest?: number;
}

/** Every publication of the indicator, ascending. */
function publicationsOf(indicator: ViewIndicator): readonly string[] {
  return indicator.publications ?? publications(indicator.series.map((s) => s.dates));
}

/**
 * The group of sub-series a selection shows: those sharing its values of every
 * facet but the compared one, named by those values' indices in declaration
 * order ("3-1"); "all" for an indicator without a compared facet. The page
 * script loads one group's file at a time (`/_data/<indicator>/view/<key>.json`).
 */
export function groupKey(indicator: Pick<ViewIndicator, "facets" | "compare">, selection: Selection): string {
  if (indicator.compare === null) return "all";
  const others = indicator.facets.filter((f) => f.name !== indicator.compare);
  return others.length === 0 ? "all" : others.map((f) => String(Math.max(0, f.values.findIndex((v) => v.value === selection[f.name])))).join("-");
}

/** Chosen value per facet. */
export type Selection = Record<string, string>;

export interface ViewInput {
  readonly lang: Lang;
  readonly indicator: ViewIndicator;
  readonly selection: Selection;
  /**
   * The origin the API addresses shown as text (to copy into curl, a script or a
   * spreadsheet) are written with: the public one in the page the build writes,
   * the page's own where the page script renders (src/site/client/series-page.ts
   * `hereOrigin`). Links are paths, relative to whichever site serves the page.
   */
  readonly baseUrl: string;
  /**
   * The static files holding a download of `series` (null: every sub-series), when
   * the output has them: the build's, for the selection its page is written with
   * (src/builder/page-downloads.ts), so that a copy of the site answers every link of
   * its pages; absent, or undefined for a `series`: the API's address.
   */
  readonly files?: (series: string | null) => Partial<DownloadLinks> | undefined;
  /** Distinguishes the ids of a second rendering in the same document (the embed page has one only). */
  readonly idPrefix?: string;
  /** True on the embed page: links to the indicator page's parts go to its address. */
  readonly embedded?: boolean;
}

export interface View {
  /** The value in force of the selection (or of each sub-series in force). */
  readonly card: SafeHtml;
  /** The chart figures, each with both layouts, its legend and its gaps. */
  readonly charts: SafeHtml;
  /** The comparison across the compared facet (empty without one). */
  readonly compare: SafeHtml;
  /** Every point of the selection, newest first. */
  readonly table: SafeHtml;
  /** Download links, the API address and code snippets for the selection. */
  readonly downloads: SafeHtml;
  /** The ids of the sub-series drawn as lines. */
  readonly shown: readonly string[];
  /** The sub-series the selection points at (the highlighted one), if any. */
  readonly chosen: string | null;
  /** The sub-series on the cards: what the page's questions ("what applied on …?") ask about. */
  readonly carded: readonly string[];
  /** The downloads offered, narrowest first: what the build writes as static files for the page it writes. */
  readonly choices: readonly DownloadChoice[];
}

/** Keeps only known facet values; falls back to the indicator's default for the rest. */
export function normaliseSelection(indicator: ViewIndicator, wanted: Selection): Selection {
  const selection: Selection = { ...indicator.defaults };
  for (const facet of indicator.facets) {
    const value = wanted[facet.name];
    if (value !== undefined && facet.values.some((v) => v.value === value)) selection[facet.name] = value;
  }
  return selection;
}

/**
 * The default selection: `view.default`, and for a facet it leaves out, the value
 * of the first sub-series.
 */
export function defaultSelection(facets: readonly ViewFacet[], declared: Readonly<Selection>, series: readonly ViewSeries[]): Selection {
  const first = series[0];
  return Object.fromEntries(facets.map((f) => [f.name, declared[f.name] ?? first?.facets[f.name] ?? f.values[0]?.value ?? ""]));
}

/**
 * Most rows of the data table: twenty years of a monthly index (a phone scrolls
 * past every row; the 1,069 months of the CPI made a 570 KB page). The CSV
 * download and the API have every point, and the table says so.
 */
export const MAX_TABLE_ROWS = 240;
/**
 * Most points drawn per line: longer sub-series are thinned evenly (newest and
 * oldest kept). A chart is 720 units wide (360 on phones): 240 points are 3 units
 * apart, and each is a focusable marker in both layouts (the CPI's 1,069 months as
 * 500 markers per layout weighed 280 KB of the page).
 */
export const MAX_LINE_POINTS = 240;
/** Most lines in one chart, and most cards: an indicator of thousands of sub-series shows the first ones, and says so. */
export const MAX_LINES = 40;
export const MAX_CARDS = 6;
/** Charts with more points than this get no point markers (each is a focusable, titled circle). */
export const MAX_MARKED_POINTS = 1_000;

/** Groups sub-series whose typical values are within a factor of 20 of each other. */
export function magnitudeGroups(series: readonly ViewSeries[]): ViewSeries[][] {
  // Each sub-series' largest absolute value, computed once (the sort compares a sub-series many times).
  const typical = new Map(series.map((s) => [s, s.values.reduce((m, v) => Math.max(m, Math.abs(Number(v))), 0)]));
  const of = (s: ViewSeries) => typical.get(s) ?? 0;
  const sorted = [...series].filter((s) => s.dates.length > 0).sort((a, b) => of(b) - of(a));
  const groups: ViewSeries[][] = [];
  for (const s of sorted) {
    const group = groups.at(-1);
    const top = group?.[0];
    if (group !== undefined && top !== undefined && of(s) * 20 >= of(top)) group.push(s);
    else groups.push([s]);
  }
  // Within a group, the declared order (ids ascending) keeps colours stable.
  return groups.map((g) => g.sort((a, b) => byCodeUnits(a.id, b.id)));
}

/** The rule of coverage (src/core/time/coverage.ts) of an indicator's view: what its cards, answers and gaps say. */
export interface ViewCoverage {
  /** The rule, in day numbers. */
  readonly rule: CoverageRule;
  /** When a point's successor is due, on dates (the gaps). */
  readonly nextDue: NextDue;
  /** The indicator's newest publication ("" without points). */
  readonly end: string;
}

/** The rule of coverage of `indicator`: its rhythm over its publications, bounded by its data version. */
export function coverageOf(indicator: ViewIndicator): ViewCoverage {
  const published = publicationsOf(indicator);
  const end = published.at(-1) ?? "";
  const rule = coverageRule(indicator.rhythm, published.map(dayNumber), indicator.version, { stepwise: indicator.stepwise, schedule: indicator.schedule ?? null });
  return { rule, nextDue: onDates(rule.nextDue), end };
}

interface Context extends ViewCoverage {
  readonly lang: Lang;
  readonly m: Messages;
  readonly f: Formatter;
  readonly input: ViewInput;
  readonly prefix: string;
  /** What a 0 reads as, when the indicator gives it a meaning (`display.zero`); null: a 0 is a 0. */
  readonly zero: string | null;
}

/** The language of the note of `s` at `date` on this page when it is not the page's (no translation): null when it is. */
function noteLang(ctx: Context, s: ViewSeries, date: string): Lang | null {
  return s.untranslated?.[date]?.includes(ctx.lang) === true ? ctx.input.indicator.display.noteLanguage : null;
}

/** The note of `s` at `date` in the page's language, or as written and marked with its language (WCAG 3.1.2) when it has no translation. */
function noteText(ctx: Context, s: ViewSeries, date: string): SafeHtml | string {
  const text = s.notes[date]?.[ctx.lang] ?? "";
  const lang = noteLang(ctx, s, date);
  return lang === null ? text : html`<span lang="${lang}">${text}</span>`;
}

/** "fuente: prensa": the kind of source of the point of `s` at `date` in the page's language, or "" when not known. */
function kindText(ctx: Context, s: ViewSeries, date: string): string {
  const kind = pointKind(s, date);
  return kind === null ? "" : ctx.m.valueSource(kindLabel(kind)[ctx.lang]);
}

/** The kind of source of a point in an element of class `className` (the card's box, a table cell's line); empty when not known. */
function kindWords(ctx: Context, s: ViewSeries, date: string, className: string): SafeHtml | string {
  const text = kindText(ctx, s, date);
  return text === "" ? "" : html`<span class="${className}">${text}</span>`;
}

function valueText(ctx: Context, value: string): string {
  return ctx.zero !== null && Number(value) === 0 ? ctx.zero : ctx.f.value(value);
}

/**
 * What a revised point says ("revisado el 14 oct 2026; antes 118,13"): the day
 * its value last changed and the value before, formatted as the page formats
 * values; null for a point never revised (`ViewSeries.revised`).
 */
export function revisionText(ctx: Pick<Context, "m" | "f" | "zero">, s: ViewSeries, date: string): string | null {
  const revision = s.revised?.[date];
  return revision === undefined ? null : ctx.m.revisedOn(ctx.f.shortDate(revision[0]), valueText(ctx as Context, revision[1]));
}

/** The short mark beside a revised value ("rev."), its words in its title; empty for a point never revised. */
function revisionMark(ctx: Context, s: ViewSeries, date: string): SafeHtml | string {
  const text = revisionText(ctx, s, date);
  return text === null ? "" : html`<sup class="revised-mark" title="${text}">${ctx.m.revisedMark}</sup>`;
}

/** A revised point's words, shown under its value (a title is not read on a phone); empty for a point never revised. */
function revisionWords(ctx: Context, s: ViewSeries, date: string, className: string): SafeHtml | string {
  const text = revisionText(ctx, s, date);
  return text === null ? "" : html`<span class="${className}">${text}</span>`;
}

/**
 * The oldest rank of the run of equal values that ends at rank 0, for values
 * that hold until the next one: since when the value in force has held (a value
 * repeated by every publication since 2015 took effect in 2015). A gap in
 * coverage ends the run. Rank 0 for values of a period.
 */
export function heldSinceRank(s: ViewSeries, stepwise: boolean, nextDue: NextDueDay): number {
  if (!stepwise) return 0;
  let r = 0;
  while (r + 1 < s.dates.length && Number(s.values[r + 1]) === Number(s.values[r])) {
    const due = nextDue(dayNumber(s.dates[r + 1] as string));
    if (due !== null && due < dayNumber(s.dates[r] as string)) break;
    r++;
  }
  return r;
}

/** What a card knows of its newest point: since when it holds, until when it is known to, and why it ends. */
export interface Standing {
  /** The date the value took effect (the run's first point). */
  readonly since: string;
  /** The last day the value is known to cover, inclusive. */
  readonly until: string;
  /** `current`: covered up to the data's version; `replaced`: later publications leave it out; `ended`: its successor is due and not in the data. */
  readonly state: "current" | "replaced" | "ended";
  /** When the next value is due, if that is after the last check; else null. */
  readonly nextDue: string | null;
  /** When the next value was due, if that is on or before the last check (overdue); else null. */
  readonly overdueSince: string | null;
}

/**
 * The standing of sub-series `s`'s newest point by the rule of coverage (`coverageOf` its indicator):
 * whether it is replaced and when its successor is (or was) due by the one rule of due and overdue
 * (src/core/time/coverage.ts `newestSuccessor`, as status.json and the API's `meta.missing` say).
 */
export function standingOf(s: ViewSeries, stepwise: boolean, coverage: ViewCoverage): Standing | null {
  const date = s.dates[0];
  if (date === undefined) return null;
  const { rule } = coverage;
  const end = coverageEndDay(daySeries(s.dates), 0, rule);
  const since = s.dates[heldSinceRank(s, stepwise, rule.nextDue)] as string;
  const successor = newestSuccessor(rule, dayNumber(date));
  return {
    since,
    until: dateOfDay(end - 1),
    state: successor.state === "replaced" ? "replaced" : end >= rule.versionEnd ? "current" : "ended",
    nextDue: successor.state === "pending" ? dateOfDay(successor.due) : null,
    overdueSince: successor.state === "overdue" ? dateOfDay(successor.due) : null,
  };
}

/** What is known of how current the data are, in words: the recorded check, or that none is recorded and when the points last changed. */
function lookText(ctx: Context): string {
  const { check, changed } = ctx.input.indicator.look;
  return ctx.m.look(check === null ? null : { day: ctx.f.date(check.day), by: check.by }, ctx.f.date(changed));
}

/** Where the card links for what is known after the data ends: the declared note, or the notes. */
function endNoteHref(ctx: Context): string {
  const { display, id, schedule } = ctx.input.indicator;
  // The sentence that says what is due and when (site.ts `freshnessSentence`), where a schedule makes one; else the declared note.
  const anchor = schedule !== undefined && schedule !== null ? "freshness" : display.endNote === null ? "notes" : `note-${display.endNote + 1}`;
  return ctx.input.embedded === true ? `${seriesPagePath(id, ctx.lang)}#${anchor}` : `#${anchor}`;
}

/** What the card says of its date: in force since and until when it is known (effective dates), the period it refers to, or the date. */
function standingText(ctx: Context, s: ViewSeries, standing: Standing): SafeHtml {
  const { m, f } = ctx;
  const date = s.dates[0] as string;
  const version = lookText(ctx);
  const noteLink = html` <a href="${endNoteHref(ctx)}">${m.endNoteLink}</a>`;
  const effective = ctx.input.indicator.display.date === "effective";
  const lines: SafeHtml[] = [];
  if (standing.state === "replaced") {
    lines.push(html`${effective ? m.inForceFromTo(f.date(standing.since), f.date(standing.until)) : m.lastPublished(f.pointDate(date))} ${m.notInLater(f.pointDate(ctx.end))}`);
  } else if (effective) {
    lines.push(
      standing.state === "current"
        ? html`${m.inForceSince(f.date(standing.since))} ${m.checkedOn(version)}`
        : html`${m.inForceFromTo(f.date(standing.since), f.date(standing.until))} ${m.nextNotInData(version)}${noteLink}`,
    );
  } else {
    const said = ctx.input.indicator.display.date === "period" ? m.periodOf(f.pointDate(date)) : m.datedOn(f.date(date));
    // A period's value is followed by the next period's: say when that one is missing although its period is over.
    const next = ctx.nextDue(date);
    const nextOver = next === null ? null : ctx.nextDue(next);
    const missing = next !== null && nextOver !== null && nextOver <= ctx.input.indicator.version;
    lines.push(missing ? html`${said}. ${m.nextPeriodMissing(f.pointDate(next), version, ctx.input.indicator.display.date !== "period")}${noteLink}` : html`${said} ${m.checkedOn(version)}`);
  }
  if (standing.since !== date && standing.state !== "replaced") lines.push(html`${m.repeatedUntil(f.pointDate(date))}`);
  const fresh: SafeHtml[] = [];
  if (standing.nextDue !== null) fresh.push(html`${m.nextDueAround(f.date(standing.nextDue))}`);
  if (standing.overdueSince !== null) fresh.push(html`<strong class="overdue">${m.overdueSince(f.date(standing.overdueSince))}</strong>`);
  // The freshness lines are the page's: the embed's compact card leaves them out (its first line already says when the data end), keeping its chart in the frame.
  return html`${lines.map((line) => html`<span class="card-line">${line}</span> `)}${fresh.map((line) => html`<span class="card-line card-fresh">${line}</span> `)}`;
}

/** The change from `from` to `to` as "+$ 946 (+3,1 %)"; "sin cambios" when it is nothing at the decimals shown (never "+$ 0,00 (0 %)"). */
function changeText(ctx: Context, from: string, to: string): string {
  if (ctx.f.unchanged(from, to)) return ctx.m.noChange;
  const percent = ctx.f.percent(from, to);
  return percent === null ? ctx.f.change(from, to) : `${ctx.f.change(from, to)} (${percent})`;
}

/**
 * The card of one sub-series: its value, since when it holds and until when it
 * is known to, and its changes (against the value it replaced, and a year
 * before). A change against a point the data notes as out of line is marked as
 * such and listed last.
 */
function cardOf(ctx: Context, s: ViewSeries, heading: string, sub: string, extra: SafeHtml | string = ""): SafeHtml {
  const { m, f, lang } = ctx;
  const date = s.dates[0];
  const value = s.values[0];
  const standing = standingOf(s, ctx.input.indicator.stepwise, ctx);
  if (date === undefined || value === undefined || standing === null) {
    return html`<article class="card"><h2 class="card-title">${heading}</h2>${sub === "" ? "" : html`<p class="card-sub">${sub}</p>`}<p>${m.noDataSelection}</p></article>`;
  }
  const held = heldSinceRank(s, ctx.input.indicator.stepwise, ctx.rule.nextDue);
  const changes: { text: string; rank: number }[] = [];
  const previous = held + 1;
  const yearAgo = addMonths(date, -12);
  // The value covering the same day a year earlier (src/core/time/coverage.ts), not a point that happens to share the date.
  const k = coveringRank(s.dates, yearAgo, ctx.rule);
  const effective = ctx.input.indicator.display.date === "effective";
  const previousValue = s.values[previous];
  const previousDate = s.dates[previous];
  if (previousValue !== undefined && previousDate !== undefined) {
    // When the value replaced was also the one in force a year earlier, one line says both.
    const message = k === previous ? m.vsPreviousAndYearAgo : m.vsPrevious;
    changes.push({ text: message(changeText(ctx, previousValue, value), valueText(ctx, previousValue), f.pointShortDate(previousDate)), rank: previous });
  }
  const yearValue = k < 0 ? undefined : s.values[k];
  if (yearValue !== undefined && k > previous) {
    changes.push({ text: m.vsYearAgo(changeText(ctx, yearValue, value), valueText(ctx, yearValue), f.pointShortDate(yearAgo), effective), rank: k });
  }
  const notedAt = (rank: number) => s.notes[s.dates[rank] as string];
  // Changes against noted points last, each marked, its note said under the card.
  changes.sort((a, b) => Number(notedAt(a.rank) !== undefined) - Number(notedAt(b.rank) !== undefined));
  const lines = changes.map((c) =>
    notedAt(c.rank) === undefined ? html`<li>${c.text}</li>` : html`<li class="noted-change">${c.text}<sup class="note-mark">*</sup> ${m.againstNoted}</li>`,
  );
  const notes = [
    ...(s.notes[date] === undefined ? [] : [{ date, note: s.notes[date] }]),
    ...changes.filter((c) => notedAt(c.rank) !== undefined).map((c) => ({ date: s.dates[c.rank] as string, note: notedAt(c.rank) })),
  ];
  // Each note folded under its line ("* Note on the value of …"): the card stays short on a phone.
  const noteLines = notes.map(
    (n) => html`<details class="note"><summary><span class="note-mark">*</span> ${m.noteOf(f.pointShortDate(n.date))}</summary>${noteText(ctx, s, n.date)}</details>`,
  );
  const own = s.notes[date];
  return html`<article class="card card-${standing.state}" data-series="${s.id}">
<h2 class="card-title">${heading}</h2>${sub === "" ? "" : html`<p class="card-sub">${sub}</p>`}
<p class="card-value"><data value="${value}">${valueText(ctx, value)}</data>${revisionMark(ctx, s, date)}${own === undefined ? "" : html`<sup class="note-mark" title="${own[lang]}">*</sup>`}${kindWords(ctx, s, date, "card-kind")}</p>${revisionWords(ctx, s, date, "card-revised")}
<p class="card-since" data-since="${standing.since}" data-until="${standing.until}" data-state="${standing.state}">${standingText(ctx, s, standing)}</p>
${lines.length === 0 ? "" : html`<ul class="card-changes">${lines}</ul>`}${extra}${noteLines}
</article>`;
}

function chartText(ctx: Context): ChartText {
  return {
    axis: (n) => ctx.f.number(n),
    year: (y) => ctx.f.year(y),
    unit: ctx.input.indicator.display.unit?.[ctx.lang] ?? ctx.f.unitSymbol,
    zero: ctx.zero,
    noData: ctx.m.noDataSelection,
    note: ctx.m.noteLabel,
    logScale: ctx.m.logScale,
    logScaleDescription: ctx.m.logScaleDescription,
  };
}

/** The ranks of a line's `n` points drawn when it may draw `most`: every one, or evenly spaced ones, the newest and oldest among them. */
export function evenRanks(n: number, most: number): number[] {
  if (n <= most) return Array.from({ length: n }, (_, i) => i);
  const step = (n - 1) / (most - 1);
  return Array.from({ length: most }, (_, k) => Math.round(k * step));
}

function chartPoints(ctx: Context, s: ViewSeries): ChartPoint[] {
  return evenRanks(s.dates.length, MAX_LINE_POINTS).map((i) => {
    const date = s.dates[i] as string;
    const value = s.values[i] as string;
    return { date, value: Number(value), text: valueText(ctx, value), dateText: ctx.f.pointDate(date), note: s.notes[date]?.[ctx.lang] ?? null, noteLang: noteLang(ctx, s, date), kind: kindText(ctx, s, date) || null, revised: revisionText(ctx, s, date) };
  });
}

interface FigureInput {
  readonly key: string;
  readonly series: readonly ChartSeries[];
  readonly caption: string;
  readonly title: string;
  readonly description: string;
  readonly legend: SafeHtml;
  /** Labels of the sub-series whose gaps are listed (by id). */
  readonly gapLabels: ReadonlyMap<string, string>;
  /** The drawn sub-series with all their points, by id. */
  readonly full: ReadonlyMap<string, ViewSeries>;
}

function figure(ctx: Context, input: FigureInput): SafeHtml {
  const { m, f } = ctx;
  const thinned = input.series.some((c) => c.points.length < (input.full.get(c.id)?.dates.length ?? 0));
  const drawn = input.series.reduce((n, c) => n + c.points.length, 0);
  const options = {
    series: input.series,
    title: input.title,
    description: input.description,
    shape: ctx.input.indicator.stepwise ? ("step" as const) : ("line" as const),
    scale: ctx.input.indicator.display.scale,
    text: chartText(ctx),
    // Between thinned points every step would look like a gap: gaps are drawn only when every point is.
    nextDue: thinned ? () => null : ctx.nextDue,
    end: ctx.end,
    markers: drawn <= MAX_MARKED_POINTS,
  };
  const wide = lineChart({ ...options, layout: "wide", idPrefix: `${ctx.prefix}${input.key}-w` });
  const narrow = lineChart({ ...options, layout: "narrow", idPrefix: `${ctx.prefix}${input.key}-n` });
  const gaps: Gap[] = [...input.gapLabels.keys()].flatMap((id) => {
    // From all the points (a thinned line cannot tell them); the dates are newest first.
    const s = input.full.get(id);
    return s === undefined ? [] : gapsBetween(s.id, [...s.dates].reverse(), ctx.nextDue);
  });
  const gapList =
    gaps.length === 0
      ? ""
      : html`<details class="gaps"><summary>${m.gapsSummary(gaps.length)}</summary><p>${m.gapsIntro}</p><ul>${gaps.map(
          (g) => html`<li>${input.gapLabels.size > 1 ? `${input.gapLabels.get(g.series) ?? g.series}: ` : ""}${m.gapBetween(f.pointShortDate(g.after), f.pointShortDate(g.before))}</li>`,
        )}</ul></details>`;
  return html`<figure class="chart-figure" id="${ctx.prefix}figure-${input.key}">
<figcaption>${input.caption}</figcaption>
<div class="chart-box"><div class="chart-wide">${wide.svg}</div><div class="chart-narrow">${narrow.svg}</div><div class="chart-tooltip" hidden></div></div>
${input.legend}${gapList}
</figure>`;
}

/** The legend: each line's label after a sample of the line as the chart draws it, its colour and its dash (`seriesDash`). */
function legend(items: readonly { label: string; color: string; highlight?: boolean; dash?: string | null }[]): SafeHtml {
  return html`<ul class="legend">${items.map(
    (item) =>
      html`<li${raw(item.highlight === true ? ' class="highlight"' : "")}><svg class="swatch" viewBox="0 0 28 6" width="28" height="6" aria-hidden="true"><line x1="0" y1="3" x2="28" y2="3" stroke="${item.color}" stroke-width="6"${item.dash === undefined || item.dash === null ? "" : html` stroke-dasharray="${item.dash}"`}/></svg>${item.label}</li>`,
  )}</ul>`;
}

/** The declared nouns of the compared values and of a value, in the page's language (null: the messages' neutral words). */
function nouns(ctx: Context): { compared: string | null; value: string | null } {
  const { display } = ctx.input.indicator;
  return { compared: display.compared?.[ctx.lang] ?? null, value: display.value?.[ctx.lang] ?? null };
}

/** A facet's title in the page's language (its name when undeclared). */
function facetTitle(indicator: ViewIndicator, name: string, lang: Lang): string {
  return indicator.facets.find((f) => f.name === name)?.title[lang] ?? name;
}

/** The labels of a facet value in the page's language. */
function valueLabel(indicator: ViewIndicator, name: string, value: string | undefined, lang: Lang): string {
  if (value === undefined) return "";
  const facet = indicator.facets.find((f) => f.name === name);
  const found = facet?.values.find((v) => v.value === value);
  return found === undefined ? value : found.label[lang];
}

/**
 * The `series` parameter naming exactly `ids` among `all`: one id; or `*` and the
 * longest common suffix from a dot when it matches exactly these; or the list
 * (at most 100 items, the API's limit); null when none works.
 */
export function seriesParameter(ids: readonly string[], all: readonly string[]): string | null {
  if (ids.length === 1) return ids[0] as string;
  if (ids.length === 0) return null;
  let suffix = ids[0] as string;
  for (const id of ids) while (!id.endsWith(suffix)) suffix = suffix.slice(1);
  const dot = suffix.indexOf(".");
  if (dot >= 0) {
    const tail = suffix.slice(dot);
    const matched = all.filter((id) => id.endsWith(tail) && id.length > tail.length);
    if (matched.length === ids.length && matched.every((id) => ids.includes(id))) return `*${tail}`;
  }
  return ids.length <= 100 ? [...ids].sort(byCodeUnits).join(",") : null;
}

/** The most points of one sub-series among `series`. */
function longestOf(series: readonly ViewSeries[]): number {
  return series.reduce((max, s) => Math.max(max, s.dates.length), 0);
}

/** A download the page offers: what it holds, its `series` parameter (null: every sub-series) and the most points one of them has. */
export interface DownloadChoice {
  readonly label: string;
  readonly series: string | null;
  readonly longest: number;
}

/** Where a download is, as CSV, spreadsheet CSV and JSON: paths on the site serving the page (or `#h-downloads`). */
export interface DownloadLinks {
  readonly csv: string;
  readonly sheet: string;
  readonly json: string;
}

/** The API path of `series` (null: every sub-series) with `params` after it, in the API's canonical order. */
function apiPath(indicator: string, series: string | null, params: readonly [string, string][]): string {
  return withQuery(endpointPath(indicator), [...(series === null ? [] : [["series", series] as [string, string]]), ...params]);
}

/**
 * The whole history of a choice as CSV, spreadsheet CSV and JSON, as the API
 * answers it. The API gives `limit` points per sub-series, 500 unless asked
 * (docs/api.md): a download asks for the most it allows, so no link stops at 500
 * points without saying so (the CPI has more than a thousand months). Where some
 * chosen sub-series has more points than even that, the CSV links are the
 * indicator's static whole files (`data.csv`, `data.es.csv`: every sub-series,
 * every point), or for an indicator whose files are in yearly parts the page's
 * list of them, and the JSON pages (`meta.next`).
 */
function downloadPaths(ctx: Context, choice: DownloadChoice): DownloadLinks {
  const { indicator } = ctx.input;
  const limit: [string, string] = ["limit", String(LIMIT.max)];
  const json = apiPath(indicator.id, choice.series, [limit]);
  if (choice.longest > LIMIT.max) {
    if (indicator.inParts === true) return { csv: "#h-downloads", sheet: "#h-downloads", json };
    return { csv: csvPath(indicator.id), sheet: csvEsPath(indicator.id), json };
  }
  return {
    csv: apiPath(indicator.id, choice.series, [limit, ["format", "csv"]]),
    // The spreadsheet CSV (`dialect=es`, docs/api.md "CSV for spreadsheets").
    sheet: apiPath(indicator.id, choice.series, [limit, ["format", "csv"], ["dialect", "es"]]),
    json,
  };
}

/** A download's addresses as text, absolute (to copy): the API's paths after the view's origin; a fragment stays as it is. */
function downloadTexts(ctx: Context, choice: DownloadChoice): DownloadLinks {
  const paths = downloadPaths(ctx, choice);
  const absolute = (path: string) => (path.startsWith("/") ? `${ctx.input.baseUrl}${path}` : path);
  return { csv: absolute(paths.csv), sheet: absolute(paths.sheet), json: absolute(paths.json) };
}

/** Downloads and code snippets for the chosen `series` parameters (first: the narrowest). */
function downloads(ctx: Context, choices: readonly DownloadChoice[]): SafeHtml {
  const { m, prefix } = ctx;
  const { csv, sheet, json } = downloadTexts(ctx, choices[0] ?? { label: "", series: null, longest: 0 });
  const snippets: [string, string, string][] = [
    ["curl", "curl", `curl '${csv}'`],
    ["js", "JavaScript (fetch)", `const response = await fetch("${json}");\nconst { data, meta } = await response.json();\n// data: [{ date, series, value }], newest first; meta.next: the next page or null`],
    ["python", "Python (pandas)", `import pandas as pd\n\ndf = pd.read_csv("${csv}", parse_dates=["date"])`],
    ["r", "R", `df <- read.csv("${csv}")\ndf$date <- as.Date(df$date)`],
  ];
  return html`<ul class="downloads">${choices.map((c) => {
    const urls = { ...downloadPaths(ctx, c), ...ctx.input.files?.(c.series) };
    return html`<li>${c.label}: <a href="${urls.csv}" download>CSV</a> · <a href="${urls.sheet}" download>${m.spreadsheetLink}</a> · <a href="${urls.json}">JSON</a></li>`;
  })}</ul>
<p>${m.apiAddress}</p>
${copyable(`${prefix}api-url`, json, m.copy)}
<details class="fold"><summary>${m.spreadsheetHeading}</summary>
<p>${m.spreadsheetIntro}</p>
<p>${m.spreadsheetExcel}</p>
${copyable(`${prefix}sheet-url`, sheet, m.copy)}
<p>${m.spreadsheetSheets}</p>
${copyable(`${prefix}sheet-formula`, html`=IMPORTDATA("${sheet}"; ";"; "es_UY")`, m.copy)}
</details>
<details class="fold"><summary>${m.snippetsHeading}</summary>
<p>${m.snippetsIntro}</p>
${snippets.map(
  ([key, name, code]) => html`<div class="snippet"><p class="snippet-name">${name}</p>${copyable(`${prefix}snippet-${key}`, code, m.copyCode(name))}</div>`,
)}</details>`;
}

/**
 * The change of point `i` of `s` on the value covering the same day a year
 * earlier (the rule of coverage, as the card's), "—" when none does or it is 0;
 * marked "*" when that earlier point has a note.
 */
function yearOnYear(ctx: Context, s: ViewSeries, i: number): SafeHtml | string {
  const date = s.dates[i] as string;
  const k = coveringRank(s.dates, addMonths(date, -12), ctx.rule);
  const percent = k <= i ? null : ctx.f.percent(s.values[k] as string, s.values[i] as string);
  if (percent === null) return "—";
  return s.notes[s.dates[k] as string] === undefined ? percent : html`${percent}<sup class="note-mark">*</sup>`;
}

/** A data table: date, optionally the sub-series, value (and the note under it), the change on a year earlier. */
function dataTable(ctx: Context, series: readonly ViewSeries[], withSeries: boolean, caption: string): SafeHtml {
  const { m, f, lang } = ctx;
  const rows = series
    .flatMap((s) => s.dates.slice(0, MAX_TABLE_ROWS).map((date, i) => ({ s, i, date, value: s.values[i] as string, note: s.notes[date] })))
    .sort((a, b) => byCodeUnits(b.date, a.date) || byCodeUnits(a.s.id, b.s.id));
  const total = series.reduce((n, s) => n + s.dates.length, 0);
  const shown = rows.slice(0, MAX_TABLE_ROWS);
  const more = total > shown.length ? html`<p class="note">${m.tableTruncated(f.number(shown.length), f.number(total))}</p>` : "";
  return html`<table class="data">
<caption>${caption}</caption>
<thead><tr><th scope="col">${m.date}</th>${withSeries ? html`<th scope="col">${m.subSeries}</th>` : ""}<th scope="col" class="num">${m.value}</th><th scope="col" class="num">${m.yearOnYear}</th></tr></thead>
<tbody>${shown.map(
    (r) => html`<tr${raw(r.note === undefined ? "" : ' class="noted"')}><td class="date"><time datetime="${r.date}">${f.pointShortDate(r.date)}</time></td>${
      withSeries ? html`<td>${r.s.title[lang]}</td>` : ""
    }<td class="num"><data value="${r.value}">${valueText(ctx, r.value)}</data>${revisionMark(ctx, r.s, r.date)}${
      r.note === undefined ? "" : html`<sup class="note-mark">*</sup><span class="cell-note">${m.noteLabel}: ${noteText(ctx, r.s, r.date)}</span>`
    }${revisionWords(ctx, r.s, r.date, "cell-revised")}${kindWords(ctx, r.s, r.date, "cell-kind")}</td><td class="num">${yearOnYear(ctx, r.s, r.i)}</td></tr>`,
  )}</tbody>
</table>${more}`;
}

/** The sortable comparison across the compared facet, the chosen value pinned on top. */
function compareTable(ctx: Context, shown: readonly ViewSeries[], compare: string, chosenId: string | null, context: string): SafeHtml {
  const { m, f, lang, input } = ctx;
  const title = facetTitle(input.indicator, compare, lang);
  const rows = shown
    .filter((s) => s.dates.length > 0)
    .map((s) => {
      const first = s.values.at(-1) as string;
      const last = s.values[0] as string;
      const change = Number(first) === 0 ? null : (Number(last) - Number(first)) / Number(first);
      return { s, first, firstDate: s.dates.at(-1) as string, last, lastDate: s.dates[0] as string, change };
    })
    // Those in the latest publication first, lowest value first; the chosen row stays on top whatever the order.
    .sort((a, b) => Number(b.lastDate === ctx.end) - Number(a.lastDate === ctx.end) || Number(a.last) - Number(b.last) || byCodeUnits(a.s.id, b.s.id));
  const pinned = rows.filter((r) => r.s.id === chosenId);
  const others = rows.filter((r) => r.s.id !== chosenId);
  const cell = (value: string, date: string) =>
    html`<td class="num" data-sort-value="${value}"><data value="${value}">${valueText(ctx, value)}</data><small>${f.pointShortDate(date)}</small></td>`;
  const row = (r: (typeof rows)[number], isPinned: boolean) => {
    const name = valueLabel(input.indicator, compare, r.s.facets[compare], lang);
    return html`<tr${raw(isPinned ? ' class="pinned"' : "")} data-series="${r.s.id}"><th scope="row" data-sort-value="${name}">${name}${
      isPinned ? html` <span class="pin">${m.chosen}</span>` : ""
    }${r.lastDate === ctx.end ? "" : html` <small class="ended">${m.notInLatest}</small>`}</th>${cell(r.first, r.firstDate)}${cell(r.last, r.lastDate)}<td class="num" data-sort-value="${
      r.change === null ? "" : String(r.change)
    }">${r.change === null ? "—" : html`${f.change(r.first, r.last)}<small>${f.percent(r.first, r.last) ?? ""}</small>`}</td></tr>`;
  };
  const sortButton = (key: string, text: string, numeric: boolean) =>
    html`<button type="button" class="sort" data-sort="${key}" data-numeric="${numeric ? "1" : "0"}">${text}<span class="sort-mark" aria-hidden="true"></span></button>`;
  return html`<table class="compare" id="${ctx.prefix}compare-table">
<caption>${m.compareCaption(context, f.number(rows.length), nouns(ctx).compared, title)}</caption>
<thead><tr><th scope="col">${sortButton("0", title, false)}</th><th scope="col" class="num">${sortButton("1", m.firstPrice, true)}</th><th scope="col" class="num" aria-sort="ascending">${sortButton("2", m.latestPrice, true)}</th><th scope="col" class="num">${sortButton("3", m.nominalChange, true)}</th></tr></thead>
<tbody>${pinned.map((r) => row(r, true))}${others.map((r) => row(r, false))}</tbody>
</table>`;
}

function comparedView(ctx: Context, compare: string): View {
  const { m, lang, input } = ctx;
  const { indicator, selection } = input;
  const others = indicator.facets.map((f) => f.name).filter((name) => name !== compare);
  const shown = indicator.series.filter((s) => others.every((name) => s.facets[name] === selection[name]));
  const chosen = shown.find((s) => s.facets[compare] === selection[compare]) ?? null;
  const chosenLabel = valueLabel(indicator, compare, selection[compare], lang);
  const context = others.map((name) => valueLabel(indicator, name, selection[name], lang)).join(" · ");

  // The card: the chosen sub-series, with its rank among those in the latest publication.
  const latest = shown.reduce((max, s) => (s.dates[0] !== undefined && s.dates[0] > max ? s.dates[0] : max), "");
  let rank: SafeHtml | string = "";
  const value = chosen?.values[0];
  if (chosen !== null && value !== undefined && chosen.dates[0] === latest) {
    const peers = shown.filter((s) => s.dates[0] === latest).map((s) => Number(s.values[0]));
    const position = 1 + peers.filter((v) => v < Number(value)).length;
    const tied = peers.filter((v) => v === Number(value)).length - 1;
    rank = html`<p class="card-rank">${m.rank(position, peers.length, ctx.f.pointShortDate(latest), nouns(ctx).value, tied)}</p>`;
  }
  const card = () =>
    chosen === null
      ? html`<article class="card"><h2 class="card-title">${chosenLabel}</h2><p class="card-sub">${context}</p><p>${m.noDataSelection}</p></article>`
      : cardOf(ctx, chosen, chosenLabel, context, rank);

  // The chosen line first: it takes the palette's first colour.
  const ordered = (chosen === null ? shown : [chosen, ...shown.filter((s) => s !== chosen)]).slice(0, MAX_LINES);
  const chartSeries: ChartSeries[] = ordered.map((s) => ({
    id: s.id,
    label: valueLabel(indicator, compare, s.facets[compare], lang),
    points: chartPoints(ctx, s),
    highlight: s === chosen,
  }));
  const title = facetTitle(indicator, compare, lang);
  const charts = () => figure(ctx, {
    key: "main",
    series: chartSeries,
    caption: m.compareChartCaption(context, chosenLabel, nouns(ctx).value, title),
    title: `${indicator.title[lang]}: ${context}`,
    description: m.compareChartDescription(shown.length, title, chosenLabel),
    legend: legend([
      { label: chosenLabel, color: seriesColor(0), highlight: true },
      { label: m.otherValues, color: "#b8b8b8" },
    ]),
    gapLabels: new Map(chosen === null ? [] : [[chosen.id, chosenLabel]]),
    full: new Map(ordered.map((s) => [s.id, s])),
  });
  const all = indicator.series.map((s) => s.id);
  const choices: DownloadChoice[] = [
    ...(chosen === null ? [] : [{ label: m.downloadChosen(chosenLabel, context), series: chosen.id, longest: chosen.dates.length }]),
    {
      label: m.downloadCompared(context, nouns(ctx).compared, title),
      series: indicator.groupParameter?.(groupKey(indicator, selection)) ?? seriesParameter(shown.map((s) => s.id), all),
      longest: longestOf(shown),
    },
    { label: m.downloadAll, series: null, longest: indicator.longest ?? longestOf(indicator.series) },
  ];
  return lazyView(
    {
      card,
      charts,
      compare: () => compareTable(ctx, shown, compare, chosen?.id ?? null, context),
      table: () => dataTable(ctx, chosen === null ? [] : [chosen], false, chosen === null ? m.noDataSelection : `${chosenLabel} · ${context}`),
      downloads: () => downloads(ctx, choices),
    },
    { shown: shown.map((s) => s.id), chosen: chosen?.id ?? null, carded: chosen === null ? [] : [chosen.id], choices },
  );
}

function plainView(ctx: Context): View {
  const { m, lang, input, f } = ctx;
  const { indicator } = input;
  // Largest first (the monthly wage before the hourly one), as the charts are grouped.
  const current = indicator.series.filter((s) => s.dates[0] === ctx.end);
  const inForce = magnitudeGroups(current.slice(0, MAX_LINES)).flat();
  const more = (shown: number, total: number) => (shown < total ? html`<p class="note">${m.firstOf(f.number(shown), f.number(total))}</p>` : "");
  const card = () => html`<div class="cards">${inForce.slice(0, MAX_CARDS).map((s) => cardOf(ctx, s, s.title[lang], ""))}</div>${more(Math.min(MAX_CARDS, current.length), current.length)}`;
  const drawable = indicator.series.filter((s) => s.dates.length > 0);
  const groups = magnitudeGroups(drawable.slice(0, MAX_LINES));
  const figures = () => groups.map((group, g) => {
    const titles = group.map((s) => s.title[lang]);
    return figure(ctx, {
      key: String(g + 1),
      series: group.map((s) => ({ id: s.id, label: s.title[lang], points: chartPoints(ctx, s) })),
      // The legend names every line; the caption, the one in force (or the newest).
      caption: (group.find((s) => s.dates[0] === ctx.end) ?? group[0] ?? { title: indicator.title }).title[lang],
      title: `${indicator.title[lang]}: ${titles.join("; ")}`,
      description: group
        .map((s) => m.seriesSummary(s.title[lang], s.dates.length, f.pointShortDate(s.dates.at(-1) as string), f.pointShortDate(s.dates[0] as string), valueText(ctx, s.values[0] as string)))
        .join(" "),
      legend: legend(group.map((s, i) => ({ label: s.title[lang], color: seriesColor(i), dash: seriesDash(i) }))),
      gapLabels: new Map(group.map((s) => [s.id, s.title[lang]])),
      full: new Map(group.map((s) => [s.id, s])),
    });
  });
  const choices = [{ label: m.downloadAll, series: null, longest: indicator.longest ?? longestOf(indicator.series) }];
  return lazyView(
    {
      card,
      charts: () => html`${figures()}${more(Math.min(MAX_LINES, drawable.length), drawable.length)}`,
      compare: () => html``,
      // The table holds the points of the drawn sub-series (all of them, unless there are more than MAX_LINES).
      table: () => dataTable(ctx, drawable.slice(0, MAX_LINES), true, indicator.title[lang]),
      downloads: () => downloads(ctx, choices),
    },
    { shown: groups.flat().map((s) => s.id), chosen: null, carded: inForce.slice(0, MAX_CARDS).map((s) => s.id), choices },
  );
}

/** The parts of a view that are markup: each made when first read. */
type ViewParts = Pick<View, "card" | "charts" | "compare" | "table" | "downloads">;

/**
 * A view whose markup is made when first read, once: what shows some of it makes
 * only that (an embed page: the card and the chart; the page's list of downloads:
 * the choices alone). The build renders thousands of such pages.
 */
function lazyView(make: { readonly [K in keyof ViewParts]: () => SafeHtml }, rest: Omit<View, keyof ViewParts>): View {
  const made: Partial<Record<keyof ViewParts, SafeHtml>> = {};
  const part = (name: keyof ViewParts): SafeHtml => (made[name] ??= make[name]());
  return {
    ...rest,
    get card() {
      return part("card");
    },
    get charts() {
      return part("charts");
    },
    get compare() {
      return part("compare");
    },
    get table() {
      return part("table");
    },
    get downloads() {
      return part("downloads");
    },
  };
}

/** A line of a derived chart (a question's answer): its label and points, newest first. */
export interface DerivedLine {
  readonly id: string;
  readonly label: string;
  readonly points: readonly { readonly date: string; readonly value: number; readonly text: string }[];
}

/**
 * The rule of coverage a derived chart is drawn by: the indicator's own, or for an
 * answer of one value per calendar period (`period`, the rhythm of a `frequency`:
 * "monthly" for `frequency=month`) each point covering exactly its period, the
 * newest one ending with it (a month in pesos of a later month is not in force after
 * that month: the next month's value is another number).
 */
function derivedCoverage(ctx: Context, lines: readonly DerivedLine[], period: string | null): Pick<Context, "nextDue" | "end"> {
  if (period === null) return { nextDue: ctx.nextDue, end: ctx.end };
  const nextDue = nextDueOf(period, []);
  const newest = lines.reduce((last, line) => (line.points[0] !== undefined && line.points[0].date > last ? line.points[0].date : last), "");
  return { nextDue, end: newest === "" ? "" : (nextDue(newest) ?? "") };
}

/**
 * The values a derived chart draws, as a table (folded under it): one row per date,
 * newest first, one column per line, each value in the text its tooltip shows; the
 * newest MAX_TABLE_ROWS dates, as the page's data table (a daily answer in full would
 * make the page megabytes).
 */
function derivedTable(ctx: Context, members: readonly DerivedLine[], dates: Formatter, caption: string): SafeHtml {
  const { m, f } = ctx;
  const byDate = new Map<string, Map<string, { value: number; text: string }>>();
  for (const line of members) {
    for (const p of line.points) {
      const row = byDate.get(p.date) ?? new Map<string, { value: number; text: string }>();
      row.set(line.id, p);
      byDate.set(p.date, row);
    }
  }
  const all = [...byDate.keys()].sort((a, b) => byCodeUnits(b, a));
  const shown = all.slice(0, MAX_TABLE_ROWS);
  const more = all.length > shown.length ? html`<p class="note">${m.chartTableTruncated(f.number(shown.length), f.number(all.length))}</p>` : "";
  const cell = (p: { value: number; text: string } | undefined) => (p === undefined ? html`<td class="num"></td>` : html`<td class="num"><data value="${derivedText(p.value) ?? ""}">${p.text}</data></td>`);
  return html`<details class="fold chart-values"><summary>${m.showChartValues}</summary><div class="table-wrap"><table class="data">
<caption>${caption}</caption>
<thead><tr><th scope="col">${m.date}</th>${members.map((line) => html`<th scope="col" class="num">${members.length > 1 ? line.label : m.value}</th>`)}</tr></thead>
<tbody>${shown.map((date) => html`<tr><td class="date"><time datetime="${date}">${dates.pointShortDate(date)}</time></td>${members.map((line) => cell(byDate.get(date)?.get(line.id)))}</tr>`)}</tbody>
</table></div>${more}</details>`;
}

/** How a derived chart is drawn besides its lines: the caption, the value axis's unit, and the period of one value per period (`derivedCoverage`), with the sentence that says so. */
export interface DerivedChart {
  readonly caption: string;
  readonly unit: string;
  /** The rhythm of an answer of one value per calendar period ("monthly"), or null: its points are the indicator's. */
  readonly period: string | null;
  /** What the chart shows, said in words for its text alternative (`<desc>`) as under it; null: the caption says it. */
  readonly about: string | null;
}

/**
 * The chart of a question's answer (src/site/client/questions.ts), drawn like the
 * page's own (both layouts, steps for stepwise values, gaps by the rule of
 * coverage, or each point its period: `derivedCoverage`) with `chart.unit` on the
 * value axis, every value as `text` says, in the chart's tooltip and in the table
 * of its values under it.
 */
export function derivedFigure(input: ViewInput, lines: readonly DerivedLine[], chart: DerivedChart): SafeHtml {
  const base = contextOf(input);
  const ctx: Context = { ...base, ...derivedCoverage(base, lines, chart.period) };
  const { indicator } = input;
  const dates = chart.period === null ? ctx.f : Formatter.of(input.lang, indicator.unit, indicator.display, indicator.rhythm, chart.period);
  const byId = new Map(lines.map((line) => [line.id, line]));
  // Lines of different magnitudes (a monthly and an hourly wage) in separate charts, as the page's own.
  const groups = magnitudeGroups(lines.map((line) => ({ id: line.id, title: { es: line.label, en: line.label }, facets: {}, dates: line.points.map((p) => p.date), values: line.points.map((p) => String(p.value)), notes: {} })));
  const figures = groups.map((group, g) => {
    const members = group.map((s) => byId.get(s.id) as DerivedLine);
    const chartLines: ChartSeries[] = members.map((line) => ({
      id: line.id,
      label: line.label,
      points: line.points.map((p) => ({ date: p.date, value: p.value, text: p.text, dateText: dates.pointDate(p.date), note: null })),
    }));
    const title = `${indicator.title[input.lang]}: ${chart.caption}`;
    const shown = figure(
      { ...ctx, zero: null, input: { ...input, indicator: { ...indicator, display: { ...indicator.display, unit: { es: chart.unit, en: chart.unit } } } } },
      {
        key: `question-${String(g + 1)}`,
        series: chartLines,
        caption: chart.caption,
        title,
        description: chart.about === null ? chart.caption : `${chart.caption}. ${chart.about}`,
        legend: legend(members.map((line, i) => ({ label: line.label, color: seriesColor(i), dash: seriesDash(i) }))),
        gapLabels: new Map(),
        full: new Map(),
      },
    );
    return html`${shown}${chart.about === null ? "" : html`<p class="note chart-about">${chart.about}</p>`}${derivedTable(ctx, members, dates, title)}`;
  });
  return html`${figures}`;
}

function contextOf(input: ViewInput): Context {
  const { indicator } = input;
  return {
    ...coverageOf(indicator),
    lang: input.lang,
    m: MESSAGES[input.lang],
    f: Formatter.of(input.lang, indicator.unit, indicator.display, indicator.rhythm),
    input,
    prefix: input.idPrefix ?? "",
    zero: indicator.display.zero?.[input.lang] ?? null,
  };
}

/** Renders the view of `input.selection` in `input.lang`. */
export function renderView(input: ViewInput): View {
  const ctx = contextOf(input);
  const { indicator } = input;
  return indicator.compare === null ? plainView(ctx) : comparedView(ctx, indicator.compare);
}

/**
 * The answer to "what applied on `date`?" for the sub-series `ids`: each one's
 * value covering that day by the rule of coverage (src/core/time/coverage.ts, the rule
 * the API's `at` applies), with since when it held, or that nothing covers it;
 * and the one API address that answers the same (`series=…&at=…`).
 */
export function valueOnDate(input: ViewInput, ids: readonly string[], date: string): SafeHtml {
  const ctx = contextOf(input);
  const { m, f, lang } = ctx;
  const { indicator } = input;
  const chosen = ids.map((id) => indicator.series.find((s) => s.id === id)).filter((s): s is ViewSeries => s !== undefined);
  // A day after the last check: the value in force at the check while its successor is not due, said so.
  const afterCheck = dayNumber(date) >= ctx.rule.versionEnd;
  const items = chosen.map((s) => {
    const rank = answeringRank(s.dates, date, ctx.rule);
    if (rank < 0) return html`<li data-series="${s.id}" class="no-value">${s.title[lang]}: ${absenceText(ctx, s, date)}</li>`;
    const value = s.values[rank] as string;
    const held = heldSinceRank({ ...s, dates: s.dates.slice(rank), values: s.values.slice(rank) }, indicator.stepwise, ctx.rule.nextDue) + rank;
    const since = indicator.display.date === "period" ? m.periodOf(f.pointDate(s.dates[rank] as string)) : m.heldSince(f.date(s.dates[held] as string));
    // The point's own kind of source and note travel with it (a doubtful start date is said where the date is answered).
    const pointDate = s.dates[rank] as string;
    const kind = kindText(ctx, s, pointDate);
    const note = s.notes[pointDate] === undefined ? "" : html`<br><span class="answer-note"><span class="note-mark">*</span> ${m.noteLabel}: ${noteText(ctx, s, pointDate)}</span>`;
    const checked = afterCheck ? `; ${m.inForceAtCheck(lookText(ctx))}` : "";
    const revised = revisionText(ctx, s, pointDate);
    return html`<li data-series="${s.id}">${s.title[lang]}: <strong><data value="${value}">${valueText(ctx, value)}</data></strong>${s.notes[pointDate] === undefined ? "" : html`<sup class="note-mark">*</sup>`} (${since}${checked}${kind === "" ? "" : `; ${kind}`}${revised === null ? "" : `; ${revised}`})${note}</li>`;
  });
  const series = seriesParameter(chosen.map((s) => s.id), indicator.ids ?? indicator.series.map((s) => s.id)) ?? "";
  const path = questionUrl(indicator.id, series, { at: date });
  return html`<p>${m.valueOnHeading(f.date(date))}</p><ul class="answer">${items}</ul>${apiEquivalent(m, input.baseUrl, [path])}`;
}

/** Why sub-series `s` has no value on `date` (src/core/time/coverage.ts `absenceDay`): before its first, overdue, ended, or not known yet. */
function absenceText(ctx: Context, s: ViewSeries, date: string): string {
  const { m, f } = ctx;
  const a = absenceDay(daySeries(s.dates), dayNumber(date), ctx.rule);
  if (a.reason === "before_first" || a.last === null) return m.noValueOn;
  const last = f.pointDate(dateOfDay(a.last));
  const checked = lookText(ctx);
  if (a.reason === "overdue" && a.due !== null) return m.missingOverdue(last, f.date(dateOfDay(a.due)), checked);
  if (a.reason === "ended" && a.due !== null) return m.missingEnded(last, f.date(dateOfDay(a.due)));
  return m.missingPending(last, a.due === null ? null : f.date(dateOfDay(a.due)), checked);
}

/**
 * "The same answer from the API:" and the addresses that give it, then `after`
 * (text): each a link to its path on the site serving the page, whose text is the
 * whole address after `origin` (the page's own: src/site/client/origin.ts), to copy.
 */
export function apiEquivalent(m: Messages, origin: string, paths: readonly string[], after = ""): SafeHtml {
  return html`<p class="api-equivalent">${m.sameInApi} ${paths.map((path, i) => html`${i === 0 ? "" : " "}<a href="${path}"><code>${origin}${path}</code></a>`)}${after}</p>`;
}

/**
 * A text a reader copies (an address, a formula, a snippet, the embed code) and its
 * copy button: marked as holding this site's addresses, which the page script
 * rewrites to the origin serving the page (src/site/client/origin.ts).
 */
export const copyable = (id: string, text: string | SafeHtml, label: string): SafeHtml =>
  html`<pre><code id="${id}" ${raw(ADDRESS_ATTRIBUTE)}>${text}</code></pre>
<button type="button" data-copy="${id}" hidden>${label}</button>`;
