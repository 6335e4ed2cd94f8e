/**
 * `npx tsx scripts/screenshots.ts [--dist DIR] [--mode MODE] [--open SELECTOR] [--out DIR] PAGE...`:
 * full-page screenshots of pages of a built site, at a phone's width (390 px) and a
 * desktop's (1280 px), in Spanish and in English, for a person to look at.
 *
 * PAGE: an indicator id (its page, `/series/<id>/`) or a path of the Spanish site
 * (`/`, `/series/<id>/embed/`); the English page is the same path under `/en`.
 * DIR (default `dist/`, built with `npm run build`) is served by `wrangler pages dev`
 * with this checkout's functions (scripts/lib/pages-dev.ts), so the page script gets
 * its group files and the API as in production; the browser is Debian's Chromium
 * driven by playwright-core, launched as test/e2e/browser.test.ts launches it.
 *
 * --mode MODE: the chart in other terms the page's "Mostrar la gráfica" select
 *   offers (`real`, `index`, `percent_change_a_year_ago`, `ratio-0`…), chosen once
 *   the page script has loaded; the screenshot waits for its chart and its answer.
 * --open SELECTOR: unfolds the `<details>` it matches (`.chart-values`: the table of
 *   the values of a chart in other terms; `details`: every folded part).
 * --out DIR: where the files go (default test-artifacts/screenshots/), named
 *   `<page>-<lang>[-<mode>]-<width>.png`: `series_health-insurance-prices-es-real-390.png`.
 *
 * Prints each file with what a look would also check, measured in the page: SVG
 * texts outside their chart or overlapping another, a page wider than the screen,
 * console errors and failed requests. Exit code 1 when a page could not be shot.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync } from "node:fs";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { chromium, type Browser, type Page } from "playwright-core";
import { startPagesDev } from "./lib/pages-dev.js";

const ROOT = resolve(import.meta.dirname, "..");
const USAGE = "usage: npx tsx scripts/screenshots.ts [--dist DIR] [--mode MODE] [--open SELECTOR] [--out DIR] PAGE...";

/** A phone (the width test/e2e/browser.test.ts and docs/site.md speak of) and a desktop. */
const WIDTHS = [
  { width: 390, height: 844 },
  { width: 1280, height: 900 },
] as const;
const LANGS = ["es", "en"] as const;
/** As test/e2e/browser.test.ts launches Chromium. */
const CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run"];

/** What to shoot: the Spanish path of each page, and what to do on it before. */
interface Plan {
  readonly paths: readonly string[];
  readonly mode: string | null;
  readonly open: string | null;
  readonly out: string;
}

/** A page argument as the Spanish path: an indicator id is its page. */
function pathOf(page: string): string {
  if (page.startsWith("/")) return page.endsWith("/") ? page : `${page}/`;
  return `/series/${page}/`;
}

/** The page's path in `lang` (English under `/en`). */
function inLanguage(path: string, lang: (typeof LANGS)[number]): string {
  return lang === "es" ? path : `/en${path}`;
}

/** The file a shot is saved to: the page's path as one word, its language, the mode shown, the width. */
function shotName(path: string, lang: string, mode: string | null, width: number): string {
  const slug = path === "/" ? "home" : path.replace(/^\/|\/$/g, "").replace(/\//g, "_");
  return `${slug}-${lang}${mode === null ? "" : `-${mode}`}-${String(width)}.png`;
}

/** Opens `url` and waits as the browser test does: the page script has loaded what the selection form needs. */
async function visit(page: Page, url: string): Promise<void> {
  await page.goto(url);
  if ((await page.locator("#selection").count()) > 0) await page.locator("#selection").waitFor({ state: "visible" });
}

/** Chooses the chart mode `mode` and waits for its chart and its answer (the API address beside them). */
async function showMode(page: Page, mode: string): Promise<void> {
  await page.locator("#questions").waitFor({ state: "visible" });
  await page.selectOption("#mode", mode);
  await page.locator("#mode-answer .api-equivalent").waitFor();
  await page.locator('#charts figure[id^="figure-question"]').first().waitFor();
}

/** What a look at the shot would check, measured: SVG texts outside their visible chart or overlapping another; sideways scrolling. */
function layoutProblems(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const found: string[] = [];
    const overflow = document.documentElement.scrollWidth - window.innerWidth;
    if (overflow > 0) found.push(`the page is ${String(overflow)} px wider than the screen`);
    for (const svg of document.querySelectorAll<SVGSVGElement>("svg.chart")) {
      if (svg.getClientRects().length === 0) continue; // the other layout, not shown
      const box = svg.getBoundingClientRect();
      const texts = [...svg.querySelectorAll("text")].map((t) => ({ text: t.textContent ?? "", r: t.getBoundingClientRect() }));
      for (const { text, r } of texts) {
        if (r.left < box.left - 0.5 || r.right > box.right + 0.5 || r.top < box.top - 0.5 || r.bottom > box.bottom + 0.5) found.push(`"${text}" is outside its chart`);
      }
      texts.forEach((a, i) => {
        for (const b of texts.slice(i + 1)) {
          // Boxes include the font's leading: 1 px of touching is not an overlap.
          const x = Math.min(a.r.right, b.r.right) - Math.max(a.r.left, b.r.left);
          const y = Math.min(a.r.bottom, b.r.bottom) - Math.max(a.r.top, b.r.top);
          if (x > 1 && y > 1) found.push(`"${a.text}" overlaps "${b.text}"`);
        }
      });
    }
    return found;
  });
}

