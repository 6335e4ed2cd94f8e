/**
 * SVG line and step charts rendered as strings: at build time into the static pages
 * (no script needed to see them), and in the browser by the page script when the
 * visitor changes the selection. Pure and deterministic; built with the escaping
 * `html` template, so every caller-supplied text is escaped.
 *
 * Honesty rules: a step holds its value until the next point, a missing stretch is
 * a visible gap, a series that ended stops where its last value expired, and a zero
 * the indicator gives a meaning of its own (`display.zero`) is a hollow marker on the
 * baseline instead of a dive to zero. Values spanning orders of magnitude can be
 * drawn on a logarithmic axis whose ticks are whole powers of ten.
 */
import { gapsBetween, type Gap, type NextDue } from "../../core/time/coverage.js";
import { dateOfDay, dayNumber, isCalendarDate } from "../../core/time/dates.js";
import { html, raw, type SafeHtml } from "../../core/text/html.js";

/** Okabe–Ito palette: distinguishable with the common colour vision deficiencies. */
export const PALETTE: readonly string[] = ["#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#000000", "#8C6D00"];
const MUTED = "#b8b8b8";

/** The colour of series `index` (its position in `ChartOptions.series`). */
export function seriesColor(index: number): string {
  return PALETTE[index % PALETTE.length] as string;
}

/**
 * The dash pattern of series `index` (SVG `stroke-dasharray`, in the chart's
 * units), null for a solid line: lines of a chart differ by dash as well as by
 * colour, so two that run together (the wages' Montevideo and interior minimums
 * before 2008, equal or nearly) stay visible, the later one's gaps showing the
 * earlier one's colour, and a reader who cannot tell the colours apart can tell
 * the lines (WCAG 1.4.1, "Use of Color"). The legend draws the same pattern.
 */
const DASHES: readonly (string | null)[] = [null, "8 4", "2 3", "12 3 2 3", "1 5", "6 2 2 2", "14 4", "4 4"];

export function seriesDash(index: number): string | null {
  return DASHES[index % DASHES.length] ?? null;
}

/** "Nice" tick step (1, 2 or 5 × 10^k) giving about `count` intervals over `span`. */
export function niceStep(span: number, count: number): number {
  if (!(span > 0)) return 1;
  const raw = span / count;
  const power = 10 ** Math.floor(Math.log10(raw));
  const fraction = raw / power;
  return (fraction <= 1 ? 1 : fraction <= 2 ? 2 : fraction <= 5 ? 5 : 10) * power;
}

/** One observation of a series, with its texts already formatted by the caller. */
export interface ChartPoint {
  /** `YYYY-MM-DD`. */
  readonly date: string;
  readonly value: number;
  /** The value formatted for display, e.g. "$ 31.178". */
  readonly text: string;
  /** The date formatted for display, e.g. "1 de enero de 2026". */
  readonly dateText: string;
  /** A note the data attaches to this point. */
  readonly note?: string | null;
  /** The note's language when it is not the page's (a note without a translation): the tooltip marks it. */
  readonly noteLang?: string | null;
  /** The kind of the point's source, as the page says it ("fuente: prensa"), or null. */
  readonly kind?: string | null;
  /** What a revised point says ("revisado el 14 oct 2026; antes 118,13"): in its title and tooltip. Absent or null: not revised. */
  readonly revised?: string | null;
}

/** One line of a chart. */
export interface ChartSeries {
  readonly id: string;
  readonly label: string;
  /** In any order. */
  readonly points: readonly ChartPoint[];
  /** Drawn on top, in colour, thicker, with point markers; the others grey (when any series is highlighted). */
  readonly highlight?: boolean;
}

