/**
 * HTML escaped by default (after Observable Framework's `src/html.ts`).
 *
 * `html\`…\`` escapes every interpolated value; a value is inserted verbatim only
 * when it is explicitly wrapped with `raw()` or is itself the result of `html`.
 */

const ESCAPES: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
};

/** Escapes text for an HTML text node or a quoted attribute value. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c] as string);
}

/** Wraps markup as `SafeHtml`: module-private, so `raw()` is the one way round escaping. */
let trusted!: (markup: string) => SafeHtml;

/**
 * HTML that is already safe: the only thing `html` inserts without escaping. Its
 * constructor is private: such a value comes from `html`, `jsonScript` or `raw()`.
 */
export class SafeHtml {
  static {
    trusted = (markup) => new SafeHtml(markup);
  }

  private constructor(readonly html: string) {}

  toString(): string {
    return this.html;
  }
}

/** Marks trusted markup as safe. Use only for markup the code itself produced. */
export function raw(markup: string): SafeHtml {
  return trusted(markup);
}

/**
 * `value` as JSON text for a `<script>` element (`application/json`,
 * `application/ld+json`): every `<` written `\u003c` (the same string to a JSON
 * parser), so no value can end the element or open a comment in it (HTML
 * §4.12.1.3, restrictions for contents of script elements).
 */
export function jsonScript(value: unknown): SafeHtml {
  return trusted(JSON.stringify(value).replace(/</g, "\\u003c"));
}

type Interpolation = SafeHtml | string | number | null | undefined | readonly Interpolation[];

function interpolate(value: Interpolation): string {
  if (value === null || value === undefined) return "";
  if (value instanceof SafeHtml) return value.html;
  if (Array.isArray(value)) return value.map(interpolate).join("");
  return escapeHtml(String(value));
}

/** Tagged template: escapes every interpolated value unless it is `SafeHtml`. */
export function html(strings: TemplateStringsArray, ...values: Interpolation[]): SafeHtml {
  let out = strings[0] as string;
  values.forEach((value, i) => {
    out += interpolate(value) + (strings[i + 1] as string);
  });
  return trusted(out);
}
