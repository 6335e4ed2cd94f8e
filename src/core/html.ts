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

/** HTML that is already safe: the only thing `html` inserts without escaping. */
export class SafeHtml {
  constructor(readonly html: string) {}
  toString(): string {
    return this.html;
  }
}

/** Marks trusted markup as safe. Use only for markup the code itself produced. */
export function raw(markup: string): SafeHtml {
  return new SafeHtml(markup);
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
  return new SafeHtml(out);
}
