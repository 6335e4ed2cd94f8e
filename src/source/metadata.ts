/**
 * `indicator.json`: the metadata of one indicator (docs/DESIGN.md §3), validated with zod.
 */
import { z } from "zod";
import { LICENSE } from "../core/answer/contract.js";
import { RHYTHMS } from "../core/time/coverage.js";
import { isCalendarDate } from "../core/time/dates.js";
import { DATE_MEANINGS, NEUTRAL_DISPLAY, SCALES, type Display } from "../core/indicator/display.js";
import { LANGS, type Lang, type Localized } from "../core/text/i18n.js";
import { SOURCE_KINDS } from "../core/answer/provenance.js";
import { CHECKERS, CHECK_OUTCOMES, type Schedule } from "../core/time/schedule.js";
import { foldedWords, queryWords } from "../core/answer/search.js";
import { zodIssues, type DataIssue, type Parsed } from "./errors.js";
import { readJson } from "./json.js";
import { httpUrl } from "./zod-fields.js";

/** Sub-series ids: lower-case words joined by `.` or `-` (docs/DESIGN.md §3). */
export const ID_PATTERN = /^[a-z0-9]+([.-][a-z0-9]+)*$/;
/**
 * Indicator ids: lower-case words joined by `-`, no dot: the id is a URL path
 * segment, and `_routes.json` tells static files from the endpoint by the dot.
 */
export const INDICATOR_ID_PATTERN = /^[a-z0-9]+(-[a-z0-9]+)*$/;

/** Ids an indicator cannot have: paths under /api/v1/ of the API's own (`/api/v1/search`, `/api/v1/adjust`). */
export const RESERVED_IDS = ["search", "adjust"] as const;

const text = z
  .string({ error: (issue) => (issue.input === undefined ? "required" : "expected a string") })
  .trim()
  .min(1, "must not be empty");

/** A label in every language of the site (`{"es": "…", "en": "…"}`); a missing language is an error. */
const localized = z.strictObject(
  { es: text, en: text },
  { error: (issue) => (issue.input === undefined ? "required" : 'expected {"es": "…", "en": "…"}') },
);
/** A facet value's label: a name written the same in every language may be one string. */
const valueLabel = z.union([text.transform((t): Localized => ({ es: t, en: t })), localized], {
  error: 'expected a name or {"es": "…", "en": "…"}',
});
/** A list of words or phrases (search keywords, equivalents), at least one. */
const wordList = z
  .array(text, { error: (issue) => (issue.input === undefined ? "required" : 'expected a list of words, ["…"]') })
  .min(1, "list at least one");
/** A real calendar day, `YYYY-MM-DD`. */
const calendarDay = z
  .string({ error: "expected a day YYYY-MM-DD" })
  .refine(isCalendarDate, { error: (issue) => `expected a real calendar day YYYY-MM-DD, got ${JSON.stringify(issue.input)}` });
/** A regular expression, in JavaScript's syntax (a backslash doubled in JSON: `"\\d{4}"`). */
const pattern = text.refine(
  (source) => {
    try {
      new RegExp(source);
      return true;
    } catch {
      return false;
    }
  },
  { error: (issue) => `expected a regular expression, got ${JSON.stringify(issue.input)}` },
);
const facetName = z.string().regex(/^[a-z][a-z0-9_]*$/, "expected a facet name like `region`");


/** A sub-series: its title is required unless the indicator declares `seriesTitle` (`templated`). */
const seriesSchema = (templated: boolean) => z.strictObject({
  id: z.string().regex(ID_PATTERN, "expected an id like `monthly` or `region.sub-total` ([a-z0-9]+([.-][a-z0-9]+)*)"),
  title: templated ? localized.optional() : localized,
  /** The sub-series' value of each facet, as a key of `facets.<name>.values`. */
  facets: z.record(facetName, text).optional(),
});

