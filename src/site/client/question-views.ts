/**
 * What the page's questions about time show, answered by the API's own code
 * (src/site/client/questions.ts): the chart in other terms, the change since a
 * date, and the calculator "$ X of a month are $ Y of the latest"; each answer
 * with the API addresses that give the same numbers. Built like the view
 * (src/site/client/series-view.ts): small functions that take the questions'
 * context and return what they render; the page script (src/site/client/series-page.ts)
 * loads what they read and puts what they return on the page.
 */
import type { Frequency } from "../../core/answer/contract.js";
import { derivedText, type Deflator } from "../../core/time/derive.js";
import type { Display } from "../../core/indicator/display.js";
import { html, type SafeHtml } from "../../core/text/html.js";
import type { Lang, Localized } from "../../core/text/i18n.js";
import { Formatter } from "./format.js";
import { MESSAGES, type Messages } from "./messages/index.js";
import { answer, questionUrl, type Question, type Rhythm } from "./questions.js";
import { apiEquivalent, derivedFigure, type Selection, type ViewIndicator, type ViewSeries } from "./series-view.js";

/** One sub-series of an indicator as the page script finds it (site.ts `seriesRef`). */
export interface SeriesRef {
  readonly indicator: string;
  readonly series: string;
  /** Its group file (src/site/client/group-files.ts). */
  readonly path: string;
  readonly rhythm: string;
  readonly stepwise: boolean;
  readonly version: string;
  readonly title: Localized;
  readonly newest: string | null;
}

/** What the page's questions offer (site.ts `timeConfig`). */
export interface TimeConfig {
  /** The index that deflates the indicator's unit (`real`), or null. */
  readonly deflator: SeriesRef | null;
  /** The ratios `indicator.json` declares (`per`), each with the divisor's parameter and label. */
  readonly ratios: readonly (SeriesRef & { readonly parameter: string; readonly label: string; readonly percent: boolean })[];
}

/** What the questions read of the page's settings (site.ts `pageConfig`). */
export interface QuestionsConfig {
  readonly lang: Lang;
  readonly indicator: string;
  readonly unit: string;
  readonly rhythm: string;
  readonly stepwise: boolean;
  /** The data version's date, `YYYY-MM-DD`. */
  readonly version: string;
  readonly display: Display;
  /** The origin the API addresses shown are written with: the public one in the page, the page's own once the script runs (src/site/client/origin.ts). */
  readonly baseUrl: string;
  readonly time: TimeConfig;
}

/** Everything the questions' views need besides what is asked. */
export interface QuestionContext {
  readonly m: Messages;
  readonly f: Formatter;
  readonly config: QuestionsConfig;
  /** The rule of coverage's inputs of the page's indicator. */
  readonly rule: Rhythm;
  /** The currency of the indicator's values, or null when they are not money. */
  readonly money: string | null;
  /** The deflator's newest month (`YYYY-MM`), whose pesos `real` answers are in; null without a deflator. */
  readonly deflatorMonth: string | null;
  /** That month as a reader says it ("julio de 2026"), whatever the indicator's own dates mean; null without a deflator. */
  readonly deflatorMonthText: string | null;
}

export function questionContext(config: QuestionsConfig): QuestionContext {
  const f = Formatter.of(config.lang, config.unit, config.display, config.rhythm);
  return {
    m: MESSAGES[config.lang],
    f,
    config,
    rule: { rhythm: config.rhythm, stepwise: config.stepwise, version: config.version },
    money: f.money ? config.unit : null,
    deflatorMonth: config.time.deflator?.newest?.slice(0, 7) ?? null,
    deflatorMonthText: config.time.deflator?.newest === undefined || config.time.deflator.newest === null ? null : Formatter.get(config.lang, config.unit, "monthly").pointDate(config.time.deflator.newest),
  };
}

/** Where a message is given markup: it is called with `SLOT` for that value (`slotted`). */
const SLOT = "\u0000";

/** `message`, called with `SLOT` for one value, with `markup` in its place: the message's text escaped, the markup as it is. */
function slotted(message: string, markup: SafeHtml): SafeHtml {
  const at = message.indexOf(SLOT);
  return at < 0 ? html`${message}` : html`${message.slice(0, at)}${markup}${message.slice(at + SLOT.length)}`;
}

