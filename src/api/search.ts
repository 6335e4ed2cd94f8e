/**
 * `GET|HEAD /api/v1/search?q=…`: sub-series of every indicator found by the words
 * people type (src/core/answer/search.ts), from the index the build writes. The same
 * policy as the data endpoints (the handler's CORS, methods and usage limit), the
 * same caching, ETag/304 and error object. The canonical query folds `q`, so
 * "Médica Uruguaya" and "medica uruguaya" are one answer with one ETag.
 */
import { NO_SEPARATORS, withQuery } from "../core/text/url.js";
import { badRequest } from "./api-error.js";
import { LOCALIZED, closedObject, type FieldDeclarations, type JsonSchema } from "../core/answer/schema.js";
import { conditionalAnswer } from "./conditional-answer.js";
import { integerValue, rawParameters } from "./query.js";
import type { Assets, DataStore } from "./data-store.js";
import { CACHE_CONTROL, JSON_CONTENT_TYPE, LICENSE, OFFSET, SEARCH_LIMIT, SEARCH_PARAMETERS, quote } from "../core/answer/contract.js";
import { answerEtag } from "../core/answer/etag.js";
import type { Manifest } from "../core/file/manifest.js";
import { SEARCH_PATH, endpointPath } from "../core/file/paths.js";
import { candidates, facetCounts, fold, queryWords, search, shardsToRead, type FacetFilter, type SearchIndex, type SearchTop } from "../core/answer/search.js";

/** A validated search. */
interface SearchQuery {
  readonly words: readonly string[];
  readonly indicator: string | null;
  readonly facets: readonly FacetFilter[];
  readonly limit: number;
  readonly offset: number;
}

const MAX_Q = 200;

function integer(name: string, text: string | undefined, bounds: { min: number; max: number; default: number }): number {
  if (text === undefined) return bounds.default;
  const value = integerValue(name, text, bounds);
  if (typeof value === "number") return value;
  throw badRequest(value.detail);
}

/** Parses the query string. @throws ApiError naming the faulty parameter. */
function parseSearch(params: URLSearchParams, top: SearchTop): SearchQuery {
  const raw = rawParameters(params, SEARCH_PARAMETERS);
  const q = raw.q;
  if (q === undefined) throw badRequest("q: required: the words to find, e.g. q=casmu gineco");
  const words = queryWords(q);
  if (q.length > MAX_Q || words.length === 0) throw badRequest(`q: expected 1 to ${MAX_Q} characters with at least one letter or digit, got ${quote(q)}`);
  const indicator = raw.indicator ?? null;
  if (indicator !== null && !top.indicators.some((i) => i.id === indicator)) {
    throw badRequest(`indicator: there is no indicator ${quote(indicator)}; the ids are ${top.indicators.map((i) => i.id).join(", ")}`);
  }
  const facets: FacetFilter[] = [];
  const facet = raw.facet;
  if (facet !== undefined) {
    for (const item of facet.split(",")) {
      const colon = item.indexOf(":");
      const name = item.slice(0, colon);
      const wanted = fold(item.slice(colon + 1)).trim();
      if (colon < 1 || wanted === "") throw badRequest(`facet: expected name:value pairs separated by commas (facet=provider:CASMU), got ${quote(item)}`);
      // A value by its key or its label in either language, accents and case aside.
      const values = new Set<string>();
      for (const f of top.facets) if (f.name === name && [f.value, f.label.es, f.label.en].some((t) => fold(t) === wanted)) values.add(f.value);
      if (values.size === 0) throw badRequest(`facet: no sub-series has ${quote(item)}; the facets and their values are in each indicator's metadata document`);
      for (const value of values) facets.push({ name, value });
    }
  }
  return {
    words,
    indicator,
    facets,
    limit: integer("limit", raw.limit, SEARCH_LIMIT),
    offset: integer("offset", raw.offset, OFFSET),
  };
}

/** The canonical URL of a search (folded words; facet values by their keys): `meta.next`, `Link` and the ETag use it. */
function searchUrl(query: SearchQuery, offset: number): string {
  const params: [string, string][] = [["q", query.words.join(" ")]];
  if (query.indicator !== null) params.push(["indicator", query.indicator]);
  if (query.facets.length > 0) params.push(["facet", query.facets.map((f) => `${f.name}:${f.value}`).join(",")]);
  params.push(["limit", String(query.limit)], ["offset", String(offset)]);
  // Every separator escaped, as this URL (and so the ETag of every search) has always been written.
  return withQuery(SEARCH_PATH, params, NO_SEPARATORS);
}

