/**
 * The site in a real browser: Debian's Chromium driven by playwright-core against
 * `wrangler pages dev`. Screenshots of every page at desktop and phone width are
 * saved under test-artifacts/screenshots/ for a person to look at.
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { join } from "node:path";
import { chromium, type Browser, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { ROOT } from "../helpers.js";
import { freePort } from "./pages-dev.js";

const SHOTS = join(ROOT, "test-artifacts/screenshots");
const IDS = ["domestic-worker-wages", "health-insurance-prices"] as const;

/** The default build with a usage limit no test reaches (test/e2e/global-setup.ts). */
const server = { url: inject("system").urls.main };
let browser: Browser;
let otherOrigin: Server;
let otherUrl: string;

beforeAll(async () => {
  const ensured = spawnSync("bash", [join(ROOT, "scripts/ensure-chromium.sh")], { encoding: "utf8" });
  expect(ensured.status, ensured.stderr).toBe(0);
  // Another origin: a page that calls the API from elsewhere, as a dashboard would.
  const port = await freePort();
  otherOrigin = createServer((_req, res) => res.writeHead(200, { "Content-Type": "text/html" }).end("<!doctype html><title>elsewhere</title>"));
  await new Promise<void>((done) => otherOrigin.listen(port, "127.0.0.1", done));
  otherUrl = `http://127.0.0.1:${port}/`;
  browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run"],
  });
  mkdirSync(SHOTS, { recursive: true });
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await new Promise((done) => otherOrigin?.close(done));
});

/** How many health insurance sub-series (one per provider) data/ declares for an item and regime. */
function providersWith(item: string, regime: string): number {
  const meta = JSON.parse(readFileSync(join(ROOT, "data/health-insurance-prices/indicator.json"), "utf8")) as {
    series: { facets: { item: string; regime: string } }[];
  };
  return meta.series.filter((s) => s.facets.item === item && s.facets.regime === regime).length;
}