/** A sub-series' title in the page's language (its id when not loaded). */
function titleOf(ctx: QuestionContext, indicator: ViewIndicator, id: string): string {
  return indicator.series.find((s) => s.id === id)?.title[ctx.config.lang] ?? id;
}

/** How a mode's numbers read: each value's text and the value axis's label. */
export interface Reading {
  readonly text: (value: number) => string;
  readonly axis: string;
}

/** The ratio the chart mode `mode` (`ratio-<i>`) divides by, or undefined for another mode. */
export function ratioOf(ctx: QuestionContext, mode: string): TimeConfig["ratios"][number] | undefined {
  return mode.startsWith("ratio-") ? ctx.config.time.ratios[Number(mode.slice("ratio-".length))] : undefined;
}

/**
 * The question the chart mode `mode` asks and how its numbers read: `base` is the
 * index's base date, `divisor` a ratio's divisor (`ratioOf`), loaded.
 */
export function modeQuestion(ctx: QuestionContext, mode: string, base: string, divisor: ViewSeries | null): { question: Question; reading: Reading } {
  const { f, money, deflatorMonth } = ctx;
  if (mode === "real" && deflatorMonth !== null) return { question: realQuestion(ctx, deflatorMonth), reading: { text: (v) => f.computed(v, f.decimals ?? 2, money), axis: f.unitSymbol } };
  if (mode === "index") return { question: { units: "index", base }, reading: { text: (v) => f.computed(v, 1), axis: `100 = ${f.date(base)}` } };
  if (mode === "percent_change_a_year_ago" || mode === "percent_change") {
    // The indicator's own changes: with the decimals it declares, as on its card and table.
    const text = f.changeDecimals === null ? (v: number) => f.computedPercent(v, mode === "percent_change" ? 2 : 1) : (v: number) => f.changeRatio(v / 100);
    return { question: { units: mode }, reading: { text, axis: "%" } };
  }
  const ratio = ratioOf(ctx, mode);
  if (ratio !== undefined && divisor !== null) {
    const per = { parameter: ratio.parameter, series: divisor, rule: ratio };
    return { question: { per }, reading: ratio.percent ? { text: (v) => f.computedPercent(v * 100, 2, false), axis: "%" } : { text: (v) => f.computed(v, 2), axis: ratio.label } };
  }
  return { question: {}, reading: { text: (v) => f.computed(v, f.decimals ?? 2, money), axis: f.unitSymbol } };
}

/**
 * The question "in pesos of `month`" for the page's indicator. A value that holds
 * until the next buys less each month prices rise while it holds: in real terms it
 * is a new number every month. `real` alone deflates a point once, by its first
 * month (docs/time.md), so a stepwise indicator is asked month by month
 * (`frequency=month`), each month's value in force deflated by that month's index;
 * a periodic one's points are already each of its own month.
 */
function realQuestion(ctx: QuestionContext, month: string): Question {
  return ctx.rule.stepwise ? { real: month, frequency: "month" } : { real: month };
}

/** What a chart mode is asked of: the loaded indicator, the selection shown, the sub-series on the cards and the mode's label. */
export interface ModeAsked {
  readonly indicator: ViewIndicator;
  readonly selection: Selection;
  readonly ids: readonly string[];
  readonly label: string;
}

/**
 * The chart in other terms: the answer to `asked.question` drawn as the page's
 * charts are, and the newest value of each line with the API address that gives
 * them; `deflator` for `real`.
 */