/** Every word the chart writes, in the page's language. */
export interface ChartText {
  /** Y tick labels, e.g. "40.000". */
  readonly axis: (value: number) => string;
  /** X tick labels. */
  readonly year: (year: number) => string;
  /** Shown above the value axis, left-aligned, e.g. "$ (pesos uruguayos)". */
  readonly unit: string;
  /** What a 0 means when the indicator gives it a meaning (`display.zero`): drawn as a hollow marker, never a dive to zero; null: a 0 is a 0. */
  readonly zero: string | null;
  /** Shown instead of a plot when there is no point, e.g. "Sin datos para esta selección". */
  readonly noData: string;
  /** The word before a note in a point's `<title>`, e.g. "Nota". */
  readonly note: string;
  /** Said on a logarithmic value axis, beside the unit, e.g. "escala logarítmica" (a reader of a log axis must be told). */
  readonly logScale: string;
  /** Added to the text alternative (`<desc>`) of a chart on a logarithmic axis: what its heights mean. */
  readonly logScaleDescription: string;
}

/** "wide": viewBox 720×360; "narrow": viewBox 360×300, for screens up to 40rem wide. */
export type ChartLayout = "wide" | "narrow";

/** Input of {@link lineChart}. */
export interface ChartOptions {
  readonly series: readonly ChartSeries[];
  /** Text alternative: `<title>`. */
  readonly title: string;
  /** Text alternative: `<desc>`. */
  readonly description: string;
  /** Unique per SVG in the page (both layouts of one chart need distinct prefixes). */
  readonly idPrefix: string;
  readonly layout: ChartLayout;
  /** "step": a value holds until the next point; "line": straight segments. */
  readonly shape: "step" | "line";
  readonly text: ChartText;
  /** For a point's date, the latest date the next point of the same series may have without a gap; null when any later date is fine. */
  readonly nextDue: NextDue;
  /** The newest date of the whole indicator: a series whose newest point is on this date is "in force" and its step reaches the right edge. */
  readonly end: string;
  /** "log" for a logarithmic value axis (drawn only when every value is positive); default linear. */
  readonly scale?: "linear" | "log";
  /** False to draw no point markers (a chart of thousands of points: the page would be megabytes of circles). Default true. */
  readonly markers?: boolean;
}

/** Output of {@link lineChart}. */
export interface Chart {
  readonly svg: SafeHtml;
  /** In series order, then date order. */
  readonly gaps: readonly Gap[];
}

/** Text width estimate, per character, in ems (digits and Latin letters are narrower on average). */
const CHAR_EM = 0.62;
const FONT_SIZE = 12;
/** The baseline of the first line of text above the plot (the unit), and from it to the next one's. */
const HEADING_BASELINE = FONT_SIZE + 2;
const LINE_HEIGHT = FONT_SIZE + 4;

interface Frame {
  readonly width: number;
  readonly height: number;
  readonly top: number;
  readonly right: number;
  readonly bottom: number;
  /** Most year ticks and about how many value intervals. */
  readonly years: number;
  readonly values: number;
}

const FRAMES: Readonly<Record<ChartLayout, Frame>> = {
  wide: { width: 720, height: 360, top: 28, right: 16, bottom: 32, years: 8, values: 5 },
  narrow: { width: 360, height: 300, top: 28, right: 12, bottom: 30, years: 4, values: 4 },
};

const r1 = (n: number): string => String(Math.round(n * 10) / 10);
const chars = (text: string): number => [...text].length;
const textWidth = (text: string): number => chars(text) * CHAR_EM * FONT_SIZE;
const clamp = (n: number, lo: number, hi: number): number => Math.min(Math.max(n, lo), hi);

/** Builds one `d` attribute, dropping sub-paths that draw nothing (they are reported as isolated points). */
class Pen {
  private readonly parts: string[] = [];
  private current: { x: number; y: number; commands: string[]; drawn: boolean } | null = null;
  private x = 0;
  private y = 0;
  /** Starts of sub-paths that drew nothing: single points a muted series shows as dots. */
  readonly isolated: { x: number; y: number }[] = [];

  get down(): boolean {
    return this.current !== null;
  }

  move(x: number, y: number): void {
    this.lift();
    this.current = { x, y, commands: [`M${r1(x)} ${r1(y)}`], drawn: false };
    [this.x, this.y] = [x, y];
  }

  horizontal(x: number): void {
    if (this.current !== null && r1(x) !== r1(this.x)) {
      this.current.commands.push(`H${r1(x)}`);
      this.current.drawn = true;
    }
    this.x = x;
  }

