/**
 * Cloudflare Pages configuration files written into the output folder:
 * `_routes.json` (which paths invoke the function) and `_headers` (headers of the
 * static files, which the function does not touch), both from the contract's
 * constants so the static files and the function's answers cannot drift apart.
 */
import { API_BASE, CACHE_CONTROL, CORS_HEADERS } from "../core/contract.js";
import { LANGS } from "../core/i18n.js";
import { MCP_PATH, endpointPath, outputFile, previewImagePath } from "../core/paths.js";

/** Cloudflare's limit on `_headers` rules. */
export const MAX_HEADER_RULES = 100;

/** Cloudflare's limits on `_routes.json`: rules in `include` and `exclude` together, characters per rule. */
export const MAX_ROUTE_RULES = 100;
export const MAX_ROUTE_RULE_CHARS = 100;

/**
 * `_routes.json`: the function runs for `/api/*` except the static files under
 * `/api/v1/` (catalog, OpenAPI, each indicator's pages, CSV and other formats),
 * which the CDN serves directly: free, unlimited and exactly what a static mirror
 * serves. One exclude rule per file extension the build writes there
 * (`/api/v1/*.json`, `/api/v1/*.csv`, …), taken from `files`, the output files'
 * paths, so a new format cannot be left out.
 *
 * Pages anchors a rule at both ends of the path and reads `*` as any characters,
 * slashes included (wrangler's `pages-dev-util.ts` turns `/api/v1/*.csv` into
 * `^/api/v1/.*\.csv$`). So these rules match every published file and no path that
 * continues after a file name: `/api/v1/index.json/x` and `/api/v1/data.csv/` reach
 * the function and get the JSON 404. The rule this replaces, `/api/v1/*.*`, sent them
 * to the asset server. The endpoint `/api/v1/<id>` has no dot (`INDICATOR_ID_PATTERN`),
 * so no rule matches it. No rule ends in `/*`: Pages reads `/x/*` as matching `/x`
 * too, so a per-folder rule would swallow the endpoint.
 * @throws Error when a file under `/api/v1/` has no extension (no rule would keep it
 *   off the function) or the rules break Cloudflare's limits.
 */
export function routesJson(files: Iterable<string>): string {
  const base = `${outputFile(API_BASE)}/`;
  const extensions = new Set<string>();
  for (const file of files) {
    if (!file.startsWith(base)) continue;
    const name = file.slice(file.lastIndexOf("/") + 1);
    const dot = name.lastIndexOf(".");
    if (dot <= 0 || dot === name.length - 1) throw new Error(`${file}: a static file under ${API_BASE}/ needs an extension, or _routes.json sends it to the function`);
    extensions.add(name.slice(dot + 1));
  }
  const include = ["/api/*", MCP_PATH];
  const exclude = [...extensions].sort().map((ext) => `${API_BASE}/*.${ext}`);
  const rules = [...include, ...exclude];
  if (rules.length > MAX_ROUTE_RULES) throw new Error(`_routes.json would hold ${rules.length} rules, over Cloudflare's ${MAX_ROUTE_RULES}`);
  const long = rules.find((r) => r.length > MAX_ROUTE_RULE_CHARS);
  if (long !== undefined) throw new Error(`_routes.json rule ${long} is over Cloudflare's ${MAX_ROUTE_RULE_CHARS} characters`);
  return `${JSON.stringify({ version: 1, include, exclude }, null, 2)}\n`;
}

type Rule = readonly [path: string, headers: Readonly<Record<string, string>>];

/** The fixed rules: every file, the static API files, the internal data files, the pages' preview images. */
const STATIC_RULES: readonly Rule[] = [
  ["/*", { "X-Content-Type-Options": "nosniff", "Referrer-Policy": "strict-origin-when-cross-origin" }],
  [
    "/api/*",
    {
      "Access-Control-Allow-Origin": CORS_HEADERS["Access-Control-Allow-Origin"] as string,
      "Access-Control-Expose-Headers": CORS_HEADERS["Access-Control-Expose-Headers"] as string,
      "Cache-Control": CACHE_CONTROL.success,
    },
  ],
  [
    "/_data/*",
    {
      "Access-Control-Allow-Origin": CORS_HEADERS["Access-Control-Allow-Origin"] as string,
      "Cache-Control": CACHE_CONTROL.success,
      "X-Robots-Tag": "noindex",
    },
  ],
  // The preview images draw the data: cached as long as the data files (Pages' default, `max-age=0`,
  // would have every crawler revalidate each time). `:indicator` is one path segment in Pages' rules.
  ...LANGS.map((lang): Rule => [previewImagePath(":indicator", lang), { "Cache-Control": CACHE_CONTROL.success }]),
];

const rule = ([path, headers]: Rule): string =>
  `${path}\n${Object.entries(headers)
    .map(([name, value]) => `  ${name}: ${value}\n`)
    .join("")}`;

/**
 * `_headers` (docs/DESIGN.md §2; its first comment line, kept byte for byte from
 * earlier builds, cites the same section): the fixed rules, then one generated rule per
 * indicator that sets `Last-Modified` on its static files to its data version.
 */
export function headersFile(lastModified: ReadonlyMap<string, string>): string {
  const text =
    "# Headers of the static files served directly by Cloudflare Pages (DESIGN §2).\n" +
    "# The function sets its own headers: Pages does not apply this file to function responses.\n\n" +
    STATIC_RULES.map(rule).join("\n") +
    "\n# Generated by the build: data version of each indicator.\n" +
    [...lastModified].map(([id, date]) => rule([`${endpointPath(id)}/*`, { "Last-Modified": date }])).join("");
  const rules = STATIC_RULES.length + lastModified.size;
  if (rules > MAX_HEADER_RULES) throw new Error(`_headers would hold ${rules} rules, over Cloudflare's ${MAX_HEADER_RULES}`);
  return text;
}
