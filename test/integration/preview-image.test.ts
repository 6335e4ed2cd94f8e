/**
 * The indicator pages' preview images (src/site/preview.ts, src/builder/preview-image.ts):
 * a small data folder — the golden fixture (one chart of every sub-series) and a
 * compared indicator written here (one line highlighted) — built twice by the CLI;
 * the PNGs read by an independent decoder (Debian's Pillow, test/python/read_png.py),
 * the pages' sharing metadata, the cache rule, and the font widths the layout wraps by.
 */
import { spawnSync } from "node:child_process";
import { cpSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { fontMetrics } from "../../src/builder/font-metrics.js";
import { rasterise } from "../../src/builder/preview-image.js";
import { ROOT, runCli, tempDir } from "../helpers.js";

/** The palette's first colour (src/site/client/chart.ts): the highlighted line, or the first line. */
const LINE = "0072b2";
/** The chart's box in the image (src/site/preview.ts `CHART`). */
const CHART_BOX = "560,36,1160,536";
const IMAGES = ["series/tiny-wages/preview.png", "en/series/tiny-wages/preview.png", "series/tiny-prices/preview.png", "en/series/tiny-prices/preview.png"];

/** A compared indicator: three providers, the middle one chosen by default. */
const PRICES = {
  id: "tiny-prices",
  title: { es: "Precios de órdenes de consulta en las mutualistas de todo el país", en: "Consultation order prices of the mutual providers" },
  description: { es: "Un ejemplo escrito a mano.", en: "A hand-written fixture." },
  unit: "UYU",
  rhythm: "irregular",
  stepwise: true,
  display: { date: "effective", nouns: { compared: { es: "mutualistas", en: "providers" }, value: { es: "precio", en: "price" } } },
  license: "CC-BY-4.0",
  source: { name: { es: "Ministerio de Salud Pública (MSP), «A tu servicio»", en: "Ministry of Public Health (MSP), \"A tu servicio\"" }, url: "https://example.test/msp" },
  sourceKinds: [{ prefix: "https://example.test/", kind: "official-republication" }],
  facets: {
    provider: { title: { es: "Mutualista", en: "Provider" }, values: { a: "Alfa Médica", b: "Beta Salud", c: "Gamma" } },
    item: { title: { es: "Prestación", en: "Item" }, values: { gp: { es: "Consulta de medicina general", en: "General medicine consultation" } } },
  },
  seriesTitle: { es: "{provider}: {item}", en: "{provider}: {item}" },
  view: { compare: "provider", default: { provider: "b", item: "gp" } },
  series: ["a", "b", "c"].map((p) => ({ id: `${p}.gp`, facets: { provider: p, item: "gp" } })),
};
const PRICES_CSV = `date,series,value,source
${["2022-01-01", "2023-01-01", "2024-01-01", "2025-01-01"]
  .flatMap((date, i) => [
    `${date},a.gp,${100 + i * 10},https://example.test/${date}`,
    `${date},b.gp,${150 + i * 20},https://example.test/${date}`,
    `${date},c.gp,${80 + i * 5},https://example.test/${date}`,
  ])
  .join("\n")}