const indicatorSchema = (templated: boolean) => z.strictObject({
  id: z.string().regex(INDICATOR_ID_PATTERN, "expected an id like `unemployment-rate` ([a-z0-9]+(-[a-z0-9]+)*)"),
  title: localized,
  description: localized,
  unit: text,
  rhythm: z.enum(RHYTHMS, { error: `expected one of ${RHYTHMS.join(", ")}` }),
  /** True when a value holds until the next one (a tariff, a legal minimum): charts draw steps. */
  stepwise: z.boolean({ error: "expected true or false" }).default(false),
  license: z.literal(LICENSE, { error: `the service publishes under ${LICENSE} only` }),
  source: z.strictObject({ name: localized, url: httpUrl }),
  notes: z.array(localized).default([]),
  /** Each facet's name, in display order, with its title and the label of each of its values. */
  facets: z.record(facetName, z.strictObject({ title: localized, values: z.record(text, valueLabel) })).default({}),
  /** The title of every sub-series without its own: `{facet}` placeholders replaced by the value labels. */
  seriesTitle: localized.optional(),
  /** The site's view: the facet compared across (one line per value) and the selection it opens on. */
  view: z
    .strictObject({
      compare: facetName.optional(),
      default: z.record(facetName, text).default({}),
      /**
       * The ratios the page offers as views of its chart (the API's `per`): a value
       * in units of another indicator's sub-series (a value in hours of an hourly
       * wage), or as a percentage of it.
       */
      ratios: z
        .array(
          z.strictObject({
            per: z.string().regex(/^[a-z0-9]+(-[a-z0-9]+)*:[a-z0-9]+([.-][a-z0-9]+)*$/, "expected <indicator>:<sub-series>, as the API's per"),
            label: localized,
            percent: z.boolean({ error: "expected true or false" }).default(false),
          }),
        )
        .default([]),
    })
    .default({ default: {}, ratios: [] }),
  /**
   * The importer `npm run import` turns this indicator's publications with (registered by
   * name in src/source/importers.ts); absent when points are added by hand.
   */
  importer: z.string().regex(/^[a-z0-9]+(-[a-z0-9]+)*$/, "expected an importer name like `atuservicio-prices`").optional(),
  /**
   * Where the unattended update (`npm run update`, src/source/update.ts) looks for
   * this indicator's newest publication, one of two (docs/data.md, "The unattended
   * update"):
   *
   * - `page` and `link`: the publisher's page, and how the file's link on it is
   *   recognised (`href`, a regular expression on the link's address resolved
   *   against the page; `text`, one on its text, case ignored). Of several
   *   matching links the newest is the one whose `href` groups capture the
   *   largest numbers, compared in order (gub.uy's upload month, `files/2026-09/`).
   *   The update downloads it and imports it with `importer`; every point cites
   *   the file's address with its place in the file, as `npm run import --source`.
   * - `editions`: a GitHub repository's folder of editions (`github`
   *   `owner/name`, `folder`), each a sub-folder whose `name` the regular
   *   expression matches (its groups order them, as above) holding `file`. An
   *   edition newer than any the points cite is proposed to a person (a pull
   *   request), for an importer that needs what the file does not say (`--date`).
   */
  publication: z
    .strictObject({
      page: httpUrl.optional(),
      link: z.strictObject({ href: pattern, text: pattern.optional() }).optional(),
      editions: z
        .strictObject({
          github: z.string({ error: "expected owner/name" }).regex(/^[A-Za-z0-9-]+\/[A-Za-z0-9._-]+$/, "expected a repository as owner/name"),
          folder: z.string({ error: "expected a folder path" }).regex(/^[^/\s]+(\/[^/\s]+)*$/, "expected a folder path like db/data, without a leading or trailing /"),
          name: pattern,
          file: z.string({ error: "expected a file name" }).regex(/^[^/\s]+$/, "expected a file name like precios.csv"),
        })
        .optional(),
    })
    .refine((p) => (p.editions === undefined ? p.page !== undefined && p.link !== undefined : p.page === undefined && p.link === undefined), {
      error: 'expected {"page": "https://…", "link": {"href": "…"}} or {"editions": {"github": "owner/name", "folder": "…", "name": "…", "file": "…"}}',
    })
    .optional(),
  /**
   * The last check of the publisher (docs/data.md, "Checks"): recorded only by
   * something that looked at it — the unattended update (`by: "update"`: the
   * address it read, the file's SHA-256, the newest period the file holds) or a
   * person (`by: "person"`, `npm run check`: the address consulted, and a note).
   * `outcome` says what the look found: points that are not in the data yet
   * (`new-data`) or none (`nothing-new`). A commit that changes metadata or code
   * is no check. Absent: no check recorded, and every surface says so.
   */
  check: z
    .strictObject({
      day: calendarDay,
      by: z.enum(CHECKERS, { error: `expected one of ${CHECKERS.join(", ")}` }),
      read: httpUrl,
      outcome: z.enum(CHECK_OUTCOMES, { error: `expected one of ${CHECK_OUTCOMES.join(", ")}` }),
      sha256: z.string().regex(/^[0-9a-f]{64}$/, "expected a SHA-256 in 64 lower-case hex digits").optional(),
      newest: calendarDay.optional(),
      note: text.optional(),
    })
    .optional(),
  /**
   * Where a person looks for a new value (the publisher's pages, the official
   * gazette): what the watcher's issue names when a value is due and missing
   * (docs/data.md, "Watched indicators"). Each with its name in every language.
   */
  consult: z.array(z.strictObject({ name: localized, url: httpUrl })).default([]),
  /**
   * When the indicator's values are due (src/core/time/schedule.ts, docs/data.md): the
   * dates they are dated on (`"daily"`, `"irregular"`, or `{"months": [1, 7],
   * "day": 1}`) and, for a value about a period published after it, when it comes
   * out (`{"monthsAfter": 1, "day": 5}`). Absent: each next value is due one
   * rhythm after its predecessor (src/core/time/schedule.ts `successorOf`).
   */
  schedule: z
    .strictObject({
      dates: z.union(
        [
          z.enum(["daily", "irregular"]),
          z.strictObject({
            months: z
              .array(z.number().int().min(1).max(12), { error: "expected months 1–12, like [1, 7]" })
              .min(1, "list at least one month")
              .refine((months) => months.every((m, i) => i === 0 || m > (months[i - 1] as number)), "expected months in ascending order, each once"),
            day: z.number({ error: "expected a day of the month, 1–31" }).int().min(1).max(31),
          }),
        ],
        { error: 'expected "daily", "irregular" or {"months": [1, 7], "day": 1}' },
      ),
      published: z
        .strictObject({
          monthsAfter: z.number({ error: "expected a number of months, 0–12" }).int().min(0).max(12),
          day: z.number({ error: "expected a day of the month, 1–31" }).int().min(1).max(31),
        })
        .optional(),
    })
    .optional(),
  /**
   * The units this indicator, a monthly index, deflates: `real=YYYY-MM` on an
   * indicator in that unit divides by the named sub-series (docs/time.md).
   */
  deflates: z
    .array(
      z.strictObject({
        unit: text,
        series: z.string().regex(ID_PATTERN, "expected a sub-series id of this indicator"),
      }),
    )
    .default([]),
  /**
   * The sub-series that adjust an amount of money between two dates
   * (`/api/v1/adjust?by=<indicator>:<series>`, docs/api.md): an amount × the value
   * covering the later date / the value covering the earlier. `unit`, when the
   * value is what one unit of account is worth (an indexed unit), names that unit,
   * and the answer also gives the amount in those units.
   */
  adjusts: z
    .array(
      z.strictObject({
        series: z.string().regex(ID_PATTERN, "expected a sub-series id of this indicator"),
        unit: localized.optional(),
      }),
    )
    .default([]),
  /**
   * The points' notes (the CSV's \`note\` column, written in \`display.noteLanguage\`)
   * in the site's other languages: language → note as written → translation.
   * Every note needs one (src/source/load.ts), so a page never shows a note in
   * another language than its own.
   */
  noteTranslations: z.partialRecord(z.enum(LANGS), z.record(text, text)).default({}),
  /** What the numbers mean to a reader (src/core/indicator/display.ts); every key optional, the defaults neutral. */
  display: z
    .strictObject({
      date: z.enum(DATE_MEANINGS, { error: `expected one of ${DATE_MEANINGS.join(", ")}` }).optional(),
      zero: localized.optional(),
      nouns: z.strictObject({ compared: localized.optional(), value: localized.optional() }).optional(),
      unit: localized.optional(),
      noteLanguage: z.enum(LANGS, { error: `expected one of ${LANGS.join(", ")}` }).optional(),
      chart: z.strictObject({ scale: z.enum(SCALES, { error: `expected one of ${SCALES.join(", ")}` }).optional() }).optional(),
      /** The note (1 for the first of \`notes\`) that says what is known after the data's newest values (src/core/indicator/display.ts). */
      endNote: z.number({ error: "expected the number of a note, 1 for the first" }).int().min(1).optional(),
      /** The decimals of a relative change on the page (src/core/indicator/display.ts). */
      changeDecimals: z.number({ error: "expected a number of decimals from 0 to 4" }).int("expected a number of decimals from 0 to 4").min(0, "expected a number of decimals from 0 to 4").max(4, "expected a number of decimals from 0 to 4").optional(),
      /** The decimals every value is shown with, as published (src/core/indicator/display.ts). */
      decimals: z.number({ error: "expected a number of decimals from 0 to 6" }).int("expected a number of decimals from 0 to 6").min(0, "expected a number of decimals from 0 to 6").max(6, "expected a number of decimals from 0 to 6").optional(),
    })
    .optional(),
  /**
   * What search finds this indicator by besides its labels (docs/api.md "Search"):
   * `keywords`, the words people type for it that its labels lack (the everyday name
   * of what an index measures), in every language; `equivalents`, for a word of its
   * labels, the other spellings and synonyms that find what it finds ("color" for
   * "colour").
   */
  search: z
    .strictObject({
      keywords: z.strictObject(
        { es: wordList, en: wordList },
        { error: (issue) => (issue.input === undefined ? "required" : 'expected {"es": ["…"], "en": ["…"]}') },
      ).optional(),
      equivalents: z.record(text, wordList).default({}),
    })
    .optional(),
  /**
   * The kind of every source the points cite (src/core/answer/provenance.ts): an address
   * prefix (a host, a folder, one document) and its kind; a point takes the kind
   * of the longest prefix its source begins with, and a point whose source no
   * prefix covers stops the build at its row (src/source/load.ts).
   */
  sourceKinds: z
    .array(
      z.strictObject({
        prefix: httpUrl,
        kind: z.enum(SOURCE_KINDS, { error: `expected one of ${SOURCE_KINDS.join(", ")}` }),
        /** Who the source is, as the page names it (absent: the prefix's host); required for a republication, which must say who republishes. */
        name: localized.optional(),
      }),
    )
    .default([]),
  /** Terms the indicator's page explains. */
  glossary: z.array(z.strictObject({ term: localized, definition: localized })).default([]),
  series: z.array(seriesSchema(templated)).min(1, "declare at least one sub-series"),
});

