/**
 * What an indicator page shows for a selection of its sub-series: the charts, the
 * latest values and the data table, as HTML. The build renders the default
 * selection into the static page; the page script (src/site/client/series-page.ts)
 * renders the visitor's choice with this same code.
 *
 * - Indicators whose sub-series have facets (health insurance prices: provider,
 *   item, regime) show, for the chosen values of the other facets, one line per
 *   value of the *primary* facet (the one with the most values), the chosen one
 *   highlighted, and a bar chart comparing them at the latest publication.
 * - Indicators without facets show every sub-series, in one chart per group of
 *   similar magnitude so that no line is flattened against the axis.
 */
import { barChartSvg, formatValue, lineChartSvg, seriesColor, type ChartSeries } from "./chart.js";
import { html, raw, type SafeHtml } from "../core/html.js";
import { byCodeUnits } from "../core/order.js";

/** A sub-series with its metadata and points (dates newest first, values as written). */
export interface ViewSeries {
  readonly id: string;
  readonly title: string;
  readonly facets: Readonly<Record<string, string>>;
  readonly dates: readonly string[];
  readonly values: readonly string[];
}

export interface FacetSpec {
  readonly name: string;
  readonly values: readonly string[];
}

/** Chosen value per facet. */
export type Selection = Record<string, string>;

/**
 * The facets every sub-series has, in order of first appearance, each with its
 * sorted values. A facet only some sub-series declare cannot select among all of
 * them, so it is left out.
 */
export function facetSpecs(series: readonly ViewSeries[]): FacetSpec[] {
  const values = new Map<string, Set<string>>();
  for (const s of series) {
    for (const [name, value] of Object.entries(s.facets)) {
      if (!values.has(name)) values.set(name, new Set());
      values.get(name)?.add(value);
    }
  }
  return [...values]
    .filter(([name]) => series.every((s) => s.facets[name] !== undefined))
    .map(([name, set]) => ({ name, values: [...set].sort(byCodeUnits) }));
}

/** The facet compared across in the charts: the one with the most values. */
export function primaryFacet(specs: readonly FacetSpec[]): string | null {
  let best: FacetSpec | null = null;
  for (const spec of specs) if (best === null || spec.values.length > best.values.length) best = spec;
  return best?.name ?? null;
}

/** The default selection: the (common) facet values of the first sub-series. */
export function defaultSelection(series: readonly ViewSeries[]): Selection {
  const first = series[0];
  return Object.fromEntries(facetSpecs(series).map((spec) => [spec.name, first?.facets[spec.name] ?? ""]));
}

/** Keeps only known facet values; falls back to the default for the rest. */
export function normaliseSelection(series: readonly ViewSeries[], wanted: Selection): Selection {
  const selection = defaultSelection(series);
  for (const spec of facetSpecs(series)) {
    const value = wanted[spec.name];
    if (value !== undefined && spec.values.includes(value)) selection[spec.name] = value;
  }
  return selection;
}

/** Most points drawn per line: longer series are thinned evenly (the newest and oldest kept). */
export const MAX_LINE_POINTS = 1_000;
/** Most rows of the data table; the CSV download has every point. */
export const MAX_TABLE_ROWS = 1_000;

/** The points of a line, thinned to at most `MAX_LINE_POINTS`. */
function points(s: ViewSeries): { date: string; value: number }[] {
  const n = s.dates.length;
  const step = Math.max(1, Math.ceil(n / MAX_LINE_POINTS));
  const out: { date: string; value: number }[] = [];
  for (let i = 0; i < n; i += step) out.push({ date: s.dates[i] as string, value: Number(s.values[i]) });
  if ((n - 1) % step !== 0) out.push({ date: s.dates[n - 1] as string, value: Number(s.values[n - 1]) });
  return out;
}

