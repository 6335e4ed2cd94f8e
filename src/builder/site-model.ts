/**
 * The site's view model of a built indicator (src/site/model.ts): its labels,
 * points, notes and display settings, and the schema.org JSON-LD of its pages.
 * Made once per indicator for its four pages (two languages, page and embed).
 */
import type { SiteConfig } from "../core/indicator/config.js";
import { LANGS, type Lang, type Localized } from "../core/text/i18n.js";
import { defaultSelection, type ViewIndicator, type ViewSeries } from "../site/client/series-view.js";
import type { SiteIndicator } from "../site/model.js";
import { lookOf } from "./freshness.js";
import { lookBound } from "../core/time/schedule.js";
import type { BuiltIndicator } from "./dataset.js";
import { datasetJsonLd } from "./formats/schema-org.js";
import { byCodeUnits } from "../core/text/order.js";
import { SOURCE_KINDS, sourceKindOf } from "../core/answer/provenance.js";
import { citedSources, type KindOrNone } from "../core/answer/source-kind-counts.js";
import { revisedPoints, type SeriesRevisions } from "../core/history/revised.js";
import { decodeHistory } from "../core/history/history.js";
import type { IndicatorHistory } from "./history.js";

/** An indicator's revised points by sub-series id (src/core/history/revised.ts). */
export type Revisions = ReadonlyMap<string, SeriesRevisions>;

const NO_REVISIONS: Revisions = new Map();

/** The revised points of an indicator from its history table's shards (none without one). */
export function revisionsOf(history: IndicatorHistory | undefined): Revisions {
  return history === undefined || history.table === null ? NO_REVISIONS : revisedPoints(history.table.shards.map((shard) => decodeHistory(shard)));
}

/**
 * The sub-series of an indicator with their labels, points and notes, in the
 * dataset's order. A note without a translation into a language (a warning of
 * src/source/load.ts) is shown there as written, and listed in `untranslated`
 * so that the page marks its language.
 */
export function viewSeries({ plain, labels, source }: BuiltIndicator, revised: Revisions = NO_REVISIONS): ViewSeries[] {
  const notes = new Map<string, Record<string, Localized>>();
  const untranslated = new Map<string, Record<string, Lang[]>>();
  const { noteLanguage } = source.meta.display;
  const translation = (note: string, lang: Lang) => (lang === noteLanguage ? note : source.meta.noteTranslations[lang]?.[note]);
  for (const row of source.rows) {
    if (row.note === "") continue;
    const byDate = notes.get(row.series) ?? {};
    byDate[row.date] = Object.fromEntries(LANGS.map((lang) => [lang, translation(row.note, lang) ?? row.note])) as Localized;
    notes.set(row.series, byDate);
    const missing = LANGS.filter((lang) => translation(row.note, lang) === undefined);
    if (missing.length > 0) untranslated.set(row.series, { ...untranslated.get(row.series), [row.date]: missing });
  }
  const kinds = pointKinds(source);
  return plain.map((s, i) => {
    const missing = untranslated.get(s.id);
    const changed = revised.get(s.id);
    return {
      ...(labels[i] as (typeof labels)[number]),
      dates: s.dates,
      values: s.values,
      notes: notes.get(s.id) ?? {},
      ...(missing === undefined ? {} : { untranslated: missing }),
      ...(kinds.get(s.id) ?? {}),
      ...(changed === undefined ? {} : { revised: changed }),
    };
  });
}

/**
 * By sub-series, the kind of source of its points as the view carries it: the
 * kind most of them have, and by date the points of another kind (in the
 * declared order of kinds when two are as common).
 */
function pointKinds(source: BuiltIndicator["source"]): Map<string, { kind: KindOrNone; kindAt?: Record<string, KindOrNone> }> {
  const bySeries = new Map<string, { date: string; kind: KindOrNone }[]>();
  for (const row of source.rows) {
    let list = bySeries.get(row.series);
    if (list === undefined) bySeries.set(row.series, (list = []));
    list.push({ date: row.date, kind: sourceKindOf(source.meta.sourceKinds, row.source) ?? "none" });
  }
  const out = new Map<string, { kind: KindOrNone; kindAt?: Record<string, KindOrNone> }>();
  for (const [id, list] of bySeries) {
    const counts = new Map<KindOrNone, number>();
    for (const p of list) counts.set(p.kind, (counts.get(p.kind) ?? 0) + 1);
    const order: readonly KindOrNone[] = [...SOURCE_KINDS, "none"];
    const usual = order.reduce((best, k) => ((counts.get(k) ?? 0) > (counts.get(best) ?? 0) ? k : best));
    const others = list.filter((p) => p.kind !== usual).sort((a, b) => byCodeUnits(b.date, a.date));
    out.set(id, others.length === 0 ? { kind: usual } : { kind: usual, kindAt: Object.fromEntries(others.map((p) => [p.date, p.kind])) });
  }
  return out;
}

/** What the view needs of an indicator; `version`: its data version (Unix seconds); `revised`: its revised points (src/core/history/revised.ts). */
export function viewIndicator(indicator: BuiltIndicator, version: number, revised: Revisions = NO_REVISIONS): ViewIndicator {
  const { meta } = indicator.source;
  const series = viewSeries(indicator, revised);
  const look = lookOf(indicator, version);
  return {
    id: meta.id,
    title: meta.title,
    unit: meta.unit,
    rhythm: meta.rhythm,
    stepwise: meta.stepwise,
    display: meta.display,
    facets: meta.facets,
    compare: meta.view.compare ?? null,
    defaults: defaultSelection(meta.facets, meta.view.default, series),
    series,
    // The last look (src/core/time/schedule.ts `lookBound`): the later of the recorded check and the last change of points.
    version: lookBound(look),
    look: { check: meta.check === undefined ? null : { day: meta.check.day, by: meta.check.by }, changed: look.changed },
    schedule: meta.schedule,
    ...(indicator.parts === undefined ? {} : { inParts: true as const }),
  };
}

const made = new WeakMap<BuiltIndicator, SiteIndicator>();

/**
 * The site's view model of `indicator` at data version `version` (Unix seconds)
 * with its revised points `revised` (made once, then reused: the first call's
 * `revised` stays, so the build passes the same to every call).
 */
export function siteIndicator(config: SiteConfig, indicator: BuiltIndicator, version: number, revised: Revisions = NO_REVISIONS): SiteIndicator {
  const known = made.get(indicator);
  if (known !== undefined) return known;
  const { meta } = indicator.source;
  const model: SiteIndicator = {
    id: meta.id,
    description: meta.description,
    license: meta.license,
    source: meta.source,
    notes: meta.notes,
    glossary: meta.glossary,
    deflates: meta.deflates,
    ratios: meta.view.ratios,
    lastUpdated: indicator.answers.lastUpdated,
    seriesCount: indicator.plain.length,
    sourceKinds: citedSources(meta.sourceKinds, indicator.source.rows),
    view: viewIndicator(indicator, version, revised),
    jsonLd: Object.fromEntries(LANGS.map((lang) => [lang, datasetJsonLd(config, indicator, lang)])) as Record<Lang, unknown>,
    ...(indicator.parts === undefined ? {} : { parts: indicator.parts }),
  };
  made.set(indicator, model);
  return model;
}
