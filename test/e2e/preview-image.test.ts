/**
 * The indicator pages' preview images through `wrangler pages dev` (the servers of
 * test/e2e/global-setup.ts): each page's `og:image` is a static file served as
 * `image/png` with the cache rule `_headers` gives it (its `:indicator` placeholder
 * read by Pages' own rule engine, not by a copy of it), byte for byte the built file.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, inject, it } from "vitest";
import { INDICATOR_IDS } from "../indicators.js";

const { mainDir, urls } = inject("system");

describe("the preview images through wrangler pages dev", () => {
  it.each(INDICATOR_IDS)("%s: each page's og:image is served as image/png, cached 15 minutes, the built bytes", async (id) => {
    for (const page of [`/series/${id}/`, `/en/series/${id}/`]) {
      const html = await (await fetch(urls.main + page)).text();
      const { pathname } = new URL(/<meta property="og:image" content="([^"]+)">/.exec(html)?.[1] ?? "none:");
      expect(pathname, page).toBe(`${page}preview.png`);
      const image = await fetch(urls.main + pathname);
      expect(image.status, pathname).toBe(200);
      expect(image.headers.get("content-type")).toBe("image/png");
      expect(image.headers.get("cache-control")).toBe("public, max-age=900");
      expect(Buffer.from(await image.arrayBuffer()).equals(readFileSync(join(mainDir, pathname)))).toBe(true);
    }
  });
});