/** A page that records console errors, failed requests and any request leaving the site. */
async function openPage(width: number, height: number) {
  const page = await browser.newPage({ viewport: { width, height } });
  const problems: string[] = [];
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

const lineIds = (page: Page) => page.locator("#charts path.series-line").evaluateAll((paths) => paths.map((p) => p.getAttribute("data-series")));

describe("the site in Chromium", () => {
  it("leads from the home page to each indicator page, with visible charts, one line per shown sub-series", async () => {
    const { page, problems } = await openPage(1280, 900);
    for (const id of IDS) {
      await page.goto(`${server.url}/`);
      expect(await page.locator("h1").textContent()).toContain("Open Series UY");
      await page.locator(`a[href="/series/${id}/"]`).first().click();
      await page.waitForURL(`**/series/${id}/`);
      const chart = page.locator("#charts svg.chart").first();
      expect(await chart.isVisible()).toBe(true);
      const box = await chart.boundingBox();
      expect(box?.width).toBeGreaterThan(300);
      const lines = await lineIds(page);
      const latestRows = await page.locator("#latest tbody tr").count();
      expect(lines.length).toBeGreaterThan(0);
      expect(new Set(lines).size).toBe(lines.length);
      // Every shown sub-series has its line, and its row in the latest values.
      expect(lines.length).toBe(latestRows);
      // Each line is really drawn: a path with at least one segment, inside the chart.
      for (const d of await page.locator("#charts path.series-line").evaluateAll((ps) => ps.map((p) => p.getAttribute("d") ?? ""))) {
        expect(d).toMatch(/^M[\d.]+ [\d.]+/);
      }
      if (id === "domestic-worker-wages") expect(lines.length).toBe(6);
      if (id === "health-insurance-prices") expect(lines.length).toBe(providersWith("orden consulta urgencia centralizada", "FONASA"));
    }
    expect(problems).toEqual([]);
    await page.close();
  });

  it("lets the visitor choose provider, item and regime, and the chart follows", async () => {
    const { page, problems } = await openPage(1280, 900);
    await page.goto(`${server.url}/series/health-insurance-prices/`);
    await page.locator("#selection").waitFor({ state: "visible" });
    const before = await lineIds(page);
    const title = () => page.locator("#charts svg.chart title").first().textContent();
    const titleBefore = await title();

    await page.selectOption('select[name="item"]', "ticket medicamentos general");
    const afterItem = await lineIds(page);
    expect(afterItem, JSON.stringify(afterItem.slice(0, 3))).toHaveLength(providersWith("ticket medicamentos general", "FONASA"));
    expect(afterItem.filter((id) => !id?.includes(".medicine-general."))).toEqual([]);
    expect(afterItem).not.toEqual(before);
    expect(await title()).not.toBe(titleBefore);

    await page.selectOption('select[name="regime"]', "NO FONASA");
    expect((await lineIds(page)).every((id) => id?.endsWith(".no-fonasa"))).toBe(true);

    await page.selectOption('select[name="provider"]', "CASMU");
    const highlighted = await page.locator('#charts path.series-line[stroke-width="3"]').getAttribute("data-series");
    expect(highlighted).toBe("casmu.medicine-general.no-fonasa");
    expect(await page.locator("#figure-compare .bar.highlight text").first().textContent()).toBe("CASMU");
    // The choice is in the address, so it can be shared.
    expect(new URL(page.url()).hash).toContain("provider=CASMU");
    const shared = await browser.newPage();
    await shared.goto(page.url());
    await shared.locator("#selection").waitFor({ state: "visible" });
    expect(await shared.locator('select[name="provider"]').inputValue()).toBe("CASMU");
    await shared.close();
    expect(problems).toEqual([]);
    await page.close();
  });

  it("offers the attribution link with the three utm_ parameters", async () => {
    const { page, problems } = await openPage(1280, 900);
    for (const id of IDS) {
      await page.goto(`${server.url}/series/${id}/`);
      const snippet = await page.locator("#attribution-snippet").textContent();
      const href = /href="([^"]+)"/.exec(snippet ?? "")?.[1]?.replace(/&amp;/g, "&") ?? "";
      const url = new URL(href);
      expect(url.pathname).toBe(`/series/${id}/`);
      expect(url.searchParams.get("utm_source")).toBe("api");
      expect(url.searchParams.get("utm_medium")).toBe("attribution");
      expect(url.searchParams.get("utm_campaign")).toBe("backlinks");
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
    expect(result.points).toBe(6); // limit=1: the newest point of each of the 6 sub-series
    expect(result.attribution).toContain("utm_campaign=backlinks");
    // A conditional request from another origin (a preflighted header) works as well.
    const conditional = await page.evaluate(
      async ([api, etag]) => (await fetch(`${api}/api/v1/domestic-worker-wages?limit=1`, { headers: { "If-None-Match": etag as string } })).status,
      [server.url, result.etag],
    );
    expect(conditional).toBe(304);
    await page.close();
  });

  it("passes the axe-core accessibility rules (WCAG 2.1 A and AA) on every page", async () => {
    const { page, problems } = await openPage(1280, 900);
    for (const path of ["/", ...IDS.map((id) => `/series/${id}/`)]) {
      await page.goto(`${server.url}${path}`);
      if (path.includes("health")) await page.locator("#selection").waitFor({ state: "visible" });
      await page.addScriptTag({ path: join(ROOT, "node_modules/axe-core/axe.min.js") });
      const violations = await page.evaluate(async () => {
        const axe = (window as unknown as { axe: { run: (ctx: Document, opts: object) => Promise<{ violations: { id: string; impact: string; nodes: unknown[] }[] }> } }).axe;
        const result = await axe.run(document, { runOnly: { type: "tag", values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"] } });
        return result.violations.map((v) => `${v.id} (${v.impact}, ${v.nodes.length} nodes)`);
      });
      expect(violations, path).toEqual([]);
    }
    expect(problems).toEqual([]);
    await page.close();
  });

  it("renders every page at desktop and phone width without errors (screenshots saved)", async () => {
    for (const [name, width, height] of [
      ["desktop", 1280, 900],
      ["phone", 390, 844],
    ] as const) {
      const { page, problems } = await openPage(width, height);
      for (const path of ["/", ...IDS.map((id) => `/series/${id}/`)]) {
        await page.goto(`${server.url}${path}`);
        if (path.includes("health")) await page.locator("#selection").waitFor({ state: "visible" });
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
        expect(overflow, `${path} at ${width}px scrolls sideways`).toBeLessThanOrEqual(0);
        const slug = path === "/" ? "home" : path.split("/")[2];
        await page.screenshot({ path: join(SHOTS, `${slug}-${name}.png`), fullPage: true });
      }
      expect(problems).toEqual([]);
      await page.close();
    }
  });
});
