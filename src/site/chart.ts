/**
 * SVG charts rendered as strings: at build time into the static pages (no script
 * needed to see them), and in the browser by the page script when the visitor
 * changes the selection. Pure and deterministic; every text is escaped.
 */
import { dayNumber } from "../core/dates.js";
import { escapeHtml } from "../core/html.js";

/** One line of a line chart. */
export interface ChartSeries {
  readonly id: string;
  readonly label: string;
  /** Dates `YYYY-MM-DD` in any order, with their values (numbers). */
  readonly points: readonly { readonly date: string; readonly value: number }[];
  /** Drawn on top, in colour, thicker; the others grey (when any series is highlighted). */
  readonly highlight?: boolean;
}

/** Okabe–Ito palette: distinguishable with the common colour vision deficiencies. */
export const PALETTE = ["#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#000000", "#8C6D00"];
const MUTED = "#b8b8b8";

const whole = new Intl.NumberFormat("en-US", { maximumFractionDigits: 0 });

/** A value for display: rounded to the unit, thousands separated (the API never rounds). */
export function formatValue(value: number): string {
  return whole.format(value);
}

const DAY_MS = 86_400_000;
const r1 = (n: number): string => String(Math.round(n * 10) / 10);

/** "Nice" tick step (1, 2 or 5 × 10^k) giving about `count` intervals over `span`. */
export function niceStep(span: number, count: number): number {
  if (!(span > 0)) return 1;
  const raw = span / count;
  const power = 10 ** Math.floor(Math.log10(raw));
  const fraction = raw / power;
  return (fraction <= 1 ? 1 : fraction <= 2 ? 2 : fraction <= 5 ? 5 : 10) * power;
}

interface Frame {
  width: number;
  height: number;
  left: number;
  right: number;
  top: number;
  bottom: number;
}

/** The color of series `index` among those drawn. */
export function seriesColor(index: number): string {
  return PALETTE[index % PALETTE.length] as string;
}

/**
 * A line chart with a date axis (year ticks) and a value axis from zero, one
 * `<path class="series-line">` per series (and a dot where a series has a single
 * point). `title` and `description` are the chart's text alternative.
 */
