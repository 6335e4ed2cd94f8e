import { describe, expect, it } from "vitest";
import { dayNumber } from "../../src/core/time/dates.js";
import { lineChart, niceStep, PALETTE, seriesColor, type ChartLayout, type ChartOptions, type ChartPoint, type ChartSeries } from "../../src/site/client/chart.js";
import type { Gap } from "../../src/core/time/coverage.js";

const FONT = 12;
const CHAR = 0.62 * FONT;

/** `date` plus `months` calendar months (day 1 stays day 1, which is all the fixtures use). */
function addMonths(date: string, months: number): string {
  const total = Number(date.slice(0, 4)) * 12 + Number(date.slice(5, 7)) - 1 + months;
  return `${String(Math.floor(total / 12)).padStart(4, "0")}-${String((total % 12) + 1).padStart(2, "0")}${date.slice(7)}`;
}

/** Semiannual dates from `from` to `to`, both included. */
function semiannual(from: string, to: string): string[] {
  const dates: string[] = [];
  for (let d = from; d <= to; d = addMonths(d, 6)) dates.push(d);
  return dates;
}

const fmt = new Intl.NumberFormat("es-UY", { maximumFractionDigits: 0 });
const point = (date: string, value: number, note?: string): ChartPoint => ({ date, value, text: `$ ${fmt.format(value)}`, dateText: `el ${date}`, note: note ?? null });
const seriesOf = (id: string, entries: [string, number][], extra: Partial<ChartSeries> = {}): ChartSeries => ({
  id,
  label: `Serie ${id}`,
  points: entries.map(([date, value]) => point(date, value)),
  ...extra,
});

// 2010-07-01 … 2026-01-01 without 2013-01-01 … 2014-07-01: one gap after 2012-07-01.
const DATES = semiannual("2010-07-01", "2026-01-01").filter((d) => d < "2013-01-01" || d > "2014-07-01");
const rising = (start: number, step: number): [string, number][] => DATES.map((d, i) => [d, start + i * step]);

const TEXT = {
  axis: (v: number) => fmt.format(v),
  year: (y: number) => String(y),
  unit: "$",
  zero: "sin costo",
  noData: "Sin datos para esta selección",
  note: "Nota",
  logScale: "escala logarítmica",
  logScaleDescription: "Eje logarítmico.",
};

/** The chart's markup as a string, and its gaps. */
function chart(series: readonly ChartSeries[], extra: Partial<ChartOptions> = {}): { svg: string; gaps: readonly Gap[] } {
  const { svg, gaps } = lineChart({
    series,
    title: "Cuota mensual",
    description: "Evolución de la cuota",
    idPrefix: "c",
    layout: "wide",
    shape: "step",
    text: TEXT,
    nextDue: (date) => addMonths(date, 6),
    end: "2026-01-01",
    ...extra,
  });
  return { svg: svg.html, gaps };
}

// --- Parsing the markup with regexes (the chart's own, predictable markup) ---

const unescape = (s: string): string => s.replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&amp;/g, "&");

