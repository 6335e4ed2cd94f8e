/**
 * The links of a publisher's page, and the newest of those a declaration
 * recognises (`publication.link` in indicator.json, docs/data.md "The unattended
 * update"): what the update follows where a publisher files each release under
 * a new address (gub.uy uploads a file under its month, `…/files/2026-09/…`).
 *
 * A page is read for its `<a href>` elements only, with a small tokenizer rather
 * than an HTML parser: comments, scripts and styles are skipped, attribute values
 * and texts have their character references decoded (the numeric ones and the
 * named ones a Spanish page uses; an unknown name is left as written), an href
 * is resolved against the page's address (the WHATWG URL parser, so a space in
 * it becomes `%20`), and a text has its tags dropped and its white space
 * collapsed. Which link is the file, and which of several is the newest, is
 * declared, not guessed: a regular expression on the resolved href (and one on
 * the text), and the numbers its capturing groups take, compared in order.
 */

/** A link of a page: its resolved address and its text. */
export interface PageLink {
  readonly href: string;
  readonly text: string;
}

/** How a file's link is recognised on its page: regular expressions on the resolved href and on the text. */
export interface LinkPattern {
  readonly href: string;
  readonly text?: string | undefined;
}

const NAMED: Readonly<Record<string, string>> = {
  amp: "&", lt: "<", gt: ">", quot: '"', apos: "'", nbsp: "\u00a0",
  aacute: "á", eacute: "é", iacute: "í", oacute: "ó", uacute: "ú", uuml: "ü", ntilde: "ñ",
  Aacute: "Á", Eacute: "É", Iacute: "Í", Oacute: "Ó", Uacute: "Ú", Uuml: "Ü", Ntilde: "Ñ",
  ordm: "º", ordf: "ª", iexcl: "¡", iquest: "¿", ndash: "–", mdash: "—", laquo: "«", raquo: "»",
};

/** Text with its character references decoded (`&amp;`, `&#233;`, `&#xE9;`, `&aacute;`). */
export function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#[0-9]+|[a-z]+);/gi, (whole, name: string) => {
    if (name.startsWith("#")) {
      const code = name[1] === "x" || name[1] === "X" ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
      return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    }
    return NAMED[name] ?? whole;
  });
}

/** Every `<a href>` of `html`, its href resolved against `pageUrl` (links whose href is not a URL are left out). */
export function pageLinks(html: string, pageUrl: string): PageLink[] {
  const text = html.replace(/<!--[\s\S]*?-->/g, " ").replace(/<(script|style)\b[\s\S]*?<\/\1\s*>/gi, " ");
  const links: PageLink[] = [];
  for (const match of text.matchAll(/<a\b([^>]*)>([\s\S]*?)<\/a\s*>/gi)) {
    const attributes = match[1] ?? "";
    const raw = /\bhref\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>]+))/i.exec(attributes);
    if (raw === null) continue;
    const href = decodeEntities((raw[1] ?? raw[2] ?? raw[3] ?? "").trim());
    let resolved: string;
    try {
      resolved = new URL(href, pageUrl).href;
    } catch {
      continue;
    }
    const words = decodeEntities((match[2] ?? "").replace(/<[^>]*>/g, " ")).replace(/\s+/g, " ").trim();
    links.push({ href: resolved.replace(/#.*$/, ""), text: words });
  }
  return links;
}

/** The numbers a pattern's capturing groups take on `subject` (an absent group counts 0), or null when it does not match. */
export function captureKey(pattern: RegExp, subject: string): number[] | null {
  const match = pattern.exec(subject);
  if (match === null) return null;
  return match.slice(1).map((group) => (group === undefined ? 0 : Number(group)));
}

/** Orders keys of captured numbers, first group first (a shorter key is smaller when one is a prefix of the other). */
export function compareKeys(a: readonly number[], b: readonly number[]): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    const d = (a[i] as number) - (b[i] as number);
    if (d !== 0 && !Number.isNaN(d)) return d;
  }
  return a.length - b.length;
}

/** The links a declaration recognises, each address once (a page may link a file twice), with its key. */
export function matchingLinks(links: readonly PageLink[], pattern: LinkPattern): { link: PageLink; key: number[] }[] {
  const href = new RegExp(pattern.href);
  const text = pattern.text === undefined ? null : new RegExp(pattern.text, "i");
  const found = new Map<string, { link: PageLink; key: number[] }>();
  for (const link of links) {
    const key = captureKey(href, link.href);
    if (key === null || (text !== null && !text.test(link.text)) || found.has(link.href)) continue;
    found.set(link.href, { link, key });
  }
  return [...found.values()];
}

/**
 * The newest of the matching links: the one whose captured numbers are largest.
 * @returns the link, or a reason when there is none or the newest is not one
 *   (several addresses with the same numbers: the declaration cannot tell them apart).
 */
export function newestLink(matches: readonly { link: PageLink; key: number[] }[]): PageLink | { readonly reason: string } {
  if (matches.length === 0) return { reason: "none" };
  const sorted = [...matches].sort((a, b) => compareKeys(b.key, a.key));
  const [first, second] = sorted as [{ link: PageLink; key: number[] }, ...{ link: PageLink; key: number[] }[]];
  if (second !== undefined && compareKeys(first.key, second.key) === 0) {
    const tied = sorted.filter((m) => compareKeys(m.key, first.key) === 0).map((m) => m.link.href);
    return { reason: `${tied.length} links match with nothing to tell which is newest (the href pattern's groups capture the same numbers): ${tied.join(", ")}` };
  }
  return first.link;
}