  vertical(y: number): void {
    if (this.current !== null && r1(y) !== r1(this.y)) {
      this.current.commands.push(`V${r1(y)}`);
      this.current.drawn = true;
    }
    this.y = y;
  }

  line(x: number, y: number): void {
    if (this.current !== null && (r1(x) !== r1(this.x) || r1(y) !== r1(this.y))) {
      this.current.commands.push(`L${r1(x)} ${r1(y)}`);
      this.current.drawn = true;
    }
    [this.x, this.y] = [x, y];
  }

  lift(): void {
    const c = this.current;
    if (c === null) return;
    if (c.drawn) this.parts.push(c.commands.join(""));
    else this.isolated.push({ x: c.x, y: c.y });
    this.current = null;
  }

  d(): string {
    this.lift();
    return this.parts.join("");
  }
}

/** The smallest year step of 1, 2, 5 × 10^k whose ticks in [first, last] are at most `most`. */
function yearStep(first: number, last: number, most: number): number {
  for (let power = 1; ; power *= 10) {
    for (const m of [1, 2, 5]) {
      const step = m * power;
      if (Math.floor(last / step) - Math.ceil(first / step) + 1 <= most) return step;
    }
  }
}

/** Superscript digits and minus, for powers of ten on a logarithmic axis ("10⁻⁷"). */
const SUPERSCRIPT: Readonly<Record<string, string>> = { "-": "⁻", "0": "⁰", "1": "¹", "2": "²", "3": "³", "4": "⁴", "5": "⁵", "6": "⁶", "7": "⁷", "8": "⁸", "9": "⁹" };

/** How values map to the plot's height, with the ticks to draw and their labels. */
interface ValueScale {
  /** 0 at the bottom of the plot, 1 at the top. */
  readonly fraction: (value: number) => number;
  readonly ticks: readonly number[];
  readonly labels: readonly string[];
}

/**
 * A linear scale from zero (or below, for negative values) with "nice" ticks; or,
 * when asked for and every value is positive, a logarithmic one whose ticks are
 * whole powers of ten (1 and up written as numbers, smaller ones as 10⁻ⁿ): equal
 * distances are equal ratios, so a rise of 1 % looks the same in 1940 and 2020.
 */
function valueScale(min: number, max: number, log: boolean, intervals: number, axis: (value: number) => string): ValueScale {
  if (log && min > 0) {
    const low = Math.floor(Math.log10(min));
    const high = Math.max(Math.ceil(Math.log10(max)), low + 1);
    const every = Math.max(1, Math.ceil((high - low) / intervals));
    // The plot spans the powers of ten around the data; ticks every `every` decades from the lowest.
    const exponents = Array.from({ length: Math.floor((high - low) / every) + 1 }, (_, i) => low + i * every);
    return {
      fraction: (value) => (Math.log10(value) - low) / (high - low),
      ticks: exponents.map((e) => 10 ** e),
      labels: exponents.map((e) => (e >= 0 ? axis(10 ** e) : `10${[...String(e)].map((c) => SUPERSCRIPT[c] ?? c).join("")}`)),
    };
  }
  const step = niceStep(max - min || 1, intervals);
  const y0 = Math.floor(min / step) * step;
  const y1 = Math.max(Math.ceil(max / step) * step, y0 + step);
  const ticks = Array.from({ length: Math.round((y1 - y0) / step) + 1 }, (_, i) => y0 + i * step);
  return { fraction: (value) => (value - y0) / (y1 - y0), ticks, labels: ticks.map(axis) };
}

/** A chart's coordinate system: plot edges and the mapping of days and values to user units. */
interface Plot {
  readonly f: Frame;
  /** Whether the value axis is logarithmic (asked for, and every value positive). */
  readonly log: boolean;
  /** The lines above the plot: the unit, and on a logarithmic axis the words that say so (on the unit's line when both fit). */
  readonly heading: readonly string[];
  readonly left: number;
  readonly right: number;
  readonly base: number;
  readonly x0: number;
  readonly rightEdge: number;
  readonly scale: ValueScale;
  readonly X: (date: string) => number;
  readonly Y: (value: number) => number;
}

/** Sorted points of one series (a non-finite value cannot be drawn, so it counts as absent). */
interface Prepared {
  readonly s: ChartSeries;
  readonly index: number;
  readonly points: readonly ChartPoint[];
}

