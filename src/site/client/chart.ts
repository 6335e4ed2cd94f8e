/**
 * SVG line and step charts rendered as strings: at build time into the static pages
 * (no script needed to see them), and in the browser by the page script when the
 * visitor changes the selection. Pure and deterministic; built with the escaping
 * `html` template, so every caller-supplied text is escaped.
 *
 * Honesty rules: a step holds its value until the next point, a missing stretch is
 * a visible gap, a series that ended stops where its last value expired, and a zero
 * ("no charge") is a hollow marker on the baseline instead of a dive to zero.
 */
import { gapsBetween, type Gap, type NextDue } from "../../core/coverage.js";
import { dateOfDay, dayNumber, isCalendarDate } from "../../core/dates.js";
import { html, raw, type SafeHtml } from "../../core/html.js";

/** Okabe–Ito palette: distinguishable with the common colour vision deficiencies. */
export const PALETTE: readonly string[] = ["#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#000000", "#8C6D00"];
const MUTED = "#b8b8b8";

/** The colour of series `index` (its position in `ChartOptions.series`). */
export function seriesColor(index: number): string {
  return PALETTE[index % PALETTE.length] as string;
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
  /** Shown above the y axis, e.g. "$" or "UYU". */
  readonly unit: string;
  /** The display text of a zero value, e.g. "sin costo". */
  readonly noCharge: string;
  /** Shown instead of a plot when there is no point, e.g. "Sin datos para esta selección". */
  readonly noData: string;
  /** The word before a note in a point's `<title>`, e.g. "Nota". */
  readonly note: string;
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

/**
 * A step or line chart with a date axis (year ticks) and a value axis from zero (or
 * below, for negative values): one `<path class="series-line">` per series, gaps as
 * new sub-paths, and for the highlighted series (all when none is) one
 * `<circle class="point">` per point carrying its texts for the tooltip script.
 * Also returns the gaps it found, for the page to list in words.
 */
export function lineChart(options: ChartOptions): Chart {
  const f = FRAMES[options.layout];
  const { text } = options;
  const titleId = `${options.idPrefix}-title`;
  const descId = `${options.idPrefix}-desc`;
  const open = html`<svg class="chart" viewBox="0 0 ${f.width} ${f.height}" role="img" aria-labelledby="${titleId} ${descId}" xmlns="http://www.w3.org/2000/svg" font-size="${FONT_SIZE}" data-layout="${options.layout}"><title id="${titleId}">${options.title}</title><desc id="${descId}">${options.description}</desc>`;

  // Sorted once; a non-finite value cannot be drawn, so it counts as absent.
  const series = options.series.map((s, index) => ({
    s,
    index,
    points: s.points.filter((p) => Number.isFinite(p.value)).sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0)),
  }));

  const gaps = series.flatMap(({ s, points }) => gapsBetween(s.id, points.map((p) => p.date), options.nextDue));

  // Loops, not Math.max(...array): a long series would overflow the call stack.
  let x0 = Infinity;
  let x1 = -Infinity;
  let minValue = 0;
  let maxValue = 0;
  for (const { points } of series) {
    for (const p of points) {
      const day = dayNumber(p.date);
      x0 = Math.min(x0, day);
      x1 = Math.max(x1, day);
      minValue = Math.min(minValue, p.value);
      maxValue = Math.max(maxValue, p.value);
    }
  }
  if (x0 === Infinity) {
    return { svg: html`${open}<text x="${f.width / 2}" y="${f.height / 2}" dy="0.32em" text-anchor="middle" class="empty">${text.noData}</text></svg>`, gaps };
  }
  const endDay = isCalendarDate(options.end) ? dayNumber(options.end) : x1;
  x1 = Math.max(x1, endDay);
  if (x1 - x0 < 60) [x0, x1] = [x0 - 182, x1 + 182];
  // Room right of the newest date, so a value in force shows as a step reaching the edge.
  const rightEdge = options.shape === "step" ? x1 + Math.max(1, Math.round((x1 - x0) * 0.03)) : x1;

  const step = niceStep(maxValue - minValue || 1, f.values);
  const y0 = Math.floor(minValue / step) * step;
  const y1 = Math.max(Math.ceil(maxValue / step) * step, y0 + step);
  const ticks = Array.from({ length: Math.round((y1 - y0) / step) + 1 }, (_, i) => y0 + i * step);
  const tickLabels = ticks.map((v) => text.axis(v));
  // The margin fits the longest value label and the unit, which share the column left of the axis.
  const longest = Math.max(chars(text.unit), ...tickLabels.map(chars));
  const left = Math.ceil(longest * CHAR_EM * FONT_SIZE) + 10;
  const plotRight = f.width - f.right;
  const base = f.height - f.bottom;

  const px = (day: number): number => left + ((day - x0) / (rightEdge - x0)) * (plotRight - left);
  const py = (value: number): number => f.top + (1 - (value - y0) / (y1 - y0)) * (base - f.top);
  const X = (date: string): number => px(dayNumber(date));

  const yAxis = ticks.map((v, i) => {
    const y = r1(py(v));
    return html`<line x1="${left}" x2="${plotRight}" y1="${y}" y2="${y}" class="grid"/><text x="${left - 6}" y="${y}" dy="0.32em" text-anchor="end">${tickLabels[i]}</text>`;
  });

  // Year ticks on 1 January, on multiples of a nice step, few enough for their labels to fit.
  const firstYear = Number(dateOfDay(x0).slice(0, 4)) + (dateOfDay(x0).slice(5) === "01-01" ? 0 : 1);
  const lastYear = Number(dateOfDay(rightEdge).slice(0, 4));
  const labelWidth = Math.max(textWidth(text.year(lastYear)), textWidth(text.year(firstYear)));
  const most = Math.max(1, Math.min(f.years, Math.floor((plotRight - left) / (labelWidth + 12))));
  const every = yearStep(firstYear, lastYear, most);
  const xAxis: SafeHtml[] = [];
  for (let year = Math.ceil(firstYear / every) * every; year <= lastYear; year += every) {
    const day = dayNumber(`${String(year).padStart(4, "0")}-01-01`);
    if (day < x0 || day > rightEdge) continue;
    const x = px(day);
    const label = text.year(year);
    const half = textWidth(label) / 2;
    // The tick stays at its date; only the label moves, to stay inside the viewBox.
    const lx = clamp(x, half + 2, f.width - half - 2);
    xAxis.push(html`<line x1="${r1(x)}" x2="${r1(x)}" y1="${base}" y2="${base + 5}"/><text x="${r1(lx)}" y="${base + 20}" text-anchor="middle">${label}</text>`);
  }

  const anyHighlight = series.some(({ s }) => s.highlight === true);
  const marked = (s: ChartSeries): boolean => !anyHighlight || s.highlight === true;
  const withMarkers = options.markers !== false;
  // Muted lines first, so the highlighted ones are drawn on top.
  const order = [...series].sort((a, b) => Number(marked(a.s)) - Number(marked(b.s)) || a.index - b.index);
  const lines: SafeHtml[] = [];
  const markers: SafeHtml[] = [];
  for (const { s, index, points } of order) {
    const muted = !marked(s);
    const color = muted ? MUTED : seriesColor(index);
    const width = muted ? 1.5 : anyHighlight ? 3 : 2;
    const pen = new Pen();
    points.forEach((p, k) => {
      const q = points[k + 1];
      // A zero is "no charge", not a value to draw a line down to: lift the pen over its span.
      if (p.value === 0) {
        pen.lift();
        return;
      }
      const x = X(p.date);
      const y = py(p.value);
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
          pen.horizontal(Math.max(x, X(due)));
          pen.lift();
        } else pen.horizontal(X(q.date));
      } else {
        // The newest point: in force up to the edge, or ended when its value expired.
        const inForce = p.date >= options.end || due === null;
        pen.horizontal(inForce ? plotRight : Math.max(x, X(due < options.end ? due : options.end)));
        pen.lift();
      }
    });
    const d = pen.d();
    if (d !== "") {
      lines.push(
        html`<path class="series-line" data-series="${s.id}" d="${d}" fill="none" stroke="${color}" stroke-width="${width}" stroke-linejoin="round"><title>${s.label}</title></path>`,
      );
    }
    if (muted) {
      // Muted series have no markers: a lone point would otherwise be invisible.
      for (const dot of pen.isolated) lines.push(html`<circle class="dot" data-series="${s.id}" cx="${r1(dot.x)}" cy="${r1(dot.y)}" r="2" fill="${MUTED}"/>`);
      continue;
    }
    if (!withMarkers) continue;
    for (const p of points) {
      const zero = p.value === 0;
      const note = p.note ?? "";
      const valueText = zero ? text.noCharge : p.text;
      const classes = `point${zero ? " zero" : ""}${note !== "" ? " noted" : ""}`;
      const cx = r1(X(p.date));
      const cy = r1(py(p.value));
      const title = `${s.label} — ${p.dateText}: ${valueText}${note !== "" ? `. ${text.note}: ${note}` : ""}`;
      const paint = zero ? raw(`fill="#fff" stroke="${color}" stroke-width="1.5"`) : raw(`fill="${color}"`);
      const ring = note !== "" ? html`<circle class="note-ring" cx="${cx}" cy="${cy}" r="6" fill="none" stroke="${color}" stroke-width="1.5"/>` : "";
      markers.push(
        html`${ring}<circle class="${classes}" cx="${cx}" cy="${cy}" r="3" ${paint} data-series="${s.id}" data-label="${s.label}" data-date="${p.date}" data-date-text="${p.dateText}" data-value-text="${valueText}"${note !== "" ? html` data-note="${note}"` : ""}><title>${title}</title></circle>`,
      );
    }
  }

  const svg = html`${open}<g class="axis y-axis">${yAxis}<text x="${left - 6}" y="${FONT_SIZE + 2}" text-anchor="end" class="unit">${text.unit}</text></g><g class="axis x-axis">${xAxis}<line x1="${left}" x2="${plotRight}" y1="${base}" y2="${base}"/></g><g class="lines">${lines}</g><g class="points">${markers}</g></svg>`;
  return { svg, gaps };
}
