/**
 * The preview image of an indicator page (Open Graph `og:image`): what a link to the
 * page shows in a chat or on a social network. 1200×630 px, Open Graph's recommended
 * size, as an SVG the build rasterises (src/builder/preview-image.ts): the indicator's
 * title, the lines of the page's first chart in its default view drawn by the page's
 * own chart code (src/site/client/chart.ts, in its phone layout, whose words stay
 * large when the image is shown 400 px wide), the newest value of the card with its
 * date, and the source, licence and site name.
 *
 * What is drawn comes from the view model the page is rendered from (`SiteIndicator.view`)
 * and follows src/site/client/series-view.ts: a compared indicator draws the default
 * selection's line highlighted among the other values of the compared facet; any
 * other indicator, the first group of sub-series of similar magnitude. Unlike the
 * page, lines are not thinned (no marker needs to stay focusable), so every gap shows.
 */
import { lineChart, seriesColor, type ChartPoint, type ChartSeries } from "./client/chart.js";
import { Formatter } from "./client/format.js";
import { MESSAGES, type Messages } from "./client/messages/index.js";
import { MAX_LINES, coverageOf, evenRanks, magnitudeGroups, standingOf, type Standing, type ViewCoverage, type ViewIndicator, type ViewSeries } from "./client/series-view.js";
import { allOfficial, type SiteIndicator } from "./model.js";
import type { SiteConfig } from "../core/indicator/config.js";
import { html, type SafeHtml } from "../core/text/html.js";
import type { Lang } from "../core/text/i18n.js";

/** The image's size in pixels: Open Graph's recommended 1.91:1. */
export const PREVIEW_WIDTH = 1200;
export const PREVIEW_HEIGHT = 630;

/** The fonts the SVG is drawn with, as the rasteriser has them. */
export interface PreviewFonts {
  /** The family name, regular and bold. */
  readonly family: string;
  /** The width in pixels of `text` at `size` px. */
  width(text: string, size: number, bold: boolean): number;
}

/** Most point markers drawn: a few publications are marked as on the page, a long monthly series is a clean line. */
const MAX_MARKERS = 60;

const INK = "#1a1a1a";
const MUTED = "#4a4a4a";
const RULE = "#d0d0d0";
const ACCENT = "#0b57a4";
const OTHERS = "#b8b8b8";
const MARGIN = 56;
/** The chart's box on the right (the phone layout is 360×300 units: scaled by 5/3). */
const CHART = { x: 560, y: 36, width: 600, height: 500 } as const;
/** The left column: title, selection, newest value, legend. */
const COLUMN = { x: MARGIN, width: CHART.x - MARGIN - 24, bottom: CHART.y + CHART.height } as const;
const FOOTER_RULE = 552;
const LEGEND_ROW = 28;

/** The newest value the image shows: the card's sub-series, its value and what its date means. */
interface Lead {
  readonly label: string;
  readonly value: string;
  readonly since: string;
  readonly color: string;
}

/** Everything the image and its text alternative say, in one language. */
interface Preview {
  readonly title: string;
  /** The chosen values of the other facets (a compared indicator), or null. */
  readonly context: string | null;
  readonly lines: readonly ChartSeries[];
  readonly lead: Lead | null;
  readonly legend: readonly { readonly label: string; readonly color: string }[];
  /** What the chart shows in words: the page's caption or description of its first chart. */
  readonly summary: string;
  /** The chart, drawn when asked (the text alternative does not need it). */
  readonly chart: () => SafeHtml;
}

/** The label of a facet value in `lang` (the value itself when undeclared). */
function facetLabel(view: ViewIndicator, name: string, value: string | undefined, lang: Lang): string {
  const label = view.facets.find((f) => f.name === name)?.values.find((v) => v.value === value)?.label[lang];
  return label ?? value ?? "";
}

/**
 * Most points the image's lines draw in all: an image 1,200 pixels wide shows no
 * more, and rasterising a million points takes tens of seconds. Lines with more
 * in all keep evenly spaced points of each, its newest and oldest always.
 */
const MAX_PREVIEW_POINTS = 20_000;

/** How many points each of `series`' lines may draw: all, unless they pass `MAX_PREVIEW_POINTS` in all. */
function pointsPerLine(series: readonly ViewSeries[]): number {
  const total = series.reduce((n, s) => n + s.dates.length, 0);
  return total <= MAX_PREVIEW_POINTS ? Infinity : Math.max(2, Math.floor(MAX_PREVIEW_POINTS / series.length));
}

