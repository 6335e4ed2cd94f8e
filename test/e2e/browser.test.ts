/**
 * The site in a real browser: Debian's Chromium driven by playwright-core against
 * `wrangler pages dev`, in Spanish and English: every page visited once at a desktop's
 * and once at a phone's width (at 390 px nothing a reader must read clipped, the chart in
 * the first screen; an embed page at the size of its frame, 720 and 320 px wide, fitting
 * it), the interactive parts, the site's search box. It saves no screenshots of every page:
 * full-page images at two widths (52 calls, 13 s in all, two at a time) cost about 6.5 s
 * of the file's 80 on the idle machine and nothing read them; `npx tsx
 * scripts/screenshots.ts PAGE…` takes them for a person to look at.
 */
import { readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { join } from "node:path";
import type { Browser, Frame, Page } from "playwright-core";
import { launchChromium, openAndWait, reportViolations } from "../chromium.js";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { ROOT, sitePages } from "../files.js";
import { freePort } from "../../scripts/lib/pages-dev.js";
import { INDICATOR_IDS } from "../indicators.js";

const IDS = INDICATOR_IDS;
const LANGS = ["es", "en"] as const;
const prefix = (lang: string) => (lang === "es" ? "" : `/${lang}`);
/** Every page of the site: home, indicator pages and embed pages, in both languages. */
const PAGES = LANGS.flatMap((lang) => [
  `${prefix(lang)}/`,
  ...IDS.flatMap((id) => [`${prefix(lang)}/series/${id}/`, `${prefix(lang)}/series/${id}/embed/`]),
]);
const CASMU = "casmu.consult-general-medicine.fonasa";
/** axe-core's source, evaluated in a page to check it (`axeViolations`). */
const AXE = readFileSync(join(ROOT, "node_modules/axe-core/axe.min.js"), "utf8");

/** The default build with a usage limit no test reaches (test/e2e/global-setup.ts), and its output folder. */
const server = { url: inject("system").urls.main, dir: inject("system").mainDir };
let browser: Browser;
let otherOrigin: Server;
let otherUrl: string;

beforeAll(async () => {
  // Another origin: a page that calls the API, or frames a chart, from elsewhere.
  const port = await freePort();
  otherOrigin = createServer((req, res) => {
    const query = new URL(req.url ?? "/", "http://x").searchParams;
    const embed = query.get("embed");
    // The code the indicator page offers, at the width of the page that holds it (`max-width: 100%`).
    const size = `width="${query.get("w") ?? "720"}" height="${query.get("h") ?? "560"}" style="border:0;max-width:100%"`;
    const body = embed === null ? "" : `<iframe src="${server.url}${embed}" title="chart" ${size}></iframe>`;
    res.writeHead(200, { "Content-Type": "text/html" }).end(`<!doctype html><title>elsewhere</title>${body}`);
  });
  await new Promise<void>((done) => otherOrigin.listen(port, "127.0.0.1", done));
  otherUrl = `http://127.0.0.1:${port}/`;
  browser = await launchChromium();
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await new Promise((done) => otherOrigin?.close(done));
});

/**
 * A page that records console errors, failed requests, any request leaving the site
 * and every Content Security Policy violation its documents report
 * (`reportViolations`): Chromium computes the hashes itself, so every page visited
 * is a check of the build's policy.
 */
async function openPage(width: number, height: number) {
  const page = await browser.newPage({ viewport: { width, height } });
  const problems: string[] = [];
  await reportViolations(page, (text) => problems.push(`policy: ${text}`));
  const origin = new URL(server.url).origin;
  page.on("console", (msg) => msg.type() === "error" && problems.push(`console: ${msg.text()}`));
  page.on("pageerror", (error) => problems.push(`page error: ${error.message}`));
  // A request the page itself aborts by navigating on (a favicon still loading when
  // the test opens the next page) is not a failure of the site.
  page.on("requestfailed", (request) => request.failure()?.errorText !== "net::ERR_ABORTED" && problems.push(`failed: ${request.url()}`));
  page.on("request", (request) => {
    if (new URL(request.url()).origin !== origin) problems.push(`left the site: ${request.url()}`);
  });
  page.on("response", (response) => response.status() >= 400 && problems.push(`${response.status()}: ${response.url()}`));
  return { page, problems };
}

/** Opens `path` of the served site and waits until its script has run (`openAndWait`). */
const visit = (page: Page, path: string) => openAndWait(page, `${server.url}${path}`);

/** The newest point of one sub-series, from the API. */
async function newest(id: string, series: string): Promise<{ date: string; value: number }> {
  const body = (await (await fetch(`${server.url}/api/v1/${id}?series=${series}&limit=1`)).json()) as { data: { date: string; value: number }[] };
  return body.data[0] as { date: string; value: number };
}

/** Reads a displayed amount back, by the page's locale: "$ 31.178" / "$31,178.50" → 31178 / 31178.5; "sin costo"/"no charge" → 0. */
function parseShown(text: string, lang: string): number {
  if (/sin costo|no charge/.test(text)) return 0;
  const digits = text.replace(/[^\d.,-]/g, "");
  return Number(lang === "es" ? digits.replace(/\./g, "").replace(",", ".") : digits.replace(/,/g, ""));
}

/** Every `<data value>` in `scope` with its shown text. */
const shownValues = (page: Page | Frame, scope: string) =>
  page.locator(`${scope} data[value]`).evaluateAll((nodes) => nodes.map((n) => ({ value: n.getAttribute("value") ?? "", text: n.textContent ?? "" })));

/** SVG texts outside their SVG's box, in the visible charts (a geometric check, not a screenshot diff). */
const textsOutside = (page: Page | Frame) =>
  page.evaluate(() => {
    const out: string[] = [];
    let checked = 0;
    for (const svg of document.querySelectorAll<SVGSVGElement>("svg.chart")) {
      if (svg.getClientRects().length === 0) continue; // the other layout, not rendered
      const box = svg.getBoundingClientRect();
      for (const text of svg.querySelectorAll("text")) {
        const r = text.getBoundingClientRect();
        checked++;
        if (r.left < box.left - 0.5 || r.right > box.right + 0.5 || r.top < box.top - 0.5 || r.bottom > box.bottom + 0.5) {
          out.push(`${svg.dataset.layout ?? ""} "${text.textContent ?? ""}" ${Math.round(r.left)}..${Math.round(r.right)} in ${Math.round(box.left)}..${Math.round(box.right)}`);
        }
      }
    }
    return { out, checked };
  });

/**
 * Every number of the page's tables and cards (`<data value>` in `main`) printed as the
 * data says in the page's locale: at most two decimals, as the source gives them (off
 * by half a cent at most; a value of 1937's index, below 0.01, shows three significant
 * digits: closer still), and the locale's separators: a comma is never a thousands
 * separator in Spanish ("1,234"), a dot never in English; "0,008" (a value of the 1940s
 * index) is a decimal comma. `published`: the values the page must show only from.
 */
async function numbersAsTheData(page: Page, lang: string, published: ReadonlySet<number> | undefined): Promise<void> {
  const values = await shownValues(page, "main");
  expect(values.length).toBeGreaterThan(10);
  for (const { value, text } of values) {
    expect(Math.abs(parseShown(text, lang) - Number(value)), `${text} for ${value}`).toBeLessThanOrEqual(0.005 + 1e-9);
    if (published !== undefined) expect(published.has(Number(value)), value).toBe(true);
  }
  const texts = values.map((v) => v.text).join(" ");
  if (lang === "es") expect(texts).not.toMatch(/(?<![\d.,])[1-9]\d{0,2},\d{3}\b/);
  else expect(texts).not.toMatch(/(?<![\d.,])[1-9]\d{0,2}\.\d{3}\b/);
}

/**
 * An embed page at the size of the frame it is in: card, chart (over 120 px tall) and the
 * attribution line inside the frame's height, nothing to scroll.
 */
async function fitsItsFrame(page: Page, where: string): Promise<void> {
  const fit = await page.evaluate(() => {
    const box = (selector: string) => {
      const visible = [...document.querySelectorAll(selector)].find((e) => e.getClientRects().length > 0);
      const r = visible?.getBoundingClientRect();
      return r === undefined ? null : { top: r.top, bottom: r.bottom, height: r.height };
    };
    return { inner: window.innerHeight, scroll: document.documentElement.scrollHeight, card: box(".card-value"), chart: box("svg.chart"), credit: box(".embed-credit a") };
  });
  expect(fit.scroll, where).toBeLessThanOrEqual(fit.inner);
  expect(fit.card?.bottom ?? Infinity, where).toBeLessThanOrEqual(fit.inner);
  expect(fit.chart?.height ?? 0, `${where}: the chart is ${fit.chart?.height ?? 0}px tall`).toBeGreaterThan(120);
  expect(fit.credit?.bottom ?? Infinity, where).toBeLessThanOrEqual(fit.inner);
}

/**
 * The texts a reader must read that do not fit their box at the page's width, each
 * measured with its element's own font: every option of the selection's first select
 * (a provider's whole name, a wage category; its arrow takes about 20 px of the box)
 * and the search box's placeholder.
 */
const clippedTexts = (page: Page) =>
  page.evaluate(() => {
    const ctx = document.createElement("canvas").getContext("2d") as CanvasRenderingContext2D;
    const over = (el: HTMLElement | null, texts: (e: HTMLElement) => string[], arrow: number) => {
      if (el === null) return [];
      const cs = getComputedStyle(el);
      ctx.font = `${cs.fontWeight} ${cs.fontSize} ${cs.fontFamily}`;
      const room = el.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight) - arrow;
      return texts(el).filter((t) => ctx.measureText(t).width > room);
    };
    return [
      ...over(document.querySelector<HTMLSelectElement>("#selection select"), (e) => [...(e as HTMLSelectElement).options].map((o) => o.text), 20),
      ...over(document.querySelector<HTMLInputElement>("#search-q"), (e) => [(e as HTMLInputElement).placeholder], 0),
    ];
  });

