/**
 * A point's note and kind of source travel with it on the page (src/site/client/series-view.ts):
 * the date answer, the card, the table and the chart's points, without a browser, on the real
 * domestic wages (data/, read alone) and on the golden fixture's kinds.
 */
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { buildIndicator } from "../../src/builder/dataset.js";
import { nodeSourceFiles } from "../../src/builder/effects.js";
import { siteIndicator, viewIndicator } from "../../src/builder/site-model.js";
import { loadData } from "../../src/source/load.js";
import { renderView, valueOnDate, type ViewIndicator } from "../../src/site/client/series-view.js";
import { renderEmbedPage, renderIndicatorPage } from "../../src/site/site.js";
import { parseSiteConfig } from "../../src/builder/site-config.js";
import { readFileSync } from "node:fs";
import { parseIndicatorMeta } from "../../src/source/metadata.js";
import { ROOT } from "../files.js";

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
    // Data set version 5: the six values of July 2026 (the general category and the two new ones) are a secondary source's transcription.
    expect(kinds.map((k) => [k.kind, k.points])).toEqual([
      ["official", 12],
      ["press", 34],
      // Data set version 5: the July 2026 values, BPS's table as a secondary source transcribed it.
      ["reference", 6],
    ]);
  });

  it("the card, the table and each point of the chart carry the kind", () => {
    // The page's default (the general category, monthly: the newest value a secondary source's), and the decrees' Montevideo minimum.
    const shown = renderView({ lang: "es", indicator: view, selection: view.defaults, baseUrl: "https://example.test" });
    const decrees = renderView({ lang: "es", indicator: view, selection: { ...view.defaults, category: "montevideo" }, baseUrl: "https://example.test" });
    const html = [shown.card, shown.table, decrees.charts].map((part) => part.html).join("\n");
    expect(html).toMatch(/<p class="card-value">.*<span class="card-kind">fuente: (prensa|publicación oficial|obra de referencia o recopilación)<\/span><\/p>/);
    expect(html).toContain('<span class="cell-kind">fuente: prensa</span>');
    expect(html).toContain('data-kind="fuente: publicación oficial"');
  });
});

describe("the page's sources are those its values cite (the BPC, read alone)", () => {
  const config = parseSiteConfig(JSON.stringify({ name: "Open Series UY", baseUrl: "https://example.test/", attributionText: "Data: Open Series UY" }), "site.config.json");
  let pages: Record<"es" | "en", string>;
  let embed: string;
  beforeAll(async () => {
    const { indicators } = await loadData(join(ROOT, "data"), { ...nodeSourceFiles(), folders: () => Promise.resolve(["bpc"]) });
    const site = siteIndicator(config, buildIndicator(indicators[0] as (typeof indicators)[number], "Data", "https://example.test/"), Date.UTC(2026, 8, 1) / 1000);
    pages = { es: renderIndicatorPage(config, site, "es"), en: renderIndicatorPage(config, site, "en") };
    embed = renderEmbedPage(config, site, "es");
  });
  const text = (html: string) => html.replace(/<[^>]+>/g, "");
  const between = (page: string, id: string) => text(new RegExp(`id="${id}">(.*?)</(dd|blockquote)>`, "s").exec(page)?.[1] ?? "");

  it("names the reference works and the press its values cite, with how many values each", () => {
    const sources = between(pages.es, "source-kinds");
    expect(sources).toContain("obra de referencia o recopilación: 18 (IECON (Universidad de la República)");
    expect(sources).toContain("vLex Uruguay (2)");
    expect(sources).toContain("prensa: 4 (Montevideo Portal (3), Uruguay Alternativo (1))");
    expect(pages.es).toContain('<a href="https://uy.vlex.com/">vLex Uruguay</a>');
  });

  it("does not call IMPO or BPS the source of values none of which it cites: they are who sets or publishes the value", () => {
    for (const lang of ["es", "en"] as const) {
      const page = pages[lang];
      expect(page).not.toMatch(/<dt>(Fuente|Source)<\/dt>/);
      expect(page).toContain(lang === "es" ? "<dt>Quién fija o publica el dato</dt>" : "<dt>Who sets or publishes the value</dt>");
      const citation = between(page, "citation");
      // The citation credits the cited sources first, and the decrees' publisher only as who sets the value.
      expect(citation.indexOf("IECON")).toBeGreaterThanOrEqual(0);
      expect(citation.indexOf("IECON")).toBeLessThan(citation.indexOf("IMPO"));
      expect(citation).not.toMatch(/^Poder Ejecutivo|^Executive/);
      expect(citation).toContain(lang === "es" ? "fija o publica el dato: Poder Ejecutivo" : "set or published by Executive decrees");
    }
    expect(embed).toContain('<p class="embed-credit">Quién fija o publica el dato: Poder Ejecutivo');
  });

  it("declares the health prices' copies as a civil-society organisation's republication, not an official one", () => {
    const parsed = parseIndicatorMeta(readFileSync(join(ROOT, "data/health-insurance-prices/indicator.json"), "utf8"), "indicator.json", "health-insurance-prices");
    if (!parsed.ok) throw new Error(JSON.stringify(parsed.issues));
    const rule = parsed.value.sourceKinds.find((r) => r.prefix.startsWith("https://github.com/datauy/"));
    expect(rule?.kind).toBe("republication");
    expect(rule?.name?.es).toMatch(/^DATA Uruguay, organización de la sociedad civil/);
    expect(rule?.name?.en).toMatch(/^DATA Uruguay, a civil-society organisation/);
  });
});
