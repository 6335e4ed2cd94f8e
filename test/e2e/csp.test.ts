/**
 * The pages' Content Security Policy in a real browser (Debian's Chromium driven by
 * playwright-core). Every HTML page of the served output is opened, its script run,
 * with no violation, by the browser tests' visits of every page at two widths
 * (test/e2e/browser.test.ts, which reports violations as this file does:
 * `reportViolations` of test/chromium.ts). Here: the interactive parts that draw in
 * the page (a selection, the chart in other terms, the questions' answers, search,
 * the calculator, a tooltip) with no violation; Chromium computes the hashes
 * itself, so this is the check of the build's hashes, and of the data blocks
 * (`application/json`, `application/ld+json`) needing none. Violations are what the
 * page reports and what Chromium logs (console messages naming the policy); the last
 * tests show the detector reports a tampered policy, an injected inline script and
 * a framing the policy refuses.
 */
import { createServer, type Server } from "node:http";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { launchChromium, openAndWait, reportViolations } from "../chromium.js";
import { freePort } from "../../scripts/lib/pages-dev.js";

const base = inject("system").urls.main;

let browser: Browser;
let context: BrowserContext;
/** Another origin's page that frames the two paths of its query (`a`, `b`). */
let framer: Server;
let framerUrl: string;
/** The violations reported since the last `take()`, each with the page it happened on. */
const violations: string[] = [];

/** The violations seen so far, emptied. */
const take = () => violations.splice(0);

beforeAll(async () => {
  const port = await freePort();
  framer = createServer((req, res) => {
    const query = new URL(req.url ?? "/", "http://x").searchParams;
    const frames = ["a", "b"].map((k) => `<iframe src="${base}${query.get(k) ?? ""}" title="${k}"></iframe>`).join("");
    res.writeHead(200, { "Content-Type": "text/html" }).end(`<!doctype html><title>elsewhere</title>${frames}`);
  });
  await new Promise<void>((done) => framer.listen(port, "127.0.0.1", done));
  framerUrl = `http://127.0.0.1:${port}/`;
  browser = await launchChromium();
  context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  // Each document reports its violations as they happen: the listener is set before any of its code runs.
  await reportViolations(context, (text) => violations.push(text));
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await new Promise((done) => framer?.close(done));
});

/** A page of the shared context whose console messages about the policy count as violations. */
async function openPage(): Promise<Page> {
  const page = await context.newPage();
  page.on("console", (msg) => /Content Security Policy/i.test(msg.text()) && violations.push(`console on ${page.url()}: ${msg.text()}`));
  return page;
}

/** Opens `path` of the served site and waits until its script has run (`openAndWait`). */
const visit = (page: Page, path: string) => openAndWait(page, `${base}${path}`);

describe("the Content Security Policy in Chromium", () => {
  it("draws what the page script renders (a selection, the chart in other terms, answers, search, the calculator, a tooltip) with no violation", async () => {
    const page = await openPage();
    await visit(page, "/series/health-insurance-prices/");
    const drawn = await page.locator("#charts").innerHTML();
    await page.selectOption('select[name="regime"]', { index: 1 });
    await expect.poll(() => page.locator("#charts").innerHTML()).not.toBe(drawn);
    await page.selectOption("#mode", "index");
    await page.locator("#mode-answer li").first().waitFor();
    await page.fill("#ask-at-date", "2020-03-15");
    await page.locator("#ask-at button").click();
    await page.locator("#ask-at-answer li").first().waitFor();
    await page.locator("#charts svg.chart").first().hover();
    await page.fill("#search-q", "casmu");
    await page.locator("#search-results ol li a").first().waitFor();

    await visit(page, "/en/series/domestic-worker-wages/");
    await page.selectOption("#mode", "real");
    await page.locator("#mode-answer li").first().waitFor();
    await page.fill("#since-date", "2020-03-01");
    await page.locator("#ask-since button").click();
    await page.locator("#ask-since-answer li").first().waitFor();

    await visit(page, "/");
    await page.fill("#adjust-amount", "1000");
    await page.locator("#adjust-form button").click();
    await page.locator("#adjust-answer strong data").waitFor();

    // An embed page opened on a shared selection renders it in the page.
    await visit(page, "/en/series/health-insurance-prices/embed/#provider=CASMU&item=ticket+medicamentos+general&regime=FONASA");
    await expect.poll(() => page.locator('#charts path.series-line[stroke-width="3"]').first().getAttribute("data-series")).toBe("casmu.medicine-general.fonasa");
    await page.evaluate(() => new Promise((done) => setTimeout(done, 100)));
    expect(take()).toEqual([]);
    await page.close();
  });

  it("lets another site frame an embed page, and refuses it any other page (frame-ancestors 'none')", async () => {
    const page = await openPage();
    await page.goto(`${framerUrl}?a=${encodeURIComponent("/series/bpc/embed/")}&b=${encodeURIComponent("/series/bpc/")}`);
    await page.frameLocator('iframe[title="a"]').locator('svg.chart[data-chart-enhanced="true"]').first().waitFor({ state: "attached" });
    await expect.poll(() => violations.length).toBe(1);
    expect(take()[0]).toMatch(/Framing '.+' violates .*"frame-ancestors 'none'"/);
    expect(page.frames().map((f) => new URL(f.url()).pathname)).not.toContain("/series/bpc/");
    await page.close();
  });

  it("reports a violation when the policy lacks a page's hashes, and for an inline script injected into a page", async () => {
    const page = await openPage();
    const tampered = `${base}/series/domestic-worker-wages/`;
    await page.route(tampered, async (route) => {
      const response = await route.fetch();
      const policy = response.headers()["content-security-policy"] ?? "";
      await route.fulfill({ response, headers: { ...response.headers(), "content-security-policy": policy.replace(/ 'sha256-[^']+'/g, "") } });
    });
    await page.goto(tampered);
    // The stylesheet and the early script, each reported by the page and by Chromium's console.
    await expect.poll(() => violations.filter((v) => /style-src-elem blocked inline/.test(v)).length).toBe(1);
    await expect.poll(() => violations.filter((v) => /script-src-elem blocked inline/.test(v)).length).toBe(1);
    expect(violations.filter((v) => v.startsWith("console")).length).toBe(2);
    take();
    await page.unroute(tampered);

    await visit(page, "/series/bpc/");
    await expect(page.addScriptTag({ content: "window.injected = true;" })).rejects.toThrow(/Content Security Policy/);
    await expect.poll(() => violations.some((v) => /script-src-elem blocked inline/.test(v))).toBe(true);
    expect(await page.evaluate(() => (window as unknown as { injected?: boolean }).injected)).toBeUndefined();
    take();
    await page.close();
  });
});
