/**
 * Bundles the page script (src/site/client/series-page.ts and what it imports from
 * src/) into one dependency-free file for browsers. Deterministic: the same
 * sources give the same bytes.
 */
import { join } from "node:path";
import { build } from "esbuild";

export async function bundleClient(root: string): Promise<Uint8Array> {
  const result = await build({
    entryPoints: [join(root, "src/site/client/series-page.ts")],
    bundle: true,
    format: "iife",
    target: "es2020",
    minify: true,
    legalComments: "none",
    charset: "utf8",
    write: false,
    logLevel: "silent",
  });
  const [file] = result.outputFiles;
  if (file === undefined) throw new Error("esbuild wrote no output for the page script");
  return file.contents;
}