/** The days and values spanned, and the scales and margins that fit them; null when there is no point. */
function plotOf(options: ChartOptions, series: readonly Prepared[]): Plot | null {
  const f = FRAMES[options.layout];
  // Loops, not Math.max(...array): a long series would overflow the call stack.
  let x0 = Infinity;
  let x1 = -Infinity;
  let minValue = Infinity;
  let maxValue = -Infinity;
  for (const { points } of series) {
    for (const p of points) {
      const day = dayNumber(p.date);
      x0 = Math.min(x0, day);
      x1 = Math.max(x1, day);
      minValue = Math.min(minValue, p.value);
      maxValue = Math.max(maxValue, p.value);
    }
  }
  if (x0 === Infinity) return null;
  const log = options.scale === "log" && minValue > 0;
  const heading = headingLines(f, options.text, log);
  // A second line above the plot pushes its top down by one line.
  const top = f.top + (heading.length - 1) * LINE_HEIGHT;
  // A linear axis starts at zero: a bar-less line chart still must not exaggerate a change.
  const scale = log ? valueScale(minValue, maxValue, true, f.values, options.text.axis) : valueScale(Math.min(0, minValue), Math.max(0, maxValue), false, f.values, options.text.axis);
  const endDay = isCalendarDate(options.end) ? dayNumber(options.end) : x1;
  x1 = Math.max(x1, endDay);
  if (x1 - x0 < 60) [x0, x1] = [x0 - 182, x1 + 182];
  // Room right of the newest date, so a value in force shows as a step reaching the edge.
  const rightEdge = options.shape === "step" ? x1 + Math.max(1, Math.round((x1 - x0) * 0.03)) : x1;
  // The margin fits the longest value label (the unit is written above the plot, left-aligned).
  const left = Math.ceil(Math.max(...scale.labels.map(chars)) * CHAR_EM * FONT_SIZE) + 10;
  const right = f.width - f.right;
  const base = f.height - f.bottom;
  const px = (day: number): number => left + ((day - x0) / (rightEdge - x0)) * (right - left);
  return {
    f,
    log,
    heading,
    left,
    right,
    base,
    x0,
    rightEdge,
    scale,
    X: (date) => px(dayNumber(date)),
    Y: (value) => top + (1 - scale.fraction(value)) * (base - top),
  };
}

/**
 * What is written above the plot, a line each: the unit; on a logarithmic axis,
 * "unit · log scale" when it fits the width (the wide layout), else the words on a
 * line of their own under the unit (the narrow one), never cut or overlapping.
 */
function headingLines(f: Frame, text: ChartText, log: boolean): string[] {
  if (!log) return [text.unit];
  const one = `${text.unit} · ${text.logScale}`;
  return textWidth(one) + 4 <= f.width ? [one] : [text.unit, text.logScale];
}

/** Grid lines and labels of the value axis, and the unit (and scale) above it. */
function valueAxis(plot: Plot): SafeHtml {
  const { scale, left, right } = plot;
  const ticks = scale.ticks.map((v, i) => {
    const y = r1(plot.Y(v));
    return html`<line x1="${left}" x2="${right}" y1="${y}" y2="${y}" class="grid"/><text x="${left - 6}" y="${y}" dy="0.32em" text-anchor="end">${scale.labels[i]}</text>`;
  });
  const heading = plot.heading.map((line, i) => html`<text x="2" y="${HEADING_BASELINE + i * LINE_HEIGHT}" text-anchor="start" class="${i === 0 ? "unit" : "unit scale"}">${line}</text>`);
  return html`<g class="axis y-axis">${ticks}${heading}</g>`;
}