function attributes(tag: string): Record<string, string> {
  return Object.fromEntries([...tag.matchAll(/([\w:-]+)="([^"]*)"/g)].map((m) => [m[1] as string, unescape(m[2] as string)]));
}

function elements(svg: string, name: string): Record<string, string>[] {
  return [...svg.matchAll(new RegExp(`<${name}\\b([^>]*)>`, "g"))].map((m) => attributes(m[1] as string));
}

interface Command {
  op: string;
  args: number[];
}

function pathOf(svg: string, id: string): Command[] {
  const path = elements(svg, "path").find((p) => p["data-series"] === id);
  if (path === undefined) throw new Error(`no path for ${id}`);
  return [...(path.d ?? "").matchAll(/([MHVL])([^MHVL]*)/g)].map((m) => ({ op: m[1] as string, args: (m[2] as string).trim().split(/[ ,]+/).map(Number) }));
}

/** Subpaths of a `d`, each a list of the points it visits. */
function subpaths(commands: Command[]): { x: number; y: number }[][] {
  const out: { x: number; y: number }[][] = [];
  let x = 0;
  let y = 0;
  for (const c of commands) {
    if (c.op === "M" || c.op === "L") [x, y] = c.args as [number, number];
    if (c.op === "H") x = c.args[0] as number;
    if (c.op === "V") y = c.args[0] as number;
    if (c.op === "M") out.push([]);
    out.at(-1)?.push({ x, y });
  }
  return out;
}

const points = (svg: string) => elements(svg, "circle").filter((c) => (c.class ?? "").split(" ").includes("point"));
const pointAt = (svg: string, id: string, date: string) => {
  const p = points(svg).find((c) => c["data-series"] === id && c["data-date"] === date);
  if (p === undefined) throw new Error(`no point ${id} ${date}`);
  return { attrs: p, x: Number(p.cx), y: Number(p.cy) };
};

/** The plot area, read from the x axis baseline (the last line of the x-axis group). */
function plot(svg: string): { left: number; right: number; base: number } {
  const group = /<g class="axis x-axis">(.*?)<\/g>/s.exec(svg)?.[1] ?? "";
  const base = elements(group, "line").at(-1) ?? {};
  return { left: Number(base.x1), right: Number(base.x2), base: Number(base.y1) };
}

interface Box {
  text: string;
  left: number;
  right: number;
  top: number;
  bottom: number;
}

/**
 * Every `<text>`'s estimated box: chars × 0.62 × font size wide, placed by its
 * text-anchor; vertically from one font size above the baseline (y + dy) to a
 * quarter below it, for descenders (slightly stricter than a box one font size high).
 */
function textBoxes(svg: string): Box[] {
  return [...svg.matchAll(/<text\b([^>]*)>([^<]*)<\/text>/g)].map((m) => {
    const a = attributes(m[1] as string);
    const text = unescape(m[2] as string);
    const width = [...text].length * CHAR;
    const x = Number(a.x);
    const anchor = a["text-anchor"] ?? "start";
    const left = anchor === "end" ? x - width : anchor === "middle" ? x - width / 2 : x;
    const dy = a.dy === undefined ? 0 : Number(a.dy.replace("em", "")) * FONT;
    const baseline = Number(a.y) + dy;
    return { text, left, right: left + width, top: baseline - FONT, bottom: baseline + FONT / 4 };
  });
}

function viewBox(svg: string): { width: number; height: number } {
  const [, , width, height] = (/viewBox="([^"]*)"/.exec(svg)?.[1] ?? "").split(" ").map(Number);
  return { width: width as number, height: height as number };
}

describe("niceStep and colours", () => {
  it.each([
    [1000, 5, 200],
    [31178, 5, 10000],
    [1234567, 4, 500000],
    [0, 5, 1],
  ])("niceStep(%d, %d) is %d", (span, count, step) => {
    expect(niceStep(span, count)).toBe(step);
  });

  it("keeps the Okabe–Ito palette and cycles it", () => {
    expect(PALETTE[0]).toBe("#0072B2");
    expect(seriesColor(PALETTE.length + 1)).toBe(PALETTE[1]);
  });
});

