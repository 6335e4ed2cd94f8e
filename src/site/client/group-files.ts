/**
 * The view's group files (src/build/view-data.ts writes them) as the browser
 * fetches them. An indicator page's inline script (src/site/client/early.ts)
 * requests the group of a shared selection as the page arrives; the page script
 * (src/site/client/series-page.ts) takes that request over through `window`.
 */
import type { ViewSeries } from "./series-view.js";

/**
 * One group's file: its sub-series, and the `series` parameter that names exactly
 * them. A large group's file holds none of its sub-series but lists the files
 * that do, in order (`parts`, src/build/view-data.ts).
 */
export interface ViewGroupFile {
  readonly parameter: string | null;
  readonly series: readonly ViewSeries[];
  readonly parts?: readonly string[];
}

/** A group's file with its sub-series: as fetched, or with those of its parts read (side by side) and joined in order. */
export async function wholeGroup(file: ViewGroupFile, fetch: (url: string) => Promise<unknown> = fetchJson): Promise<ViewGroupFile> {
  if (file.parts === undefined) return file;
  const parts = (await Promise.all(file.parts.map((url) => fetch(url)))) as ViewGroupFile[];
  return { parameter: file.parameter, series: parts.flatMap((part) => part.series) };
}

/** What the inline script hands the page script: the group files it requested, by URL; and whether the page script has taken over. */
declare global {
  interface Window {
    osViewData?: Record<string, Promise<unknown>>;
    osReady?: boolean;
  }
}

/** A JSON file of this site, rejected on an HTTP error. */
export function fetchJson(url: string): Promise<unknown> {
  return fetch(url).then((r) => (r.ok ? r.json() : Promise.reject(new Error(`${url}: ${r.status}`))));
}
