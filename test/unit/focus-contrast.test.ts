/**
 * The focus ring is seen against what is next to it: WCAG 2.2's 1.4.11 (Non-text
 * Contrast) and 2.4.13 (Focus Appearance) ask 3:1 against adjacent colours. With
 * `outline-offset` the ring sits on the background around the element, so it is
 * measured against every background colour the stylesheet paints (white, the
 * cards' grey, the pinned row's cream), computed from public/style.css itself:
 * a change of colour there that fails is caught here. The ring was #e69f00, 2.25:1
 * on white.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT } from "../files.js";

const CSS = readFileSync(join(ROOT, "public/style.css"), "utf8").replace(/\/\*[\s\S]*?\*\//g, "");

/** The custom properties of `:root`. */
const VARIABLES = new Map([...(/:root\s*\{([^}]*)\}/.exec(CSS)?.[1] ?? "").matchAll(/(--[\w-]+)\s*:\s*([^;]+);/g)].map((m) => [m[1] as string, (m[2] as string).trim()]));

/** A colour as written (`#abc`, `#aabbcc`, `var(--x)`) → `#rrggbb`, or null for what is not one (`none`, `rgba(…)`). */
function colour(value: string): string | null {
  const resolved = value.replace(/var\((--[\w-]+)\)/g, (_, name: string) => VARIABLES.get(name) ?? "");
  const hex = /#([0-9a-f]{3}|[0-9a-f]{6})\b/i.exec(resolved)?.[1];
  if (hex === undefined) return null;
  return `#${hex.length === 3 ? [...hex].map((c) => c + c).join("") : hex}`.toLowerCase();
}

/** Relative luminance (WCAG 2.2, "relative luminance"). */
function luminance(hex: string): number {
  const [r, g, b] = [1, 3, 5].map((i) => {
    const c = parseInt(hex.slice(i, i + 2), 16) / 255;
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  }) as [number, number, number];
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** The contrast ratio of two colours, (L1 + 0.05) / (L2 + 0.05). */
function contrast(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

const RULES = [...CSS.matchAll(/([^{}]+)\{([^}]*)\}/g)].map((m) => ({ selector: (m[1] as string).trim(), body: m[2] as string }));
const RINGS = RULES.filter((r) => r.selector.includes(":focus")).flatMap((r) => [...r.body.matchAll(/outline(?:-color)?\s*:\s*([^;]+)/g)].map((m) => ({ selector: r.selector, colour: colour(m[1] as string) })));
const BACKGROUNDS = [...new Set(RULES.flatMap((r) => [...r.body.matchAll(/background(?:-color)?\s*:\s*([^;]+)/g)].map((m) => colour(m[1] as string))).filter((c): c is string => c !== null))];

describe("the focus ring's contrast, computed from the stylesheet", () => {
  it("finds the rings and the backgrounds", () => {
    expect(RINGS.length).toBeGreaterThanOrEqual(2);
    expect(BACKGROUNDS).toEqual(expect.arrayContaining(["#ffffff", "#f3f5f7"]));
  });

  it("draws every focus ring at 3:1 or more against every background it can sit on", () => {
    for (const ring of RINGS) {
      expect(ring.colour, ring.selector).not.toBeNull();
      for (const background of BACKGROUNDS) expect(contrast(ring.colour as string, background), `${ring.selector} on ${background}`).toBeGreaterThanOrEqual(3);
    }
  });

  it("measures as WCAG does: the old ring, #e69f00, is 2.25:1 on white", () => {
    expect(contrast("#e69f00", "#ffffff")).toBeCloseTo(2.25, 2);
  });

  it("gives every kind of focusable element of the pages a ring", () => {
    const focusable = RULES.filter((r) => r.selector.includes(":focus-visible")).map((r) => r.selector).join(",");
    for (const kind of ["a:", "button:", "select:", "input:", "summary:", "[tabindex]:", "svg.chart:"]) expect(focusable).toContain(kind);
  });
});