/** A `{facet}` placeholder of `seriesTitle`. */
const PLACEHOLDER = /\{([^}]*)\}/g;

type RawIndicator = z.infer<ReturnType<typeof indicatorSchema>>;

/** A facet with its values in declaration order. */
export interface FacetMeta {
  readonly name: string;
  readonly title: Localized;
  readonly values: readonly { readonly value: string; readonly label: Localized }[];
}

/** A sub-series as declared, its title resolved (own, or made from `seriesTitle`). */
export interface SeriesMeta {
  readonly id: string;
  readonly title: Localized;
  readonly facets: Readonly<Record<string, string>>;
}

/** What search finds an indicator by besides its labels (`search` in `indicator.json`). */
export interface SearchMeta {
  /** Words or phrases per language, as written. */
  readonly keywords: Readonly<Record<Lang, readonly string[]>>;
  /** A word of the labels → the words that find it too, as written. */
  readonly equivalents: Readonly<Record<string, readonly string[]>>;
}

export interface IndicatorMeta extends Omit<RawIndicator, "series" | "facets" | "seriesTitle" | "display" | "search" | "schedule"> {
  /** When values are due (`schedule`); null when not declared: none ever is. */
  readonly schedule: Schedule | null;
  readonly display: Display;
  readonly search: SearchMeta;
  readonly facets: readonly FacetMeta[];
  readonly series: readonly SeriesMeta[];
}

