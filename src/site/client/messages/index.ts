/** The interface words of each language (one file per language) and the helper that shows `code` in them. */
import { html, type SafeHtml } from "../../../core/text/html.js";
import type { Lang } from "../../../core/text/i18n.js";
import { en, type Messages } from "./en.js";
import { es } from "./es.js";

export type { Messages };

export const MESSAGES: Readonly<Record<Lang, Messages>> = { es, en };

/** A message with `code` in backticks as HTML: the text escaped, the backticked parts in `<code>`. */
export function codeText(text: string): SafeHtml {
  return html`${text.split("`").map((part, i) => (i % 2 === 1 ? html`<code>${part}</code>` : part))}`;
}
