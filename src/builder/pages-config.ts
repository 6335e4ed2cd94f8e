/**
 * Cloudflare Pages configuration files written into the output folder:
 * `_routes.json` (which paths invoke the function) and `_headers` (headers of the
 * static files, which the function does not touch), both from the contract's
 * constants (`SECURITY_HEADERS`, `DATA_POLICY`, the CORS headers), which the
 * function's answers carry too, so the two cannot drift apart; and Cloudflare's
 * limits on them, each checked before anything is written.
 */
import { API_BASE, CACHE_CONTROL, CORS_HEADERS, CSP_HEADER, DATA_POLICY, SECURITY_HEADERS } from "../core/answer/contract.js";
import { LANGS } from "../core/text/i18n.js";
import { MCP_PATH, embedPagePath, endpointPath, outputFile, previewImagePath, seriesPagePath } from "../core/file/paths.js";
import { BuildError } from "../source/errors.js";
import { pagePolicy, type InlineCode } from "./page-policy.js";

/** Cloudflare's limit on `_headers` rules. */
export const MAX_HEADER_RULES = 100;

/** Cloudflare's limits on `_routes.json`: rules in `include` and `exclude` together, characters per rule. */
export const MAX_ROUTE_RULES = 100;
export const MAX_ROUTE_RULE_CHARS = 100;

/** Cloudflare's limits on `_redirects`: static rules, and dynamic ones (a splat or a placeholder). */
export const MAX_STATIC_REDIRECTS = 2000;
export const MAX_DYNAMIC_REDIRECTS = 100;

/** `_routes.json`'s include rules: the function runs for the API and the MCP server. */
export const ROUTE_INCLUDE: readonly string[] = ["/api/*", MCP_PATH];

/**
 * The exclude rules that keep the static files under `/api/v1/` off the function,
 * by folder: `""` for the site-wide files (the catalog, OpenAPI, …), one rule each
 * by its exact path; an indicator's folder, one rule per extension of its files
 * (`/api/v1/<id>/*.csv`, …). `files` are the output files' paths.
 *
 * Pages anchors a rule at both ends of the path and reads `*` as any characters,
 * slashes included (wrangler's `pages-dev-util.ts` turns `/api/v1/x/*.csv` into
 * `^/api/v1/x/.*\.csv$`). So these rules match every published file and no path that
 * continues after a file name: `/api/v1/index.json/x` and `/api/v1/x/data.csv/` reach
 * the function and get the JSON 404. A rule `/api/v1/x/*.*` would send them to the
 * asset server. The endpoint `/api/v1/<id>` has no dot (`INDICATOR_ID_PATTERN`),
 * so no rule matches it. No rule ends in `/*`: Pages reads `/x/*` as matching `/x`
 * too, so a per-folder rule would swallow the endpoint.
 * @throws Error when a file under `/api/v1/` has no extension (no rule would keep it off the function).
 */
export function excludeRules(files: Iterable<string>): Map<string, string[]> {
  const base = `${outputFile(API_BASE)}/`;
  const rules = new Map<string, Set<string>>();
  for (const file of files) {
    if (!file.startsWith(base)) continue;
    const name = file.slice(file.lastIndexOf("/") + 1);
    const dot = name.lastIndexOf(".");
    if (dot <= 0 || dot === name.length - 1) throw new Error(`${file}: a static file under ${API_BASE}/ needs an extension, or _routes.json sends it to the function`);
    const slash = file.indexOf("/", base.length);
    const folder = slash < 0 ? "" : file.slice(base.length, slash);
    const rule = folder === "" ? `/${file}` : `${API_BASE}/${folder}/*.${name.slice(dot + 1)}`;
    rules.set(folder, (rules.get(folder) ?? new Set()).add(rule));
  }
  return new Map([...rules].map(([folder, set]) => [folder, [...set].sort()]));
}

/** Whether `rule` fits `_routes.json`'s limit on characters. */
export const fitsRouteRule = (rule: string) => rule.length <= MAX_ROUTE_RULE_CHARS;

/**
 * `_routes.json`: the function runs for `/api/*` and `/mcp` except the static
 * files of `excludes` (`excludeRules`) in folders not in `tail`: the CDN serves
 * those directly, free, unlimited and exactly what a static mirror serves. A tail
 * indicator's files reach the function, which serves them (src/api/files.ts).
 * @throws BuildError when the rules break Cloudflare's limits.
 */
