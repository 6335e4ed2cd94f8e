/**
 * The pages at a phone's 390 px, in Chromium against `wrangler pages dev` (as
 * test/e2e/browser.test.ts): nothing a reader must read is clipped — every option
 * of the selection's first select (a provider's whole name, a wage category) fits
 * the select's box, the search box's placeholder fits its field — and the chart
 * still starts within the first screen. Screenshots are saved under
 * test-artifacts/screenshots/ for a person to look at. Also the site's own search
 * box, from the Spanish home page, with the words people use (indicator.json `search`).
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium, type BrowserContext } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { ROOT } from "../files.js";

const SHOTS = join(ROOT, "test-artifacts/screenshots");
const server = { url: inject("system").urls.main };
let context: BrowserContext;

beforeAll(async () => {
  const ensured = spawnSync("bash", [join(ROOT, "scripts/ensure-chromium.sh")], { encoding: "utf8" });
  expect(ensured.status, ensured.stderr).toBe(0);
  context = await chromium.launchPersistentContext(mkdtempSync(join(tmpdir(), "phone-layout-")), {
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run"],
    viewport: { width: 390, height: 844 },
  });
  mkdirSync(SHOTS, { recursive: true });
}, 180_000);

afterAll(async () => {
  await context?.close();
});

/** What a page shows at 390 px: the texts that do not fit their box (measured with the element's own font), and where the chart starts. */
async function clipped(path: string) {
  const page = await context.newPage();
  await page.goto(`${server.url}${path}`);
  await page.locator("#selection").waitFor({ state: "visible" });
  const found = await page.evaluate(() => {
    const ctx = document.createElement("canvas").getContext("2d") as CanvasRenderingContext2D;
    const over = (el: HTMLElement, texts: string[], arrow: number) => {
      const cs = getComputedStyle(el);
      ctx.font = `${cs.fontWeight} ${cs.fontSize} ${cs.fontFamily}`;
      const room = el.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight) - arrow;
      return texts.filter((t) => ctx.measureText(t).width > room);
    };
    const first = document.querySelector<HTMLSelectElement>("#selection select");
    const search = document.querySelector<HTMLInputElement>("#search-q");
    const svgs = [...document.querySelectorAll("#charts svg.chart")].filter((s) => s.getClientRects().length > 0);
    return {
      // The select's own arrow takes about 20 px of its box.
      options: first === null ? ["no select"] : over(first, [...first.options].map((o) => o.text), 20),
      placeholder: search === null ? [] : over(search, [search.placeholder], 0),
      chartTop: Math.min(...svgs.map((s) => s.getBoundingClientRect().top)),
    };
  });
  await page.screenshot({ path: join(SHOTS, `390-${path.replace(/^\/|\/$/g, "").replace(/\//g, "_")}.png`) });
  await page.close();
  return found;
}

describe("at 390 px", () => {
  it.each(["/series/health-insurance-prices/", "/en/series/health-insurance-prices/", "/series/domestic-worker-wages/", "/en/series/domestic-worker-wages/"])(
    "%s: the first select's every option and the search placeholder fit; the chart starts in the first screen (screenshot saved)",
    async (path) => {
      const { options, placeholder, chartTop } = await clipped(path);
      expect(options).toEqual([]);
      expect(placeholder).toEqual([]);
      expect(chartTop).toBeLessThan(844);
    },
  );
});

describe("the site's search box finds the words people use", () => {
  it.each([
    ["salario doméstica", /^\/series\/domestic-worker-wages\//],
    ["empleada doméstica", /^\/series\/domestic-worker-wages\//],
    ["alquiler", /^\/series\/unidad-indexada\//],
    ["casmu emergencia", /^\/series\/health-insurance-prices\/#provider=CASMU&item=orden\+consulta\+urgencia/],
    ["la española", /^\/series\/health-insurance-prices\/#provider=Asociaci%C3%B3n\+Espa%C3%B1ola&/],
  ])("'%s' → %s first", async (q, href) => {
    const page = await context.newPage();
    await page.goto(`${server.url}/`);
    await page.fill("#search-q", q);
    const first = page.locator("#search-results ol li a").first();
    await first.waitFor();
    expect(await first.getAttribute("href")).toMatch(href);
    if (q === "alquiler") expect(await page.locator("#search-results p.note").textContent()).toBe("1 serie encontrada.");
    await page.close();
  });
});