/** What a preview's parts are worded with: the indicator's view in one language, its coverage, and how its values, points and lead card read. */
interface PreviewWords {
  readonly view: ViewIndicator;
  readonly lang: Lang;
  readonly m: Messages;
  readonly f: Formatter;
  readonly coverage: ViewCoverage;
  readonly zero: string | null;
  valueText(value: string): string;
  points(s: ViewSeries, most: number): ChartPoint[];
  lead(s: ViewSeries | undefined, label: string, color: string): Lead | null;
}

/** The words of `view`'s preview in `lang`. */
function previewWords(view: ViewIndicator, lang: Lang): PreviewWords {
  const m = MESSAGES[lang];
  const f = Formatter.of(lang, view.unit, view.display, view.rhythm);
  const coverage = coverageOf(view);
  const zero = view.display.zero?.[lang] ?? null;
  const valueText = (value: string) => (zero !== null && Number(value) === 0 ? zero : f.value(value));
  const words: PreviewWords = {
    view,
    lang,
    m,
    f,
    coverage,
    zero,
    valueText,
    // A noted point is ringed as on the page; the image has no room for the note itself.
    // Only the points drawn are worded (`pointsPerLine`: a million would take seconds).
    points: (s, most) =>
      evenRanks(s.dates.length, most).map((i) => {
        const date = s.dates[i] as string;
        return { date, value: Number(s.values[i]), text: valueText(s.values[i] as string), dateText: f.pointDate(date), note: s.notes[date] === undefined ? null : m.noteLabel };
      }),
    lead: (s, label, color) => (s?.values[0] === undefined ? null : { label, value: valueText(s.values[0]), since: sinceText(words, s), color }),
  };
  return words;
}

/**
 * What the card says first of the newest value's date, by the rule of coverage (`standingOf`): in force since
 * a date, or from a date to the day its coverage ended; the period it refers to; its date. The card goes on
 * after the ";" of a message (why it ended, when the data were checked); the image has no room and stops there.
 */
function sinceText({ view, m, f, coverage }: PreviewWords, s: ViewSeries): string {
  const standing = standingOf(s, view.stepwise, coverage) as Standing;
  const date = s.dates[0] as string;
  const clause = (text: string) => text.replace(/;$/, "");
  if (view.display.date === "effective") {
    return standing.state === "current" ? m.inForceSince(f.date(standing.since)) : clause(m.inForceFromTo(f.date(standing.since), f.date(standing.until)));
  }
  if (standing.state === "replaced") return clause(m.lastPublished(f.pointDate(date)));
  return view.display.date === "period" ? m.periodOf(f.pointDate(date)) : m.datedOn(f.date(date));
}

/** A preview's lines and words beside its chart and title. */
type PreviewParts = { lines: ChartSeries[]; rest: Omit<Preview, "title" | "lines" | "chart"> };

/** The preview of an indicator that compares the values of facet `compare`: the chosen line first, highlighted in the palette's first colour; the others grey. */
function comparePreview(words: PreviewWords, compare: string): PreviewParts {
  const { view, lang, m } = words;
  const selection = view.defaults;
  const others = view.facets.filter((x) => x.name !== compare);
  const shown = view.series.filter((s) => others.every((x) => s.facets[x.name] === selection[x.name]));
  const chosen = shown.find((s) => s.facets[compare] === selection[compare]);
  const chosenLabel = facetLabel(view, compare, selection[compare], lang);
  const context = others.map((x) => facetLabel(view, x.name, selection[x.name], lang)).join(" · ");
  const drawn = (chosen === undefined ? shown : [chosen, ...shown.filter((s) => s !== chosen)]).slice(0, MAX_LINES);
  const most = pointsPerLine(drawn);
  const lines = drawn.map((s) => ({ id: s.id, label: facetLabel(view, compare, s.facets[compare], lang), points: words.points(s, most), highlight: s === chosen }));
  const facetTitle = view.facets.find((x) => x.name === compare)?.title[lang] ?? compare;
  const rest = {
    context,
    lead: words.lead(chosen, chosenLabel, seriesColor(0)),
    legend: [
      { label: chosenLabel, color: seriesColor(0) },
      { label: m.otherValues, color: OTHERS },
    ],
    summary: `${m.compareChartCaption(context, chosenLabel, view.display.value?.[lang] ?? null, facetTitle)}.`,
  };
  return { lines, rest };
}