/** Records a problem of a field of the file being read. */
type Issue = (column: string, reason: string) => void;

/**
 * Validates the text of an `indicator.json`. `folder` is the name of the folder it
 * sits in, which must equal its `id` (the id is the URL path segment).
 */
export function parseIndicatorMeta(jsonText: string, file: string, folder: string): Parsed<IndicatorMeta> {
  const json = readJson(jsonText, file);
  if (!json.ok) return { ok: false, issues: [json.issue] };
  const templated = typeof json.value === "object" && json.value !== null && "seriesTitle" in json.value;
  const result = indicatorSchema(templated).safeParse(json.value);
  if (!result.success) return { ok: false, issues: zodIssues(result.error, file) };
  const raw = result.data;
  const issues: DataIssue[] = [];
  const issue: Issue = (column, reason) => issues.push({ file, column, reason });
  if (raw.id !== folder) issue("id", `must equal the folder name "${folder}", got "${raw.id}"`);
  if ((RESERVED_IDS as readonly string[]).includes(raw.id)) issue("id", `"${raw.id}" is an API path of its own (${RESERVED_IDS.join(", ")}): choose another id`);
  const facets: FacetMeta[] = Object.entries(raw.facets).map(([name, f]) => ({
    name,
    title: f.title,
    values: Object.entries(f.values).map(([value, label]) => ({ value, label })),
  }));
  const series = seriesMetaOf(raw, facets, issue);
  checkReferences(raw, facets, issue);
  checkSearch(raw, facets, series, issue);
  return issues.length > 0 ? { ok: false, issues } : { ok: true, value: indicatorMetaOf(raw, facets, series) };
}

