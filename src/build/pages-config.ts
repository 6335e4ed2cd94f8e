/**
 * Cloudflare Pages configuration files written into the output folder:
 * `_routes.json` (which paths invoke the function) and `_headers` (headers of the
 * static files, which the function does not touch), both from the contract's
 * constants (`SECURITY_HEADERS`, `DATA_POLICY`, the CORS headers), which the
 * function's answers carry too, so the two cannot drift apart.
 */
import { API_BASE, CACHE_CONTROL, CORS_HEADERS, CSP_HEADER, DATA_POLICY, SECURITY_HEADERS } from "../core/contract.js";
import { LANGS } from "../core/i18n.js";
import { MCP_PATH, embedPagePath, endpointPath, outputFile, previewImagePath, seriesPagePath } from "../core/paths.js";
import { pagePolicy, type InlineCode } from "./page-policy.js";

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

/** A `_headers` rule: its path pattern, the headers it detaches (`! Name`, set again by it or by none) and the headers it sets. */
interface Rule {
  readonly path: string;
  readonly detach?: readonly string[];
  readonly headers: Readonly<Record<string, string>>;
}

/**
 * The embed pages of every language in one rule: `*` spans slashes in Pages'
 * rules (`/series/x/embed/`, `/en/series/x/embed/`); the rest of a path ending
 * in `embed/` is no page (Pages answers it with the 404 page, here frameable).
 */
const EMBED_PAGES = `/*/${embedPagePath("x").slice(seriesPagePath("x").length)}`;

/** What a rule replacing the policy `/*` gives every file detaches first: Pages joins the values of one header from several rules with commas, which CSP reads as several policies all enforced. */
const REPLACES_POLICY = [CSP_HEADER];

/**
 * The fixed rules: every file (the security headers and the pages' policy: the 404
 * page is served at any path), the static API files and the internal data files
 * (the data policy instead), the embed pages (the policy without `frame-ancestors`,
 * no `X-Frame-Options`), the pages' preview images. The order matters: wrangler's
 * asset server (pages-shared/asset-server/handler.ts `attachHeaders`) applies the
 * matching rules in the file's order, each detaching, then setting or appending.
 */
function staticRules(code: InlineCode): Rule[] {
  const cors = (names: readonly string[]) => Object.fromEntries(names.map((name) => [name, CORS_HEADERS[name] as string]));
  return [
    { path: "/*", headers: { ...SECURITY_HEADERS, [CSP_HEADER]: pagePolicy(code) } },
    {
      path: "/api/*",
      detach: REPLACES_POLICY,
      headers: { [CSP_HEADER]: DATA_POLICY, ...cors(["Access-Control-Allow-Origin", "Access-Control-Expose-Headers"]), "Cache-Control": CACHE_CONTROL.success },
    },
    {
      path: "/_data/*",
      detach: REPLACES_POLICY,
      headers: { [CSP_HEADER]: DATA_POLICY, ...cors(["Access-Control-Allow-Origin"]), "Cache-Control": CACHE_CONTROL.success, "X-Robots-Tag": "noindex" },
    },
    { path: EMBED_PAGES, detach: [...REPLACES_POLICY, "X-Frame-Options"], headers: { [CSP_HEADER]: pagePolicy(code, true) } },
    // The preview images draw the data: cached as long as the data files (Pages' default, `max-age=0`,
    // would have every crawler revalidate each time). `:indicator` is one path segment in Pages' rules.
    ...LANGS.map((lang): Rule => ({ path: previewImagePath(":indicator", lang), headers: { "Cache-Control": CACHE_CONTROL.success } })),
  ];
}

/** Cloudflare's limit on the length of a `_headers` line, indentation included. */
export const MAX_HEADER_LINE_CHARS = 2000;

const rule = ({ path, detach = [], headers }: Rule): string =>
  `${path}\n${detach.map((name) => `  ! ${name}\n`).join("")}${Object.entries(headers)
    .map(([name, value]) => `  ${name}: ${value}\n`)
    .join("")}`;

/**
 * `_headers` (docs/DESIGN.md §2; its first comment line, kept byte for byte from
 * earlier builds, cites the same section): the fixed rules, with the pages' policy
 * allowing `code`, the inline code of every page; then one generated rule per
 * indicator that sets `Last-Modified` on its static files to its data version.
 * @throws Error when the file breaks Cloudflare's limits (rules, line length).
 */
export function headersFile(lastModified: ReadonlyMap<string, string>, code: InlineCode): string {
  const fixed = staticRules(code);
  const text =
    "# Headers of the static files served directly by Cloudflare Pages (DESIGN §2).\n" +
    "# The function sets its own headers: Pages does not apply this file to function responses.\n\n" +
    fixed.map(rule).join("\n") +
    "\n# Generated by the build: data version of each indicator.\n" +
    [...lastModified].map(([id, date]) => rule({ path: `${endpointPath(id)}/*`, headers: { "Last-Modified": date } })).join("");
  const rules = fixed.length + lastModified.size;
  if (rules > MAX_HEADER_RULES) throw new Error(`_headers would hold ${rules} rules, over Cloudflare's ${MAX_HEADER_RULES}`);
  const long = text.split("\n").find((line) => line.length > MAX_HEADER_LINE_CHARS);
  if (long !== undefined) throw new Error(`_headers line over Cloudflare's ${MAX_HEADER_LINE_CHARS} characters: ${long.slice(0, 60)}…`);
  return text;
}
