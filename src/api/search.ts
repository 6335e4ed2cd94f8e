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
import { rawParameters } from "./query.js";
import type { Assets, DataStore } from "./data-store.js";
import { CACHE_CONTROL, JSON_CONTENT_TYPE, LICENSE, OFFSET, SEARCH_LIMIT, quote } from "../core/answer/contract.js";
import { canonicalParams, integerParse, invalid, isInvalid, openApiParameters, readDeclared, type Declared, type Invalid } from "../core/answer/parameters.js";
import { answerEtag } from "../core/answer/etag.js";
import type { Manifest } from "../core/file/manifest.js";
import { SEARCH_PATH, endpointPath } from "../core/file/paths.js";
import { candidates, facetCounts, fold, queryWords, search, shardsToRead, type FacetFilter, type SearchIndex, type SearchTop } from "../core/answer/search.js";

/** A validated search: `q`'s words (folded), the indicator, the facet filters by their keys, the page. */
interface SearchQuery {
  readonly q: readonly string[];
  readonly indicator: string | null;
  readonly facet: readonly FacetFilter[];
  readonly limit: number;
  readonly offset: number;
}

const MAX_Q = 200;

/**
 * The facet filters of a `facet` text, each value by its key or its label in either
 * language (accents and case aside) among the facets `top` holds; a label two values
 * share gives both.
 */
function facetFilters(text: string, top: Pick<SearchTop, "facets">): readonly FacetFilter[] | Invalid {
  const facets: FacetFilter[] = [];
  for (const item of text.split(",")) {
    const colon = item.indexOf(":");
    const name = item.slice(0, colon);
    const wanted = fold(item.slice(colon + 1)).trim();
    if (colon < 1 || wanted === "") return invalid(`facet: expected name:value pairs separated by commas (facet=provider:CASMU), got ${quote(item)}`);
    const values = new Set<string>();
    for (const f of top.facets) if (f.name === name && [f.value, f.label.es, f.label.en].some((t) => fold(t) === wanted)) values.add(f.value);
    if (values.size === 0) return invalid(`facet: no sub-series has ${quote(item)}; the facets and their values are in each indicator's metadata document`);
    for (const value of values) facets.push({ name, value });
  }
  return facets;
}

/**
 * The parameters of `/api/v1/search`, in the canonical order, for the search index
 * `top` (which indicators and facet values exist); OpenAPI's parameters (`top` with
 * none) and the canonical URL come from them.
 */
export function searchDeclarations(top: Pick<SearchTop, "indicators" | "facets">): readonly Declared<SearchQuery>[] {
  return [
    {
      name: "q",
      // Not given is a fault: its 400's detail.
      absent: invalid("q: required: the words to find, e.g. q=casmu gineco"),
      parse: (q) => {
        const words = queryWords(q);
        return q.length > MAX_Q || words.length === 0 ? invalid(`q: expected 1 to ${MAX_Q} characters with at least one letter or digit, got ${quote(q)}`) : words;
      },
      echo: (query) => query.q.join(" "),
      schema: { type: "string", maxLength: MAX_Q },
      description: { en: `The words to find (up to ${MAX_Q} characters), e.g. \`casmu gineco\`.`, es: `Las palabras a buscar (hasta ${MAX_Q} caracteres), p. ej. \`casmu gineco\`.` },
      summary: { en: "the words to find", es: "las palabras a buscar" },
    },
    {
      name: "indicator",
      absent: null,
      parse: (id) => (top.indicators.some((i) => i.id === id) ? id : invalid(`indicator: there is no indicator ${quote(id)}; the ids are ${top.indicators.map((i) => i.id).join(", ")}`)),
      echo: (query) => query.indicator,
      schema: { type: "string" },
      description: { en: "Only this indicator's sub-series.", es: "Solo las subseries de este indicador." },
      summary: { en: "only one indicator's sub-series", es: "solo las subseries de un indicador" },
    },
    {
      name: "facet",
      absent: [],
      parse: (text) => facetFilters(text, top),
      echo: (query) => (query.facet.length === 0 ? null : query.facet.map((f) => `${f.name}:${f.value}`).join(",")),
      schema: { type: "string" },
      description: {
        en: "`name:value` pairs separated by commas; a value by its key or its label in either language (`provider:casmu,regime:sin fonasa`).",
        es: "Pares `nombre:valor` separados por comas; un valor por su clave o su etiqueta en cualquiera de los dos idiomas (`provider:casmu,regime:sin fonasa`).",
      },
      summary: { en: "facet filters, `name:value,…`", es: "filtros por faceta, `nombre:valor,…`" },
    },
    {
      name: "limit",
      absent: SEARCH_LIMIT.default,
      parse: integerParse("limit", SEARCH_LIMIT),
      echo: (query) => String(query.limit),
      schema: { type: "integer", minimum: SEARCH_LIMIT.min, maximum: SEARCH_LIMIT.max, default: SEARCH_LIMIT.default },
      description: { en: "Results per page.", es: "Resultados por página." },
      summary: { en: `results per page (≤ ${SEARCH_LIMIT.max})`, es: `resultados por página (≤ ${SEARCH_LIMIT.max})` },
    },
    {
      name: "offset",
      absent: OFFSET.default,
      parse: integerParse("offset", OFFSET),
      echo: (query) => String(query.offset),
      schema: { type: "integer", minimum: OFFSET.min, maximum: OFFSET.max, default: OFFSET.default },
      description: { en: "Results skipped.", es: "Resultados salteados." },
      summary: { en: "results skipped", es: "resultados salteados" },
    },
  ];
}

/** The search's parameters as OpenAPI lists them (the values an index holds aside). */
export function searchParameters() {
  return openApiParameters(searchDeclarations({ indicators: [], facets: [] }));
}

/** Parses the query string. @throws ApiError naming the faulty parameter. */
function parseSearch(params: URLSearchParams, top: SearchTop): SearchQuery {
  const declarations = searchDeclarations(top);
  const query = readDeclared(rawParameters(params, declarations.map((p) => p.name)), declarations);
  if (isInvalid(query)) throw badRequest(query.invalid);
  return query;
}

/** The canonical URL of a search (folded words; facet values by their keys): `meta.next`, `Link` and the ETag use it. */
function searchUrl(query: SearchQuery, offset: number): string {
  // Every separator escaped, as this URL (and so the ETag of every search) has always been written.
  return withQuery(SEARCH_PATH, canonicalParams({ ...query, offset }, searchDeclarations({ indicators: [], facets: [] })), NO_SEPARATORS);
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
  const shards = await Promise.all(shardsToRead(top, query.q, indicator, query.facet).map((n) => store.searchShard(assets, url, n, top.sizes[n] ?? 0, tag)));
  const index = candidates(top, shards, indicator);
  // Two facet filters of one name are alternatives (a value given by a label two values share).
  const byName = new Map<string, FacetFilter[]>();
  for (const f of query.facet) byName.set(f.name, [...(byName.get(f.name) ?? []), f]);
  const filtered = search(index, query.q, indicator).filter((e) => [...byName.values()].every((alternatives) => alternatives.some((f) => e.facets.some((g) => g.name === f.name && g.value === f.value))));
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
      q: query.q.join(" "),
      indicator: query.indicator,
      facet: query.facet.length === 0 ? null : query.facet.map((f) => `${f.name}:${f.value}`),
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