/** The fields of one result, in the order `serveSearch` writes them, with their schemas. */
export function searchResultFields(): FieldDeclarations {
  return {
    indicator: { schema: { type: "string" } },
    series: { schema: { type: "string" } },
    title: { schema: LOCALIZED },
    indicator_title: { schema: LOCALIZED },
    facets: {
      schema: {
        type: "array",
        items: closedObject({ name: { schema: { type: "string" } }, value: { schema: { type: "string" } }, label: { schema: LOCALIZED } }),
      },
    },
    newest: { schema: { ...closedObject({ date: { schema: { type: "string", format: "date" } }, value: { schema: { type: "number" } } }), type: ["object", "null"], description: "The newest point; null: none." } },
    url: { schema: { type: "string", description: "The API URL of the sub-series." } },
  };
}

/** The fields of the search's `meta`, in the order `serveSearch` writes them, with their schemas. */
export function searchMetaFields(): FieldDeclarations {
  return {
    q: { schema: { type: "string", description: "The words asked, folded (accents and case aside)." } },
    indicator: { schema: { type: ["string", "null"] } },
    facet: { schema: { type: ["array", "null"], items: { type: "string" }, description: "The facet filters as `name:value` keys; null without `facet`." } },
    total: { schema: { type: "integer", minimum: 0 } },
    limit: { schema: { type: "integer" } },
    offset: { schema: { type: "integer" } },
    has_more: { schema: { type: "boolean" } },
    next: { schema: { type: ["string", "null"] } },
    facets: { schema: { type: "object", description: "Per facet name, per value key, how many of all the matches have it.", additionalProperties: { type: "object", additionalProperties: { type: "integer", minimum: 1 } } } },
    license: { schema: { type: "string" } },
  };
}

/** The search's JSON answer. */
export function searchSchema(): JsonSchema {
  return closedObject({ data: { schema: { type: "array", items: closedObject(searchResultFields()) } }, meta: { schema: closedObject(searchMetaFields()) } });
}

/** Answers `/api/v1/search`. */
export async function serveSearch(request: Request, assets: Assets, store: DataStore, manifest: Manifest): Promise<Response> {
  const url = new URL(request.url);
  const { tag } = manifest.search;
  const top = await store.searchTop(assets, url, manifest.search.path, tag);
  const query = parseSearch(url.searchParams, top);
  const indicator = query.indicator === null ? null : top.indicators.findIndex((i) => i.id === query.indicator);
  const shards = await Promise.all(shardsToRead(top, query.words, indicator, query.facets).map((n) => store.searchShard(assets, url, n, top.sizes[n] ?? 0, tag)));
  const index = candidates(top, shards, indicator);
  // Two facet filters of one name are alternatives (a value given by a label two values share).
  const byName = new Map<string, FacetFilter[]>();
  for (const f of query.facets) byName.set(f.name, [...(byName.get(f.name) ?? []), f]);
  const filtered = search(index, query.words, indicator).filter((e) => [...byName.values()].every((alternatives) => alternatives.some((f) => e.facets.some((g) => g.name === f.name && g.value === f.value))));
  const page = filtered.slice(query.offset, query.offset + query.limit);
  const hasMore = filtered.length > query.offset + query.limit;
  const next = hasMore ? searchUrl(query, query.offset + query.limit) : null;
  const body = JSON.stringify({
    data: page.map((e) => {
      const ind = index.indicators[e.i] as SearchIndex["indicators"][number];
      return {
        indicator: ind.id,
        series: e.series,
        title: e.title,
        indicator_title: ind.title,
        facets: e.facets,
        newest: e.newest,
        url: withQuery(endpointPath(ind.id), [["series", e.series]]),
      };
    }),
    meta: {
      q: query.words.join(" "),
      indicator: query.indicator,
      facet: query.facets.length === 0 ? null : query.facets.map((f) => `${f.name}:${f.value}`),
      total: filtered.length,
      limit: query.limit,
      offset: query.offset,
      has_more: hasMore,
      next,
      facets: facetCounts(filtered),
      license: LICENSE,
    },
  });
  const headers = new Headers({
    "Content-Type": JSON_CONTENT_TYPE,
    "Cache-Control": CACHE_CONTROL.success,
    ETag: await answerEtag([manifest.search.tag], searchUrl(query, query.offset)),
    "Last-Modified": manifest.search.lastModified,
  });
  if (next !== null) headers.set("Link", `<${next}>; rel="next"`);
  return conditionalAnswer(request, headers, () => body);
}