/** The preview of an indicator of sub-series of one magnitude: their lines, the first card the largest sub-series in force. */
function seriesPreview(words: PreviewWords): PreviewParts {
  const { view, lang, m, f } = words;
  const group = magnitudeGroups(view.series.filter((s) => s.dates.length > 0).slice(0, MAX_LINES))[0] ?? [];
  const most = pointsPerLine(group);
  const lines = group.map((s) => ({ id: s.id, label: s.title[lang], points: words.points(s, most) }));
  const first = magnitudeGroups(view.series.filter((s) => s.dates[0] === words.coverage.end).slice(0, MAX_LINES)).flat()[0];
  const index = group.findIndex((s) => s === first);
  const rest = {
    context: null,
    lead: first === undefined ? null : words.lead(first, first.title[lang], index < 0 ? INK : seriesColor(index)),
    legend: group.length > 1 ? group.map((s, i) => ({ label: s.title[lang], color: seriesColor(i) })) : [],
    summary: group
      .map((s) => m.seriesSummary(s.title[lang], s.dates.length, f.pointShortDate(s.dates.at(-1) as string), f.pointShortDate(s.dates[0] as string), words.valueText(s.values[0] as string)))
      .join(" "),
  };
  return { lines, rest };
}

function preview(meta: SiteIndicator, lang: Lang): Preview {
  const { view } = meta;
  const words = previewWords(view, lang);
  const { m, f, zero } = words;
  const { end, nextDue } = words.coverage;
  const { lines, rest } = view.compare !== null ? comparePreview(words, view.compare) : seriesPreview(words);
  const marked = lines.some((l) => l.highlight === true) ? lines.filter((l) => l.highlight === true) : lines;
  const chart = () =>
    lineChart({
      series: lines,
      title: view.title[lang],
      description: rest.summary,
      idPrefix: "preview",
      layout: "narrow",
      shape: view.stepwise ? "step" : "line",
      scale: view.display.scale,
      text: { axis: (n) => f.number(n), year: (y) => f.year(y), unit: view.display.unit?.[lang] ?? f.unitSymbol, zero, noData: m.noDataSelection, note: m.noteLabel, logScale: m.logScale, logScaleDescription: m.logScaleDescription },
      nextDue,
      end,
      markers: marked.reduce((n, l) => n + l.points.length, 0) <= MAX_MARKERS,
    }).svg;
  return { title: view.title[lang], lines, chart, ...rest };
}

/**
 * The image's text alternative (`og:image:alt`), in the page's language: the
 * indicator, what its chart shows, and the newest value with its date.
 */
export function previewAlt(meta: SiteIndicator, lang: Lang): string {
  const p = preview(meta, lang);
  // A compared chart's caption names the highlighted line; a plain chart's summary already ends on each line's newest value.
  const lead = p.lead === null || p.context === null ? "" : ` ${p.lead.label}: ${p.lead.value}. ${p.lead.since}.`;
  return `${MESSAGES[lang].chart}: ${p.title}. ${p.summary}${lead}`;
}

/** A text set in lines of at most `width` px, as many as `most`; what does not fit ends in "…". */
function wrap(fonts: PreviewFonts, text: string, size: number, bold: boolean, width: number, most: number): string[] {
  const fits = (line: string) => fonts.width(line, size, bold) <= width;
  // A word wider than the line is cut where it stops fitting.
  const cut = (line: string) => {
    let chars = [...line];
    while (chars.length > 0 && !fits(`${chars.join("").trimEnd()}…`)) chars = chars.slice(0, -1);
    return `${chars.join("").trimEnd()}…`;
  };
  const lines: string[] = [];
  let line = "";
  for (const word of text.split(/ +/)) {
    const next = line === "" ? word : `${line} ${word}`;
    if (fits(next) || line === "") line = next;
    else {
      lines.push(line);
      line = word;
    }
  }
  if (line !== "") lines.push(line);
  const kept = lines.slice(0, most).map((l) => (fits(l) ? l : cut(l)));
  const last = kept.length - 1;
  if (lines.length > most && last >= 0) kept[last] = cut(`${kept[last] as string} ${lines[most] as string}`);
  return kept;
}

interface TextBlock {
  readonly lines: readonly string[];
  readonly size: number;
  readonly bold: boolean;
  readonly color: string;
  /** Baseline to baseline. */
  readonly leading: number;
  /** Space above the block. */
  readonly gap: number;
}

/** Text blocks one under the other below `top`; returns their SVG and where the last one ends. */
function column(x: number, top: number, blocks: readonly TextBlock[]): { svg: SafeHtml; bottom: number } {
  let y = top;
  const parts: SafeHtml[] = [];
  for (const b of blocks) {
    if (b.lines.length === 0) continue;
    // DejaVu Sans rises about 0.8 of the size above the baseline and falls 0.25 below it.
    let baseline = y + b.gap + Math.round(b.size * 0.8);
    b.lines.forEach((line, i) => {
      if (i > 0) baseline += b.leading;
      parts.push(html`<text x="${x}" y="${baseline}" font-size="${b.size}"${b.bold ? html` font-weight="bold"` : ""} fill="${b.color}">${line}</text>`);
    });
    y = baseline + Math.round(b.size * 0.25);
  }
  return { svg: html`${parts}`, bottom: y };
}