/**
 * The page at `path`, open in `page`, names its language and links its translation:
 * its hreflang alternates (itself, the translation, x-default), the canonical address,
 * and a visible switch to the translation. Every page is visited, so each side of a
 * pair checks its own alternates: together, the pairs point at each other.
 */
async function languageAndTranslation(page: Page, path: string): Promise<void> {
  const lang = path.startsWith("/en/") ? "en" : "es";
  const other = lang === "es" ? "en" : "es";
  expect(await page.locator("html").getAttribute("lang"), path).toBe(lang);
  const pairs = await page.locator('link[rel="alternate"][hreflang]').evaluateAll((links) =>
    links.map((l): [string, string] => [l.getAttribute("hreflang") ?? "", new URL(l.getAttribute("href") ?? "").pathname]),
  );
  const alternates: Record<string, string> = Object.fromEntries(pairs);
  const self = new URL(page.url()).pathname;
  expect(alternates[lang], path).toBe(self);
  expect(alternates["x-default"], path).toBe(alternates.es);
  const translation = alternates[other] ?? "";
  expect(translation, path).toBe(self.startsWith("/en/") ? self.slice(3) : `/en${self}`);
  expect(new URL((await page.locator('link[rel="canonical"]').getAttribute("href")) ?? "").pathname).toBe(self);
  if (!path.includes("/embed/")) {
    // The visible switch leads to the translation (whose own visit checks that its alternates point back).
    const link = page.locator(`a.lang-switch[hreflang="${other}"]`);
    expect(await link.isVisible(), path).toBe(true);
    expect(new URL((await link.getAttribute("href")) ?? "", page.url()).pathname, path).toBe(translation);
  }
}

