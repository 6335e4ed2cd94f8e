/**
 * Chromium for a browser test: Debian's in its headless shell (or `$CHROMIUM_PATH`),
 * made sure of by scripts/ensure-chromium.sh, launched without the sandbox (root in a
 * container), the GPU or any traffic of its own (no network here). Awaited, not
 * `spawnSync`: a system file must not block the event loop (test/helpers.ts `runProcess`).
 *
 * The headless shell (Debian's `chromium-headless-shell`, built from the same source as
 * its `chromium`: the same Blink, V8 and version) is what Playwright itself runs for
 * headless tests: the browser without its windowed layers. Sixteen page loads at two
 * widths, each left 1.5 s to settle, took 5.5 CPU-s of its processes against 8.5 for
 * `/usr/lib/chromium/chromium` (docs/development.md).
 */
import { join } from "node:path";
import { chromium, type Browser, type BrowserContext, type Page } from "playwright-core";
import { ROOT, runProcess } from "./helpers.js";

/** The flags of every headless launch of the tests and scripts. */
export const CHROMIUM_ARGS: readonly string[] = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run"];

/** A headless Chromium, installed first when missing. */
export async function launchChromium(): Promise<Browser> {
  const ensured = await runProcess("bash", [join(ROOT, "scripts/ensure-chromium.sh")]);
  if (ensured.code !== 0) throw new Error(`scripts/ensure-chromium.sh failed:\n${ensured.stderr}`);
  return chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? "/usr/lib/chromium/chromium-headless-shell", args: [...CHROMIUM_ARGS] });
}

/**
 * Sends every Content Security Policy violation the documents of `target` report
 * (`securitypolicyviolation` events, the listener set by an init script before any
 * of their code runs) to `sink`, as "path: directive blocked what sample". The
 * browser tests' visits of every page and the policy's own tests use it (test/e2e/csp.test.ts
 * shows it reports a tampered policy, an injected inline script and a refused framing).
 */
export async function reportViolations(target: Page | BrowserContext, sink: (text: string) => void): Promise<void> {
  await target.exposeFunction("reportViolation", sink);
  await target.addInitScript(() => {
    const report = (window as unknown as { reportViolation: (text: string) => void }).reportViolation;
    document.addEventListener("securitypolicyviolation", (e) => report(`${location.pathname}: ${e.effectiveDirective} blocked ${e.blockedURI || "inline"} ${e.sample}`));
  });
}

/**
 * Opens `url` in `page` and waits until the page's script has run: its charts made
 * interactive, else its copy buttons shown (the 404 page has no script), and a choice
 * of sub-series shown once the script has loaded what it needs. Asked in the page, in
 * one round trip (the browser tests and the policy's tests visit pages so).
 */
export async function openAndWait(page: Page, url: string): Promise<void> {
  await page.goto(url);
  await page.waitForFunction(() => {
    const ran = document.querySelector("script[src]") === null || document.querySelector('svg.chart[data-chart-enhanced="true"], button[data-copy][data-ready="1"]') !== null;
    return ran && document.querySelector("#selection[hidden]") === null;
  });
}