/** The label of value `value` of facet `name`, or undefined when the facets have no such value. */
function labelOf(facets: readonly FacetMeta[], name: string, value: string): Localized | undefined {
  return facets.find((f) => f.name === name)?.values.find((v) => v.value === value)?.label;
}

/**
 * The sub-series: ids unique, facet values declared, and a title of their own or
 * made from `seriesTitle`, whose every `{facet}` placeholder must name a facet
 * each sub-series has.
 */
function seriesMetaOf(raw: RawIndicator, facets: readonly FacetMeta[], issue: Issue): SeriesMeta[] {
  const placeholders = LANGS.flatMap((lang) => [...(raw.seriesTitle?.[lang] ?? "").matchAll(PLACEHOLDER)].map((m) => m[1] ?? ""));
  for (const name of new Set(placeholders)) {
    if (!facets.some((f) => f.name === name)) issue("seriesTitle", `{${name}} names no facet of this file's "facets"`);
  }
  const seen = new Set<string>();
  return raw.series.map((s, i) => {
    if (seen.has(s.id)) issue(`series.${i}.id`, `duplicate sub-series id "${s.id}"`);
    seen.add(s.id);
    const own = s.facets ?? {};
    for (const [name, value] of Object.entries(own)) {
      if (labelOf(facets, name, value) === undefined) issue(`series.${i}.facets.${name}`, `"${value}" is not among facets.${name}.values`);
    }
    let title = s.title;
    if (title === undefined && raw.seriesTitle !== undefined) {
      const template = raw.seriesTitle;
      title = Object.fromEntries(
        LANGS.map((lang) => [lang, template[lang].replace(PLACEHOLDER, (_, name: string) => labelOf(facets, name, own[name] ?? "")?.[lang] ?? `{${name}}`)]),
      ) as Localized;
      for (const name of new Set(placeholders)) if (own[name] === undefined) issue(`series.${i}.facets`, `has no "${name}", which seriesTitle needs`);
    }
    return { id: s.id, title: title ?? { es: s.id, en: s.id }, facets: own };
  });
}

/** What the file's other fields name must exist: the sub-series a deflator or adjuster is, source kinds once each, the importer, the end note, the view's facets. */
function checkReferences(raw: RawIndicator, facets: readonly FacetMeta[], issue: Issue): void {
  raw.deflates.forEach((d, i) => {
    if (!raw.series.some((s) => s.id === d.series)) issue(`deflates.${i}.series`, `"${d.series}" is not a sub-series of this file's "series"`);
    if (raw.rhythm !== "monthly") issue(`deflates.${i}`, `an index that deflates must be monthly (real=YYYY-MM names a month), this one is ${raw.rhythm}`);
    if (d.unit === raw.unit) issue(`deflates.${i}.unit`, `"${d.unit}" is this indicator's own unit: an index cannot deflate itself`);
  });
  raw.adjusts.forEach((a, i) => {
    if (!raw.series.some((s) => s.id === a.series)) issue(`adjusts.${i}.series`, `"${a.series}" is not a sub-series of this file's "series"`);
    if (raw.adjusts.findIndex((b) => b.series === a.series) !== i) issue(`adjusts.${i}.series`, `"${a.series}" is declared twice`);
  });
  raw.sourceKinds.forEach((rule, i) => {
    if (rule.kind === "republication" && rule.name === undefined) issue(`sourceKinds.${i}.name`, "required for a republication: who republishes the publisher's files");
    if (raw.sourceKinds.findIndex((other) => other.prefix === rule.prefix) !== i) issue(`sourceKinds.${i}.prefix`, `"${rule.prefix}" is declared twice`);
  });
  if (raw.publication !== undefined && raw.importer === undefined) issue("publication", 'names no importer: add the "importer" that reads this file');
  const endNote = raw.display?.endNote;
  if (endNote !== undefined && endNote > raw.notes.length) issue("display.endNote", `names note ${endNote}, but "notes" has ${raw.notes.length}`);
  const noteLanguage = raw.display?.noteLanguage ?? NEUTRAL_DISPLAY.noteLanguage;
  if (raw.noteTranslations[noteLanguage] !== undefined) issue(`noteTranslations.${noteLanguage}`, `the notes are written in ${noteLanguage} (display.noteLanguage): translate into the other languages only`);
  const { compare, default: chosen } = raw.view;
  if (compare !== undefined && !facets.some((f) => f.name === compare)) issue("view.compare", `"${compare}" is not a facet of this file's "facets"`);
  for (const [name, value] of Object.entries(chosen)) {
    if (labelOf(facets, name, value) === undefined) issue(`view.default.${name}`, `"${value}" is not among facets.${name}.values`);
  }
}

