/**
 * The domestic wages' page on the real data (data/, read alone): the categories of
 * July 2026 presented through the indicator's declarations (facets `category` and
 * `period`, `view`), not code: the general category, monthly, by default, every
 * category selectable, its words in both languages.
 */
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { buildIndicator } from "../../src/builder/dataset.js";
import { nodeSourceFiles } from "../../src/builder/effects.js";
import { siteIndicator } from "../../src/builder/site-model.js";
import { parseSiteConfig } from "../../src/builder/site-config.js";
import { loadData } from "../../src/source/load.js";
import { renderIndicatorPage } from "../../src/site/site.js";
import { ROOT } from "../files.js";

const config = parseSiteConfig(JSON.stringify({ name: "Open Series UY", baseUrl: "https://example.test/", attributionText: "Data: Open Series UY" }), "site.config.json");
const pages = { es: "", en: "" };

beforeAll(async () => {
  const { indicators } = await loadData(join(ROOT, "data"), { ...nodeSourceFiles(), folders: () => Promise.resolve(["domestic-worker-wages"]) });
  const site = siteIndicator(config, buildIndicator(indicators[0] as (typeof indicators)[number], "Data", "https://example.test/"), Date.UTC(2026, 10, 20) / 1000);
  pages.es = renderIndicatorPage(config, site, "es");
  pages.en = renderIndicatorPage(config, site, "en");
});

const options = (page: string, name: string) => [...(new RegExp(`<select name="${name}"[^>]*>(.*?)</select>`, "s").exec(page)?.[1] ?? "").matchAll(/<option value="([^"]*)"[^>]*?( selected)?>([^<]*)<\/option>/g)].map((m) => ({ value: m[1], selected: m[2] !== undefined, label: m[3] }));

describe("the domestic wages' page and the categories of July 2026", () => {
  it("opens on the general category's monthly minimum: one card, not six", () => {
    const card = /<div id="view-card" class="view-card">(.*?)<\/div>\n<form/s.exec(pages.es)?.[1] ?? "";
    expect(card.match(/<article class="card/g)).toHaveLength(1);
    expect(card).toContain('data-series="monthly"');
    expect(card).toContain('<h2 class="card-title">General (todo el país)</h2><p class="card-sub">Mensual</p>');
    expect(card.replace(/\s/g, " ")).toContain("$ 32.051");
  });

  it("lets the reader choose every category and per month or per hour, in both languages", () => {
    const es = options(pages.es, "category");
    expect(es.find((o) => o.selected)?.value).toBe("general");
    expect(es.map((o) => o.label)).toEqual(expect.arrayContaining(["General (todo el país)", "Cocina (desde julio de 2026)", "Cuidados (desde julio de 2026)", "Montevideo (hasta 2006)", "Interior (hasta 2006)"]));
    expect(options(pages.en, "category").map((o) => o.label)).toEqual(expect.arrayContaining(["General (whole country)", "Cooking (from July 2026)", "Care (from July 2026)", "Rest of the country (until 2006)"]));
    expect(options(pages.es, "period")).toEqual([
      { value: "monthly", selected: true, label: "Mensual" },
      { value: "hourly", selected: false, label: "Por hora" },
    ]);
    expect(pages.es).toContain("<label class=\"facet-category\">Categoría");
    expect(pages.en).toContain("<label class=\"facet-period\">Pay");
  });

  it("names the comparison in the indicator's own nouns: categories, the minimum wage", () => {
    expect(pages.es).toContain("Mensual: salario mínimo por categoría a lo largo del tiempo; línea destacada: General (todo el país)");
    expect(pages.es).toContain("Comparación entre categorías");
    expect(pages.en).toContain("Comparison between categories");
  });
});