/** Groups sub-series whose typical values are within a factor of 20 of each other. */
export function magnitudeGroups(series: readonly ViewSeries[]): ViewSeries[][] {
  const typical = (s: ViewSeries) => s.values.reduce((m, v) => Math.max(m, Math.abs(Number(v))), 0);
  const sorted = [...series].filter((s) => s.dates.length > 0).sort((a, b) => typical(b) - typical(a));
  const groups: ViewSeries[][] = [];
  for (const s of sorted) {
    const group = groups.at(-1);
    const top = group?.[0];
    if (group !== undefined && top !== undefined && typical(s) * 20 >= typical(top)) group.push(s);
    else groups.push([s]);
  }
  // Within a group, the declared order (ids ascending) keeps colours stable.
  return groups.map((g) => g.sort((a, b) => byCodeUnits(a.id, b.id)));
}

export interface ViewInput {
  readonly indicator: string;
  readonly title: string;
  readonly unit: string;
  readonly series: readonly ViewSeries[];
  readonly selection: Selection;
}

export interface View {
  /** The chart figures (line charts, and the comparison bar chart for faceted indicators). */
  readonly charts: SafeHtml;
  /** Latest value of each shown sub-series. */
  readonly latest: SafeHtml;
  /** Every point of the shown sub-series, newest first. */
  readonly table: SafeHtml;
  /** The ids of the sub-series drawn as lines, in drawing order of the legend. */
  readonly shown: readonly string[];
}

function legend(items: readonly { label: string; color: string; highlight?: boolean }[]): SafeHtml {
  return html`<ul class="legend">${items.map(
    (item) =>
      html`<li${raw(item.highlight === true ? ' class="highlight"' : "")}><span class="swatch" style="background:${item.color}"></span>${item.label}</li>`,
  )}</ul>`;
}

/** How the tables name a sub-series: its title, or for faceted views its primary facet value. */
interface RowLabel {
  readonly heading: string;
  readonly of: (s: ViewSeries) => string;
}

const BY_TITLE: RowLabel = { heading: "Sub-series", of: (s) => s.title };

function latestTable(unit: string, series: readonly ViewSeries[], label: RowLabel): SafeHtml {
  const rows = series
    .filter((s) => s.dates.length > 0)
    .map((s) => html`<tr><th scope="row">${label.of(s)}</th><td>${s.dates[0]}</td><td class="num">${formatValue(Number(s.values[0]))}</td></tr>`);
  return html`<table><thead><tr><th scope="col">${label.heading}</th><th scope="col">Date</th><th scope="col" class="num">Value (${unit})</th></tr></thead><tbody>${rows}</tbody></table>`;
}

function dataTable(unit: string, series: readonly ViewSeries[], label: RowLabel): SafeHtml {
  // The newest MAX_TABLE_ROWS points at most: enough of each series, never all of them.
  const all = series
    .flatMap((s) => s.dates.slice(0, MAX_TABLE_ROWS).map((date, i) => ({ date, label: label.of(s), id: s.id, value: s.values[i] as string })))
    .sort((a, b) => byCodeUnits(b.date, a.date) || byCodeUnits(a.id, b.id));
  const total = series.reduce((n, s) => n + s.dates.length, 0);
  const rows = all
    .slice(0, MAX_TABLE_ROWS)
    .map((r) => html`<tr><td>${r.date}</td><td>${r.label}</td><td class="num">${formatValue(Number(r.value))}</td></tr>`);
  const caption = total > MAX_TABLE_ROWS ? html`<caption>The newest ${MAX_TABLE_ROWS} of ${total} points; the CSV has them all.</caption>` : "";
  return html`<table>${caption}<thead><tr><th scope="col">Date</th><th scope="col">${label.heading}</th><th scope="col" class="num">Value (${unit})</th></tr></thead><tbody>${rows}</tbody></table>`;
}