/** Year ticks on 1 January, on multiples of a nice step, few enough for their labels to fit. */
function dateAxis(plot: Plot, year: (year: number) => string): SafeHtml {
  const { f, x0, rightEdge, left, right, base } = plot;
  const firstYear = Number(dateOfDay(x0).slice(0, 4)) + (dateOfDay(x0).slice(5) === "01-01" ? 0 : 1);
  const lastYear = Number(dateOfDay(rightEdge).slice(0, 4));
  const labelWidth = Math.max(textWidth(year(lastYear)), textWidth(year(firstYear)));
  const most = Math.max(1, Math.min(f.years, Math.floor((right - left) / (labelWidth + 12))));
  const every = yearStep(firstYear, lastYear, most);
  const ticks: SafeHtml[] = [];
  for (let y = Math.ceil(firstYear / every) * every; y <= lastYear; y += every) {
    const date = `${String(y).padStart(4, "0")}-01-01`;
    const day = dayNumber(date);
    if (day < x0 || day > rightEdge) continue;
    const x = plot.X(date);
    const label = year(y);
    const half = textWidth(label) / 2;
    // The tick stays at its date; only the label moves, to stay inside the viewBox.
    const lx = clamp(x, half + 2, f.width - half - 2);
    ticks.push(html`<line x1="${r1(x)}" x2="${r1(x)}" y1="${base}" y2="${base + 5}"/><text x="${r1(lx)}" y="${base + 20}" text-anchor="middle">${label}</text>`);
  }
  return html`<g class="axis x-axis">${ticks}<line x1="${left}" x2="${right}" y1="${base}" y2="${base}"/></g>`;
}

/** True when `value` is a zero the indicator gives a meaning of its own: not drawn as a quantity. */
const isLabelledZero = (value: number, text: ChartText): boolean => value === 0 && text.zero !== null;

/**
 * The path of one series: steps (a value holds until the next point) or straight
 * segments; a new sub-path after a gap, around a labelled zero, and where the
 * newest value's coverage ends. Returns the pen, whose lone points a muted series shows as dots.
 */
function tracePath(options: ChartOptions, plot: Plot, points: readonly ChartPoint[]): Pen {
  const pen = new Pen();
  points.forEach((p, k) => {
    const q = points[k + 1];
    // A labelled zero is not a value to draw a line down to: lift the pen over its span.
    if (isLabelledZero(p.value, options.text)) {
      pen.lift();
      return;
    }
    const x = plot.X(p.date);
    const y = plot.Y(p.value);
    const due = options.nextDue(p.date);
    if (options.shape === "line") {
      if (pen.down) pen.line(x, y);
      else pen.move(x, y);
      if (q !== undefined && due !== null && q.date > due) pen.lift();
      return;
    }
    if (pen.down) pen.vertical(y);
    else pen.move(x, y);
    if (q !== undefined) {
      if (due !== null && q.date > due) {
        pen.horizontal(Math.max(x, plot.X(due)));
        pen.lift();
      } else pen.horizontal(plot.X(q.date));
    } else {
      // The newest point: in force up to the edge, or ended when its value expired.
      const inForce = p.date >= options.end || due === null;
      pen.horizontal(inForce ? plot.right : Math.max(x, plot.X(due < options.end ? due : options.end)));
      pen.lift();
    }
  });
  return pen;
}

/** One focusable marker per point, carrying its texts for the tooltip script; a noted point is ringed. */
function pointMarkers(plot: Plot, text: ChartText, s: ChartSeries, points: readonly ChartPoint[], color: string): SafeHtml[] {
  return points.map((p) => {
    const zero = isLabelledZero(p.value, text);
    const note = p.note ?? "";
    const valueText = zero ? (text.zero as string) : p.text;
    const classes = `point${zero ? " zero" : ""}${note !== "" ? " noted" : ""}`;
    const cx = r1(plot.X(p.date));
    const cy = r1(plot.Y(p.value));
    const kind = p.kind ?? "";
    const revised = p.revised ?? "";
    // Said in brackets after the value: its kind of source and, when revised, when and from what.
    const about = [kind, revised].filter((x) => x !== "").join("; ");
    const title = `${s.label} — ${p.dateText}: ${valueText}${about !== "" ? ` (${about})` : ""}${note !== "" ? `. ${text.note}: ${note}` : ""}`;
    const paint = zero ? raw(`fill="#fff" stroke="${color}" stroke-width="1.5"`) : raw(`fill="${color}"`);
    const ring = note !== "" ? html`<circle class="note-ring" cx="${cx}" cy="${cy}" r="6" fill="none" stroke="${color}" stroke-width="1.5"/>` : "";
    return html`${ring}<circle class="${classes}" cx="${cx}" cy="${cy}" r="3" ${paint} data-series="${s.id}" data-label="${s.label}" data-date="${p.date}" data-date-text="${p.dateText}" data-value-text="${valueText}"${kind !== "" ? html` data-kind="${kind}"` : ""}${note !== "" ? html` data-note="${note}"` : ""}${(p.noteLang ?? null) === null ? "" : html` data-note-lang="${p.noteLang}"`}${revised !== "" ? html` data-revised="${revised}"` : ""}><title>${title}</title></circle>`;
  });
}