/**
 * The preview image of `meta`'s page in `lang` as SVG, 1200×630, drawn with
 * `fonts` (whose widths wrap and fit the words; the SVG names their family).
 */
export function previewSvg(config: SiteConfig, meta: SiteIndicator, lang: Lang, fonts: PreviewFonts): string {
  const p = preview(meta, lang);
  const m = MESSAGES[lang];
  const w = COLUMN.width;
  const blocks: TextBlock[] = [
    { lines: wrap(fonts, p.title, 42, true, w, 3), size: 42, bold: true, color: INK, leading: 50, gap: 0 },
    { lines: p.context === null ? [] : wrap(fonts, p.context, 26, false, w, 2), size: 26, bold: false, color: MUTED, leading: 32, gap: 14 },
  ];
  if (p.lead !== null) {
    blocks.push(
      { lines: wrap(fonts, p.lead.label, 26, true, w, 2), size: 26, bold: true, color: INK, leading: 32, gap: 32 },
      { lines: wrap(fonts, p.lead.value, 72, true, w, 1), size: 72, bold: true, color: p.lead.color, leading: 80, gap: 16 },
      { lines: wrap(fonts, p.lead.since, 24, false, w, 3), size: 24, bold: false, color: MUTED, leading: 30, gap: 4 },
    );
  }
  const text = column(COLUMN.x, MARGIN - 8, blocks);
  // The legend at the foot of the column, as many entries as fit under the text.
  const room = Math.floor((COLUMN.bottom - text.bottom - 8) / LEGEND_ROW);
  const legend = p.lines.length > 1 ? p.legend.slice(0, Math.max(0, room)) : [];
  const legendTop = COLUMN.bottom - legend.length * LEGEND_ROW;
  const legendSvg = legend.map((item, i) => {
    const y = legendTop + i * LEGEND_ROW;
    return html`<rect x="${COLUMN.x}" y="${y + 10}" width="28" height="8" rx="2" fill="${item.color}"/><text x="${COLUMN.x + 40}" y="${y + 21}" font-size="20" fill="${MUTED}">${wrap(fonts, item.label, 20, false, w - 40, 1)[0]}</text>`;
  });
  // The footer: the source on the left (two lines at most), licence and site on the right.
  const credit = `${meta.license.replace(/-/g, " ")} · ${config.name}`;
  const creditWidth = fonts.width(credit, 22, true);
  const source = wrap(fonts, `${allOfficial(meta) ? m.source : m.publisher}: ${meta.source.name[lang]}`, 20, false, PREVIEW_WIDTH - 2 * MARGIN - creditWidth - 32, 2);
  const sourceSvg = source.map((line, i) => html`<text x="${MARGIN}" y="${FOOTER_RULE + 30 + i * 26}" font-size="20" fill="${MUTED}">${line}</text>`);
  return html`<svg xmlns="http://www.w3.org/2000/svg" width="${PREVIEW_WIDTH}" height="${PREVIEW_HEIGHT}" viewBox="0 0 ${PREVIEW_WIDTH} ${PREVIEW_HEIGHT}" font-family="${fonts.family}">
<style>.chart text{fill:#333}.chart .grid{stroke:#e4e4e4}.chart .x-axis line{stroke:#888}.chart .unit{font-weight:bold}</style>
<rect width="${PREVIEW_WIDTH}" height="${PREVIEW_HEIGHT}" fill="#fff"/>
<rect width="${PREVIEW_WIDTH}" height="8" fill="${ACCENT}"/>
${text.svg}
${legendSvg}
<svg x="${CHART.x}" y="${CHART.y}" width="${CHART.width}" height="${CHART.height}">${p.chart()}</svg>
<line x1="${MARGIN}" x2="${PREVIEW_WIDTH - MARGIN}" y1="${FOOTER_RULE}" y2="${FOOTER_RULE}" stroke="${RULE}" stroke-width="2"/>
${sourceSvg}
<text x="${PREVIEW_WIDTH - MARGIN}" y="${FOOTER_RULE + 30}" font-size="22" font-weight="bold" fill="${INK}" text-anchor="end">${credit}</text>
</svg>
`.html;
}