export function routesJson(excludes: ReadonlyMap<string, readonly string[]>, tail: ReadonlySet<string> = new Set()): string {
  const exclude = [...excludes].flatMap(([folder, rules]) => (tail.has(folder) ? [] : rules)).sort();
  const rules = [...ROUTE_INCLUDE, ...exclude];
  if (rules.length > MAX_ROUTE_RULES) throw new BuildError(`_routes.json would hold ${rules.length} rules, over Cloudflare's ${MAX_ROUTE_RULES}: nothing was written`);
  const long = rules.find((r) => !fitsRouteRule(r));
  if (long !== undefined) throw new BuildError(`_routes.json rule ${long} is ${long.length} characters, over Cloudflare's ${MAX_ROUTE_RULE_CHARS}: nothing was written`);
  return `${JSON.stringify({ version: 1, include: ROUTE_INCLUDE, exclude }, null, 2)}\n`;
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

/** How many `_headers` rules the build writes whatever the data: the room left is the indicators'. */
export const FIXED_HEADER_RULES = staticRules({ scripts: [], styles: [] }).length;

/** Whether every indicator has the same data version (`SOURCE_DATE_EPOCH` set: a deploy): then one rule dates them all. */
export function oneDate(lastModified: ReadonlyMap<string, string>): boolean {
  return new Set(lastModified.values()).size === 1;
}

/**
 * The generated `Last-Modified` rules. Pages joins with commas the values of a
 * header that several matching rules set, so each file is matched by one rule at
 * most: when every indicator has one date, one rule for every indicator's folder
 * (`:indicator` is one segment); else one per indicator of `head`, whose files
 * Pages serves. The function sets a tail indicator's (src/api/files.ts).
 */
function lastModifiedRules(lastModified: ReadonlyMap<string, string>, head: ReadonlySet<string>): Rule[] {
  const [first] = lastModified.values();
  if (first !== undefined && oneDate(lastModified)) return [{ path: `${endpointPath(":indicator")}/*`, headers: { "Last-Modified": first } }];
  return [...lastModified].filter(([id]) => head.has(id)).map(([id, date]) => ({ path: `${endpointPath(id)}/*`, headers: { "Last-Modified": date } }));
}

/**
 * `_headers` (docs/DESIGN.md §2; its first comment line, kept byte for byte from
 * earlier builds, cites the same section): the fixed rules, with the pages' policy
 * allowing `code`, the inline code of every page; then the rules that set
 * `Last-Modified` on the static files to their indicator's data version.
 * @throws BuildError when the file breaks Cloudflare's limits (rules, line length).
 */
export function headersFile(lastModified: ReadonlyMap<string, string>, code: InlineCode, head: ReadonlySet<string> = new Set(lastModified.keys())): string {
  const fixed = staticRules(code);
  const generated = lastModifiedRules(lastModified, head);
  const rules = fixed.length + generated.length;
  if (rules > MAX_HEADER_RULES) throw new BuildError(`_headers would hold ${rules} rules, over Cloudflare's ${MAX_HEADER_RULES}: nothing was written`);
  const text =
    "# Headers of the static files served directly by Cloudflare Pages (DESIGN §2).\n" +
    "# The function sets its own headers: Pages does not apply this file to function responses.\n\n" +
    fixed.map(rule).join("\n") +
    "\n# Generated by the build: data version of each indicator.\n" +
    generated.map(rule).join("");
  const long = text.split("\n").find((line) => line.length > MAX_HEADER_LINE_CHARS);
  if (long !== undefined) throw new BuildError(`_headers line over Cloudflare's ${MAX_HEADER_LINE_CHARS} characters: ${long.slice(0, 60)}…: nothing was written`);
  return text;
}

/**
 * Checks a `_redirects` file (the build writes none; one in `public/` is copied
 * as it is) against Cloudflare's limits: 2,000 static rules and 100 dynamic ones
 * (a source with a splat `*` or a placeholder `:name`).
 * @throws BuildError naming the limit and the count.
 */
export function checkRedirects(text: string): void {
  const sources = text
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line !== "" && !line.startsWith("#"))
    .map((line) => line.split(/\s+/)[0] as string);
  const dynamic = sources.filter((source) => source.includes("*") || /(^|\/):[A-Za-z]/.test(source)).length;
  const fixed = sources.length - dynamic;
  if (fixed > MAX_STATIC_REDIRECTS) throw new BuildError(`_redirects holds ${fixed} static rules, over Cloudflare's ${MAX_STATIC_REDIRECTS}: nothing was written`);
  if (dynamic > MAX_DYNAMIC_REDIRECTS) throw new BuildError(`_redirects holds ${dynamic} dynamic rules, over Cloudflare's ${MAX_DYNAMIC_REDIRECTS}: nothing was written`);
}
