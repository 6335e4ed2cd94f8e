/**
 * "A new indicator is a new folder under data/" (docs/DESIGN.md §1): no code may
 * know which indicator it has. No file under src/ names an indicator of data/ (its
 * id), and none but the importers names a word its indicator.json declares for
 * readers (the display block's zero label and nouns, the facets' Spanish titles):
 * what differs between indicators is data. An importer reads one publisher's file
 * format (src/source/importers.ts registers it by name) and speaks that file's words.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { parseIndicatorMeta } from "../../src/source/metadata.js";

const ROOT = join(import.meta.dirname, "../..");

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? files(path) : [path];
  });
}

const sources = files(join(ROOT, "src")).map((path) => ({ path: relative(ROOT, path), text: readFileSync(path, "utf8") }));
const indicators = readdirSync(join(ROOT, "data")).filter((name) => statSync(join(ROOT, "data", name)).isDirectory());

/** The reader-facing words an indicator declares (English facet titles like "Item" are ordinary words of code). */
function domainWords(id: string): string[] {
  const file = join(ROOT, "data", id, "indicator.json");
  const parsed = parseIndicatorMeta(readFileSync(file, "utf8"), file, id);
  if (!parsed.ok) throw new Error(`${file} does not validate`);
  const { display, facets } = parsed.value;
  const labels = [display.zero, display.compared, display.value].flatMap((l) => (l === null ? [] : [l.es, l.en]));
  return [...new Set([...labels, ...facets.map((f) => f.title.es)].map((l) => l.toLowerCase()))];
}

const escaped = (word: string) => word.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
/** Whole-word, case-insensitive: a hyphen joins words (an importer name like `x-prices` is one word). */
function mentions(text: string, word: string): boolean {
  return new RegExp(`(^|[^\\p{L}\\p{N}-])${escaped(word)}($|[^\\p{L}\\p{N}-])`, "iu").test(text);
}

describe("code that names no indicator", () => {
  it("finds the indicators of data/", () => {
    expect(indicators.length).toBeGreaterThanOrEqual(4);
    // Some indicator declares words for readers, so the check below has something to look for.
    expect(indicators.flatMap(domainWords).length).toBeGreaterThan(0);
  });

  it.each(indicators)("no file under src/ names %s", (id) => {
    expect(sources.filter(({ text }) => mentions(text, id)).map(({ path }) => path)).toEqual([]);
  });

  it.each(indicators)("no file under src/ but the importers names a word %s declares for readers", (id) => {
    const words = domainWords(id);
    const found = sources
      .filter(({ path }) => !/^src\/source\/import(-[a-z-]+|ers)\.ts$/.test(path))
      .flatMap(({ path, text }) => words.filter((word) => mentions(text, word)).map((word) => `${path}: ${word}`));
    expect(found).toEqual([]);
  });

  it("would catch an id or a declared word", () => {
    expect(mentions("const first = x ?? \"consumer-price-index\";", "consumer-price-index")).toBe(true);
    expect(mentions("el precio más bajo", "precio")).toBe(true);
    expect(mentions("registered as `atuservicio-prices`", "prices")).toBe(false);
  });
});