/** Shoots every page of `plan` in both languages at one width; returns the number of pages that failed. */
async function shootAt(browser: Browser, base: string, plan: Plan, size: (typeof WIDTHS)[number]): Promise<number> {
  const page = await browser.newPage({ viewport: size });
  const problems: string[] = [];
  page.on("console", (msg) => msg.type() === "error" && problems.push(`console: ${msg.text()}`));
  page.on("pageerror", (error) => problems.push(`page error: ${error.message}`));
  page.on("response", (response) => response.status() >= 400 && problems.push(`${String(response.status())}: ${response.url()}`));
  let failed = 0;
  for (const path of plan.paths) {
    for (const lang of LANGS) {
      const file = join(plan.out, shotName(path, lang, plan.mode, size.width));
      problems.length = 0;
      try {
        await visit(page, `${base}${inLanguage(path, lang)}`);
        if (plan.mode !== null) await showMode(page, plan.mode);
        const open = plan.open;
        if (open !== null) await page.evaluate((selector) => document.querySelectorAll(selector).forEach((d) => d instanceof HTMLDetailsElement && (d.open = true)), open);
        const found = [...(await layoutProblems(page)), ...problems];
        await page.screenshot({ path: file, fullPage: true });
        console.log(`${file}${found.length === 0 ? "" : `\n  ${found.join("\n  ")}`}`);
      } catch (error) {
        failed++;
        console.error(`${file}: not shot: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
  }
  await page.close();
  return failed;
}

async function main(): Promise<number> {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      dist: { type: "string" },
      mode: { type: "string" },
      open: { type: "string" },
      out: { type: "string" },
      help: { type: "boolean", short: "h" },
    },
  });
  if (values.help === true) {
    console.log(USAGE);
    return 0;
  }
  if (positionals.length === 0) {
    console.error(`error: name at least one page\n${USAGE}`);
    return 2;
  }
  const dist = resolve(values.dist ?? join(ROOT, "dist"));
  if (!existsSync(join(dist, "index.html"))) {
    console.error(`error: ${dist} holds no built site (build it with \`npm run build\`)`);
    return 2;
  }
  const plan: Plan = { paths: positionals.map(pathOf), mode: values.mode ?? null, open: values.open ?? null, out: resolve(values.out ?? join(ROOT, "test-artifacts/screenshots")) };
  mkdirSync(plan.out, { recursive: true });
  const ensured = spawnSync("bash", [join(ROOT, "scripts/ensure-chromium.sh")], { encoding: "utf8", stdio: ["ignore", "inherit", "inherit"] });
  if (ensured.status !== 0) return 1;

  const server = await startPagesDev(dist);
  let browser: Browser | null = null;
  try {
    browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium", args: CHROMIUM_ARGS });
    let failed = 0;
    // One width after the other: the machine's cores are shared (docs/development.md).
    for (const size of WIDTHS) failed += await shootAt(browser, server.url, plan, size);
    return failed === 0 ? 0 : 1;
  } finally {
    await browser?.close();
    await server.stop();
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof Error ? (error.stack ?? error.message) : String(error));
    process.exit(1);
  },
);
