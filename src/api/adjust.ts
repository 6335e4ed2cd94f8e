/**
 * `GET|HEAD /api/v1/adjust?amount=…&from=…&to=…&by=<indicator>:<sub-series>`: an
 * amount carried between two dates by a sub-series an indicator declares it
 * adjusts with (src/core/time/adjust.ts). The same policy as the data endpoints (the
 * handler's CORS, methods and usage limit), the same caching, ETag/304, HEAD and
 * error object; every fault a 400 naming its parameter.
 */
import { badRequest } from "./api-error.js";
import { conditionalAnswer } from "./conditional-answer.js";
import type { Assets, DataStore } from "./data-store.js";
import { rawParameters } from "./query.js";
import { timeSource } from "./time.js";
import { ADJUST_DECLARATIONS, ADJUST_PATH, adjustBody, adjustDataFields, adjustEnd, usedMeta, usedMetaFields, type AdjustQuery } from "../core/time/adjust.js";
import { CACHE_CONTROL, CSV_CONTENT_TYPE, DERIVED_DIGITS, JSON_CONTENT_TYPE, TODAY_UTC_OFFSET_SECONDS, quote } from "../core/answer/contract.js";
import { DAY, DAY_OR_NULL, LOCALIZED, closedObject, type FieldDeclarations, type JsonSchema } from "../core/answer/schema.js";
import { RHYTHMS } from "../core/time/coverage.js";
import { dateOfDay, dayOfTime } from "../core/time/dates.js";
import { answerEtag } from "../core/answer/etag.js";
import { manifestEntry, type Manifest } from "../core/file/manifest.js";
import { canonicalUrlOf, isInvalid, readDeclared } from "../core/answer/parameters.js";
import { metadataPath } from "../core/file/paths.js";

const NAMES = ADJUST_DECLARATIONS.map((p) => p.name);

/** The canonical URL of an adjustment: its ETag's and the answer's `meta.url`. */
export function adjustUrl(query: AdjustQuery): string {
  return canonicalUrlOf(ADJUST_PATH, query, ADJUST_DECLARATIONS);
}

/** The fields of the adjustment's `meta`, in the order `serveAdjust` writes them, with their schemas. */
export function adjustMetaFields(): FieldDeclarations {
  return {
    by: { schema: { type: "string" } },
    unit: { schema: { type: "string", description: "The unit of `by`'s indicator, as its metadata document gives it." } },
    units_of: {
      schema: {
        ...LOCALIZED,
        type: ["object", "null"],
        description: "For a unit of account (a sub-series its indicator.json's `adjusts` declares with a `unit`), the unit's name in Spanish and English: what `data.in_units` counts. Else null.",
      },
    },
    rhythm: { schema: { type: "string", enum: [...RHYTHMS] } },
    stepwise: { schema: { type: "boolean", description: "True when a value holds until the next one: a date after the last look gets the value in force then, as `at` answers." } },
    url: { schema: { type: "string", description: "The canonical URL of the question." } },
    used: {
      schema: {
        ...closedObject(usedMetaFields()),
        description: "For each end, the date of the value used and, when it is not the date's own, why the date has none: never a silent substitution.",
      },
    },
    checked: {
      schema: {
        ...DAY_OR_NULL,
        description:
          "The day of the last recorded check of the publisher; null: none recorded. Beside `data_changed`, the later of the two bounds what is known (a stepwise value in force then is the one used after it, as `at` answers).",
      },
    },
    data_changed: { schema: { ...DAY, description: "The day the indicator's points last changed." } },
    last_updated: { schema: DAY_OR_NULL },
    license: { schema: { type: "string" } },
    attribution: { schema: { type: "string" } },
    metadata: { schema: { type: "string" } },
    digits: { schema: { type: "integer", const: DERIVED_DIGITS, description: "The significant digits derived numbers (`factor`, `adjusted`, `in_units`) are rounded to." } },
  };
}

/** The adjustment's JSON answer. */
export function adjustSchema(): JsonSchema {
  return closedObject({ data: { schema: closedObject(adjustDataFields()) }, meta: { schema: closedObject(adjustMetaFields()) } });
}

/** Today as the adjustment counts it: the day in Montevideo (UTC−3, `TODAY_UTC_OFFSET_SECONDS`) at `now` (milliseconds). */
export function adjustToday(now: number): string {
  return dayOfTime(Math.floor(now / 1000) + TODAY_UTC_OFFSET_SECONDS);
}

/**
 * Answers `/api/v1/adjust`; `now` is the clock in milliseconds (today: `adjustToday`).
 * @throws ApiError 400 naming the faulty parameter.
 */
export async function serveAdjust(request: Request, assets: Assets, store: DataStore, manifest: Manifest, now: number): Promise<Response> {
  const url = new URL(request.url);
  const query = readDeclared(rawParameters(url.searchParams, NAMES), ADJUST_DECLARATIONS);
  if (isInvalid(query)) throw badRequest(query.invalid);
  const { indicator, series } = query.by;
  const adjuster = manifest.adjusters.find((a) => a.indicator === indicator && a.series === series);
  const entry = manifestEntry(manifest, indicator);
  if (adjuster === undefined || entry === undefined) {
    const those = manifest.adjusters.map((a) => `${a.indicator}:${a.series}`).join(", ");
    throw badRequest(`by: ${quote(`${indicator}:${series}`)} does not adjust amounts; the sub-series that do are ${those === "" ? "none" : those}`);
  }
  const index = await store.answerIndex(assets, url, entry.answers, entry.lastModified);
  const s = index.ids.indexOf(series);
  const data = await store.view(assets, url, indicator, entry.answers, entry.lastModified, [s]);
  const rule = timeSource(data, entry.lastModified);
  const today = adjustToday(now);
  const input = { data, rule, adjuster, schedule: data.schedule ?? null, today };
  const from = adjustEnd("from", query.from, input, s);
  if (typeof from === "string") throw badRequest(from);
  const to = adjustEnd("to", query.to, input, s);
  if (typeof to === "string") throw badRequest(to);
  const canonical = adjustUrl(query);
  const meta = {
    by: `${indicator}:${series}`,
    unit: data.unit,
    units_of: adjuster.unit,
    rhythm: data.rhythm,
    stepwise: data.stepwise,
    url: canonical,
    used: usedMeta(from, to),
    // How current the data are, as `at` says it after the last look: the recorded check (null: none) and the last change of points.
    checked: rule.afterCheck?.look?.checked ?? null,
    data_changed: rule.afterCheck?.look?.changed ?? dateOfDay(rule.versionEnd - 1),
    last_updated: data.lastUpdated,
    license: data.license,
    attribution: data.attribution,
    metadata: metadataPath(indicator),
    digits: DERIVED_DIGITS,
  };
  const body = adjustBody(query, input, from, to, meta);
  const headers = new Headers({
    "Content-Type": query.format === "csv" ? CSV_CONTENT_TYPE : JSON_CONTENT_TYPE,
    "Cache-Control": CACHE_CONTROL.success,
    // An answer with a missing value says whether it is overdue, which depends on the day: that day is in its ETag.
    ETag: await answerEtag([entry.tag], from.missing === null && to.missing === null ? canonical : `${canonical}#today=${today}`),
    "Last-Modified": entry.lastModified,
  });
  const links = [`<${metadataPath(indicator)}>; rel="describedby"`];
  if (query.format === "csv") links.push(`<${data.attributionUrl}>; rel="cite-as"`);
  headers.set("Link", links.join(", "));
  return conditionalAnswer(request, headers, () => body);
}