export function lineChartSvg(options: {
  series: readonly ChartSeries[];
  unit: string;
  title: string;
  description: string;
  idPrefix: string;
  width?: number;
  height?: number;
}): string {
  const f: Frame = { width: options.width ?? 720, height: options.height ?? 360, left: 64, right: 16, top: 30, bottom: 36 };
  const all = options.series.flatMap((s) => s.points);
  const titleId = `${options.idPrefix}-title`;
  const descId = `${options.idPrefix}-desc`;
  const head =
    `<svg class="chart" viewBox="0 0 ${f.width} ${f.height}" role="img" aria-labelledby="${titleId} ${descId}" xmlns="http://www.w3.org/2000/svg">` +
    `<title id="${titleId}">${escapeHtml(options.title)}</title><desc id="${descId}">${escapeHtml(options.description)}</desc>`;
  if (all.length === 0) {
    return `${head}<text x="${f.width / 2}" y="${f.height / 2}" text-anchor="middle" class="empty">No data for this selection</text></svg>`;
  }
  // Loops, not Math.max(...array): a long series would overflow the call stack.
  let x0 = Infinity;
  let x1 = -Infinity;
  let minValue = 0;
  let maxValue = 0;
  for (const p of all) {
    const day = dayNumber(p.date);
    x0 = Math.min(x0, day);
    x1 = Math.max(x1, day);
    minValue = Math.min(minValue, p.value);
    maxValue = Math.max(maxValue, p.value);
  }
  if (x1 - x0 < 60) [x0, x1] = [x0 - 182, x1 + 182];
  const step = niceStep(maxValue - minValue || 1, 5);
  const y0 = Math.floor(minValue / step) * step;
  const y1 = Math.max(Math.ceil(maxValue / step) * step, y0 + step);
  const px = (day: number) => f.left + ((day - x0) / (x1 - x0)) * (f.width - f.left - f.right);
  const py = (value: number) => f.top + (1 - (value - y0) / (y1 - y0)) * (f.height - f.top - f.bottom);

  const parts: string[] = [head, `<g class="axis y-axis">`];
  for (let v = y0; v <= y1 + step / 2; v += step) {
    const y = r1(py(v));
    parts.push(
      `<line x1="${f.left}" x2="${f.width - f.right}" y1="${y}" y2="${y}" class="grid"/>`,
      `<text x="${f.left - 6}" y="${y}" dy="0.32em" text-anchor="end">${formatValue(v)}</text>`,
    );
  }
  parts.push(`<text x="${f.left - 6}" y="10" dy="0.32em" text-anchor="end" class="unit">${escapeHtml(options.unit)}</text></g><g class="axis x-axis">`);
  // The first 1 January on or after the start of the axis.
  const start = new Date(x0 * DAY_MS);
  const firstYear = start.getUTCFullYear() + (start.getUTCMonth() === 0 && start.getUTCDate() === 1 ? 0 : 1);
  const lastYear = new Date(x1 * DAY_MS).getUTCFullYear();
  const yearStep = Math.max(1, Math.ceil((lastYear - firstYear + 1) / 8));
  for (let year = firstYear; year <= lastYear; year += yearStep) {
    const x = r1(px(dayNumber(`${String(year).padStart(4, "0")}-01-01`)));
    const base = f.height - f.bottom;
    parts.push(`<line x1="${x}" x2="${x}" y1="${base}" y2="${base + 5}"/>`, `<text x="${x}" y="${base + 18}" text-anchor="middle">${year}</text>`);
  }
  parts.push(`<line x1="${f.left}" x2="${f.width - f.right}" y1="${f.height - f.bottom}" y2="${f.height - f.bottom}"/></g><g class="lines">`);

  const anyHighlight = options.series.some((s) => s.highlight === true);
  // Muted lines first, so the highlighted ones are drawn on top.
  const order = options.series.map((s, i) => ({ s, i })).sort((a, b) => Number(a.s.highlight === true) - Number(b.s.highlight === true));
  for (const { s, i } of order) {
    const points = [...s.points].sort((a, b) => (a.date < b.date ? -1 : 1));
    const color = anyHighlight && s.highlight !== true ? MUTED : seriesColor(i);
    const width = anyHighlight && s.highlight === true ? 3 : 2;
    const d = points.map((p, k) => `${k === 0 ? "M" : "L"}${r1(px(dayNumber(p.date)))} ${r1(py(p.value))}`).join("");
    parts.push(
      `<path class="series-line" data-series="${escapeHtml(s.id)}" d="${d}" fill="none" stroke="${color}" stroke-width="${width}" stroke-linejoin="round"><title>${escapeHtml(s.label)}</title></path>`,
    );
    if (points.length === 1) {
      const only = points[0] as { date: string; value: number };
      parts.push(`<circle cx="${r1(px(dayNumber(only.date)))}" cy="${r1(py(only.value))}" r="3" fill="${color}"/>`);
    }
  }
  parts.push("</g></svg>");
  return parts.join("");
}

/** One bar of a bar chart. */
export interface Bar {
  readonly label: string;
  readonly value: number;
  readonly highlight?: boolean;
}

/** Horizontal bars, largest first, labelled with their rounded values. */
export function barChartSvg(options: { bars: readonly Bar[]; title: string; description: string; idPrefix: string; width?: number }): string {
  const width = options.width ?? 720;
  const rowHeight = 22;
  const labelWidth = 230;
  const valueWidth = 70;
  const bars = [...options.bars].sort((a, b) => b.value - a.value || (a.label < b.label ? -1 : 1));
  const height = Math.max(rowHeight, bars.length * rowHeight) + 8;
  const max = bars.reduce((m, b) => Math.max(m, b.value), 1);
  const span = width - labelWidth - valueWidth;
  const titleId = `${options.idPrefix}-title`;
  const descId = `${options.idPrefix}-desc`;
  const parts = [
    `<svg class="chart bars" viewBox="0 0 ${width} ${height}" role="img" aria-labelledby="${titleId} ${descId}" xmlns="http://www.w3.org/2000/svg">`,
    `<title id="${titleId}">${escapeHtml(options.title)}</title><desc id="${descId}">${escapeHtml(options.description)}</desc>`,
  ];
  bars.forEach((bar, i) => {
    const y = 4 + i * rowHeight;
    const w = r1(Math.max(0, (bar.value / max) * span));
    const color = bar.highlight === true ? PALETTE[1] : PALETTE[0];
    parts.push(
      `<g class="bar${bar.highlight === true ? " highlight" : ""}">`,
      `<text x="${labelWidth - 8}" y="${y + rowHeight / 2}" dy="0.32em" text-anchor="end">${escapeHtml(bar.label)}</text>`,
      `<rect x="${labelWidth}" y="${y + 3}" width="${w}" height="${rowHeight - 6}" fill="${color}"/>`,
      `<text x="${r1(labelWidth + Number(w) + 6)}" y="${y + rowHeight / 2}" dy="0.32em">${formatValue(bar.value)}</text></g>`,
    );
  });
  parts.push("</svg>");
  return parts.join("");
}