/**
 * A step or line chart with a date axis (year ticks) and a value axis (linear from
 * zero, or logarithmic): one `<path class="series-line">` per series, gaps as new
 * sub-paths, and for the highlighted series (all when none is) one
 * `<circle class="point">` per point carrying its texts for the tooltip script.
 * Also returns the gaps it found, for the page to list in words.
 */
export function lineChart(options: ChartOptions): Chart {
  const f = FRAMES[options.layout];
  const { text } = options;
  const titleId = `${options.idPrefix}-title`;
  const descId = `${options.idPrefix}-desc`;
  const series: Prepared[] = options.series.map((s, index) => ({
    s,
    index,
    points: s.points.filter((p) => Number.isFinite(p.value)).sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0)),
  }));
  const gaps = series.flatMap(({ s, points }) => gapsBetween(s.id, points.map((p) => p.date), options.nextDue));
  const plot = plotOf(options, series);
  // A screen reader hears the description, not the axis: a logarithmic one is said there too.
  const description = plot?.log === true ? `${options.description} ${text.logScaleDescription}` : options.description;
  const open = html`<svg class="chart" viewBox="0 0 ${f.width} ${f.height}" role="img" aria-labelledby="${titleId} ${descId}" xmlns="http://www.w3.org/2000/svg" font-size="${FONT_SIZE}" data-layout="${options.layout}"${raw(plot?.log === true ? ' data-scale="log"' : "")}><title id="${titleId}">${options.title}</title><desc id="${descId}">${description}</desc>`;
  if (plot === null) {
    return { svg: html`${open}<text x="${f.width / 2}" y="${f.height / 2}" dy="0.32em" text-anchor="middle" class="empty">${text.noData}</text></svg>`, gaps };
  }

  const anyHighlight = series.some(({ s }) => s.highlight === true);
  const marked = (s: ChartSeries): boolean => !anyHighlight || s.highlight === true;
  // Muted lines first, so the highlighted ones are drawn on top.
  const order = [...series].sort((a, b) => Number(marked(a.s)) - Number(marked(b.s)) || a.index - b.index);
  const lines: SafeHtml[] = [];
  const markers: SafeHtml[] = [];
  for (const { s, index, points } of order) {
    const muted = !marked(s);
    const color = muted ? MUTED : seriesColor(index);
    const width = muted ? 1.5 : anyHighlight ? 3 : 2;
    // Beside a highlighted line the others are one grey "rest": only lines each in their own colour get their own dash.
    const dash = muted || anyHighlight ? null : seriesDash(index);
    const pen = tracePath(options, plot, points);
    const d = pen.d();
    if (d !== "") {
      lines.push(
        html`<path class="series-line" data-series="${s.id}" d="${d}" fill="none" stroke="${color}" stroke-width="${width}"${dash === null ? "" : html` stroke-dasharray="${dash}"`} stroke-linejoin="round"><title>${s.label}</title></path>`,
      );
    }
    if (muted) {
      // Muted series have no markers: a lone point would otherwise be invisible.
      for (const dot of pen.isolated) lines.push(html`<circle class="dot" data-series="${s.id}" cx="${r1(dot.x)}" cy="${r1(dot.y)}" r="2" fill="${MUTED}"/>`);
    } else if (options.markers !== false) markers.push(...pointMarkers(plot, text, s, points, color));
  }

  const svg = html`${open}${valueAxis(plot)}${dateAxis(plot, text.year)}<g class="lines">${lines}</g><g class="points">${markers}</g></svg>`;
  return { svg, gaps };
}
