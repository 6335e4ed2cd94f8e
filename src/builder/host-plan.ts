/**
 * Which indicators Pages serves wholly as static files (the "head") and which
 * files go to R2, so that the output holds every Cloudflare Pages limit by
 * construction (docs/formats.md, "Files within the host's limits"):
 *
 * - the head: indicators taken in rank order (most points first) while their
 *   `_routes.json` exclude rules (one per extension of their files) and, when the
 *   indicators' dates differ, their `_headers` `Last-Modified` rule fit the room
 *   the fixed rules leave; the others are the "tail": their files under
 *   `/api/v1/<id>/` reach the function, which serves them (src/api/files.ts) with
 *   an index per indicator (src/core/file/hosted.ts);
 * - R2: while the files on Pages pass the file budget, the tail's files the
 *   function serves move to R2, least needed first (`R2_ORDER`); when even all of
 *   them are not enough, the head gives up its last indicator, whose files can
 *   then move, until it fits or no indicator is left (then the build stops).
 *
 * HTML pages, preview images and the `/_data/` files stay on Pages: no request
 * for them reaches the function.
 */
import { API_BASE } from "../core/answer/contract.js";
import { byCodeUnits } from "../core/text/order.js";
import { outputFile } from "../core/file/paths.js";
import { BuildError } from "../source/errors.js";
import { FIXED_HEADER_RULES, MAX_HEADER_RULES, MAX_ROUTE_RULES, ROUTE_INCLUDE, excludeRules, fitsRouteRule, oneDate } from "./pages-config.js";

/** What placing needs of a planned file. */
export interface HostedFile {
  readonly path: string;
  readonly indicator?: string | undefined;
}

export interface HostInput {
  readonly files: readonly HostedFile[];
  /** Every indicator id, most needed first (`rankIndicators`). */
  readonly ranked: readonly string[];
  /** Each indicator's `Last-Modified`. */
  readonly lastModified: ReadonlyMap<string, string>;
  /** The file budget of Pages (`--max-files`). */
  readonly maxFiles: number;
  /** Files planned beside `files` (`_headers`, `_routes.json`, the mirrors' `/manifest.json`), counted in the budget. */
  readonly extraFiles: number;
}

export interface HostPlan {
  /** The indicators whose files Pages serves directly. */
  readonly head: ReadonlySet<string>;
  /** The others, in rank order: the function serves their files, each with an index (one more file). */
  readonly tail: readonly string[];
  /** The output paths of the files moved to R2. */
  readonly r2: ReadonlySet<string>;
  /** `_routes.json`'s exclude rules by folder (src/builder/pages-config.ts `excludeRules`). */
  readonly excludes: ReadonlyMap<string, readonly string[]>;
  /** Files left on Pages, within the budget. */
  readonly pagesFiles: number;
}

/** Indicators most needed first: the most points (the largest, most asked-for series), then by id. */
export function rankIndicators(indicators: readonly { readonly id: string; readonly points: number }[]): string[] {
  return [...indicators].sort((a, b) => b.points - a.points || byCodeUnits(a.id, b.id)).map((i) => i.id);
}

/**
 * The order tail files move to R2, by their path below `/api/v1/<id>/`: the
 * prebuilt pages of limits other than the default (the endpoint's `?limit=&offset=`
 * reads them, a client seldom asks the file), then the sub-series' static copies,
 * then the downloads (Excel, Parquet, the Spanish CSV, the data package, the feed),
 * last the default answer, the CSV and the metadata.
 */
export function r2Tier(relative: string): number {
  if (relative.startsWith("limit-")) return 0;
  if (relative.startsWith("series/")) return 1;
  if (relative === "index.json" || relative === "metadata.json" || /^data(-[^./]+)?\.csv$/.test(relative)) return 3;
  return 2;
}

/** The folder of `indicator`'s files below `/api/v1/`, as output paths start. */
const folderOf = (indicator: string) => `${outputFile(API_BASE)}/${indicator}/`;

/** The head: indicators in rank order while their rules fit the room the fixed rules leave. */
function chooseHead(ranked: readonly string[], excludes: ReadonlyMap<string, readonly string[]>, lastModified: ReadonlyMap<string, string>): string[] {
  const indicators = new Set(ranked);
  const fixedRoutes = ROUTE_INCLUDE.length + [...excludes].reduce((n, [folder, rules]) => n + (indicators.has(folder) ? 0 : rules.length), 0);
  let routeRoom = MAX_ROUTE_RULES - fixedRoutes;
  // One date: one rule dates every indicator's files, head or not; else one rule per head indicator.
  const shared = oneDate(lastModified);
  let headerRoom = MAX_HEADER_RULES - FIXED_HEADER_RULES - (shared ? 1 : 0);
  const head: string[] = [];
  for (const id of ranked) {
    const rules = excludes.get(id) ?? [];
    const headerCost = shared ? 0 : 1;
    if (!rules.every(fitsRouteRule) || rules.length > routeRoom || headerCost > headerRoom) continue;
    head.push(id);
    routeRoom -= rules.length;
    headerRoom -= headerCost;
  }
  return head;
}

/** The tail's files the function serves, in the order they move to R2: by tier, the least needed indicator first, then by path. */
function movable(files: readonly HostedFile[], tail: readonly string[]): string[] {
  const rank = new Map(tail.map((id, i) => [id, i]));
  const keyed = files.flatMap((file) => {
    const r = file.indicator === undefined ? undefined : rank.get(file.indicator);
    if (r === undefined || !file.path.startsWith(folderOf(file.indicator as string))) return [];
    return [{ path: file.path, tier: r2Tier(file.path.slice(folderOf(file.indicator as string).length)), rank: r }];
  });
  keyed.sort((a, b) => a.tier - b.tier || b.rank - a.rank || byCodeUnits(a.path, b.path));
  return keyed.map((k) => k.path);
}

/**
 * Places the output on Pages and R2 (above).
 * @throws BuildError when the files Pages must hold pass the budget even with the
 *   head empty and every tail file the function serves in R2.
 */
export function planHost(input: HostInput): HostPlan {
  const excludes = excludeRules(input.files.map((f) => f.path));
  const head = chooseHead(input.ranked, excludes, input.lastModified);
  for (;;) {
    const headSet = new Set(head);
    const tail = input.ranked.filter((id) => !headSet.has(id));
    const total = input.files.length + input.extraFiles + tail.length;
    const over = total - input.maxFiles;
    const candidates = over > 0 ? movable(input.files, tail) : [];
    if (over <= 0 || candidates.length >= over) {
      return { head: headSet, tail, r2: new Set(candidates.slice(0, Math.max(0, over))), excludes, pagesFiles: total - Math.max(0, over) };
    }
    if (head.length === 0) {
      throw new BuildError(
        `the output would hold ${total - candidates.length} files on Pages, over the budget of ${input.maxFiles}, even with every file the function can serve (${candidates.length}) in R2: ` +
          "prebuild fewer or larger limits (--limits), leave out the sub-series files (--no-series-files) or raise --max-files (100,000 on Cloudflare's paid plans)",
      );
    }
    head.pop();
  }
}
