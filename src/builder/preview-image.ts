/**
 * Rasterises the indicator pages' preview images (src/site/preview.ts) to PNG with
 * resvg (`@resvg/resvg-js`, pinned; its prebuilt binary for the platform comes as an
 * optional dependency, no install script): no browser, and no system font. The fonts are
 * the DejaVu Sans subsets committed in src/builder/fonts/ (scripts/subset-fonts.sh),
 * the only fonts resvg is given. resvg's PNG holds IHDR, IDAT and IEND only (no
 * time or text chunk), so the same data give the same bytes. (The WebAssembly
 * build, `@resvg/resvg-wasm` 2.6.2, gave the same bytes for all eight images but took
 * about eight times the CPU: its code is compiled while it runs.)
 */
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { availableParallelism } from "node:os";
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";
import { fontMetrics } from "./font-metrics.js";
import type { SiteConfig } from "../core/indicator/config.js";
import type { Lang } from "../core/text/i18n.js";
import { previewSvg, type PreviewFonts } from "../site/preview.js";
import type { SiteIndicator } from "../site/model.js";

const FAMILY = "DejaVu Sans";
const REGULAR = fileURLToPath(new URL("fonts/DejaVuSans.ttf", import.meta.url));
const BOLD = fileURLToPath(new URL("fonts/DejaVuSans-Bold.ttf", import.meta.url));

/** The fonts' widths, read once per process. */
let metrics: Promise<PreviewFonts> | undefined;

async function loadMetrics(): Promise<PreviewFonts> {
  const [regular, bold] = await Promise.all([readFile(REGULAR), readFile(BOLD)]);
  const widths = { regular: fontMetrics(regular, REGULAR), bold: fontMetrics(bold, BOLD) };
  return { family: FAMILY, width: (text, size, isBold) => (isBold ? widths.bold : widths.regular).width(text, size) };
}

const ENTITIES: Readonly<Record<string, string>> = { "&amp;": "&", "&lt;": "<", "&gt;": ">", "&quot;": '"', "&#39;": "'" };

/**
 * What a rasteriser thread runs (plain JavaScript: it loads in any runtime the
 * build runs in, tsx's or vitest's): each message an SVG and resvg's options,
 * each answer the PNG's bytes (moved, not copied) or the error's message.
 */
const RASTER_THREAD = `
const { parentPort, workerData } = require("node:worker_threads");
const { Resvg } = require(workerData.resvg);
parentPort.on("message", ({ svg, options }) => {
  try {
    const png = new Resvg(svg, options).render().asPng();
    parentPort.postMessage({ png }, [png.buffer]);
  } catch (error) {
    parentPort.postMessage({ error: String(error && error.message || error) });
  }
});`;

/** One rasteriser thread: its jobs answered in order. */
interface Rasteriser {
  readonly thread: Worker;
  readonly jobs: { resolve(png: Uint8Array): void; reject(error: Error): void }[];
}

/**
 * The rasteriser threads, made when the first image is drawn: all the cores but
 * one, the one left to the thread that renders the pages (the images are drawn
 * while the pages are: src/builder/build.ts `ahead`). resvg draws and encodes on
 * the calling thread, so it runs in threads of its own. An idle thread does not
 * keep the process alive.
 */
let rasterisers: Rasteriser[] | undefined;

function rasteriserThreads(): Rasteriser[] {
  const resvg = createRequire(import.meta.url).resolve("@resvg/resvg-js");
  return Array.from({ length: Math.max(1, availableParallelism() - 1) }, () => {
    const rasteriser: Rasteriser = { thread: new Worker(RASTER_THREAD, { eval: true, workerData: { resvg } }), jobs: [] };
    rasteriser.thread.unref();
    rasteriser.thread.on("message", (answer: { png?: Uint8Array; error?: string }) => {
      const job = rasteriser.jobs.shift();
      if (rasteriser.jobs.length === 0) rasteriser.thread.unref();
      if (answer.png !== undefined) job?.resolve(new Uint8Array(answer.png));
      else job?.reject(new Error(`resvg: ${answer.error ?? "no image"}`));
    });
    rasteriser.thread.on("error", (error) => {
      for (const job of rasteriser.jobs.splice(0)) job.reject(error);
    });
    return rasteriser;
  });
}

/** resvg's PNG of `svg`, drawn by the least busy rasteriser thread. */
function drawInThread(svg: string, options: object): Promise<Uint8Array> {
  const threads = (rasterisers ??= rasteriserThreads());
  const rasteriser = threads.reduce((least, r) => (r.jobs.length < least.jobs.length ? r : least));
  return new Promise((resolve, reject) => {
    rasteriser.jobs.push({ resolve, reject });
    rasteriser.thread.ref();
    rasteriser.thread.postMessage({ svg, options });
  });
}

/**
 * The PNG of an SVG drawn with the committed fonts only.
 * @throws BuildError naming a character of a `<text>` (the chart's labels too) that the fonts lack:
 *   resvg would draw an empty box (checked before anything is drawn).
 */
export async function rasterise(svg: string, fonts: PreviewFonts): Promise<Uint8Array> {
  for (const [, text] of svg.matchAll(/<text\b[^>]*>([^<]*)<\/text>/g)) {
    const words = (text as string).replace(/&(amp|lt|gt|quot|#39);/g, (entity) => ENTITIES[entity] as string);
    fonts.width(words, 1, false);
    fonts.width(words, 1, true);
  }
  const options = { font: { fontFiles: [REGULAR, BOLD], loadSystemFonts: false, defaultFontFamily: FAMILY, sansSerifFamily: FAMILY } };
  return drawInThread(svg, options);
}

/** The preview image of `meta`'s page in `lang`: a 1200×630 PNG. */
export async function previewImage(config: SiteConfig, meta: SiteIndicator, lang: Lang): Promise<Uint8Array> {
  const fonts = await (metrics ??= loadMetrics());
  return rasterise(previewSvg(config, meta, lang, fonts), fonts);
}