describe("the site in Chromium, in Spanish and English", () => {
  it("shows the value in force first: each card equals the newest data point, formatted for the page's locale", async () => {
    const { page, problems } = await openPage(1280, 900);
    for (const lang of LANGS) {
      await visit(page, `${prefix(lang)}/series/domestic-worker-wages/`);
      // One card: the general category's monthly minimum (indicator.json's view.default); per hour once the pay select says so.
      expect(await page.locator("#view-card article").count()).toBe(1);
      for (const series of ["monthly", "hourly"] as const) {
        if (series === "hourly") await page.selectOption('select[name="period"]', "hourly");
        const point = await newest("domestic-worker-wages", series);
        const card = page.locator(`#view-card article[data-series="${series}"]`);
        await card.waitFor();
        const shown = await card.locator(".card-value data").textContent();
        expect(Number(await card.locator(".card-value data").getAttribute("value"))).toBe(point.value);
        expect(parseShown(shown ?? "", lang)).toBe(point.value);
        // In force since the newest point's date (2026-07-01), written out in the page's language.
        const since = (await card.locator(".card-since").textContent()) ?? "";
        expect(since).toContain(new Intl.DateTimeFormat(lang === "es" ? "es-UY" : "en-US", { day: "numeric", month: "long", year: "numeric", timeZone: "UTC" }).format(new Date(point.date)));
        expect(since).toContain(lang === "es" ? "1 de julio de 2026" : "July 1, 2026");
        // 32051: "$ 32.051" in Spanish, "$32,051" in English; 169 per hour, never rounded.
        const written = { es: { monthly: "$ 32.051", hourly: "$ 169" }, en: { monthly: "$32,051", hourly: "$169" } }[lang][series];
        expect(shown?.replace(/\s/g, " ")).toBe(written);
      }

      await visit(page, `${prefix(lang)}/series/health-insurance-prices/`);
      const casmu = await newest("health-insurance-prices", CASMU);
      expect(Number(await page.locator("#view-card .card-value data").getAttribute("value"))).toBe(casmu.value);
      expect(parseShown((await page.locator("#view-card .card-value data").textContent()) ?? "", lang)).toBe(casmu.value);
      expect(await page.locator("#view-card .card-rank").textContent()).toMatch(lang === "es" ? /Puesto \d+ de \d+/ : /Number \d+ of \d+/);
      // The default view is general medicine, FONASA, as indicator.json declares.
      expect(await page.locator('select[name="item"]').inputValue()).toBe("orden consulta medicina general");
      expect(await page.locator('select[name="regime"]').inputValue()).toBe("FONASA");

      // The index of a month: two decimals as INE shows it, the month it refers to, its monthly and 12-month changes.
      await visit(page, `${prefix(lang)}/series/consumer-price-index/`);
      const cpi = await newest("consumer-price-index", "general");
      const card = page.locator('#view-card article[data-series="general"]');
      expect(Number(await card.locator(".card-value data").getAttribute("value"))).toBe(cpi.value);
      expect(await card.locator(".card-value data").textContent()).toBe(lang === "es" ? "118,20" : "118.20");
      // The data version (2026-11-20) is after August's end: its index is due and not in the data, and the card says so.
      const standing = ((await card.locator(".card-since").textContent()) ?? "").trim();
      expect(standing).toMatch(lang === "es" ? /^Dato de julio de 2026\. El dato de agosto de 2026 todavía no está en estos datos/ : /^Refers to July 2026\. The value for August 2026 is not in this data yet/);
      const changes = (await card.locator(".card-changes li").allTextContents()).map((t) => t.replace(/\s/g, " "));
      expect(changes).toHaveLength(2);
      expect(changes[0]).toContain(lang === "es" ? "respecto al valor anterior (118,13, jun. 2026)" : "on the previous value (118.13, Jun 2026)");
      expect(changes[1]).toContain(lang === "es" ? "respecto a un año antes" : "on a year earlier");
      expect(changes[1]).toContain(lang === "es" ? "jul. 2025" : "Jul 2025");
      // With the decimals INE publishes its variations with (display.changeDecimals: 2 in indicator.json).
      expect(changes[0]).toContain(lang === "es" ? "(+0,07%)" : "(+0.07%)");
      expect(changes[1]).toContain(lang === "es" ? "(+4,27%)" : "(+4.27%)");
    }
    expect(problems).toEqual([]);
    await page.close();
  });

  it("draws the domestic minimum wage as steps, marks noted points and lists the gaps", async () => {
    const { page, problems } = await openPage(1280, 900);
    await visit(page, "/series/domestic-worker-wages/");
    const paths = await page.locator("#charts .chart-wide path.series-line").evaluateAll((ps) => ps.map((p) => p.getAttribute("d") ?? ""));
    expect(paths.length).toBeGreaterThan(0);
    for (const d of paths) {
      // Moves, horizontal and vertical lines only: a value holds until the next one.
      expect(d).toMatch(/^(?:[MHV]-?[\d.]+(?: -?[\d.]+)?)+$/);
      expect(d).not.toMatch(/[LCQ]/);
    }
    expect(paths.join("").match(/V/g)?.length ?? 0).toBeGreaterThan(10);
    // The 2025-01 point carries a note in the data: marked, its note in the chart and the table.
    expect(await page.locator("#charts .chart-wide circle.point.noted").count()).toBe(2);
    expect(await page.locator("#data-table tr.noted").count()).toBe(2);
    // Missing adjustments are gaps, listed.
    expect(await page.locator("#charts details.gaps li").count()).toBeGreaterThan(0);
    expect(problems).toEqual([]);
    await page.close();
  });

  it("tells value and date on hover and on keyboard focus", async () => {
    const { page, problems } = await openPage(1280, 900);
    await visit(page, "/series/domestic-worker-wages/");
    const svg = page.locator("#charts .chart-wide svg.chart").first();
    const tooltip = page.locator("#charts .chart-tooltip").first();
    await svg.focus();
    await page.keyboard.press("End");
    await expect.poll(() => tooltip.isVisible()).toBe(true);
    // The newest point of the general monthly minimum, the highlighted line: July 2026's.
    expect(await tooltip.textContent()).toContain("$ 32.051".replace(" ", "\u00a0"));
    expect(await tooltip.textContent()).toContain("1 de julio de 2026");
    await page.keyboard.press("ArrowLeft");
    expect(await tooltip.textContent()).toContain("31.178");
    expect(await tooltip.textContent()).toContain("1 de enero de 2026");
    expect(await page.locator("#chart-announce").textContent()).toContain("31.178");
    // Hover: the point under the pointer.
    const point = page.locator('#charts .chart-wide circle.point[data-date="2025-01-01"]').first();
    const box = await point.boundingBox();
    await page.mouse.move((box?.x ?? 0) + 2, (box?.y ?? 0) + 2);
    await expect.poll(async () => (await tooltip.textContent()) ?? "").toContain("29.400");
    // The point's note, in the page's language (a translation declared in indicator.json).
    expect(await tooltip.textContent()).toContain("Vigente en junio de 2025");
    expect(problems).toEqual([]);
    await page.close();
  });

  it("lets the visitor choose provider, item and regime: card, chart, comparison, table and downloads follow", async () => {
    const { page, problems } = await openPage(1280, 900);
    await visit(page, "/series/health-insurance-prices/");
    const highlighted = () => page.locator('#charts .chart-wide path.series-line[stroke-width="3"]').getAttribute("data-series");
    expect(await highlighted()).toBe(CASMU);
    await page.selectOption('select[name="item"]', "ticket medicamentos general");
    await page.selectOption('select[name="regime"]', "NO FONASA");
    await page.selectOption('select[name="provider"]', "Asociación Española");
    const chosen = "asociacion-espanola.medicine-general.no-fonasa";
    // The choice's group of sub-series is fetched, then drawn (the last choice wins).
    await expect.poll(highlighted).toBe(chosen);
    const point = await newest("health-insurance-prices", chosen);
    expect(Number(await page.locator("#view-card .card-value data").getAttribute("value"))).toBe(point.value);
    expect(await page.locator("#compare tr.pinned").getAttribute("data-series")).toBe(chosen);
    expect((await page.locator("#compare tbody tr").first().getAttribute("data-series")) ?? "").toBe(chosen);
    // The data table is the chosen sub-series: as many rows as the API has points.
    const all = (await (await fetch(`${server.url}/api/v1/health-insurance-prices?series=${chosen}`)).json()) as { data: unknown[] };
    expect(await page.locator("#data-table tbody tr").count()).toBe(all.data.length);
    expect(await page.locator("#downloads").textContent()).toContain(`series=${chosen}&limit=5000&format=csv`);
    expect(await page.locator('#downloads a[href$="series=*.medicine-general.no-fonasa&limit=5000&format=csv"]').count()).toBe(1);
    // The choice is in the address, so it can be shared.
    expect(new URL(page.url()).hash).toContain("provider=Asociaci");
    const shared = await browser.newPage();
    await shared.goto(page.url());
    await shared.locator("#selection").waitFor({ state: "visible" });
    expect(await shared.locator('select[name="provider"]').inputValue()).toBe("Asociación Española");
    await expect.poll(() => shared.locator('#charts .chart-wide path.series-line[stroke-width="3"]').getAttribute("data-series")).toBe(chosen);
    await shared.close();
    expect(problems).toEqual([]);
    await page.close();
  });

  it("finds a series by typing, in either language, and opens the page on it", async () => {
    const { page, problems } = await openPage(1280, 900);
    await visit(page, "/series/health-insurance-prices/");
    await page.fill("#search-q", "medica urug gineco");
    const first = page.locator("#search-results ol li a").first();
    await first.waitFor();
    expect(await first.textContent()).toContain("Médica Uruguaya");
    await first.click();
    await page.waitForFunction(() => document.querySelector<HTMLSelectElement>('select[name="provider"]')?.value.startsWith("Médica Uruguaya") === true);
    expect(await page.locator('select[name="item"]').inputValue()).toBe("orden consulta ginecologia");
    // The selects move first; the cards, charts and downloads once the chosen group's data has arrived.
    await expect.poll(() => page.locator("#downloads").textContent(), { timeout: 15_000 }).toContain("series=medica-uruguaya.consult-gynaecology.fonasa&limit=5000&format=csv");
    // From the English home page, the same sub-series by its English words.
    await visit(page, "/en/");
    await page.fill("#search-q", "casmu gynaecology");
    await page.locator("#search-results ol li a").first().waitFor();
    expect(await page.locator("#search-results ol li a").first().getAttribute("href")).toMatch(/^\/en\/series\/health-insurance-prices\/#provider=CASMU&item=orden\+consulta\+ginecologia&regime=FONASA$/);
    expect(problems).toEqual([]);
    await page.close();
  });

  it("sorts the comparison by any column, the chosen provider pinned on top", async () => {
    const { page, problems } = await openPage(1280, 900);
    await visit(page, "/series/health-insurance-prices/");
    const order = () => page.locator("#compare tbody tr").evaluateAll((rows) => rows.map((r) => r.getAttribute("data-series")));
    const latest = () =>
      page.locator("#compare tbody tr:not(.pinned) td:nth-child(3)").evaluateAll((cells) => cells.map((c) => Number((c as HTMLElement).dataset.sortValue)));
    // Folded by default (a phone page stays short): opened by its summary.
    expect(await page.locator("#compare").isVisible()).toBe(false);
    await page.locator("details:has(#compare) > summary").click();
    await page.locator('#compare button.sort[data-sort="2"]').click(); // ascending → descending
    const descending = await latest();
    expect(descending).toEqual([...descending].sort((a, b) => b - a));
    expect((await order())[0]).toBe(CASMU);
    await page.locator('#compare button.sort[data-sort="0"]').click();
    expect(await page.locator('#compare th[aria-sort="ascending"]').count()).toBe(1);
    expect((await order())[0]).toBe(CASMU);
    expect(problems).toEqual([]);
    await page.close();
  });

  it("offers the attribution link with the three utm_ parameters, and drops them from the address bar", async () => {
    const { page, problems } = await openPage(1280, 900);
    for (const id of IDS) {
      await page.goto(`${server.url}/series/${id}/?utm_source=api&utm_medium=attribution&utm_campaign=backlinks`);
      await expect.poll(() => new URL(page.url()).search).toBe("");
      const snippet = await page.locator("#attribution-snippet").textContent();
      const href = /href="([^"]+)"/.exec(snippet ?? "")?.[1]?.replace(/&amp;/g, "&") ?? "";
      const url = new URL(href);
      // The credit names the public site, wherever the page is served.
      expect(url.origin).toBe("https://open-series-uy.pages.dev");
      expect(url.pathname).toBe(`/series/${id}/`);
      expect(url.searchParams.get("utm_source")).toBe("api");
      expect(url.searchParams.get("utm_medium")).toBe("attribution");
      expect(url.searchParams.get("utm_campaign")).toBe("backlinks");
      // The addresses to copy name the site serving the page (src/site/client/origin.ts): the API's, the embed code's.
      expect(await page.locator("#api-url").textContent()).toMatch(new RegExp(`^${server.url}/api/v1/${id}\\?`));
      expect(await page.locator("#embed-code").textContent()).toContain(`<iframe src="${server.url}/series/${id}/embed/"`);
    }
    expect(problems).toEqual([]);
    await page.close();
  });

  it("lets a page on another origin fetch the API (CORS), reading the exposed headers", async () => {
    const page = await browser.newPage();
    await page.goto(otherUrl);
    const result = await page.evaluate(async (api) => {
      const response = await fetch(`${api}/api/v1/domestic-worker-wages?limit=1`);
      const body = (await response.json()) as { data: unknown[]; meta: { attribution: string } };
      return { status: response.status, etag: response.headers.get("ETag"), points: body.data.length, attribution: body.meta.attribution };
    }, server.url);
    expect(result.status).toBe(200);
    expect(result.etag).toMatch(/^"/);
    // limit=1: the newest point of each sub-series (10: general, cocina, cuidados, Montevideo and interior, monthly and hourly).
    const doc = (await (await fetch(`${server.url}/api/v1/domestic-worker-wages/metadata.json`)).json()) as { series: unknown[] };
    expect(doc.series).toHaveLength(10);
    expect(result.points).toBe(doc.series.length);
    expect(result.attribution).toContain("utm_campaign=backlinks");
    const conditional = await page.evaluate(
      async ([api, etag]) => (await fetch(`${api}/api/v1/domestic-worker-wages?limit=1`, { headers: { "If-None-Match": etag as string } })).status,
      [server.url, result.etag],
    );
    expect(conditional).toBe(304);
    await page.close();
  });

  it("shows the embed page's chart and attribution inside an iframe on another origin, following a shared selection", async () => {
    const { page, problems } = await openPage(1280, 900);
    for (const [embed, chosen] of [
      ["/series/domestic-worker-wages/embed/", null],
      [`/en/series/health-insurance-prices/embed/#provider=CASMU&item=ticket+medicamentos+general&regime=FONASA`, "casmu.medicine-general.fonasa"],
    ] as const) {
      await page.goto(`${otherUrl}?embed=${encodeURIComponent(embed)}`);
      const frame = page.frameLocator("iframe");
      await frame.locator("svg.chart").first().waitFor({ state: "visible" });
      if (chosen !== null) await expect.poll(() => frame.locator('path.series-line[stroke-width="3"]').first().getAttribute("data-series")).toBe(chosen);
      const credit = frame.locator(".embed-credit a");
      expect(await credit.getAttribute("href")).toContain("utm_source=api");
      expect(await credit.getAttribute("href")).toContain(embed.replace(/embed\/.*$/, "").replace(/^\/en/, ""));
      const inner = page.frames().find((f) => f.url().startsWith(server.url)) as Frame;
      expect((await textsOutside(inner)).out).toEqual([]);
    }
    expect(problems.filter((p) => !p.startsWith("left the site"))).toEqual([]);
    await page.close();
  });

  /**
   * The axe-core rules of WCAG 2.1 A and AA that the page in `page` breaks. axe is
   * evaluated through DevTools, not added as a `<script>`: the page's policy refuses
   * an inline script it has no hash for (docs/site.md "Content Security Policy").
   */
  const axeViolations = async (page: Page) => {
    await page.evaluate(AXE);
    return page.evaluate(async () => {
      const axe = (window as unknown as { axe: { run: (ctx: Document, opts: object) => Promise<{ violations: { id: string; impact: string; nodes: unknown[] }[] }> } }).axe;
      const result = await axe.run(document, { runOnly: { type: "tag", values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"] } });
      return result.violations.map((v) => `${v.id} (${v.impact}, ${v.nodes.length} nodes)`);
    });
  };

  // Every page, one visit per width, each page a test of its own (26 pages: one test for all of them
  // took 40 s idle and passed the 60 s timeout on a busy machine). The two widths in two pages side by
  // side: Chromium renders them in parallel.
  describe("every page, one visit per width", () => {
    // An embed page is visited at the size of the frame it is offered in (the code on the
    // indicator pages) and at that height in a phone's narrowest width: it must fit its frame.
    const widths = [
      ["desktop", 1280, 900, 720],
      ["phone", 390, 844, 320],
    ] as const;
    let opened: { page: Page; problems: string[] }[] = [];
    let frameHeight = 0;
    /** The domestic wages' published values, which their pages' numbers are drawn from only. */
    let wages: Set<number>;
    beforeAll(async () => {
      opened = await Promise.all(widths.map(([, width, height]) => openPage(width, height)));
      const offered = await (await fetch(`${server.url}/series/domestic-worker-wages/`)).text();
      const [, width, height] = /&lt;iframe [^\n]*width=&quot;(\d+)&quot; height=&quot;(\d+)&quot;/.exec(offered) ?? [];
      expect(Number(width)).toBe(widths[0][3]);
      frameHeight = Number(height);
      const csv = await (await fetch(`${server.url}/api/v1/domestic-worker-wages/data.csv`)).text();
      wages = new Set(csv.trim().split("\n").slice(1).map((line) => Number(line.split(",")[2])));
    });
    afterAll(async () => {
      await Promise.all(opened.map(({ page }) => page.close()));
    });

    it.each(PAGES)("%s: its language and translation (hreflang pairs, canonical, the visible switch), axe-core's WCAG 2.1 A and AA rules, no SVG text outside its SVG, the chart in the first screen, dates on one line; an indicator page's numbers as the data says, an embed fitting its frame", async (path) => {
      const embed = path.endsWith("/embed/");
      await Promise.all(widths.map(async ([name, pageWidth, pageHeight, frameWidth], k) => {
        const { page, problems } = opened[k] as { page: Page; problems: string[] };
        const [width, height] = embed ? [frameWidth, frameHeight] : [pageWidth, pageHeight];
        if (page.viewportSize()?.width !== width) await page.setViewportSize({ width, height });
        const before = problems.length;
        await visit(page, path);
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
        expect(overflow, `${path} at ${width}px scrolls sideways`).toBeLessThanOrEqual(0);
        const { out, checked } = await textsOutside(page);
        expect(out, `${path} at ${width}px`).toEqual([]);
        if (path.includes("/series/")) {
          expect(checked, path).toBeGreaterThan(5);
          const top = await page.locator("#charts svg.chart").evaluateAll((svgs) => Math.min(...svgs.filter((s) => s.getClientRects().length > 0).map((s) => s.getBoundingClientRect().top)));
          expect(top, `${path}: the chart starts at ${top}px`).toBeLessThan(height);
          const wrapped = await page.locator("td.date time").evaluateAll((times) => times.filter((t) => t.getClientRects().length > 1 || t.getBoundingClientRect().height > 30).length);
          expect(wrapped, path).toBe(0);
        }
        if (embed) await fitsItsFrame(page, `${path} in a frame of ${width}×${height}`);
        // At a phone's width nothing a reader must read is clipped: the first select's options, the search placeholder.
        if (name === "phone") expect(await clippedTexts(page), `${path} at ${width}px`).toEqual([]);
        if (name === "desktop") {
          // Once per page (at desktop width): accessibility, then the language and its translation.
          expect(await axeViolations(page), path).toEqual([]);
          await languageAndTranslation(page, path);
          const lang = path.startsWith("/en/") ? "en" : "es";
          if (path.includes("/series/") && !embed) await numbersAsTheData(page, lang, path.includes("/domestic-worker-wages/") ? wages : undefined);
        }
        expect(problems.slice(before), `${path} at ${width}px`).toEqual([]);
      }));
    });

    it("visits every HTML page of the output (its 404 page below)", () => {
      expect([...PAGES, "/no-such-page"].sort()).toEqual(sitePages(server.dir).map((p) => p.path).sort());
    });

    it("/no-such-page: the site's 404 page, accessible", async () => {
      const { page, problems } = opened[0] as { page: Page; problems: string[] };
      const before = problems.length;
      await visit(page, "/no-such-page");
      expect(await axeViolations(page), "/no-such-page").toEqual([]);
      // The 404 page's own status is expected (as the response and as Chromium's console line).
      const expected = [`404: ${server.url}/no-such-page`, "console: Failed to load resource: the server responded with a status of 404 (Not Found)"];
      expect(problems.slice(before).filter((p) => !expected.includes(p))).toEqual([]);
    });
  });
});

describe("the site's search box finds the words people use", () => {
  it("from the Spanish home page at a phone's width, each query typed in turn: its first result, and the count when there is one", async () => {
    const { page, problems } = await openPage(390, 844);
    await visit(page, "/");
    const results = page.locator("#search-results");
    const first = results.locator("ol li a").first();
    for (const [q, href] of [
      ["salario doméstica", /^\/series\/domestic-worker-wages\//],
      ["empleada doméstica", /^\/series\/domestic-worker-wages\//],
      ["alquiler", /^\/series\/unidad-indexada\//],
      ["casmu emergencia", /^\/series\/health-insurance-prices\/#provider=CASMU&item=orden\+consulta\+urgencia/],
      ["la española", /^\/series\/health-insurance-prices\/#provider=Asociaci%C3%B3n\+Espa%C3%B1ola&/],
    ] as const) {
      // The box emptied first, and its list with it: the results read below are this query's, not the last one's.
      await page.fill("#search-q", "");
      await expect.poll(() => results.innerHTML(), { message: `cleared before ${q}` }).toBe("");
      await page.fill("#search-q", q);
      expect(await first.getAttribute("href"), q).toMatch(href);
      if (q === "alquiler") expect(await results.locator("p.note").textContent()).toBe("1 serie encontrada.");
    }
    expect(problems).toEqual([]);
    await page.close();
  });
});

/** A health insurance page address with a selection: provider, item and regime (facet values, the same in both languages). */
const hipPage = (lang: string, provider: string, item: string, regime: string) =>
  `${prefix(lang)}/series/health-insurance-prices/#${new URLSearchParams({ provider, item, regime }).toString()}`;

describe("the pages answer the questions people bring, honestly (both languages, phone and desktop)", () => {
  for (const [width, height] of [[390, 844], [1280, 900]] as const) {
    it(`at ${width} px: the wage card says the general monthly minimum is in force since 1 July 2026, how current the data are (no check recorded, the day they last changed) and when the next value is expected; the sentence on what is next links the note on the new categories, which the category select offers; the date field answers 29.400 for 15 March 2025, as the API's at= does`, async () => {
      const { page, problems } = await openPage(width, height);
      // How current the data are, as status.json serves them: no check recorded, and the day the points last changed (the build's SOURCE_DATE_EPOCH, 2026-11-20, or earlier).
      const status = (await (await fetch(`${server.url}/api/v1/status.json`)).json()) as { indicators: { id: string; checked: string | null; data_changed: string; next_due: string | null; overdue: boolean }[] };
      const wages = status.indicators.find((i) => i.id === "domestic-worker-wages");
      expect(wages).toMatchObject({ checked: null, next_due: "2027-01-01", overdue: false });
      const changed = wages?.data_changed ?? "";
      expect(changed <= "2026-11-20", changed).toBe(true);
      const cocina = await newest("domestic-worker-wages", "monthly-cocina");
      for (const lang of LANGS) {
        const long = (date: string) => new Intl.DateTimeFormat(lang === "es" ? "es-UY" : "en-US", { day: "numeric", month: "long", year: "numeric", timeZone: "UTC" }).format(new Date(date));
        await visit(page, `${prefix(lang)}/series/domestic-worker-wages/`);
        const card = page.locator('#view-card article[data-series="monthly"]');
        const since = card.locator(".card-since");
        // July 2026's value is in the data: current, in force since then, its successor due on 1 January 2027.
        expect(await since.getAttribute("data-since")).toBe("2026-07-01");
        expect(await since.getAttribute("data-state")).toBe("current");
        const text = ((await since.textContent()) ?? "").replace(/\s+/g, " ");
        expect(text).toContain(lang === "es" ? "Vigente desde el 1 de julio de 2026 (" : "In force since July 1, 2026 (");
        expect(text).toContain(lang === "es" ? `(sin comprobación registrada; datos modificados por última vez el ${long(changed)}).` : `(no check recorded; data last changed on ${long(changed)}).`);
        expect(text).not.toMatch(/comprobados|checked on/);
        expect(text).toContain(lang === "es" ? "Próximo dato esperado: 1 de enero de 2027." : "Next value expected: January 1, 2027.");
        expect(text).not.toMatch(/Atrasado|Overdue/);
        // The value's own note: the general category's, the default one.
        await card.locator("details.note summary").click();
        expect(await card.locator("details.note").textContent()).toContain(lang === "es" ? "Categoría general, la que se muestra por defecto" : "General category, the default one");
        // The sentence on what is next and how current the data are, linking the note on the new categories.
        const freshness = ((await page.locator("#freshness").textContent()) ?? "").replace(/\s+/g, " ");
        expect(freshness).toContain(lang === "es" ? "El valor que rija desde el 1 de enero de 2027 se espera hacia el 1 de enero de 2027" : "The value in force from January 1, 2027 is expected around January 1, 2027");
        expect(freshness).toContain(lang === "es" ? "el último de estos datos rige desde el 1 de julio de 2026" : "the newest value in this data is in force since July 1, 2026");
        const link = page.locator("#freshness a");
        expect(await link.getAttribute("href")).toBe("#note-4");
        expect(await page.locator("#note-4").textContent()).toMatch(lang === "es" ? /tres categorías/ : /three categories/);
        await link.click();
        await expect.poll(() => page.evaluate(() => document.getElementById("note-4")?.getBoundingClientRect().top ?? -1)).toBeLessThan(height);
        // The value in force on a date: the page's answer and the API's, from the address the page gives.
        await page.fill("#ask-at-date", "2025-03-15");
        await page.locator("#ask-at button").click();
        const monthly = page.locator('#ask-at-answer li[data-series="monthly"] data');
        await monthly.waitFor();
        expect(await monthly.getAttribute("value")).toBe("29400");
        expect(parseShown((await monthly.textContent()) ?? "", lang)).toBe(29400);
        expect(((await monthly.textContent()) ?? "").replace(/\s/g, " ")).toBe(lang === "es" ? "$ 29.400" : "$29,400");
        const path = (await page.locator("#ask-at-answer .api-equivalent a").getAttribute("href")) ?? "";
        // A link on the site serving the page, its text the whole address to copy.
        expect(path).toMatch(/^\/api\/v1\//);
        expect(await page.locator("#ask-at-answer .api-equivalent code").textContent()).toBe(`${server.url}${path}`);
        const api = new URL(path, server.url);
        expect(api.searchParams.get("at")).toBe("2025-03-15");
        // About the card's sub-series (the general monthly minimum).
        expect(api.searchParams.get("series")).toBe("monthly");
        const answer = (await (await fetch(`${server.url}${api.pathname}${api.search}`)).json()) as { data: { series: string; value: number; date: string }[] };
        expect(answer.data).toEqual([expect.objectContaining({ series: "monthly", value: 29400, date: "2025-01-01" })]);
        // A day after the data version, past the next value's due date: the answer says which value comes next and when, as the data knew it.
        await page.fill("#ask-at-date", "2027-06-08");
        await page.locator("#ask-at button").click();
        const late = page.locator('#ask-at-answer li.no-value[data-series="monthly"]');
        await late.waitFor();
        const lateText = ((await late.textContent()) ?? "").replace(/\s+/g, " ");
        expect(lateText).toContain(lang === "es" ? "el siguiente al de 1 de julio de 2026 se espera el 1 de enero de 2027" : "the one after July 1, 2026 is expected on January 1, 2027");
        expect(lateText).toContain(lang === "es" ? `sin comprobación registrada; datos modificados por última vez el ${long(changed)}` : `no check recorded; data last changed on ${long(changed)}`);
        // The new categories, from the category select: the cooking category's card, its value the API's.
        await page.selectOption('select[name="category"]', "cocina");
        await expect.poll(() => page.locator("#view-card article").getAttribute("data-series")).toBe("monthly-cocina");
        expect(Number(await page.locator("#view-card .card-value data").getAttribute("value"))).toBe(cocina.value);
        expect(await page.locator("#view-card .card-since").getAttribute("data-since")).toBe("2026-07-01");
      }
      expect(problems).toEqual([]);
      await page.close();
    });
  }

  it("answers the questions about time with the API's numbers: the wages in real terms, the change since a date, a consultation in hours of the domestic wage", async () => {
    const { page, problems } = await openPage(1280, 900);
    /** The API's answer at an address the page links (a path on the test server). */
    const apiAt = async (href: string | null) => {
      const url = new URL(href ?? "", server.url);
      return ((await (await fetch(`${server.url}${url.pathname}${url.search}`)).json()) as { data: { series: string; value: number; date: string }[] }).data;
    };
    for (const lang of LANGS) {
      await visit(page, `${prefix(lang)}/series/domestic-worker-wages/`);
      // Pesos of the CPI's latest month: the chart's newest point is the API's real= answer.
      await page.selectOption("#mode", "real");
      const real = page.locator('#mode-answer li[data-series="monthly"] data');
      await real.waitFor();
      const api = await apiAt(await page.locator("#mode-answer .api-equivalent a").getAttribute("href"));
      expect(new URL((await page.locator("#mode-answer .api-equivalent a").getAttribute("href")) ?? "", server.url).searchParams.get("real")).toMatch(/^\d{4}-\d{2}$/);
      expect(Number(await real.getAttribute("value"))).toBe(api.find((d) => d.series === "monthly")?.value);
      // Drawn: one chart per magnitude of the card's sub-series (one: the general monthly minimum), its newest point the same value.
      expect(await page.locator("#mode-answer li[data-series]").evaluateAll((items) => items.map((li) => li.getAttribute("data-series")))).toEqual(["monthly"]);
      const figures = page.locator('#charts figure[id^="figure-question"]');
      expect(await figures.count()).toBe(1);
      const newestPoint = page.locator('#charts .chart-wide circle.point[data-series="monthly"]').last();
      expect(parseShown((await newestPoint.getAttribute("data-value-text")) ?? "", lang)).toBeCloseTo(api.find((d) => d.series === "monthly")?.value ?? NaN, 1);
      // Back to the published values: the page's own chart again.
      await page.selectOption("#mode", "level");
      await expect.poll(() => page.locator('#charts figure[id^="figure-question"]').count()).toBe(0);

      // The change since a date, nominal and real, as the API's index answers.
      await page.fill("#since-date", "2020-03-01");
      await page.locator("#ask-since button").click();
      const since = page.locator('#ask-since-answer li[data-series="monthly"]');
      await since.waitFor();
      const [nominalUrl, realUrl] = await page.locator("#ask-since-answer .api-equivalent a").evaluateAll((as) => as.map((a) => a.getAttribute("href")));
      const nominal = (await apiAt(nominalUrl ?? null)).find((d) => d.series === "monthly")?.value ?? NaN;
      const realIndex = (await apiAt(realUrl ?? null)).find((d) => d.series === "monthly")?.value ?? NaN;
      expect(Number(await since.locator("data").first().getAttribute("value"))).toBeCloseTo(nominal - 100, 5);
      expect(Number(await since.locator("data.real").getAttribute("value"))).toBeCloseTo(realIndex - 100, 5);

      // A consultation in hours of the domestic minimum wage (per=), as the API divides it.
      await visit(page, `${prefix(lang)}/series/health-insurance-prices/`);
      await page.selectOption("#mode", "ratio-0");
      const hours = page.locator(`#mode-answer li[data-series="${CASMU}"] data`);
      await hours.waitFor();
      const perUrl = await page.locator("#mode-answer .api-equivalent a").getAttribute("href");
      expect(new URL(perUrl ?? "", server.url).searchParams.get("per")).toBe("domestic-worker-wages:hourly");
      expect(Number(await hours.getAttribute("value"))).toBe((await apiAt(perUrl)).find((d) => d.series === CASMU)?.value);

    }
    expect(problems).toEqual([]);
    await page.close();
  });

  it.each([390, 1280])("adjusts an amount at %i px, in both languages, on the home page and an adjusting indicator's page, typed as in Uruguay and to today: the answer is the API's at the address shown", async (width) => {
    const { page, problems } = await openPage(width, 900);
    // Today as the page counts it (src/site/client/adjust-view.ts `calculatorToday`): the browser's day (this machine's), never after Montevideo's (the API's).
    const now = new Date();
    const pad = (n: number) => String(n).padStart(2, "0");
    const local = `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
    const montevideo = new Date(now.getTime() - 3 * 3_600_000).toISOString().slice(0, 10);
    const today = local < montevideo ? local : montevideo;
    type Answer = { data: { adjusted: number; factor: number; to: { value: number } }; meta: { used: Record<"from" | "to", { date: string; reason: string | null; due: string | null }> } };
    for (const lang of LANGS) {
      const money = new Intl.NumberFormat(lang === "es" ? "es-UY" : "en-US", { style: "currency", currency: "UYU", currencyDisplay: "narrowSymbol", maximumFractionDigits: 2, minimumFractionDigits: 2 });
      // The home page by the BPC (a stepwise value in force today), the CPI's page by the CPI (its newest month is older than today).
      for (const [path, by] of [
        [`${prefix(lang)}/`, "bpc:bpc"],
        [`${prefix(lang)}/series/consumer-price-index/`, "consumer-price-index:general"],
      ] as const) {
        await visit(page, path);
        await page.selectOption("#adjust-by", by);
        // The dates accept today and default to it.
        expect(await page.inputValue("#adjust-to")).toBe(today);
        expect(await page.getAttribute("#adjust-to", "max")).toBe(today);
        await page.fill("#adjust-amount", "25.000");
        await page.fill("#adjust-from", "2019-01-15");
        await page.locator("#adjust-form button").click();
        const result = page.locator("#adjust-answer strong data");
        await result.waitFor();
        const href = (await page.locator("#adjust-answer .api-equivalent a").getAttribute("href")) ?? "";
        expect(await page.locator("#adjust-answer .api-equivalent code").textContent()).toBe(`${server.url}${href}`);
        const url = new URL(href, server.url);
        // "25.000" is twenty-five thousand on both pages.
        expect(url.pathname + url.search).toBe(`/api/v1/adjust?amount=25000&from=2019-01-15&to=${today}&by=${by}`);
        const response = await fetch(`${server.url}${url.pathname}${url.search}`);
        expect(response.status).toBe(200);
        const api = (await response.json()) as Answer;
        expect(Number(await result.getAttribute("value"))).toBe(api.data.adjusted);
        const text = (await page.locator("#adjust-answer").textContent()) ?? "";
        expect(text.replace(/\s/g, " ")).toContain(money.format(api.data.adjusted).replace(/\s/g, " "));
        expect(text).toContain(lang === "es" ? `factor ${String(api.data.factor).replace(".", ",")}` : `factor ${api.data.factor}`);
        // The date of each value used, and why when it is not the date's own; all in the page's language.
        const reason = api.meta.used.to.reason;
        if (reason === null) expect(text).not.toMatch(/no hay un valor propio|has no value of its own/);
        else {
          expect(text).toContain(lang === "es" ? "no hay un valor propio: se usó el valor más reciente" : "has no value of its own: the newest value was used");
          expect(text).toContain(reason === "overdue" ? (lang === "es" ? "debía publicarse" : "was due on") : lang === "es" ? "se publica el" : "comes out on");
        }
        if (by === "consumer-price-index:general") expect(reason).not.toBeNull();
        // The answer fits the phone's width: nothing to scroll sideways.
        expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
      }
      // A unit of account (the UI): the amount also in UI, the API's in_units.
      await visit(page, `${prefix(lang)}/series/unidad-indexada/`);
      await page.selectOption("#adjust-by", "unidad-indexada:ui");
      await page.fill("#adjust-amount", "1000");
      await page.fill("#adjust-from", "2020-01-15");
      await page.fill("#adjust-to", "2026-09-05");
      await page.locator("#adjust-form button").click();
      await page.locator("#adjust-answer strong data").waitFor();
      const ui = (await (await fetch(`${server.url}/api/v1/adjust?amount=1000&from=2020-01-15&to=2026-09-05&by=unidad-indexada:ui`)).json()) as { data: { adjusted: number; in_units: number; to: { value: number } } };
      expect(Number(await page.locator("#adjust-answer strong data").getAttribute("value"))).toBe(ui.data.adjusted);
      const inUnits = new Intl.NumberFormat(lang === "es" ? "es-UY" : "en-US", { maximumFractionDigits: 4 }).format(ui.data.in_units);
      expect(await page.locator("#adjust-answer").textContent()).toContain(`${inUnits} UI`);
      // And back: 1,000 UI of the second date in pesos, × the API's value of that day.
      const back = new Intl.NumberFormat(lang === "es" ? "es-UY" : "en-US", { style: "currency", currency: "UYU", currencyDisplay: "narrowSymbol", maximumFractionDigits: 2 }).format(1000 * ui.data.to.value);
      expect(await page.locator("#adjust-answer").textContent()).toContain(back);
      // Faults in the page's language, never the API's text: an amount that is not one (no request), a date after today (the API's 400).
      await visit(page, `${prefix(lang)}/series/consumer-price-index/`);
      await page.fill("#adjust-amount", "25.5.5");
      await page.locator("#adjust-form button").click();
      await expect.poll(() => page.locator("#adjust-answer").textContent()).toContain(lang === "es" ? "«25.5.5» no es un monto" : "“25.5.5” is not an amount");
      await page.fill("#adjust-amount", "25000,5");
      const tomorrow = new Date(Date.parse(`${today}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
      // The field's max keeps the browser from sending it: lifted, so that the API answers.
      await page.evaluate(() => document.getElementById("adjust-to")?.removeAttribute("max"));
      await page.fill("#adjust-to", tomorrow);
      await page.locator("#adjust-form button").click();
      await expect.poll(() => page.locator("#adjust-answer").textContent()).toContain(lang === "es" ? "La fecha de destino es posterior a hoy" : "The date to is after today");
      expect(await page.locator("#adjust-answer").textContent()).not.toContain("to:");
    }
    expect(problems.filter((p) => !p.includes("400"))).toEqual([]);
    await page.close();
  });

  it("before the page script runs, a shared link's selects and card name the shared choice and never show another's price; the page then loads only that group's data", async () => {
    const { page, problems } = await openPage(390, 844);
    const shared = hipPage("es", "Médica Uruguaya (MUCAM)", "orden consulta medicina general", "FONASA");
    // The page script held back: what the page shows from its HTML and inline script alone.
    await page.route("**/assets/series-page.js", (route) => route.abort());
    await page.goto(`${server.url}${shared}`);
    expect(await page.locator("#selection").isVisible()).toBe(true);
    expect(await page.locator('select[name="provider"]').inputValue()).toBe("Médica Uruguaya (MUCAM)");
    const pending = page.locator("#view-card article.card-pending");
    expect(await pending.locator(".card-title").textContent()).toBe("Médica Uruguaya (MUCAM)");
    expect(await page.locator("#view-card data").count()).toBe(0); // no price until the chosen one is known
    expect(await page.locator("#view-card").textContent()).not.toContain("CASMU");
    // A choice made before the script arrives is taken, and its group file requested at once.
    const requested: string[] = [];
    page.on("request", (r) => requested.push(new URL(r.url()).pathname));
    await page.selectOption('select[name="regime"]', "NO FONASA");
    await expect.poll(() => requested.some((p) => /^\/_data\/health-insurance-prices\/view\/\d+-\d+\.json$/.test(p))).toBe(true);
    await page.unroute("**/assets/series-page.js");
    // The held-back script's own failure (its request and Chromium's console line about it) is the test's doing.
    const seen = problems.splice(0).filter((p) => !p.includes("series-page.js") && p !== "console: Failed to load resource: net::ERR_FAILED");
    expect(seen).toEqual([]);

    // With the script: the chosen card, from the one group file the choice needs (never the whole indicator).
    await page.goto("about:blank"); // the same address again would only move to its fragment
    const loaded: string[] = [];
    page.on("request", (r) => loaded.push(new URL(r.url()).pathname));
    await page.goto(`${server.url}${shared}`);
    await expect.poll(() => page.locator("#view-card article").getAttribute("data-series")).toBe("medica-uruguaya.consult-general-medicine.fonasa");
    const data = loaded.filter((p) => p.startsWith("/_data/") || p.startsWith("/api/"));
    expect(data).toHaveLength(1);
    expect(loaded.some((p) => p.endsWith("metadata.json"))).toBe(false);
    expect(problems).toEqual([]);
    await page.close();
  });

  it("marks a change against a noted point and never makes it the headline; says ties; sorts providers by the locale and marks those without recent data; the language switch keeps the selection", async () => {
    const { page, problems } = await openPage(390, 844);
    // The latest publication's general medicine consultation, FONASA, of every provider: ranks and ties from the API.
    const latest = (await (await fetch(`${server.url}/api/v1/health-insurance-prices?series=*.consult-general-medicine.fonasa&limit=1`)).json()) as { data: { series: string; date: string; value: number }[] };
    const newestDate = latest.data.reduce((max, d) => (d.date > max ? d.date : max), "");
    const peers = latest.data.filter((d) => d.date === newestDate);
    const doc = (await (await fetch(`${server.url}/api/v1/health-insurance-prices/metadata.json`)).json()) as { facets: { name: string; values: string[] }[]; series: { id: string; facets: (number | null)[] }[] };
    const providerFacet = doc.facets.findIndex((f) => f.name === "provider");
    const providerOf = new Map(doc.series.map((s) => [s.id, doc.facets[providerFacet]?.values[s.facets[providerFacet] ?? -1] ?? ""]));
    for (const lang of LANGS) {
      // AMECOM's 2025 price of this consultation is noted as out of line in the data.
      await visit(page, hipPage(lang, "AMECOM (formerly AMDM)", "orden consulta medicina general", "FONASA"));
      await expect.poll(() => page.locator("#view-card article").getAttribute("data-series")).toBe("amecom.consult-general-medicine.fonasa");
      const changes = page.locator("#view-card .card-changes li");
      expect(await changes.count()).toBeGreaterThan(0);
      const noted = page.locator("#view-card .card-changes li.noted-change");
      expect(await noted.count()).toBeGreaterThan(0);
      expect(await noted.first().locator(".note-mark").count()).toBe(1);
      expect(await noted.first().textContent()).toContain(lang === "es" ? "frente a un valor con nota" : "against a value with a note");
      // Listed after any change against an unnoted point, and said under the card in the page's language.
      const classes = await changes.evaluateAll((items) => items.map((li) => li.classList.contains("noted-change")));
      expect(classes).toEqual([...classes].sort((a, b) => Number(a) - Number(b)));
      expect(await page.locator("#view-card .note").last().textContent()).toContain(lang === "es" ? "No condice con las publicaciones" : "Out of line with the publications");

      // Ties: CASMU's rank says with how many it shares the price.
      await visit(page, hipPage(lang, "CASMU", "orden consulta medicina general", "FONASA"));
      const casmu = peers.find((d) => d.series === CASMU)?.value ?? NaN;
      const position = 1 + peers.filter((d) => d.value < casmu).length;
      const tied = peers.filter((d) => d.value === casmu).length - 1;
      expect(tied).toBeGreaterThan(0);
      const rank = (await page.locator("#view-card .card-rank").textContent()) ?? "";
      expect(rank).toContain(lang === "es" ? `Puesto ${position} de ${peers.length}, empatado con ${tied}` : `Number ${position} of ${peers.length}, tied with ${tied}`);
      // A free consultation: tied with every other provider that charges nothing (its provider from the metadata document).
      const free = peers.filter((d) => d.value === 0);
      expect(free.length).toBeGreaterThan(1);
      await page.selectOption('select[name="provider"]', providerOf.get(free[0]?.series ?? "") ?? "");
      await expect
        .poll(async () => (await page.locator("#view-card .card-rank").textContent()) ?? "")
        .toContain(lang === "es" ? `Puesto 1 de ${peers.length}, empatado con ${free.length - 1}` : `Number 1 of ${peers.length}, tied with ${free.length - 1}`);

      // Labels by the language's collation: "Círculo Católico" before "COMEF" and "CUDAM" (not after them, as by code point).
      const labels = await page.locator('select[name="provider"] option').allTextContents();
      const at = (start: string) => labels.findIndex((l) => l.startsWith(start));
      expect(at("Círculo Católico")).toBeGreaterThanOrEqual(0);
      expect(at("Círculo Católico")).toBeLessThan(at("COMEF"));
      expect(at("Círculo Católico")).toBeLessThan(at("CUDAM"));
      expect(labels.find((l) => l.startsWith("Casa de Galicia"))).toBe(lang === "es" ? "Casa de Galicia (hasta 2022)" : "Casa de Galicia (until 2022)");

      // The other language opens on the same selection.
      await page.selectOption('select[name="provider"]', "Asociación Española");
      // Rendered once the choice's group is at hand (a render is asynchronous).
      await expect.poll(async () => (await page.locator("a.lang-switch").getAttribute("href")) ?? "").toContain("provider=Asociaci");
      const other = (await page.locator("a.lang-switch").getAttribute("href")) ?? "";
      await visit(page, new URL(other, server.url).pathname + new URL(other, server.url).hash);
      await expect.poll(() => page.locator('select[name="provider"]').inputValue()).toBe("Asociación Española");
      expect(await page.locator("#view-card article").getAttribute("data-series")).toBe("asociacion-espanola.consult-general-medicine.fonasa");
    }
    expect(problems).toEqual([]);
    await page.close();
  });
});
