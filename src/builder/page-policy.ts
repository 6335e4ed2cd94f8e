/**
 * The pages' Content Security Policy (docs/site.md "Content Security Policy"),
 * made from the pages the build writes: each page's inline scripts that run and
 * its `<style>` blocks are read as it is rendered and allowed by their SHA-256
 * (CSP Level 3 §8.3, hash sources), never listed by hand, so a change of the
 * early script or the stylesheet changes the policy with it. A page holding what
 * no hash can allow (an event handler attribute, a `style` attribute, a
 * `javascript:` URL: each would need `'unsafe-inline'` or `'unsafe-hashes'`)
 * stops the build, rather than shipping a page its policy breaks.
 */
import { createHash } from "node:crypto";
import { BuildError } from "../source/errors.js";

/** What a page holds inline that its policy must allow: the hash sources (`'sha256-…'`) of its scripts that run and of its `<style>` blocks. */
export interface InlineCode {
  readonly scripts: readonly string[];
  readonly styles: readonly string[];
}

/** A `<script>` or `<style>` element with its raw text (HTML §13.1.2.1: it ends at the first matching end tag). */
const RAW_TEXT_ELEMENT = /<(script|style)\b((?:[^>"']|"[^"]*"|'[^']*')*)>([\s\S]*?)<\/\1\s*>/gi;
/** A start tag with its attributes (HTML §13.1.2.3). */
const START_TAG = /<[a-zA-Z][^\s/>]*((?:[^>"']|"[^"]*"|'[^']*')*)>/g;
/** One attribute: its name and its value, quoted or not. */
const ATTRIBUTE = /([^\s"'>/=]+)(?:\s*=\s*("[^"]*"|'[^']*'|[^\s"'=<>`]+))?/g;
/**
 * What every unhashable attribute's text holds (an attribute name starting "on" or
 * "style" where a name can start: first, or after a space, a quote, a slash or
 * an equals sign; or "javascript:"), case aside: a tag
 * without it has none, and is not parsed further. The pages hold tens of thousands
 * of tags; parsing each one's attributes took most of the check's time.
 */
const MAYBE_UNHASHABLE = /(?:^|[\s"'/=>])(?:on|style)|javascript:/i;
/** Attributes that take a URL a `javascript:` value would run from. */
const URL_ATTRIBUTES = new Set(["href", "src", "action", "formaction"]);

/** The attributes of a start tag's text, names lowercased, values unquoted (not entity-decoded: the build's markup escapes none of what is checked). */
function attributes(text: string): Map<string, string> {
  const found = new Map<string, string>();
  for (const [, name, value] of text.matchAll(ATTRIBUTE)) found.set((name as string).toLowerCase(), (value ?? "").replace(/^(["'])([\s\S]*)\1$/, "$2"));
  return found;
}

/**
 * Whether a `<script>` with this `type` runs: without one, or with a JavaScript MIME
 * type, `module`, `importmap` or `speculationrules` (HTML §4.12.1.1). Any other type
 * (`application/json`, `application/ld+json`) is a data block, which CSP does not govern.
 */
function runs(type: string | undefined): boolean {
  const essence = (type ?? "").trim().toLowerCase();
  return essence === "" || ["module", "importmap", "speculationrules"].includes(essence) || /^(text|application)\/(x-)?(javascript|ecmascript|jscript|livescript)/.test(essence);
}

/**
 * `text`'s hash source, of the text as a browser parses it: line ends made LF
 * (HTML §13.2.3.5, preprocessing the input stream), then UTF-8 (CSP Level 3 §6.7.3.4).
 */
export function hashSource(text: string): string {
  return `'sha256-${createHash("sha256").update(text.replace(/\r\n?/g, "\n")).digest("base64")}'`;
}

/**
 * What no hash can allow, in a start tag's attribute text: the first event handler
 * attribute, `style` attribute or `javascript:` URL, named; null when there is none.
 * Every attribute parsed; {@link unhashable} skips the tags that cannot hold one.
 */
export function unhashableAttribute(tag: string): string | null {
  for (const [name, value] of attributes(tag)) {
    if (name.startsWith("on")) return `an event handler attribute (${name}=)`;
    if (name === "style") return "a style attribute (style=)";
    if (URL_ATTRIBUTES.has(name) && /^\s*javascript:/i.test(value)) return `a javascript: URL (${name}=)`;
  }
  return null;
}

/** {@link unhashableAttribute}, parsing only the tags that may hold one (`MAYBE_UNHASHABLE`). */
export function unhashable(tag: string): string | null {
  return MAYBE_UNHASHABLE.test(tag) ? unhashableAttribute(tag) : null;
}

/**
 * The inline code of one page (`page`, its path, names it in errors).
 * @throws BuildError when the page holds what no hash allows (see the module's comment).
 */
export function inlineCode(html: string, page: string): InlineCode {
  const scripts: string[] = [];
  const styles: string[] = [];
  const rest = html.replace(RAW_TEXT_ELEMENT, (_whole, name: string, tag: string, text: string) => {
    const attrs = attributes(tag);
    if (name.toLowerCase() === "style") styles.push(hashSource(text));
    else if (!attrs.has("src") && runs(attrs.get("type"))) scripts.push(hashSource(text));
    return `<${name}${tag}>`;
  });
  for (const [, tag] of rest.matchAll(START_TAG)) {
    const found = unhashable(tag as string);
    if (found !== null) throw new BuildError(`${page}: ${found}, which the pages' Content Security Policy blocks: use a class, or a listener in the page script`);
  }
  return { scripts, styles };
}

/**
 * The policy of the pages, from the inline code of all of them (one policy for
 * every page: fewer `_headers` rules; a page's hash on another page allows nothing
 * there that the build did not write). Each directive's reason is in docs/site.md.
 * `framed`: the embed pages', which any site may frame (no `frame-ancestors`).
 */
export function pagePolicy(code: InlineCode, framed = false): string {
  const directives: (readonly string[])[] = [
    ["default-src", "'self'"],
    ["script-src", "'self'", ...code.scripts],
    ["style-src", "'self'", ...code.styles],
    ["img-src", "'self'"],
    ["font-src", "'none'"],
    ["connect-src", "'self'"],
    ["object-src", "'none'"],
    ["base-uri", "'none'"],
    ["form-action", "'self'"],
    ...(framed ? [] : [["frame-ancestors", "'none'"]]),
  ];
  return directives.map((d) => d.join(" ")).join("; ");
}

/** The hash sources of `directive` in `policy` (a serialized policy, CSP Level 3 §2.2.1). */
function sourcesOf(policy: string, directive: string): Set<string> {
  const found = policy.split(";").map((d) => d.trim().split(/\s+/)).find(([name]) => name === directive);
  return new Set(found?.slice(1) ?? []);
}

/** The inline code of `html` that `policy` does not allow by hash: empty when the page runs and looks as written. */
export function missingSources(html: string, page: string, policy: string): string[] {
  const code = inlineCode(html, page);
  const scripts = sourcesOf(policy, "script-src");
  const styles = sourcesOf(policy, "style-src");
  return [...code.scripts.filter((s) => !scripts.has(s)).map((s) => `script ${s}`), ...code.styles.filter((s) => !styles.has(s)).map((s) => `style ${s}`)];
}

/** The inline code of many pages together: each hash once, sorted, so the policy is the same whatever the order of the pages. */
export class PageSources {
  private readonly scripts = new Set<string>();
  private readonly styles = new Set<string>();

  /** Records what `html` holds inline; returns it unchanged. */
  add(html: string, page: string): string {
    const code = inlineCode(html, page);
    for (const s of code.scripts) this.scripts.add(s);
    for (const s of code.styles) this.styles.add(s);
    return html;
  }

  /** Everything recorded so far. */
  code(): InlineCode {
    return { scripts: [...this.scripts].sort(), styles: [...this.styles].sort() };
  }
}