function facetedView(input: ViewInput, primary: string): View {
  const { selection } = input;
  const others = Object.keys(selection).filter((name) => name !== primary);
  const shown = input.series.filter((s) => others.every((name) => s.facets[name] === selection[name]));
  const chosen = selection[primary] ?? "";
  const context = others.map((name) => selection[name] ?? "").join(", ") || input.title;
  const chartSeries: ChartSeries[] = shown.map((s) => ({
    id: s.id,
    label: s.facets[primary] ?? s.title,
    points: points(s),
    highlight: s.facets[primary] === chosen,
  }));
  const highlighted = shown.find((s) => s.facets[primary] === chosen);
  const lastValue = highlighted?.values[0];
  const line = lineChartSvg({
    series: chartSeries,
    unit: input.unit,
    idPrefix: "chart-main",
    title: `${input.title}: ${context}, by ${primary}`,
    description:
      `${shown.length} lines, one per ${primary}; ${chosen} highlighted` +
      (highlighted !== undefined && lastValue !== undefined
        ? `, latest ${formatValue(Number(lastValue))} ${input.unit} on ${highlighted.dates[0]}.`
        : ", which has no data for this selection."),
  });

  // Compare every value of the primary facet at the latest publication of the shown series.
  const latestDate = shown.reduce((max, s) => (s.dates[0] !== undefined && s.dates[0] > max ? s.dates[0] : max), "");
  const bars = shown
    .filter((s) => s.dates[0] === latestDate)
    .map((s) => ({ label: s.facets[primary] ?? s.id, value: Number(s.values[0]), highlight: s.facets[primary] === chosen }));
  const compare = barChartSvg({
    bars,
    idPrefix: "chart-compare",
    title: `${context} on ${latestDate}, by ${primary}`,
    description: `${bars.length} bars, largest first${
      bars.length > 0
        ? `: from ${formatValue(bars.reduce((m, b) => Math.max(m, b.value), -Infinity))} to ${formatValue(bars.reduce((m, b) => Math.min(m, b.value), Infinity))} ${input.unit}`
        : ""
    }.`,
  });
  const charts = html`<figure class="chart-figure" id="figure-main">
<figcaption>${context}: ${input.unit} by ${primary} over time, ${chosen} highlighted</figcaption>
${raw(line)}
${legend([
  { label: chosen, color: seriesColor(Math.max(0, shown.findIndex((s) => s.facets[primary] === chosen))), highlight: true },
  { label: `other values of ${primary}`, color: "#b8b8b8" },
])}
</figure>
<figure class="chart-figure" id="figure-compare">
<figcaption>Latest publication (${latestDate || "none"}): ${context}, by ${primary}</figcaption>
${raw(compare)}
</figure>`;
  const label: RowLabel = { heading: primary, of: (s) => s.facets[primary] ?? s.title };
  return { charts, latest: latestTable(input.unit, shown, label), table: dataTable(input.unit, shown, label), shown: shown.map((s) => s.id) };
}

function plainView(input: ViewInput): View {
  const groups = magnitudeGroups(input.series);
  const figures = groups.map((group, g) => {
    const svg = lineChartSvg({
      series: group.map((s) => ({ id: s.id, label: s.title, points: points(s) })),
      unit: input.unit,
      idPrefix: `chart-${g + 1}`,
      title: `${input.title}: ${group.map((s) => s.title).join("; ")}`,
      description: group
        .map((s) => `${s.title}: ${s.dates.length} points from ${s.dates.at(-1)} to ${s.dates[0]}, latest ${formatValue(Number(s.values[0]))} ${input.unit}`)
        .join(". "),
    });
    return html`<figure class="chart-figure">
<figcaption>${group.map((s) => s.title).join(" · ")}</figcaption>
${raw(svg)}
${legend(group.map((s, i) => ({ label: s.title, color: seriesColor(i) })))}
</figure>`;
  });
  const shown = groups.flat();
  return {
    charts: html`${figures}`,
    latest: latestTable(input.unit, input.series, BY_TITLE),
    table: dataTable(input.unit, input.series, BY_TITLE),
    shown: shown.map((s) => s.id),
  };
}

/** Renders the view of `input.selection`. */
export function renderView(input: ViewInput): View {
  const primary = primaryFacet(facetSpecs(input.series));
  return primary === null ? plainView(input) : facetedView(input, primary);
}