`;

let outA: string;
let outB: string;

interface Decoded {
  format: string;
  width: number;
  height: number;
  mode: string;
  colours: number;
  matching: number;
}

/** The images decoded by Pillow. */
function decode(paths: readonly string[]): Decoded[] {
  const run = spawnSync("/usr/bin/python3", [join(ROOT, "test/python/read_png.py"), LINE, CHART_BOX, ...paths], { encoding: "utf8" });
  expect(run.status, run.stderr).toBe(0);
  return JSON.parse(run.stdout) as Decoded[];
}

/** The types of a PNG's chunks, in order (PNG §5.3: length, type, data, CRC). */
function chunkTypes(png: Uint8Array): string[] {
  const view = new DataView(png.buffer, png.byteOffset, png.byteLength);
  const types: string[] = [];
  for (let at = 8; at < png.length; at += 12 + view.getUint32(at)) types.push(new TextDecoder().decode(png.subarray(at + 4, at + 8)));
  return types;
}

const head = (dir: string, path: string) => {
  const page = readFileSync(join(dir, path), "utf8");
  return page.slice(0, page.indexOf("</head>"));
};

beforeAll(async () => {
  const ensured = spawnSync("bash", [join(ROOT, "scripts/ensure-python.sh")], { encoding: "utf8" });
  expect(ensured.status, ensured.stderr).toBe(0);
  const dir = await tempDir();
  const data = join(dir, "data");
  cpSync(join(ROOT, "test/fixtures/golden/data"), data, { recursive: true });
  mkdirSync(join(data, "tiny-prices"));
  writeFileSync(join(data, "tiny-prices/indicator.json"), JSON.stringify(PRICES));
  writeFileSync(join(data, "tiny-prices/2022.csv"), PRICES_CSV);
  [outA, outB] = [join(dir, "a"), join(dir, "b")];
  const builds = await Promise.all(
    [outA, outB].map((out) => runCli(["build", "--data", data, "--out", out, "--limits", "2", "--no-base", "--site-url", "https://example.test"], { SOURCE_DATE_EPOCH: "1700000000" })),
  );
  for (const b of builds) expect(b.code, b.stderr).toBe(0);
});

describe("the preview image of each indicator page", () => {
  it("is a 1200×630 PNG a real decoder reads, not blank: many colours, the chosen line's colour across the chart's box", () => {
    const decoded = decode(IMAGES.map((path) => join(outA, path)));
    for (const [i, image] of decoded.entries()) {
      expect(image, IMAGES[i]).toMatchObject({ format: "PNG", width: 1200, height: 630 });
      // Antialiased words and lines: hundreds of shades; a blank or one-colour image has one or two.
      expect(image.colours, IMAGES[i]).toBeGreaterThan(100);
      // A line 3 to 5 px wide across most of the box's 600 px.
      expect(image.matching, IMAGES[i]).toBeGreaterThan(1000);
    }
  });

  it("has the same bytes from the same data, and no chunk but IHDR, IDAT and IEND (no time, no text)", () => {
    for (const path of IMAGES) {
      const a = readFileSync(join(outA, path));
      expect(a.equals(readFileSync(join(outB, path))), path).toBe(true);
      expect(chunkTypes(a), path).toEqual(["IHDR", "IDAT", "IEND"]);
    }
  });

  it.each([
    ["es", "series/tiny-prices/index.html", "https://example.test/series/tiny-prices/preview.png", "Gráfica: Precios de órdenes de consulta en las mutualistas de todo el país. Consulta de medicina general: precio por mutualista a lo largo del tiempo; línea destacada: Beta Salud. Beta Salud: $\u00a0210. Vigente desde el 1 de enero de 2025."],
    ["en", "en/series/tiny-wages/index.html", "https://example.test/en/series/tiny-wages/preview.png", "Chart: Tiny wages &lt;fixture&gt;. Monthly wage: 4 points from Jan 1, 2023 to Jul 1, 2024, latest $27,985."],
  ] as const)("is named by the %s indicator page: og:image with its size, type and text alternative, a large Twitter card", (_lang, page, url, alt) => {
    const h = head(outA, page);
    expect(h).toContain(`<meta property="og:image" content="${url}">`);
    expect(h).toContain('<meta property="og:image:type" content="image/png">');
    expect(h).toContain('<meta property="og:image:width" content="1200">');
    expect(h).toContain('<meta property="og:image:height" content="630">');
    expect(h).toContain(`<meta property="og:image:alt" content="${alt}">`);
    expect(h).toContain('<meta name="twitter:card" content="summary_large_image">');
    expect(h).toContain(`<meta name="twitter:image" content="${url}">`);
  });

  it("is named by no other page: the embed and home pages keep the small Twitter card", () => {
    for (const page of ["series/tiny-prices/embed/index.html", "en/series/tiny-wages/embed/index.html", "index.html", "en/index.html", "404.html"]) {
      expect(head(outA, page), page).not.toContain("og:image");
      expect(head(outA, page), page).toContain('<meta name="twitter:card" content="summary">');
    }
  });

  it("is cached like the data files, in both languages (`_headers`)", () => {
    const headers = readFileSync(join(outA, "_headers"), "utf8");
    expect(headers).toContain("/series/:indicator/preview.png\n  Cache-Control: public, max-age=900\n");
    expect(headers).toContain("/en/series/:indicator/preview.png\n  Cache-Control: public, max-age=900\n");
  });
});

describe("fontMetrics", () => {
  const regular = fontMetrics(readFileSync(join(ROOT, "src/builder/fonts/DejaVuSans.ttf")), "DejaVuSans.ttf");
  const bold = fontMetrics(readFileSync(join(ROOT, "src/builder/fonts/DejaVuSans-Bold.ttf")), "DejaVuSans-Bold.ttf");

  it.each([
    // Advances in font units of 2048 per em, as fontTools reads the fonts' hmtx tables.
    [regular, " ", 651],
    [regular, "a", 1255],
    [regular, "ñ", 1298],
    [regular, "aña", 1255 + 1298 + 1255],
    [bold, "a", 1382],
    [bold, "—", 2048],
  ])("measures %#: the advances of the font's characters", (metrics, text, units) => {
    expect(metrics.width(text, 2048)).toBeCloseTo(units, 6);
  });

  it("refuses a character the committed font lacks, naming it (resvg would draw an empty box)", () => {
    expect(() => regular.width("Ωmega", 10)).toThrow(/DejaVuSans\.ttf has no glyph for U\+03A9 \("Ω"\) in "Ωmega"/);
  });

  it("stops the rasteriser before it draws such a character in any text, a chart's label too", () => {
    const fonts = { family: "DejaVu Sans", width: (text: string, size: number, isBold: boolean) => (isBold ? bold : regular).width(text, size) };
    const svg = (label: string) => `<svg xmlns="http://www.w3.org/2000/svg" width="120" height="40"><svg class="chart"><text x="2" y="20" class="unit">${label}</text></svg></svg>`;
    expect(chunkTypes(rasterise(svg("€ &amp; 10⁻⁷ «año»"), fonts))).toEqual(["IHDR", "IDAT", "IEND"]);
    expect(() => rasterise(svg("índice (µΩ)"), fonts)).toThrow(/no glyph for U\+03A9 \("Ω"\) in "índice \(µΩ\)"/);
  });
});
