/**
 * Rasterises the indicator pages' preview images (src/site/preview.ts) to PNG with
 * resvg (`@resvg/resvg-js`, pinned; its prebuilt binary for the platform comes as an
 * optional dependency, no install script): no browser, and no system font. The fonts are
 * the DejaVu Sans subsets committed in src/builder/fonts/ (scripts/subset-fonts.sh),
 * the only fonts resvg is given. resvg's PNG holds IHDR, IDAT and IEND only (no
 * time or text chunk), so the same data give the same bytes. (The WebAssembly
 * build, `@resvg/resvg-wasm` 2.6.2, gave the same bytes for all eight images but took
 * about eight times the CPU: its code is compiled while it runs. Drawing in worker
 * threads beside the pages was tried: the build of 300 small indicators reached
 * 2.4 GB of RSS, resvg's memory outside V8's heap growing with the images even with
 * threads collected or replaced every few dozen images, against 0.85 GB drawing here.)
 */
import { readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { Resvg } from "@resvg/resvg-js";
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
 * The PNG of an SVG drawn with the committed fonts only.
 * @throws BuildError naming a character of a `<text>` (the chart's labels too) that the fonts lack:
 *   resvg would draw an empty box.
 */
export function rasterise(svg: string, fonts: PreviewFonts): Uint8Array {
  for (const [, text] of svg.matchAll(/<text\b[^>]*>([^<]*)<\/text>/g)) {
    const words = (text as string).replace(/&(amp|lt|gt|quot|#39);/g, (entity) => ENTITIES[entity] as string);
    fonts.width(words, 1, false);
    fonts.width(words, 1, true);
  }
  const resvg = new Resvg(svg, { font: { fontFiles: [REGULAR, BOLD], loadSystemFonts: false, defaultFontFamily: FAMILY, sansSerifFamily: FAMILY } });
  return resvg.render().asPng();
}

/** The preview image of `meta`'s page in `lang`: a 1200×630 PNG. */
export async function previewImage(config: SiteConfig, meta: SiteIndicator, lang: Lang): Promise<Uint8Array> {
  const fonts = await (metrics ??= loadMetrics());
  return rasterise(previewSvg(config, meta, lang, fonts), fonts);
}
