/**
 * The site serving the page, for the addresses a page writes out to be copied
 * (API addresses, curl commands, the embed code). Links are paths, which resolve
 * on whichever site serves the page; a text to paste elsewhere needs the whole
 * address. The build writes those texts with the public origin (what a reader
 * without a script sees, and what works from anywhere); the page script writes
 * them with the origin of the site it runs on, so a mirror or a local server
 * names itself.
 */

/** The attribute marking an element whose text holds addresses of this site, written with the public origin by the build. */
export const ADDRESS_ATTRIBUTE = "data-address";

/** The page's own origin when it was served over HTTP(S); else `fallback` (a page opened from a file has none). */
export function hereOrigin(fallback: string): string {
  return location.protocol === "http:" || location.protocol === "https:" ? location.origin : fallback;
}

/** The public origin the build wrote the page with: its canonical link's (src/site/site.ts `head`), or null on a page without one. */
export function publicOrigin(): string | null {
  const canonical = document.querySelector<HTMLLinkElement>('link[rel="canonical"]');
  return canonical === null ? null : new URL(canonical.href).origin;
}

/** Rewrites the texts marked with `ADDRESS_ATTRIBUTE` from the public origin to the page's own. */
export function localiseAddresses(): void {
  const written = publicOrigin();
  if (written === null) return;
  const here = hereOrigin(written);
  if (here === written) return;
  for (const element of document.querySelectorAll(`[${ADDRESS_ATTRIBUTE}]`)) element.textContent = (element.textContent ?? "").replaceAll(written, here);
}
