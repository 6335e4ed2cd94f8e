/**
 * A point's note and kind of source travel with it on the page (src/site/client/series-view.ts):
 * the date answer, the card, the table and the chart's points, without a browser, on the real
 * domestic wages (data/, read alone) and on the golden fixture's kinds.
 */
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { buildIndicator } from "../../src/build/dataset.js";
import { nodeSourceFiles } from "../../src/build/effects.js";
import { siteIndicator, viewIndicator } from "../../src/build/site-model.js";
import { loadData } from "../../src/source/load.js";
import { renderView, valueOnDate, type ViewIndicator } from "../../src/site/client/series-view.js";
import { ROOT } from "../helpers.js";

const WAGES = "domestic-worker-wages";
let view: ViewIndicator;
let kinds: { kind: string; points: number }[];

beforeAll(async () => {
  const files = nodeSourceFiles();
  // The wages alone: the other indicators' thousands of points are not needed here.
  const { indicators } = await loadData(join(ROOT, "data"), { ...files, folders: () => Promise.resolve([WAGES]) });
  const built = buildIndicator(indicators[0] as (typeof indicators)[number], "Data", "https://example.test/");
  view = viewIndicator(built, Date.UTC(2026, 8, 1) / 1000);
  kinds = [...siteIndicator({ baseUrl: "https://example.test", name: "Open Series UY" } as Parameters<typeof siteIndicator>[0], built, Date.UTC(2026, 8, 1) / 1000).sourceKinds];
});

describe("a value's note and kind of source on the page", () => {
  it("the date answer for 15 March 2025 says the wage's own note and that its source is the press", () => {
    const es = valueOnDate({ lang: "es", indicator: view, selection: {}, baseUrl: "https://example.test" }, ["hourly"], "2025-03-15").html;
    expect(es).toContain('<strong><data value="154.67">$\u00a0154,67</data></strong><sup class="note-mark">*</sup> (vigente desde el 1 de enero de 2025; fuente: prensa)');
    expect(es).toContain('<span class="answer-note"><span class="note-mark">*</span> Nota: Vigente en junio de 2025 (la base del ajuste de julio de 2025); ninguna fuente disponible dice que rija desde el 1 de enero de 2025.</span>');
    const en = valueOnDate({ lang: "en", indicator: view, selection: {}, baseUrl: "https://example.test" }, ["hourly"], "2025-03-15").html;
    expect(en).toContain("; source: press)");
    expect(en).toContain("no source at hand states that it applies from 1 January 2025");
  });

  it("a value read from a decree says so; the page counts the points of each kind", () => {
    const es = valueOnDate({ lang: "es", indicator: view, selection: {}, baseUrl: "https://example.test" }, ["monthly-montevideo"], "2006-03-15").html;
    expect(es).toContain("(vigente desde el 1 de enero de 2006; fuente: publicación oficial)");
    expect(es).not.toContain("answer-note");
    expect(kinds.map((k) => [k.kind, k.points])).toEqual([
      ["official", 12],
      ["press", 34],
      // Data set version 5: the July 2026 values, BPS's table as a secondary source transcribed it.
      ["reference", 6],
    ]);
  });

  it("the card, the table and each point of the chart carry the kind", () => {
    const shown = renderView({ lang: "es", indicator: view, selection: {}, baseUrl: "https://example.test" });
    const html = [shown.card, shown.table, shown.charts].map((part) => part.html).join("\n");
    expect(html).toMatch(/<p class="card-value">.*<span class="card-kind">fuente: (prensa|publicación oficial|obra de referencia o recopilación)<\/span><\/p>/);
    expect(html).toContain('<span class="cell-kind">fuente: prensa</span>');
    expect(html).toContain('data-kind="fuente: publicación oficial"');
  });
});
