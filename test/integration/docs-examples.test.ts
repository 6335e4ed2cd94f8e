/**
 * Every example of the README and of the manual (docs/*.md) answers as shown:
 * the real data built once in process, every `/api/v1/…` URL of a code span or
 * a fenced code block requested the way Cloudflare Pages routes it (the static
 * files of `_routes.json`'s excludes from the output folder, the rest through
 * the handler workerd runs), its status checked, and every answer the docs show
 * (a ```json or ```csv block right after the request) compared with the answer.
 * Also: every relative link and anchor of the docs resolves, and every manual
 * page opens with its title and a "What's here" paragraph. The convention is
 * written down in docs/development.md ("The docs' examples").
 *
 * docs/DESIGN.md is the starting design with its departures marked, kept as it
 * was written: its examples are not checked here (its links are).
 */
import { existsSync, readFileSync, readdirSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { beforeAll, describe, expect, inject, it } from "vitest";
import type { Assets } from "../../src/api/data-store.js";
import { Api } from "../../src/api/handler.js";
import { folderAssets } from "../../scripts/lib/folder-assets.js";
import { ROOT } from "../files.js";

/** What the docs write for "left out here". */
const ELLIPSIS = "\u2026";

/** The manual's pages (docs/*.md but the design reference). */
const MANUAL = readdirSync(join(ROOT, "docs"))
  .filter((name) => name.endsWith(".md") && name !== "DESIGN.md")
  .sort()
  .map((name) => join(ROOT, "docs", name));
/** The documents whose examples are checked. */
const DOCS = [join(ROOT, "README.md"), ...MANUAL];
/** The documents whose links are checked. */
const LINKED = [...DOCS, join(ROOT, "docs", "DESIGN.md")];

interface Block {
  kind: "text" | "code" | "heading";
  /** A fenced block's info string (`json`, `csv`, `sh`…). */
  lang: string;
  /** 1-based line of the block's first line (a fence's opening line). */
  line: number;
  lines: string[];
}

/** The blocks of a Markdown document: paragraphs (tables and lists included), headings and fenced code blocks. */
function blocksOf(markdown: string): Block[] {
  const lines = markdown.split("\n");
  const blocks: Block[] = [];
  let text: Block | null = null;
  const flush = () => {
    if (text !== null) blocks.push(text);
    text = null;
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] as string;
    const fence = /^\s*(`{3,}|~{3,})\s*([\w-]*)/.exec(line);
    if (fence !== null) {
      flush();
      const [, marker = "", lang = ""] = fence;
      const body: string[] = [];
      const start = i + 1;
      for (i++; i < lines.length && !(lines[i] as string).trim().startsWith(marker); i++) body.push(lines[i] as string);
      blocks.push({ kind: "code", lang, line: start, lines: body });
    } else if (/^#{1,6} /.test(line)) {
      flush();
      blocks.push({ kind: "heading", lang: "", line: i + 1, lines: [line] });
    } else if (line.trim() === "") {
      flush();
    } else {
      text ??= { kind: "text", lang: "", line: i + 1, lines: [] };
      text.lines.push(line);
    }
  }
  flush();
  return blocks;
}

interface Span {
  line: number;
  content: string;
  /** The text right after the span, to its block's end. */
  after: string;
}

/** The code spans of a paragraph, with their lines (a span may continue on the next line). */
function spansOf(block: Block): Span[] {
  const joined = block.lines.join("\n");
  const spans: Span[] = [];
  for (const match of joined.matchAll(/(`+)(?!`)([\s\S]*?[^`])\1(?!`)/g)) {
    const line = block.line + (joined.slice(0, match.index).match(/\n/g)?.length ?? 0);
    let content = (match[2] as string).replace(/\n/g, " ");
    if (content.startsWith(" ") && content.endsWith(" ") && content.trim() !== "") content = content.slice(1, -1);
    spans.push({ line, content, after: joined.slice(match.index + match[0].length) });
  }
  return spans;
}

/**
 * The API URLs of a piece of code: from `/api/v1` (after an optional scheme and
 * host, dropped) to a quote, a `>`, a backtick or the end; in a fenced block also to a space
 * (in a code span the URL runs to the span's end: `?q=casmu gineco`).
 */
function urlsIn(code: string, spaces: boolean): { path: string; end: number }[] {
  const stop = spaces ? `"'>\`` : `\\s"'>\``;
  const re = new RegExp(`(?:https?://[^\\s/"'>\`]*)?(/api/v1(?=[/?#\\s"'>\`]|$)[^${stop}]*)`, "g");
  return [...code.matchAll(re)].map((match) => ({ path: (match[1] as string).trimEnd(), end: match.index + match[0].length }));
}

/** Why a URL is not requested (a placeholder, a routing pattern, the API's folder), or null. */
function notRequested(path: string): string | null {
  if (path === "/api/v1" || path === "/api/v1/") return "the API's folder";
  if (/[{<]/.test(path) || path.includes(ELLIPSIS)) return "a placeholder";
  if ((path.split("?")[0] as string).includes("*")) return "a routing pattern";
  return null;
}

/** A status written after an example's URL or code span: `→ 404`, or `(→ 404)`. */
const STATUS = /^`?\s*\(?\s*→\s*([2-5]\d\d)(?!\d)/;

interface Example {
  /** `file:line path`, the test's name. */
  where: string;
  path: string;
  /** The status the doc says it answers, or null: a 2xx (or 304). */
  status: number | null;
  /** The answer the doc shows, if any. */
  answer: { lang: "json" | "csv"; text: string; line: number } | null;
}

/** Every requested example of a document, with the answers shown after them. */
function examplesOf(file: string): Example[] {
  const name = relative(ROOT, file);
  const examples: Example[] = [];
  const add = (line: number, path: string, status: number | null) => {
    if (notRequested(path) !== null) return null;
    const example: Example = { where: `${name}:${line} ${path}`, path, status, answer: null };
    examples.push(example);
    return example;
  };
  let previous: Example | null = null;
  for (const block of blocksOf(readFileSync(file, "utf8"))) {
    let first: Example | null = null;
    if (block.kind === "text") {
      for (const span of spansOf(block)) {
        const urls = urlsIn(span.content, true);
        for (const [i, { path, end }] of urls.entries()) {
          // A status right after the URL in the span, or after the span for its last URL.
          const status = STATUS.exec(span.content.slice(end))?.[1] ?? (i === urls.length - 1 ? STATUS.exec(span.after)?.[1] : undefined);
          const example = add(span.line, path, status === undefined ? null : Number(status));
          first ??= example;
        }
      }
    } else if (block.kind === "code") {
      if ((block.lang === "json" || block.lang === "csv") && previous !== null) {
        previous.answer = { lang: block.lang, text: block.lines.join("\n"), line: block.line };
      }
      for (const [i, text] of block.lines.entries()) {
        for (const { path, end } of urlsIn(text, false)) {
          const status = /→\s*([2-5]\d\d)(?!\d)/.exec(text.slice(end))?.[1];
          const example = add(block.line + 1 + i, path, status === undefined ? null : Number(status));
          first ??= example;
        }
      }
    }
    // An answer block belongs to the first URL of the block right before it; after an answer, none.
    previous = block.kind === "code" && (block.lang === "json" || block.lang === "csv") ? null : first;
  }
  return examples;
}

/**
 * An answer as the docs show it: JSON where a bare `…` stands for left-out
 * members (in an object) or further items (as an array's last item); a string
 * ending in `…` stands for a string that begins so.
 */
function readShown(text: string): unknown {
  let json = "";
  const open: string[] = [];
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i] as string;
    if (inString) {
      json += c;
      if (c === "\\") json += text[++i] ?? "";
      else if (c === '"') inString = false;
    } else if (c === ELLIPSIS) {
      json += open.at(-1) === "{" ? `"${ELLIPSIS}":true` : `"${ELLIPSIS}"`;
    } else {
      if (c === '"') inString = true;
      else if (c === "{" || c === "[") open.push(c);
      else if (c === "}" || c === "]") open.pop();
      json += c;
    }
  }
  return JSON.parse(json);
}

const brief = (value: unknown) => {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 120 ? `${text.slice(0, 120)}…` : text;
};

/** Where a shown JSON answer and the real one differ, or null when the real one is as shown. */
function jsonMismatch(shown: unknown, actual: unknown, path = "$"): string | null {
  if (Array.isArray(shown)) {
    if (!Array.isArray(actual)) return `${path}: the answer has ${brief(actual)}, the doc shows an array`;
    const more = shown.at(-1) === ELLIPSIS;
    const items = more ? shown.slice(0, -1) : shown;
    if (more ? actual.length < items.length : actual.length !== items.length) {
      return `${path}: the answer has ${actual.length} items, the doc shows ${more ? "at least " : ""}${items.length}`;
    }
    for (const [i, item] of items.entries()) {
      const found = jsonMismatch(item, actual[i], `${path}[${i}]`);
      if (found !== null) return found;
    }
    return null;
  }
  if (shown !== null && typeof shown === "object") {
    if (actual === null || typeof actual !== "object" || Array.isArray(actual)) return `${path}: the answer has ${brief(actual)}, the doc shows an object`;
    const keys = Object.keys(shown).filter((key) => key !== ELLIPSIS);
    for (const key of keys) {
      if (!(key in actual)) return `${path}.${key}: not in the answer`;
      const found = jsonMismatch((shown as Record<string, unknown>)[key], (actual as Record<string, unknown>)[key], `${path}.${key}`);
      if (found !== null) return found;
    }
    const extra = Object.keys(actual).filter((key) => !keys.includes(key));
    if (!(ELLIPSIS in shown) && extra.length > 0) return `${path}: the answer also has ${extra.join(", ")} (show them, or write … for the rest)`;
    return null;
  }
  if (typeof shown === "string" && shown.endsWith(ELLIPSIS) && typeof actual === "string" && actual !== shown) {
    return actual.startsWith(shown.slice(0, -1)) ? null : `${path}: the answer has ${brief(actual)}, which does not begin as the doc shows, ${brief(shown)}`;
  }
  return Object.is(shown, actual) ? null : `${path}: the answer has ${brief(actual)}, the doc shows ${brief(shown)}`;
}

/** Where shown CSV lines and the real ones differ (a line `…` stands for any lines), or null. */
function csvMismatch(shown: readonly string[], actual: readonly string[]): string | null {
  const parts: string[][] = [[]];
  for (const line of shown) {
    if (line.trim() === ELLIPSIS) parts.push([]);
    else parts.at(-1)?.push(line);
  }
  const at = (part: readonly string[], from: number) => part.every((line, i) => actual[from + i] === line);
  const [head = [], ...rest] = parts;
  if (rest.length === 0) {
    const differs = Math.max(shown.length, actual.length);
    for (let i = 0; i < differs; i++) if (shown[i] !== actual[i]) return `line ${i + 1}: the answer has ${brief(actual[i])}, the doc shows ${brief(shown[i])}`;
    return null;
  }
  if (!at(head, 0)) return `the answer does not begin with the doc's first ${head.length} lines: it begins ${brief(actual.slice(0, head.length))}`;
  let from = head.length;
  const tail = rest.pop() ?? [];
  for (const part of rest) {
    while (from + part.length <= actual.length && !at(part, from)) from++;
    if (from + part.length > actual.length) return `the answer lacks the lines ${brief(part)} after line ${head.length}`;
    from += part.length;
  }
  if (actual.length - tail.length < from || !at(tail, actual.length - tail.length)) return `the answer does not end with the doc's last ${tail.length} lines: it ends ${brief(actual.slice(-tail.length))}`;
  return null;
}

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces to hyphens. */
function slug(heading: string): string {
  return heading
    .replace(/^#+\s*/, "")
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, "")
    .replace(/ /g, "-");
}

/** The anchors of a Markdown document (a repeated heading gets `-1`, `-2`…, as on GitHub). */
function anchorsOf(file: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const block of blocksOf(readFileSync(file, "utf8"))) {
    if (block.kind !== "heading") continue;
    const base = slug(block.lines[0] as string);
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    anchors.add(count === 0 ? base : `${base}-${count}`);
  }
  return anchors;
}

