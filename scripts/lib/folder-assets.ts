/** `env.ASSETS` for the handler in Node: the files of a built output folder. */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import type { Assets } from "../../src/api/data-store.js";

/** Serves the files of the output folder `dir`; 404 for anything else. */
export function folderAssets(dir: string): Assets {
  return {
    async fetch(url) {
      const { pathname } = new URL(url);
      try {
        return new Response(await readFile(join(dir, decodeURIComponent(pathname))));
      } catch {
        return new Response("not found", { status: 404 });
      }
    },
  };
}

/** The same output folder, but a manifest that lists no prebuilt page: every answer is computed. */
export function computedOnly(assets: Assets): Assets {
  return {
    async fetch(url) {
      const response = await assets.fetch(url);
      if (!url.endsWith("/_data/manifest.json")) return response;
      const manifest = (await response.json()) as { indicators: Record<string, { pages: object; index: number }> };
      for (const entry of Object.values(manifest.indicators)) {
        entry.pages = {};
        entry.index = 0;
      }
      return Response.json(manifest);
    },
  };
}
