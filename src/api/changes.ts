/**
 * `GET|HEAD /api/v1/{indicator}/changes?since=…`: the points added, revised and
 * removed since the end of a day (src/core/history/changes.ts), paged, as JSON or CSV.
 * The same policy as the data endpoints (the handler's CORS, methods and usage
 * limit), the same caching, ETag/304, HEAD and error object; every fault a 400
 * naming its parameter.
 */
import { badRequest, unknownIndicator } from "./api-error.js";
import { conditionalAnswer } from "./conditional-answer.js";
import type { Assets, DataStore } from "./data-store.js";
import { checkNotAfterToday } from "./published.js";
import { rawParameters } from "./query.js";
import { checkReadBytes, choose, readSize } from "./endpoint.js";
import { shardsOf } from "../core/file/answer-index.js";
import type { AnswerFields } from "../core/file/answers.js";
import { CHANGES_CSV_HEADER, CHANGES_DECLARATIONS, allAdded, changeCsv, changeFields, changeJson, changesPath, shardChanges, type ChangesQuery, type PointChange } from "../core/history/changes.js";
import { versionOn } from "../core/history/history.js";
import { CACHE_CONTROL, CSV_CONTENT_TYPE, JSON_CONTENT_TYPE } from "../core/answer/contract.js";
import { answerEtag } from "../core/answer/etag.js";
import { manifestEntry } from "../core/file/manifest.js";
import { canonicalUrlOf, isInvalid, readDeclared } from "../core/answer/parameters.js";
import { metadataPath } from "../core/file/paths.js";
import { DAY, closedObject, type FieldDeclarations, type JsonSchema } from "../core/answer/schema.js";

const NAMES = CHANGES_DECLARATIONS.map((p) => p.name);

/** The fields of the changes' `meta`, in the order `serveChanges` writes them, with their schemas. */
export function changesMetaFields(): FieldDeclarations {
  return {
    indicator: { schema: { type: "string" } },
    since: { schema: DAY },
    since_before_first: {
      optional: true,
      schema: {
        ...DAY,
        description:
          "Only when `since` is before the indicator's first version: that version's day (UTC). Nothing was published by `since`, so every point published since is listed, added; absent otherwise.",
      },
    },
    series: { optional: true, schema: { type: "array", items: { type: "string" }, description: "The `series` asked, deduplicated and sorted, as the data answers' `meta.series`; absent without it." } },
    version: { schema: { ...DAY, description: "The day the current version was published (UTC)." } },
    total: { schema: { type: "integer", minimum: 0 } },
    limit: { schema: { type: "integer" } },
    offset: { schema: { type: "integer" } },
    has_more: { schema: { type: "boolean" } },
    next: { schema: { type: ["string", "null"] } },
    license: { schema: { type: "string" } },
    attribution: { schema: { type: "string" } },
    metadata: { schema: { type: "string" } },
  };
}

/** The changes' JSON answer (OpenAPI's `Changes`): `data`, the changes (src/core/history/changes.ts `changeFields`), and `meta`. */
export function changesSchema(): JsonSchema {
  return closedObject({
    data: { schema: { type: "array", items: closedObject(changeFields()) } },
    meta: { schema: closedObject(changesMetaFields()) },
  });
}

/** The canonical URL of a question for changes: its ETag's, and `meta.next`'s with the next offset. */
export function changesUrl(indicator: string, query: ChangesQuery): string {
  return canonicalUrlOf(changesPath(indicator), query, CHANGES_DECLARATIONS);
}

/**
 * Answers the changes of `indicator` (the raw path segment); `now` is the clock in
 * milliseconds. @throws ApiError 404 for an unknown indicator, 400 naming the faulty parameter.
 */
export async function serveChanges(request: Request, indicator: string, assets: Assets, store: DataStore, now: number): Promise<Response> {
  const url = new URL(request.url);
  const manifest = await store.manifest(assets, url);
  const entry = manifestEntry(manifest, indicator);
  if (entry === undefined) throw unknownIndicator(indicator);
  const query = readDeclared(rawParameters(url.searchParams, NAMES), CHANGES_DECLARATIONS);
  if (isInvalid(query)) throw badRequest(query.invalid);
  checkNotAfterToday("since", query.since, now);
  const { days } = entry.history;
  // A day before the first version: everything since nothing was published, every point published since added (version -1 of the table).
  const since = versionOn(days, query.since);
  const first = days[0] as string;

  const canonical = changesUrl(indicator, query);
  const { path, tag } = entry.history;
  let all: readonly PointChange[] = [];
  let fields: AnswerFields;
  if (path === null) {
    // One version (no table, src/builder/history.ts): nothing changed since it, everything before it; the fields are the answer index's.
    const answers = await store.answerIndex(assets, url, entry.answers, entry.lastModified);
    const chosen = choose(indicator, answers.ids, query.series);
    fields = answers;
    if (since < 0) {
      checkReadBytes(indicator, readSize(answers.shards, shardsOf(answers, chosen)), chosen, answers.ids.length, store.readBytes);
      all = allAdded(await store.view(assets, url, indicator, entry.answers, entry.lastModified, chosen), chosen, first);
    }
  } else {
    // The shards of the sub-series chosen among every one the table has (a removed one too), within what one request may read.
    const index = await store.historyIndex(assets, url, path, tag);
    const chosen = choose(indicator, index.ids, query.series);
    const wanted = shardsOf(index, chosen);
    checkReadBytes(indicator, readSize(index.shards, wanted), chosen, index.ids.length, store.readBytes);
    all = shardChanges(await store.historyShards(assets, url, indicator, index, tag, wanted), since);
    if (chosen !== null) {
      const named = new Set(chosen.map((s) => index.ids[s]));
      all = all.filter((c) => named.has(c.series));
    }
    fields = index.fields;
  }
  const page = all.slice(query.offset, query.offset + query.limit);
  const hasMore = query.offset + query.limit < all.length;
  const next = hasMore ? changesUrl(indicator, { ...query, offset: query.offset + query.limit }) : null;
  const headers = new Headers({
    "Content-Type": query.format === "csv" ? CSV_CONTENT_TYPE : JSON_CONTENT_TYPE,
    "Cache-Control": CACHE_CONTROL.success,
    ETag: await answerEtag([entry.history.tag], canonical),
    "Last-Modified": entry.lastModified,
  });
  const links = [`<${metadataPath(indicator)}>; rel="describedby"`];
  if (next !== null) links.unshift(`<${next}>; rel="next"`);
  if (query.format === "csv") {
    links.push(`<${fields.attributionUrl}>; rel="cite-as"`);
    headers.set("X-Total-Count", String(all.length));
  }
  headers.set("Link", links.join(", "));
  return conditionalAnswer(request, headers, () => {
    if (query.format === "csv") return CHANGES_CSV_HEADER + page.map(changeCsv).join("");
    const meta = {
      indicator,
      since: query.since,
      // Only when `since` is before the first version (its day): the other answers keep their bytes.
      ...(since < 0 ? { since_before_first: first } : {}),
      // Only when given: the answers of every sub-series keep the bytes (and ETags) they had before the parameter.
      ...(query.series === null ? {} : { series: query.series }),
      version: days[days.length - 1] as string,
      total: all.length,
      limit: query.limit,
      offset: query.offset,
      has_more: hasMore,
      next,
      license: fields.license,
      attribution: fields.attribution,
      metadata: metadataPath(indicator),
    };
    return `{"data":[${page.map(changeJson).join(",")}],"meta":${JSON.stringify(meta)}}`;
  });
}