/** Every relative link of a document outside code, with its line. */
function linksOf(file: string): { line: number; target: string }[] {
  const links: { line: number; target: string }[] = [];
  for (const block of blocksOf(readFileSync(file, "utf8"))) {
    if (block.kind === "code") continue;
    block.lines.forEach((text, i) => {
      for (const match of text.replace(/`[^`]*`/g, "").matchAll(/\[[^\]]*\]\(([^)\s]+)\)/g)) {
        const target = match[1] as string;
        if (!/^[a-z]+:/i.test(target)) links.push({ line: block.line + i, target });
      }
    });
  }
  return links;
}

const EXAMPLES = DOCS.flatMap(examplesOf);

/** Pages' rule match: `*` matches anything (slashes too), anchored at both ends; a rule without a final `*` also matches with a final slash. */
function ruleMatches(rule: string, path: string): boolean {
  const body = rule
    .split("*")
    .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, "\\$&"))
    .join(".*");
  return new RegExp(`^${body}${rule.endsWith("*") ? "" : "/?"}$`).test(path);
}

let answer: (path: string, init?: RequestInit) => Promise<Response>;

beforeAll(() => {
  const out = inject("realDist");
  const routes = JSON.parse(readFileSync(join(out, "_routes.json"), "utf8")) as { include: string[]; exclude: string[] };
  const assets: Assets = folderAssets(out);
  const api = new Api();
  const env = { ASSETS: assets, RATE_LIMIT_REQUESTS: "1000000000" };
  answer = (path, init) => {
    const url = new URL(path, "http://docs.test");
    const toFunction = routes.include.some((rule) => ruleMatches(rule, url.pathname)) && !routes.exclude.some((rule) => ruleMatches(rule, url.pathname));
    return toFunction ? api.fetch(new Request(url, init), env) : assets.fetch(url.toString());
  };
});

describe("the docs' examples", () => {
  it("are found: the README's five first requests with their answers, and the manual's", () => {
    const answered = EXAMPLES.filter((example) => example.answer !== null);
    expect(answered.filter((example) => example.where.startsWith("README.md")).length).toBeGreaterThanOrEqual(5);
    expect(answered.some((example) => example.where.startsWith("docs/api.md"))).toBe(true);
    expect(EXAMPLES.filter((example) => example.status !== null).length).toBeGreaterThanOrEqual(3);
    expect(EXAMPLES.length).toBeGreaterThanOrEqual(20);
  });

  it.each(EXAMPLES.map((example) => [example.where, example] as const))("%s", async (_where, { path, status, answer: shown }) => {
    const response = await answer(path);
    const text = await response.text();
    if (status === null) expect(response.status >= 200 && response.status < 300, `${response.status}: ${text.slice(0, 300)}`).toBe(true);
    else expect(response.status, text.slice(0, 300)).toBe(status);
    if (shown === null) return;
    let mismatch: string | null;
    if (shown.lang === "json") {
      mismatch = jsonMismatch(readShown(shown.text), JSON.parse(text));
    } else {
      const lines = text.replace(/^\uFEFF/, "").split(/\r?\n/);
      if (lines.at(-1) === "") lines.pop();
      mismatch = csvMismatch(shown.text.split("\n"), lines);
    }
    if (mismatch !== null) expect.fail(`the answer shown at line ${shown.line} is not the API's: ${mismatch}`);
  });

  it("/mcp is POST only: a GET is the 405 docs/api.md describes", async () => {
    const response = await answer("/mcp");
    expect(response.status).toBe(405);
    expect(response.headers.get("allow")).toBe("POST, OPTIONS");
  });

  it("the abbreviations are honest: a wrong item, a missing member or a wrong prefix is a mismatch", () => {
    const real = { data: [1, 2, 3], meta: { a: "abc", b: 2 } };
    expect(jsonMismatch(readShown('{"data":[1,2,…],"meta":{"a":"ab…",…}}'), real)).toBeNull();
    expect(jsonMismatch(readShown('{"data":[2,…],"meta":{…}}'), real)).toMatch(/^\$\.data\[0\]/);
    expect(jsonMismatch(readShown('{"data":[1,2,3],"meta":{"a":"abc"}}'), real)).toMatch(/also has b/);
    expect(jsonMismatch(readShown('{"data":[1,2,3],"meta":{"a":"x…",…}}'), real)).toMatch(/does not begin/);
    expect(csvMismatch(["h", "1", "…", "9"], ["h", "1", "5", "9"])).toBeNull();
    expect(csvMismatch(["h", "2", "…"], ["h", "1", "2"])).not.toBeNull();
  });
});

describe("the docs' links", () => {
  it.each(LINKED.map((file) => relative(ROOT, file)))("%s: every relative link and anchor resolves", (name) => {
    const file = join(ROOT, name);
    const broken: string[] = [];
    for (const { line, target } of linksOf(file)) {
      const [path = "", anchor] = target.split("#");
      const to = path === "" ? file : join(dirname(file), decodeURIComponent(path));
      if (!existsSync(to)) broken.push(`${name}:${line} ${target}: no such file`);
      else if (anchor !== undefined && to.endsWith(".md") && !anchorsOf(to).has(anchor)) broken.push(`${name}:${line} ${target}: no such heading`);
    }
    expect(broken).toEqual([]);
  });

  it.each(MANUAL.map((file) => relative(ROOT, file)))("%s opens with its title and what is there", (name) => {
    const [title = "", blank, whatsHere = ""] = readFileSync(join(ROOT, name), "utf8").split("\n");
    expect(title).toMatch(/^# \S/);
    expect(blank).toBe("");
    expect(whatsHere).toMatch(/^What's here: /);
  });
});