/** The search words: each equivalent one word of the labels (an equivalent of a word they lack would find nothing, so a typo must not pass silently), each keyword a word or words. */
function checkSearch(raw: RawIndicator, facets: readonly FacetMeta[], series: readonly SeriesMeta[], issue: Issue): void {
  const equivalents = raw.search?.equivalents ?? {};
  if (Object.keys(equivalents).length > 0) {
    const labelWords = new Set(
      foldedWords(raw.title.es, raw.title.en, ...series.flatMap((s) => [s.id, s.title.es, s.title.en]), ...facets.flatMap((f) => f.values.flatMap((v) => [v.value, v.label.es, v.label.en]))).split(" "),
    );
    for (const [word, others] of Object.entries(equivalents)) {
      const folded = queryWords(word);
      if (folded.length !== 1) issue(`search.equivalents.${word}`, `expected one word, got ${JSON.stringify(word)}`);
      else if (!labelWords.has(folded[0] as string)) issue(`search.equivalents.${word}`, `"${word}" is not a word of this indicator's titles, sub-series ids or facet labels: an equivalent of it would find nothing`);
      others.forEach((other, i) => {
        if (queryWords(other).length !== 1) issue(`search.equivalents.${word}.${i}`, `expected one word, got ${JSON.stringify(other)}`);
      });
    }
  }
  for (const lang of LANGS) {
    raw.search?.keywords?.[lang].forEach((keyword, i) => {
      if (queryWords(keyword).length === 0) issue(`search.keywords.${lang}.${i}`, `expected a word or words, got ${JSON.stringify(keyword)}`);
    });
  }
}

/** The validated file as the build reads it: the display's defaults filled in, the end note counted from 0. */
function indicatorMetaOf(raw: RawIndicator, facets: readonly FacetMeta[], series: readonly SeriesMeta[]): IndicatorMeta {
  const endNote = raw.display?.endNote;
  return {
    id: raw.id,
    title: raw.title,
    description: raw.description,
    unit: raw.unit,
    rhythm: raw.rhythm,
    stepwise: raw.stepwise,
    license: raw.license,
    source: raw.source,
    notes: raw.notes,
    view: raw.view,
    glossary: raw.glossary,
    importer: raw.importer,
    publication: raw.publication,
    check: raw.check,
    consult: raw.consult,
    schedule: raw.schedule === undefined ? null : { dates: raw.schedule.dates, published: raw.schedule.published ?? null },
    deflates: raw.deflates,
    adjusts: raw.adjusts,
    noteTranslations: raw.noteTranslations,
    sourceKinds: raw.sourceKinds,
    search: { keywords: raw.search?.keywords ?? { es: [], en: [] }, equivalents: raw.search?.equivalents ?? {} },
    display: {
      date: raw.display?.date ?? NEUTRAL_DISPLAY.date,
      zero: raw.display?.zero ?? NEUTRAL_DISPLAY.zero,
      compared: raw.display?.nouns?.compared ?? NEUTRAL_DISPLAY.compared,
      value: raw.display?.nouns?.value ?? NEUTRAL_DISPLAY.value,
      unit: raw.display?.unit ?? NEUTRAL_DISPLAY.unit,
      noteLanguage: raw.display?.noteLanguage ?? NEUTRAL_DISPLAY.noteLanguage,
      endNote: endNote === undefined ? null : endNote - 1,
      scale: raw.display?.chart?.scale ?? NEUTRAL_DISPLAY.scale,
      changeDecimals: raw.display?.changeDecimals ?? NEUTRAL_DISPLAY.changeDecimals,
      decimals: raw.display?.decimals ?? NEUTRAL_DISPLAY.decimals,
    },
    facets,
    series,
  };
}