describe("lineChart: steps, gaps and endings", () => {
  it("draws a step series as a horizontal run at each value, then a vertical jump", () => {
    const entries: [string, number][] = [
      ["2020-01-01", 100],
      ["2020-07-01", 150],
      ["2021-01-01", 120],
    ];
    const { svg } = chart([seriesOf("a", entries)], { end: "2021-01-01" });
    const d = pathOf(svg, "a");
    expect(d.map((c) => c.op).join("")).toBe("MHVHVH");
    const [p, q, r] = entries.map(([date]) => pointAt(svg, "a", date));
    expect(d[0]?.args).toEqual([p?.x, p?.y]);
    expect(d[1]?.args).toEqual([q?.x]); // p's value held until q's date
    expect(d[2]?.args).toEqual([q?.y]); // then the jump
    expect(d[3]?.args).toEqual([r?.x]);
    expect(d[4]?.args).toEqual([r?.y]);
    expect(d[5]?.args).toEqual([plot(svg).right]); // the newest value is in force
  });

  it("draws a line series as straight segments, without extending past its last point", () => {
    const { svg } = chart([seriesOf("a", rising(100, 10))], { shape: "line" });
    const subs = subpaths(pathOf(svg, "a"));
    expect(pathOf(svg, "a").every((c) => c.op === "M" || c.op === "L")).toBe(true);
    expect(subs.at(-1)?.at(-1)?.x).toBe(pointAt(svg, "a", "2026-01-01").x);
  });

  it.each(["step", "line"] as const)("splits a %s path at a missing stretch and lists the gap", (shape) => {
    const { svg, gaps } = chart([seriesOf("a", rising(100, 10))], { shape });
    expect(gaps).toEqual([{ series: "a", after: "2012-07-01", before: "2015-01-01" }]);
    const subs = subpaths(pathOf(svg, "a"));
    expect(subs).toHaveLength(2);
    const before = pointAt(svg, "a", "2012-07-01");
    const after = pointAt(svg, "a", "2015-01-01");
    expect(subs[1]?.[0]).toEqual({ x: after.x, y: after.y });
    if (shape === "step") {
      // The value before the gap holds only until it was due to be replaced (2013-01-01).
      const share = (dayNumber("2013-01-01") - dayNumber("2012-07-01")) / (dayNumber("2015-01-01") - dayNumber("2012-07-01"));
      expect(subs[0]?.at(-1)?.x).toBeCloseTo(before.x + share * (after.x - before.x), 0);
      expect(subs[0]?.at(-1)?.y).toBe(before.y);
    } else {
      expect(subs[0]?.at(-1)).toEqual({ x: before.x, y: before.y });
    }
  });

  it("lists gaps in series order, then date order, and none when nextDue is null", () => {
    const holes: [string, number][] = [
      ["2010-01-01", 1],
      ["2012-01-01", 2],
      ["2012-07-01", 3],
      ["2015-01-01", 4],
    ];
    const { gaps } = chart([seriesOf("z", holes), seriesOf("a", rising(5, 1))]);
    expect(gaps).toEqual([
      { series: "z", after: "2010-01-01", before: "2012-01-01" },
      { series: "z", after: "2012-07-01", before: "2015-01-01" },
      { series: "a", after: "2012-07-01", before: "2015-01-01" },
    ]);
    const open = chart([seriesOf("z", holes)], { nextDue: () => null });
    expect(open.gaps).toEqual([]);
    expect(subpaths(pathOf(open.svg, "z"))).toHaveLength(1);
  });

  it("stops a series that ended at its last value's due date, and takes one in force to the right edge", () => {
    const ended = DATES.filter((d) => d <= "2020-01-01").map((d, i): [string, number] => [d, 200 + i]);
    const { svg, gaps } = chart([seriesOf("ended", ended), seriesOf("current", rising(100, 5))]);
    expect(gaps.filter((g) => g.series === "ended")).toHaveLength(1); // the ending is not a gap
    const last = pointAt(svg, "ended", "2020-01-01");
    const stop = subpaths(pathOf(svg, "ended")).at(-1)?.at(-1);
    const newest = pointAt(svg, "current", "2026-01-01");
    const share = (dayNumber("2020-07-01") - dayNumber("2020-01-01")) / (dayNumber("2026-01-01") - dayNumber("2020-01-01"));
    expect(stop?.x).toBeCloseTo(last.x + share * (newest.x - last.x), 0);
    expect(stop?.y).toBe(last.y);
    expect(subpaths(pathOf(svg, "current")).at(-1)?.at(-1)).toEqual({ x: plot(svg).right, y: newest.y });
    expect(plot(svg).right).toBeGreaterThan(newest.x); // the in-force step is visible
  });

  it("never lets an ended series run past the indicator's end", () => {
    const { svg } = chart([seriesOf("a", [["2025-10-01", 50]])], { end: "2026-01-01", nextDue: (d) => addMonths(d, 12) });
    const stop = subpaths(pathOf(svg, "a"))[0]?.at(-1);
    expect(stop?.x).toBeLessThan(plot(svg).right);
    expect(stop?.x).toBeGreaterThan(pointAt(svg, "a", "2025-10-01").x);
  });
});

