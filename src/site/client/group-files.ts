/**
 * The view's group files (src/builder/view-data.ts writes them) as the browser
 * fetches them. An indicator page's inline script (src/site/client/early.ts)
 * requests the group of a shared selection as the page arrives; the page script
 * (src/site/client/series-page.ts) takes that request over through `window`.
 */
import type { ViewSeries } from "./series-view.js";

/** A part of a large group's file: where it is and the sub-series it holds. */
export interface GroupPart {
  readonly path: string;
  readonly ids: readonly string[];
}

/**
 * One group's file: its sub-series, and the `series` parameter that names exactly
 * them. A large group's file holds none of its sub-series but lists the files
 * that do, in order, each with the ids it holds (`parts`, src/builder/view-data.ts).
 */
export interface ViewGroupFile {
  readonly parameter: string | null;
  readonly series: readonly ViewSeries[];
  readonly parts?: readonly GroupPart[];
  /** Every sub-series id of the group, in order, where `series` holds only some (the parts not read). */
  readonly ids?: readonly string[];
}

/**
 * A group's file with its sub-series: as fetched; or, for a group in parts, those
 * of the parts holding any of `only` (every part without it), read side by side
 * with `read` and joined in order, beside every id of the group (`ids`).
 */
export async function groupWith(file: ViewGroupFile, only?: readonly string[], read: (url: string) => Promise<unknown> = fetchJson): Promise<ViewGroupFile> {
  if (file.parts === undefined) return file;
  const wanted = only === undefined ? file.parts : file.parts.filter((part) => part.ids.some((id) => only.includes(id)));
  const parts = (await Promise.all(wanted.map((part) => read(part.path)))) as ViewGroupFile[];
  return { parameter: file.parameter, series: parts.flatMap((part) => part.series), ids: file.parts.flatMap((part) => part.ids) };
}

/** `b`, a group read in part, with the sub-series `a` (the same group read before) has and `b` has not, in the group's order. */
export function joinedGroup(a: ViewGroupFile | undefined, b: ViewGroupFile): ViewGroupFile {
  if (a === undefined || b.ids === undefined) return b;
  const byId = new Map([...a.series, ...b.series].map((s) => [s.id, s]));
  return { ...b, series: b.ids.flatMap((id) => byId.get(id) ?? []) };
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
