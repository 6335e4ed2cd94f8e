/**
 * Bundles the browser's scripts from src/site/client/ (and what they import from
 * src/) into dependency-free, minified files: the page script and the early script
 * the indicator pages inline. Deterministic: the same sources give the same bytes.
 */
import { basename, join } from "node:path";
import { build } from "esbuild";

/** The bundled scripts. */
export interface ClientScripts {
  /** The pages' script, served as `assets/series-page.js` (src/site/client/series-page.ts). */
  readonly page: Uint8Array;
  /** The selection's first moments (src/site/client/early.ts), inlined in the indicator pages. */
  readonly early: string;
}

const ENTRIES = { "series-page": "src/site/client/series-page.ts", early: "src/site/client/early.ts" } as const;

export async function bundleClient(root: string): Promise<ClientScripts> {
  const result = await build({
    entryPoints: Object.fromEntries(Object.entries(ENTRIES).map(([name, path]) => [name, join(root, path)])),
    // Each entry its own file, nothing shared between them; never written (`write: false`).
    outdir: join(root, "assets"),
    bundle: true,
    format: "iife",
    target: "es2020",
    minify: true,
    legalComments: "none",
    charset: "utf8",
    write: false,
    logLevel: "silent",
  });
  const output = (name: keyof typeof ENTRIES) => {
    const file = result.outputFiles.find((f) => basename(f.path) === `${name}.js`);
    if (file === undefined) throw new Error(`esbuild wrote no output for ${ENTRIES[name]}`);
    return file;
  };
  // The early script goes inside a <script> element: without the line break esbuild ends a file with.
  return { page: output("series-page").contents, early: output("early").text.trimEnd() };
}