export function modeAnswer(ctx: QuestionContext, on: ModeAsked, asked: { question: Question; reading: Reading }, deflator: Deflator | null): { charts: SafeHtml; answer: SafeHtml } {
  const { m, f, config, deflatorMonthText } = ctx;
  const { indicator, ids } = on;
  const { question } = asked;
  const lines = answer(indicator.series, ctx.rule, ids, question, deflator).map((a) => ({
    id: a.id,
    label: titleOf(ctx, indicator, a.id),
    points: a.points.map((p) => ({ ...p, text: asked.reading.text(p.value) })),
  }));
  const period = question.frequency === undefined ? null : PERIOD_RHYTHMS[question.frequency];
  // Dates of one value per period read as the period ("julio de 2019"), as the chart's.
  const dates = period === null ? f : Formatter.of(config.lang, config.unit, config.display, config.rhythm, period);
  const about = question.real !== undefined && period !== null && deflatorMonthText !== null ? m.realByMonth(deflatorMonthText) : null;
  const charts = derivedFigure({ lang: config.lang, indicator, selection: on.selection, baseUrl: config.baseUrl }, lines, { caption: on.label, unit: asked.reading.axis, period, about });
  const latest = lines.map((line) => {
    const p = line.points[0];
    if (p === undefined) return html`<li>${line.label}: ${m.sinceNone}</li>`;
    const value = html`<data value="${derivedText(p.value) ?? ""}">${p.text}</data>`;
    return html`<li data-series="${line.id}">${slotted(m.latestOf(line.label, SLOT, dates.pointShortDate(p.date)), value)}</li>`;
  });
  const path = questionUrl(config.indicator, ids.join(","), question, 1);
  return { charts, answer: html`<ul class="answer">${latest}</ul>${apiEquivalent(m, config.baseUrl, [path])}` };
}

/** The rhythm whose periods a `frequency` makes: how its points' dates read and what each covers. */
const PERIOD_RHYTHMS: Readonly<Record<Frequency, string>> = { month: "monthly", quarter: "quarterly", semester: "semiannual", year: "annual" };

/** A change of an index on 100, as a percentage with its exact value (`class`: "real" for the change in real terms). */
function changeOn100(ctx: QuestionContext, index: number, className: string | null): SafeHtml {
  const change = index - 100;
  const text = ctx.f.computedPercent(change, 1);
  const value = derivedText(change) ?? "";
  return className === null ? html`<data value="${value}">${text}</data>` : html`<data value="${value}" class="${className}">${text}</data>`;
}

/**
 * The change since `date` of each sub-series `ids` of the loaded `indicator`: from
 * its value that day to its newest, in current pesos and, with a deflator, in real
 * terms; with the API addresses that give both.
 */
export function sinceAnswer(ctx: QuestionContext, indicator: ViewIndicator, ids: readonly string[], date: string, deflator: Deflator | null): SafeHtml {
  const { m, f, rule, money, deflatorMonth, deflatorMonthText, config } = ctx;
  const then = answer(indicator.series, rule, ids, { at: date }, null);
  const nominal = answer(indicator.series, rule, ids, { units: "index", base: date }, null);
  // In real terms, from the month of `date` to the deflator's latest, each as the month's value (`realQuestion`).
  const realIndex: Question | null = deflatorMonth === null ? null : { ...realQuestion(ctx, deflatorMonth), units: "index", base: date };
  const real = realIndex === null ? null : answer(indicator.series, rule, ids, realIndex, deflator);
  const items = ids.map((id, k) => {
    const title = titleOf(ctx, indicator, id);
    const one = indicator.series.find((s) => s.id === id);
    const from = then[k]?.points[0];
    const index = nominal[k]?.points[0];
    if (one === undefined || from === undefined || index === undefined) return html`<li>${title}: ${m.sinceNone}</li>`;
    const nominalLine = slotted(m.sinceNominal(f.computed(from.value, f.decimals ?? 2, money), f.value(one.values[0] as string), SLOT), changeOn100(ctx, index.value, null));
    const r = real?.[k]?.points[0];
    const realLine = r === undefined || deflatorMonthText === null ? "" : html`; ${slotted(m.sinceReal(SLOT, deflatorMonthText), changeOn100(ctx, r.value, "real"))}`;
    return html`<li data-series="${id}">${title}: ${nominalLine}${realLine}</li>`;
  });
  const series = ids.join(",");
  const paths = [
    questionUrl(config.indicator, series, { units: "index", base: date }, 1),
    ...(realIndex === null ? [] : [questionUrl(config.indicator, series, realIndex, 1)]),
  ];
  return html`<ul class="answer">${items}</ul>${apiEquivalent(m, config.baseUrl, paths)}`;
}