describe("lineChart: zero values", () => {
  const entries: [string, number][] = [
    ["2019-07-01", 280],
    ["2020-01-01", 300],
    ["2020-07-01", 0],
    ["2021-01-01", 0],
    ["2021-07-01", 350],
    ["2022-01-01", 400],
  ];

  it.each(["step", "line"] as const)("interrupts a %s path over a zero and marks it hollow on the baseline", (shape) => {
    const { svg, gaps } = chart([seriesOf("a", entries)], { shape, end: "2022-01-01" });
    expect(gaps).toEqual([]);
    const { base } = plot(svg);
    const commands = pathOf(svg, "a");
    const ys = subpaths(commands).flat().map((p) => p.y);
    expect(ys).not.toContain(base); // never drawn down to zero
    expect(commands.filter((c) => c.op === "M")).toHaveLength(2);
    const resumed = pointAt(svg, "a", "2021-07-01");
    expect(subpaths(commands)[1]?.[0]).toEqual({ x: resumed.x, y: resumed.y });
    if (shape === "step") expect(subpaths(commands)[0]?.at(-1)?.x).toBe(pointAt(svg, "a", "2020-07-01").x);
    const zeros = points(svg).filter((c) => c.class === "point zero");
    expect(zeros.map((z) => z["data-date"])).toEqual(["2020-07-01", "2021-01-01"]);
    for (const z of zeros) {
      expect(Number(z.cy)).toBe(base);
      expect(z.fill).toBe("#fff");
      expect(z.stroke).toBe(PALETTE[0]);
      expect(z["data-value-text"]).toBe("sin costo");
    }
    expect(svg).toContain("<title>Serie a — el 2020-07-01: sin costo</title>");
  });

  it("keeps the value axis from zero", () => {
    const { svg } = chart([seriesOf("a", [["2020-01-01", 500], ["2021-01-01", 800]])]);
    const labels = textBoxes(/<g class="axis y-axis">(.*?)<\/g>/s.exec(svg)?.[1] ?? "").map((b) => b.text);
    expect(labels[0]).toBe("0");
  });

  it("draws nothing for the zero span of a muted series", () => {
    const { svg } = chart([seriesOf("a", entries), seriesOf("b", rising(100, 1), { highlight: true })], { end: "2026-01-01" });
    expect(points(svg).some((c) => c["data-series"] === "a")).toBe(false);
    expect(subpaths(pathOf(svg, "a")).flat().map((p) => p.y)).not.toContain(plot(svg).base);
  });
});

describe("lineChart: points, notes and styles", () => {
  it("gives each point its texts as data attributes and a <title>", () => {
    const { svg } = chart([seriesOf("a", rising(31178, 1000))]);
    const all = points(svg);
    expect(all).toHaveLength(DATES.length);
    const p = pointAt(svg, "a", "2015-01-01").attrs;
    expect(p).toMatchObject({ class: "point", r: "3", "data-label": "Serie a", "data-date-text": "el 2015-01-01", "data-value-text": "$ 36.178" });
    expect(p["data-note"]).toBeUndefined();
    expect(svg).toContain("<title>Serie a — el 2015-01-01: $ 36.178</title>");
  });

  it("draws a noted point differently, with its note in the title and data-note", () => {
    const s: ChartSeries = { id: "a", label: "A", points: [point("2020-01-01", 10), point("2020-07-01", 12, "Incluye IVA")] };
    const { svg } = chart([s], { end: "2020-07-01" });
    const noted = pointAt(svg, "a", "2020-07-01").attrs;
    expect(noted.class).toBe("point noted");
    expect(noted["data-note"]).toBe("Incluye IVA");
    expect(svg).toContain("<title>A — el 2020-07-01: $ 12. Nota: Incluye IVA</title>");
    const ring = elements(svg, "circle").find((c) => c.class === "note-ring");
    expect(ring).toMatchObject({ cx: noted.cx, cy: noted.cy, r: "6", fill: "none", stroke: PALETTE[0] });
    expect(pointAt(svg, "a", "2020-01-01").attrs.class).toBe("point");
  });

  it("greys muted series and draws them first, thin, without markers; highlighted ones thick in their colour", () => {
    const { svg } = chart([seriesOf("m", rising(100, 1)), seriesOf("h", rising(200, 1), { highlight: true }), seriesOf("one", [["2020-01-01", 150]])], {
      shape: "line",
    });
    const paths = elements(svg, "path");
    expect(paths.map((p) => p["data-series"])).toEqual(["m", "h"]); // "one" has nothing to stroke
    expect(paths[0]).toMatchObject({ class: "series-line", stroke: "#b8b8b8", "stroke-width": "1.5", fill: "none" });
    expect(paths[1]).toMatchObject({ stroke: seriesColor(1), "stroke-width": "3" });
    expect(new Set(points(svg).map((p) => p["data-series"]))).toEqual(new Set(["h"]));
    // A muted single point is still visible as a small grey dot.
    expect(elements(svg, "circle").filter((c) => c["data-series"] === "one")).toEqual([expect.objectContaining({ class: "dot", fill: "#b8b8b8" })]);
    expect(svg).toMatch(/<path class="series-line" data-series="h"[^>]*><title>Serie h<\/title><\/path>/);
  });

  it("colours every series by its position, width 2, when none is highlighted", () => {
    const { svg } = chart([seriesOf("a", rising(100, 1)), seriesOf("b", rising(200, 1))]);
    const paths = elements(svg, "path");
    expect(paths.map((p) => [p.stroke, p["stroke-width"]])).toEqual([
      [PALETTE[0], "2"],
      [PALETTE[1], "2"],
    ]);
    expect(new Set(points(svg).map((p) => p["data-series"]))).toEqual(new Set(["a", "b"]));
  });
});

