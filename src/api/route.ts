/**
 * What a route of the function declares (src/api/routes.ts lists them): its path,
 * the code that answers it, and what every description of the API says of it —
 * its OpenAPI path item (from which docs/api.md's endpoint table is made), its
 * section of llms.txt and its MCP tool. Declared here once, each is read by the
 * router (src/api/handler.ts), OpenAPI (src/builder/openapi.ts), llms.txt
 * (src/builder/formats/llms-txt.ts) and the MCP server (src/api/mcp.ts).
 */
import type { AnswerData } from "../core/file/answers.js";
import type { Manifest } from "../core/file/manifest.js";
import type { Assets, DataStore } from "./data-store.js";
import type { Bucket } from "./files.js";
import type { Tool } from "./tools.js";

/** What a route's code is handed: the request, where the output's files are, the data cache and the clock. */
export interface Served {
  readonly request: Request;
  /** The output's files wherever the build put them (static assets or R2, src/api/files.ts `hostedAssets`). */
  readonly assets: Assets;
  /** The static assets alone, and the R2 bucket when there is one (the hosted-file route reads both itself). */
  readonly staticAssets: Assets;
  readonly bucket: Bucket | undefined;
  readonly store: DataStore;
  /** The clock, in milliseconds. */
  readonly now: number;
}

/**
 * What the build knows when it describes the routes: the published indicator ids
 * (`{indicator}`'s values), the sub-series that adjust, the first indicator's
 * answers (the examples of a page), and examples made from the data: a URL per
 * parameter of `/api/v1/{indicator}` and words a search finds.
 */
export interface DocContext {
  readonly ids: readonly string[];
  readonly adjusters: Manifest["adjusters"];
  readonly sample: AnswerData | undefined;
  readonly parameterExamples: Readonly<Record<string, string>>;
  readonly searchWords: string | undefined;
}

/** An OpenAPI path item: an operation by method (OpenAPI 3.1 §4.8.9). */
export type PathItem = Readonly<Record<string, { readonly summary: string } & Readonly<Record<string, unknown>>>>;

/** One route of the function. */
export interface Route {
  /** The path as OpenAPI writes it, `{name}` for a raw path segment: `/api/v1/{indicator}/changes`. */
  readonly path: string;
  /** The paths it answers, its groups the segments it is handed; by default `routePattern(path)`. */
  readonly pattern?: RegExp;
  /** Answers a request whose path it matched; `segments`: the pattern's groups, raw (not percent-decoded). */
  readonly serve: (served: Served, segments: readonly string[]) => Promise<Response>;
  /** Its OpenAPI path item; absent for a route no description lists (the hosted files, described as the static files they are). */
  readonly describe?: (context: DocContext) => PathItem;
  /** Its section of llms.txt (its heading first), at `place` among the routes' sections. */
  readonly llms?: { readonly place: number; readonly lines: (context: DocContext) => readonly string[] };
  /** Its MCP tool, at `place` among the tools (src/api/mcp.ts), for the published indicator ids. */
  readonly mcp?: { readonly place: number; readonly tool: (ids: readonly string[]) => Tool };
}

/** `text` with the characters a regular expression reads as syntax escaped. */
const literal = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/**
 * The paths a route's `path` answers: a `{name}` is one raw path segment, and a path
 * with one also answers with a final slash (`/api/v1/x/`, as Pages hands it over);
 * a path without one answers only as written.
 */
export function routePattern(path: string): RegExp {
  const parts = path.split(/\{[a-z_]+\}/);
  const source = parts.map(literal).join("([^/]+)");
  return new RegExp(parts.length > 1 ? `^${source}/?$` : `^${source}$`);
}

/** A route found for a path, with the raw segments of its `{…}`. */
export interface Found {
  readonly route: Route;
  readonly segments: readonly string[];
}

/**
 * The router of `routes`: the route that answers a path, with its segments. A route
 * of a fixed path comes before the routes with segments (`/api/v1/search` is the
 * search, not an indicator called "search"), then the table's order decides.
 */
export function router(routes: readonly Route[]): (path: string) => Found | undefined {
  const fixed = (route: Route) => !route.path.includes("{");
  const tried = [...routes.filter(fixed), ...routes.filter((r) => !fixed(r))].map((route) => ({ route, pattern: route.pattern ?? routePattern(route.path) }));
  return (path) => {
    for (const { route, pattern } of tried) {
      const match = pattern.exec(path);
      if (match !== null) return { route, segments: match.slice(1) };
    }
    return undefined;
  };
}
