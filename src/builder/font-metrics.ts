/**
 * The advance widths of a TrueType font, read from its `cmap` (format 4: the Basic
 * Multilingual Plane) and `hmtx` tables (OpenType spec, "cmap", "hhea", "hmtx"), so
 * the preview image can wrap and fit its words before resvg draws them. Kerning is
 * left out: DejaVu's pairs only tighten, so a measured line is never shorter than
 * the drawn one.
 */
import { BuildError } from "../source/errors.js";

/** Widths of text in one font. */
export interface FontMetrics {
  /** The width of `text` at `size` pixels (the sum of its characters' advances). */
  width(text: string, size: number): number;
}

/** The offset of each table by tag. */
function tables(view: DataView): Map<string, number> {
  const count = view.getUint16(4);
  const found = new Map<string, number>();
  for (let i = 0; i < count; i++) {
    const record = 12 + i * 16;
    const tag = String.fromCharCode(...[0, 1, 2, 3].map((k) => view.getUint8(record + k)));
    found.set(tag, view.getUint32(record + 8));
  }
  return found;
}

/** Glyph index of each character of the first Unicode BMP subtable in format 4 (platform 3 encoding 1, or platform 0). */
function characterMap(view: DataView, cmap: number): Map<number, number> {
  const subtables = view.getUint16(cmap + 2);
  let table = -1;
  for (let i = 0; i < subtables && table < 0; i++) {
    const platform = view.getUint16(cmap + 4 + i * 8);
    const encoding = view.getUint16(cmap + 6 + i * 8);
    const offset = cmap + view.getUint32(cmap + 8 + i * 8);
    if ((platform === 3 && encoding === 1) || platform === 0) table = view.getUint16(offset) === 4 ? offset : -1;
  }
  if (table < 0) throw new BuildError("font: no Unicode cmap subtable in format 4");
  const segments = view.getUint16(table + 6) / 2;
  const ends = table + 14;
  const starts = ends + segments * 2 + 2;
  const deltas = starts + segments * 2;
  const rangeOffsets = deltas + segments * 2;
  const glyphs = new Map<number, number>();
  for (let s = 0; s < segments; s++) {
    const end = view.getUint16(ends + s * 2);
    const start = view.getUint16(starts + s * 2);
    const delta = view.getUint16(deltas + s * 2);
    const rangeOffset = view.getUint16(rangeOffsets + s * 2);
    for (let code = start; code <= end && code !== 0xffff; code++) {
      // idRangeOffset counts bytes from its own slot into glyphIdArray.
      const glyph = rangeOffset === 0 ? (code + delta) & 0xffff : view.getUint16(rangeOffsets + s * 2 + rangeOffset + (code - start) * 2);
      if (glyph !== 0) glyphs.set(code, rangeOffset === 0 ? glyph : (glyph + delta) & 0xffff);
    }
  }
  return glyphs;
}

/**
 * The metrics of the TrueType font in `bytes`, named `name` in errors.
 * @throws BuildError when the font lacks a table it needs; `width` throws it for a
 *   character the font has no glyph for (resvg would draw an empty box).
 */
export function fontMetrics(bytes: Uint8Array, name: string): FontMetrics {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const found = tables(view);
  const table = (tag: string): number => {
    const offset = found.get(tag);
    if (offset === undefined) throw new BuildError(`${name}: no ${tag} table`);
    return offset;
  };
  const unitsPerEm = view.getUint16(table("head") + 18);
  const longMetrics = view.getUint16(table("hhea") + 34);
  const hmtx = table("hmtx");
  const glyphs = characterMap(view, table("cmap"));
  // Glyphs past the long metrics share the last advance (monospaced tails).
  const advance = (glyph: number): number => view.getUint16(hmtx + Math.min(glyph, longMetrics - 1) * 4);
  const advances = new Map<number, number>();
  for (const [code, glyph] of glyphs) advances.set(code, advance(glyph) / unitsPerEm);
  return {
    width(text, size) {
      let ems = 0;
      for (const char of text) {
        const code = char.codePointAt(0) as number;
        const em = advances.get(code);
        if (em === undefined) throw new BuildError(`${name} has no glyph for U+${code.toString(16).toUpperCase().padStart(4, "0")} ("${char}") in "${text}": add its range to scripts/subset-fonts.sh`);
        ems += em;
      }
      return ems * size;
    },
  };
}