describe("lineChart: markup", () => {
  it("escapes every caller text", () => {
    const evil = `<script>alert("x")</script> & co`;
    const s: ChartSeries = { id: `a"b`, label: evil, points: [{ date: "2020-01-01", value: 1, text: evil, dateText: evil, note: `<b>&</b>` }, point("2021-01-01", 0)] };
    const { svg } = lineChart({
      series: [s],
      title: evil,
      description: evil,
      idPrefix: "x",
      layout: "narrow",
      shape: "step",
      text: { ...TEXT, unit: "<U&>", zero: evil, note: evil, axis: () => "<&>", year: () => "&" },
      nextDue: () => null,
      end: "2021-01-01",
    });
    expect(svg.html).not.toContain("<script");
    expect(svg.html).not.toContain("<b>");
    expect(svg.html).not.toMatch(/&(?!(amp|lt|gt|quot|#39);)/);
    expect(svg.html).toContain("&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; co");
    expect(svg.html).toContain('data-note="&lt;b&gt;&amp;&lt;/b&gt;"');
    expect(svg.html).toContain('data-series="a&quot;b"');
    expect(svg.html).toContain(">&lt;U&amp;&gt;</text>");
    expect(lineChart({ ...chartOptions(), series: [], text: { ...TEXT, noData: evil } }).svg.html).not.toContain("<script");
  });

  it("keeps the root element, its text alternative and the layout", () => {
    const { svg } = chart([seriesOf("a", rising(1, 1))], { idPrefix: "p-1", layout: "narrow" });
    expect(svg).toMatch(
      /^<svg class="chart" viewBox="0 0 360 300" role="img" aria-labelledby="p-1-title p-1-desc" xmlns="http:\/\/www.w3.org\/2000\/svg" font-size="12" data-layout="narrow"><title id="p-1-title">Cuota mensual<\/title><desc id="p-1-desc">Evolución de la cuota<\/desc>/,
    );
    expect(svg).toContain('<g class="axis y-axis">');
    expect(svg).toContain('class="unit">$</text>');
    expect(svg).toContain('class="grid"');
    expect(chart([]).svg).toMatch(/^<svg class="chart" viewBox="0 0 720 360"[^>]* font-size="12" data-layout="wide">/);
  });

  it("rounds every number in the markup to 0.1", () => {
    const { svg } = chart([seriesOf("a", rising(1.23456, 0.777))]);
    const numbers = [...svg.matchAll(/\s(?:x|y|x1|x2|y1|y2|cx|cy|d)="([^"]*)"/g)].flatMap((m) => (m[1] as string).match(/-?\d+(\.\d+)?/g) ?? []);
    expect(numbers.length).toBeGreaterThan(100);
    expect(numbers.filter((n) => /\.\d\d/.test(n))).toEqual([]);
  });

  it("says there is no data when there is no point", () => {
    for (const layout of ["wide", "narrow"] as const) {
      const { svg, gaps } = chart([seriesOf("a", [])], { layout });
      expect(gaps).toEqual([]);
      expect(svg).toContain('class="empty">Sin datos para esta selección</text>');
      expect(svg).toContain("<title id=\"c-title\">Cuota mensual</title>");
      const { width, height } = viewBox(svg);
      for (const b of textBoxes(svg)) expect([b.left >= 0, b.right <= width, b.top >= 0, b.bottom <= height]).toEqual([true, true, true, true]);
    }
  });

  it("is deterministic", () => {
    const input = [seriesOf("a", rising(100, 3)), seriesOf("b", rising(50, 7), { highlight: true })];
    expect(chart(input).svg).toBe(chart(input).svg);
    expect(chart(input, { layout: "narrow", shape: "line" })).toEqual(chart(input, { layout: "narrow", shape: "line" }));
  });
});

function chartOptions(): ChartOptions {
  return { series: [], title: "t", description: "d", idPrefix: "o", layout: "wide", shape: "step", text: TEXT, nextDue: () => null, end: "2026-01-01" };
}

describe("lineChart: text never clipped", () => {
  const big = DATES.map((d, i): [string, number] => [d, Math.round((1234567 * (i + 1)) / DATES.length)]);
  // The last case has long year labels on ticks at both ends of the plot.
  const cases: [ChartLayout, "step" | "line", string, string, (y: number) => string][] = [
    ["wide", "step", "2010-07-01", "2026-01-01", String],
    ["narrow", "step", "2010-07-01", "2026-01-01", String],
    ["wide", "line", "2010-07-01", "2026-01-01", String],
    ["narrow", "line", "2010-07-01", "2026-01-01", String],
    ["narrow", "step", "2025-01-01", "2025-12-31", String], // one year: ticks near both edges
    ["narrow", "line", "1999-01-01", "2026-01-01", String],
    ["narrow", "line", "2015-01-01", "2025-01-01", (y) => `año ${y}`],
  ];

  it.each(cases)("%s %s chart from %s to %s: every <text> lies inside the viewBox, none overlapping", (layout, shape, from, to, year) => {
    const entries = big.map(([d, v], i): [string, number] => [i === 0 ? from : i === big.length - 1 ? to : d, v]).filter(([d]) => d >= from && d <= to);
    const { svg } = chart([seriesOf("a", entries), seriesOf("b", entries.map(([d, v]) => [d, v / 2]))], {
      layout,
      shape,
      end: to,
      text: { ...TEXT, unit: "UYU", axis: (v) => fmt.format(v), year },
    });
    const html = svg;
    const { width, height } = viewBox(html);
    expect([width, height]).toEqual(layout === "wide" ? [720, 360] : [360, 300]);
    const boxes = textBoxes(html);
    for (const b of boxes) {
      expect({ text: b.text, inside: b.left >= 0 && b.right <= width && b.top >= 0 && b.bottom <= height }).toEqual({ text: b.text, inside: true });
    }
    boxes.forEach((a, i) =>
      boxes.slice(i + 1).forEach((b) => {
        const overlap = a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
        expect({ a: a.text, b: b.text, overlap }).toEqual({ a: a.text, b: b.text, overlap: false });
      }),
    );
    const years = textBoxes(/<g class="axis x-axis">(.*?)<\/g>/s.exec(html)?.[1] ?? "");
    const values = textBoxes(/<g class="axis y-axis">(.*?)<\/g>/s.exec(html)?.[1] ?? "").filter((b) => b.text !== "UYU");
    // Millions, and the margin fits the widest value label.
    expect(values.at(-1)?.text).toMatch(/^\d\.\d{3}\.\d{3}$/);
    expect(plot(html).left).toBeGreaterThanOrEqual(Math.ceil(9 * CHAR) + 10);
    expect(years.length).toBeGreaterThan(0);
    expect(years.length).toBeLessThanOrEqual(layout === "narrow" ? 4 : 8);
    expect(values.length).toBeLessThanOrEqual(layout === "narrow" ? 5 : 7);
  });

  it("puts no legend inside the SVG: the only texts are axis labels and the unit", () => {
    const { svg } = chart([seriesOf("a", rising(1, 1)), seriesOf("b", rising(2, 1))]);
    expect(textBoxes(svg).some((b) => b.text.startsWith("Serie"))).toBe(false);
  });
});

describe("lineChart: logarithmic value axis", () => {
  // Nine orders of magnitude, like the consumer price index since 1937.
  const yearly = Array.from({ length: 90 }, (_, i): [string, number] => [`${1937 + i}-07-01`, 1.6e-7 * 10 ** ((i * 9) / 89)]);
  const unit = "índice (base oct. 2022 = 100)";

  it.each(["wide", "narrow"] as const)("%s: ticks are whole powers of ten, equal ratios are equal heights, every text inside", (layout) => {
    const { svg } = chart([seriesOf("a", yearly)], { layout, shape: "line", scale: "log", end: "2026-07-01", nextDue: () => null, text: { ...TEXT, unit } });
    const heading = [unit, TEXT.logScale, `${unit} · ${TEXT.logScale}`];
    const values = textBoxes(/<g class="axis y-axis">(.*?)<\/g>/s.exec(svg)?.[1] ?? "").filter((b) => !heading.includes(b.text));
    expect(values.every((b) => /^(10[⁻¹²³⁴⁵⁶⁷⁸⁹⁰]+|1|10|100|1\.000|10\.000)$/.test(b.text))).toBe(true);
    // From the power of ten below the smallest value to the one above the largest (1.6e-7 … 160).
    expect(values[0]?.text).toBe("10⁻⁷");
    expect(values.map((b) => b.text)).toEqual(layout === "wide" ? ["10⁻⁷", "10⁻⁵", "10⁻³", "10⁻¹", "10", "1.000"] : ["10⁻⁷", "10⁻⁴", "10⁻¹", "100"]);
    const { width, height } = viewBox(svg);
    for (const b of textBoxes(svg)) expect({ text: b.text, inside: b.left >= 0 && b.right <= width && b.top >= 0 && b.bottom <= height }).toEqual({ text: b.text, inside: true });
    // The axis says it is logarithmic: beside the unit when both fit (wide), on a line of its own under it (narrow),
    // above the plot's top grid line; and so does the text alternative.
    const said = textBoxes(svg).filter((b) => heading.slice(1).includes(b.text));
    expect(said.map((b) => b.text)).toEqual([layout === "wide" ? `${unit} · ${TEXT.logScale}` : TEXT.logScale]);
    const top = Math.min(...[...svg.matchAll(/class="grid"/g)].map((m) => Number(/y1="([\d.]+)"/.exec(svg.slice(svg.lastIndexOf("<line", m.index)))?.[1])));
    expect((said[0] as { bottom: number }).bottom).toBeLessThan(top - 6);
    if (layout === "narrow") expect(textBoxes(svg).find((b) => b.text === unit)?.bottom).toBeLessThanOrEqual((said[0] as { top: number }).top);
    expect(/<desc[^>]*>([^<]*)<\/desc>/.exec(svg)?.[1]).toBe(`Evolución de la cuota ${TEXT.logScaleDescription}`);
    // Grid lines of consecutive ticks are evenly spaced: a log axis.
    const ys = [...svg.matchAll(/class="grid"/g)].map((m) => Number(/y1="([\d.]+)"/.exec(svg.slice(svg.lastIndexOf("<line", m.index)))?.[1]));
    const steps = ys.slice(1).map((y, i) => Math.round(((ys[i] as number) - y) * 10) / 10);
    expect(Math.max(...steps) - Math.min(...steps)).toBeLessThanOrEqual(0.2);
  });

  it("falls back to a linear axis from zero when a value is not positive", () => {
    const { svg } = chart([seriesOf("a", [["2020-01-01", 0], ["2021-01-01", 5]])], { scale: "log", text: { ...TEXT, zero: null } });
    expect(svg).not.toContain("⁻");
    // A linear axis is not said to be logarithmic.
    expect(svg).not.toContain(TEXT.logScale);
    expect(svg).not.toContain(TEXT.logScaleDescription);
    expect(textBoxes(/<g class="axis y-axis">(.*?)<\/g>/s.exec(svg)?.[1] ?? "").map((b) => b.text)).toContain("0");
  });
});
