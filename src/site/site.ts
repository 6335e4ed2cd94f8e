/**
 * The site: in Spanish at `/` and `/series/<indicator>/` (the target of every
 * `meta.attribution` link), in English under `/en/`; one chart-only page per
 * indicator and language for other sites to embed, and the 404 page. HTML
 * rendered at build time, escaped by default; charts are inline SVG, so every page
 * is complete without a script. Nothing is requested from another site (no fonts,
 * CDNs or analytics). Interface words come from src/site/client/messages/, the data's
 * labels from `indicator.json`, in both languages.
 */
import { withQuery } from "../core/text/url.js";
import { attributionAnchor, indicatorPageUrl, type SiteConfig } from "../core/indicator/config.js";
import { html, jsonScript, raw, type SafeHtml } from "../core/text/html.js";
import { LANGS, LOCALES, type Lang } from "../core/text/i18n.js";
import { newestSuccessor, publications } from "../core/time/coverage.js";
import { dateOfDay, dayNumber } from "../core/time/dates.js";
import { LIMIT } from "../core/answer/contract.js";
import { DECLARATIONS } from "../core/answer/parameters.js";
import { csvFiles, distributions, type Distribution } from "../core/indicator/distributions.js";
import {
  ATOM_MEDIA_TYPE,
  CATALOG_PATH,
  DCAT_CATALOG_PATH,
  OPENAPI_PATH,
  PAGE_SCRIPT_PATH,
  SEARCH_PATH,
  SERVICE_FEED_PATH,
  embedPagePath,
  endpointPath,
  feedPath,
  homePath,
  metadataPath,
  viewDataFolder,
  viewDataPath,
  previewImagePath,
  seriesPagePath,
} from "../core/file/paths.js";
import { Formatter } from "./client/format.js";
import { MESSAGES, codeText, type Messages } from "./client/messages/index.js";
import { copyable, coverageOf, groupKey, renderView, seriesParameter, type DownloadLinks, type View, type ViewIndicator } from "./client/series-view.js";
import { ADDRESS_ATTRIBUTE } from "./client/origin.js";
import { allOfficial, type SiteIndicator } from "./model.js";
import { PREVIEW_HEIGHT, PREVIEW_WIDTH, previewAlt } from "./preview.js";
import { ADJUST_PATH } from "../core/time/adjust.js";
import type { Manifest } from "../core/file/manifest.js";

/**
 * What the pages are rendered with: the site configuration and the stylesheet,
 * which the build inlines in every page (no second request before the first
 * paint: on a slow phone network each request costs seconds). Without it a page
 * links `/style.css`.
 */
export type RenderConfig = SiteConfig & {
  readonly style?: string | undefined;
  /**
   * The selection's first moments (src/site/client/early.ts, bundled by the build),
   * inlined after the selection form of an indicator page. Without it the form
   * stays hidden, as without scripts.
   */
  readonly earlyScript?: string | undefined;
  /** Every indicator's view model, by id: what a page's questions read of the others (the deflator, the ratios' divisors). */
  readonly views?: ReadonlyMap<string, ViewIndicator>;
  /** Which indicator's sub-series deflates each unit (the manifest's `deflators`). */
  readonly deflators?: Readonly<Record<string, { readonly indicator: string; readonly series: string }>>;
  /** The sub-series that adjust amounts (the manifest's `adjusters`): the calculator's choices. */
  readonly adjusters?: Manifest["adjusters"];
  /**
   * By indicator, the static files holding the downloads its page offers, by
   * `series` parameter (null: every sub-series; src/builder/page-downloads.ts):
   * filled while the build plans, read when it renders. Absent: the API's addresses.
   */
  readonly downloads?: ReadonlyMap<string, ReadonlyMap<string | null, Partial<DownloadLinks>>>;
};

/**
 * The amounts a form sent without the page script may hold: what the API reads as
 * people mean it (digits, and a decimal point with one or two digits). "25.000"
 * is refused there, since the API would read 25; the page script reads it as
 * 25,000 (src/site/client/amount.ts) and drops this pattern.
 */
const AMOUNT_WITHOUT_SCRIPT = "[0-9]+([.][0-9]{1,2})?";

/**
 * "Adjust an amount" (`/api/v1/adjust`): on the home page every sub-series that
 * adjusts, on an indicator's page its own. A GET form to the API, so that it
 * answers without a script; the page script shows the answer in the page
 * (src/site/client/adjust-view.ts). Each choice bounds the date fields from its
 * first value; the page script bounds them by today, the reader's, and makes it
 * the default (a static page cannot know it: without a script the API bounds them).
 */
function adjustSection(config: RenderConfig, lang: Lang, only: string | null): SafeHtml | string {
  const m = MESSAGES[lang];
  const choices = (config.adjusters ?? []).flatMap((a) => {
    const view = config.views?.get(a.indicator);
    const one = view?.series.find((s) => s.id === a.series);
    const newest = one?.dates[0];
    const first = one?.dates.at(-1);
    if (view === undefined || one === undefined || newest === undefined || first === undefined || (only !== null && a.indicator !== only)) return [];
    const label = view.series.length > 1 ? `${view.title[lang]}: ${one.title[lang]}` : view.title[lang];
    return [{ value: `${a.indicator}:${a.series}`, label, first, newest }];
  });
  const chosen = choices[0];
  if (chosen === undefined) return "";
  // By default: five years back to the newest value.
  const back = `${String(Number(chosen.newest.slice(0, 4)) - 5).padStart(4, "0")}${chosen.newest.slice(4)}`;
  return html`<section id="adjust" aria-labelledby="h-adjust"><h2 id="h-adjust">${m.adjustHeading}</h2>
<form id="adjust-form" class="ask" action="${ADJUST_PATH}" method="get">
<label for="adjust-amount">${m.adjustAmount}</label> <input id="adjust-amount" name="amount" type="text" value="1000" inputmode="decimal" autocomplete="off" pattern="${AMOUNT_WITHOUT_SCRIPT}" required>
<label for="adjust-from">${m.adjustFrom}</label> <input id="adjust-from" name="from" type="date" min="${chosen.first}" value="${back < chosen.first ? chosen.first : back}" required>
<label for="adjust-to">${m.adjustTo}</label> <input id="adjust-to" name="to" type="date" min="${chosen.first}" value="${chosen.newest}" required>
<label for="adjust-by">${m.adjustBy}</label> <select id="adjust-by" name="by">${choices.map((c) => html`<option value="${c.value}" data-first="${c.first}">${c.label}</option>`)}</select>
<button type="submit">${m.adjustButton}</button>
</form>
<div id="adjust-answer" class="answer-box" aria-live="polite"></div>
</section>
`;
}

/** Where the page script finds one sub-series of an indicator (its group file), with the rule of coverage's inputs. */
function seriesRef(config: RenderConfig, indicator: string, series: string) {
  const view = config.views?.get(indicator);
  const one = view?.series.find((s) => s.id === series);
  if (view === undefined || one === undefined) return null;
  return { indicator, series, path: viewDataPath(indicator, groupKey(view, one.facets)), rhythm: view.rhythm, stepwise: view.stepwise, version: view.version, title: view.title, newest: one.dates[0] ?? null };
}

/** What the questions of a page offer: `real` (the deflator of its unit), the ratios `indicator.json` declares. */
function timeConfig(config: RenderConfig, meta: SiteIndicator, lang: Lang) {
  const ref = config.deflators?.[meta.view.unit];
  return {
    deflator: ref === undefined ? null : seriesRef(config, ref.indicator, ref.series),
    ratios: meta.ratios.flatMap((r) => {
      const [indicator, series] = r.per.split(":") as [string, string];
      const divisor = seriesRef(config, indicator, series);
      return divisor === null ? [] : [{ ...divisor, parameter: r.per, label: r.label[lang], percent: r.percent }];
    }),
  };
}

/** `og:locale` of each language (Open Graph: language_TERRITORY). */
const OG_LOCALES: Readonly<Record<Lang, string>> = { es: "es_UY", en: "en_US" };

interface PageHead {
  readonly lang: Lang;
  readonly title: string;
  readonly description: string;
  /** The page's path in each language; its own is the canonical URL. */
  readonly paths: Readonly<Record<Lang, string>>;
  /** More elements for the head (feed links, JSON-LD). */
  readonly extra?: SafeHtml | string;
  readonly script?: boolean;
  readonly robots?: string;
  /** False for the 404 page: it has no address of its own, so no canonical URL or translations. */
  readonly canonical?: boolean;
  /** Where the navigation's "how to credit" goes: the page's own section, else the home page's. */
  readonly credit?: string;
  /** The picture a shared link shows (`og:image`, src/site/preview.ts): its path and its text alternative. */
  readonly image?: { readonly path: string; readonly alt: string };
}

/** The head every page shares: language, canonical URL, translations, sharing metadata. */
function head(config: RenderConfig, page: PageHead): SafeHtml {
  const url = (lang: Lang) => `${config.baseUrl}${page.paths[lang]}`;
  return html`<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${page.title}</title>
<meta name="description" content="${page.description}">
${page.robots === undefined ? "" : html`<meta name="robots" content="${page.robots}">
`}${
    page.canonical === false
      ? ""
      : html`<link rel="canonical" href="${url(page.lang)}">
${LANGS.map((lang) => html`<link rel="alternate" hreflang="${lang}" href="${url(lang)}">
`)}<link rel="alternate" hreflang="x-default" href="${url("es")}">
`
  }<meta property="og:type" content="website">
<meta property="og:site_name" content="${config.name}">
<meta property="og:title" content="${page.title}">
<meta property="og:description" content="${page.description}">
${page.canonical === false ? "" : html`<meta property="og:url" content="${url(page.lang)}">
`}<meta property="og:locale" content="${OG_LOCALES[page.lang]}">
${LANGS.filter((l) => l !== page.lang).map((l) => html`<meta property="og:locale:alternate" content="${OG_LOCALES[l]}">
`)}${
    page.image === undefined
      ? ""
      : html`<meta property="og:image" content="${config.baseUrl}${page.image.path}">
<meta property="og:image:type" content="image/png">
<meta property="og:image:width" content="${PREVIEW_WIDTH}">
<meta property="og:image:height" content="${PREVIEW_HEIGHT}">
<meta property="og:image:alt" content="${page.image.alt}">
`
  }<meta name="twitter:card" content="${page.image === undefined ? "summary" : "summary_large_image"}">
<meta name="twitter:title" content="${page.title}">
<meta name="twitter:description" content="${page.description}">
${page.image === undefined ? "" : html`<meta name="twitter:image" content="${config.baseUrl}${page.image.path}">
<meta name="twitter:image:alt" content="${page.image.alt}">
`}${config.style === undefined ? raw('<link rel="stylesheet" href="/style.css">') : html`<style>${raw(config.style)}</style>`}
<link rel="icon" href="/favicon.svg" type="image/svg+xml">
${page.extra ?? ""}${page.script === true ? raw(`<script src="${PAGE_SCRIPT_PATH}" defer></script>\n`) : ""}`;
}

/** The other language's link, in that language. */
function languageSwitch(page: PageHead): SafeHtml {
  return html`${LANGS.filter((l) => l !== page.lang).map(
    (l) => html`<a class="lang-switch" href="${page.paths[l]}" hreflang="${l}" lang="${l}">${MESSAGES[l].languageName}</a>`,
  )}`;
}

function layout(config: RenderConfig, page: PageHead, body: SafeHtml): string {
  const m = MESSAGES[page.lang];
  const home = homePath(page.lang);
  return html`<!doctype html>
<html lang="${page.lang}">
<head>
${head(config, page)}</head>
<body>
<a class="skip" href="#main">${m.skip}</a>
<header class="site"><a href="${home}" class="brand">${config.name}</a>
<nav aria-label="${m.navLabel}"><a href="${home}#indicators">${m.navIndicators}</a> <a href="${home}#api">${m.navApi}</a> <a href="${page.credit ?? `${home}#attribution`}">${m.navCredit}</a> ${languageSwitch(page)}</nav></header>
<main id="main">
${body}
</main>
<footer class="site"><p>${m.footerLicence} API: <a href="${CATALOG_PATH}">${m.catalog}</a> · <a href="${OPENAPI_PATH}">OpenAPI</a> · <a href="${DCAT_CATALOG_PATH}">DCAT</a> · <a href="${SERVICE_FEED_PATH}">${m.feed}</a>.</p></footer>
</body>
</html>
`.html;
}

/** The head link feed readers discover a feed by. */
const feedLink = (title: string, href: string) => html`<link rel="alternate" type="${ATOM_MEDIA_TYPE}" title="${title}" href="${href}">
`;

/** A curl command to copy: written with the public origin, which the page script turns into the page's own (src/site/client/origin.ts). */
const curl = (config: SiteConfig, pathAndQuery: string) => html`<pre><code ${raw(ADDRESS_ATTRIBUTE)}>curl '${config.baseUrl}${pathAndQuery}'</code></pre>`;

/** The attribution link in a page's language: to that language's page, with its words ("Datos: …"). */
const localAttribution = (config: SiteConfig, indicator: string, lang: Lang) => attributionAnchor(config, indicator, lang, MESSAGES[lang].creditText(config.name));

/** The attribution snippet with a copy button (the button appears when the page script runs). */
function attributionBlock(config: SiteConfig, lang: Lang, indicator: string, id: string): SafeHtml {
  const m = MESSAGES[lang];
  return html`<pre><code id="${id}">${localAttribution(config, indicator, lang)}</code></pre>
<button type="button" data-copy="${id}" hidden>${m.copyAttribution}</button>`;
}

const pathsOf = (path: (lang: Lang) => string) => Object.fromEntries(LANGS.map((l) => [l, path(l)])) as Record<Lang, string>;

/** The API examples of the home page, on the first indicator and its first sub-series. */
function apiExamples(config: SiteConfig, m: Messages, first: SiteIndicator): SafeHtml {
  const endpoint = endpointPath(first.id);
  const firstSeries = first.view.series[0]?.id;
  return html`<p>${m.apiExamplesLatest}</p>
${curl(config, withQuery(endpoint, [["limit", "1"]]))}
${curl(config, withQuery(endpoint, [["from", "2020"], ["limit", "10"]]))}
${curl(config, withQuery(endpoint, [["from", "2020"], ["limit", "10"], ["offset", "10"]]))}
${
  firstSeries === undefined
    ? ""
    : html`<p>${codeText(m.apiExamplesSeries)}</p>
${curl(config, withQuery(endpoint, [["series", firstSeries]]))}
${curl(config, withQuery(endpoint, [["series", firstSeries], ["format", "csv"]]))}
`
}<p>${m.apiExamplesFiles}</p>
${curl(config, csvFiles(first.id, first.parts)[0] as string)}
${curl(config, metadataPath(first.id))}
`;
}

/**
 * The whole-indicator downloads of the page, one item each; a download in parts
 * (src/builder/download-parts.ts) as its label and a link per part, newest first.
 */
function downloadItems(m: Messages, indicator: SiteIndicator): SafeHtml[] {
  const byKey = new Map<string, Distribution[]>();
  for (const d of distributions(indicator.id, indicator.parts)) byKey.set(d.key, [...(byKey.get(d.key) ?? []), d]);
  return [...byKey.values()].map((files) => {
    const [first] = files as [Distribution];
    const label = m.files(LIMIT.default)[first.key];
    return first.part === undefined
      ? html`<li><a href="${first.path}">${label}</a></li>
`
      : html`<li>${label}: ${files.map((d, i) => html`${i === 0 ? "" : ", "}<a href="${d.path}">${d.part}</a>`)}</li>
`;
  });
}

/** `index.html` (Spanish) and `en/index.html`: what the service is, its indicators and how to use and credit it. */
export function renderHome(config: RenderConfig, indicators: readonly SiteIndicator[], lang: Lang): string {
  const m = MESSAGES[lang];
  const items = indicators.map((indicator) => {
    const f = Formatter.get(lang, indicator.view.unit);
    const latest = latestText(indicator, lang);
    return html`<li><h3><a href="${seriesPagePath(indicator.id, lang)}">${indicator.view.title[lang]}</a></h3>
<p>${m.indicatorLine(m.latestLine(latest.label, latest.date), indicator.seriesCount, f.number(indicator.seriesCount), m.rhythms[indicator.view.rhythm] ?? indicator.view.rhythm)}</p>
<p class="endpoint"><code>${endpointPath(indicator.id)}</code></p></li>
`;
  });
  const first = indicators[0];
  const page: PageHead = {
    lang,
    title: `${config.name}: ${m.homeTitle}`,
    description: m.homeDescription,
    paths: pathsOf(homePath),
    script: true,
    extra: feedLink(`${config.name}: ${m.feed}`, SERVICE_FEED_PATH),
  };
  return layout(
    config,
    page,
    html`<h1>${config.name}</h1>
<p class="lead">${m.homeLead}</p>
${searchForm(m, null)}
${adjustSection(config, lang, null)}<section aria-labelledby="indicators"><h2 id="indicators">${m.navIndicators}</h2>
<ul class="indicator-list">
${items}</ul>
</section>
<section aria-labelledby="api"><h2 id="api">${m.apiHeading}</h2>
${first === undefined ? "" : apiExamples(config, m, first)}${curl(config, CATALOG_PATH)}
<h3>${m.contractHeading}</h3>
<ul><li>${codeText(m.contractParameters)}
<ul class="parameters">${DECLARATIONS.map((p) => html`<li><code>${p.name}</code>: ${codeText(p.summary[lang])}</li>`)}</ul></li>
${m.contract.map((item) => html`<li>${codeText(item)}</li>`)}</ul>
<p>${m.fullDescription} <a href="${OPENAPI_PATH}">OpenAPI 3.1</a>.</p>
</section>
${
  first === undefined
    ? ""
    : html`<section aria-labelledby="attribution"><h2 id="attribution">${m.creditHeading}</h2>
<p>${codeText(m.creditHome)}</p>
${attributionBlock(config, lang, first.id, "attribution-home")}
</section>
`
}`,
  );
}

/**
 * What the page script needs besides the dataset and the metadata document: the
 * view's settings and the points' notes (few, so inline rather than fetched).
 */
function pageConfig(config: RenderConfig, lang: Lang, meta: SiteIndicator): SafeHtml {
  const { view } = meta;
  const json = jsonScript({
    time: timeConfig(config, meta, lang),
    lang,
    indicator: view.id,
    title: view.title,
    unit: view.unit,
    rhythm: view.rhythm,
    stepwise: view.stepwise,
    display: view.display,
    facets: view.facets,
    compare: view.compare,
    defaults: view.defaults,
    baseUrl: config.baseUrl,
    publications: publications(view.series.map((s) => s.dates)),
    // The script loads one group of sub-series; whether every sub-series fits one download is the build's to say.
    longest: view.series.reduce((max, s) => Math.max(max, s.dates.length), 0),
    version: view.version,
    look: view.look,
    schedule: view.schedule ?? null,
  });
  return html`<script type="application/json" id="series-config">${json}</script>`;
}

/**
 * What is known of the next value, in one sentence the cards' "why" links lead
 * to (`#freshness`): the period the schedule says comes next and when it is due,
 * where the data end, and the last look at the publisher (a recorded check, or
 * that none is recorded and when the points last changed). Empty without a
 * schedule or a next scheduled date (irregular publications).
 */
export function freshnessSentence(view: ViewIndicator, newest: string | null, m: Messages, lang: Lang): SafeHtml | "" {
  const schedule = view.schedule ?? null;
  if (schedule === null || newest === null) return "";
  // When the next value is due and whether it is overdue at the last look: the one rule status.json and the cards follow.
  const next = newestSuccessor(coverageOf(view).rule, dayNumber(newest));
  if (next.state !== "pending" && next.state !== "overdue") return "";
  // A point's date as the indicator means it: a period ("agosto de 2026"), a day, or the day a value takes effect.
  const f = Formatter.of(lang, view.unit, view.display, view.rhythm);
  const { check, changed } = view.look;
  const look = m.look(check === null ? null : { day: f.date(check.day), by: check.by }, f.date(changed));
  const meaning = view.display.date;
  const said = { next: m.nextValue(meaning, f.pointDate(dateOfDay(next.dated))), due: f.date(dateOfDay(next.due)), newest: m.lastValue(meaning, f.pointDate(newest)), look };
  const note = view.display.endNote === null ? "" : html` <a href="#note-${String(view.display.endNote + 1)}">${m.seeNote(view.display.endNote + 1)}</a>`;
  return html`<p id="freshness" class="note">${next.state === "overdue" ? m.nextOverdue(said) : m.nextExpected(said)}${note}</p>`;
}

/**
 * The search box (docs/api.md "Search"): a form to the search API, enhanced by the page
 * script into a list of links to the pages, the selection in their address. On an
 * indicator's page it searches that indicator.
 */
function searchForm(m: Messages, indicator: string | null): SafeHtml {
  return html`<form id="search" class="search" role="search" action="${SEARCH_PATH}" method="get">
<label for="search-q">${m.searchLabel}</label>
<input id="search-q" name="q" type="search" placeholder="${m.searchPlaceholder}" autocomplete="off" maxlength="200">
${indicator === null ? "" : html`<input type="hidden" name="indicator" value="${indicator}">`}<button type="submit">${m.searchButton}</button>
</form>
<div id="search-results" class="search-results" aria-live="polite"></div>
`;
}

/**
 * The selection form: one select per facet, options sorted by the page language's
 * collation ("Círculo Católico" before "COMEF"); a value none of whose sub-series
 * is in the latest publication says until when it has data ("Casa de Galicia (hasta 2022)").
 * The early script follows it inline (`RenderConfig.earlyScript`): it shows the form.
 */
function selectionForm(config: RenderConfig, view: ViewIndicator, lang: Lang, m: Messages): SafeHtml | string {
  if (view.compare === null || view.facets.length === 0) return "";
  const latest = publications(view.series.map((s) => s.dates)).at(-1) ?? "";
  const collator = new Intl.Collator(LOCALES[lang]);
  const newest = (facet: string, value: string) => view.series.reduce((max, s) => (s.facets[facet] === value && (s.dates[0] ?? "") > max ? (s.dates[0] as string) : max), "");
  // data-i: a value's index in declaration order, which names the group files (series-view.ts `groupKey`).
  return html`<form id="selection" class="selection" hidden aria-label="${m.selectionLabel}" data-groups="${viewDataFolder(view.id)}" data-loading="${m.loadingSelection}">
${view.facets.map((facet) => {
  const values = facet.values.map((v, i) => ({ ...v, i })).sort((a, b) => collator.compare(a.label[lang], b.label[lang]));
  return html`<label class="facet-${facet.name}">${facet.title[lang]}
<select name="${facet.name}"${raw(facet.name === view.compare ? " data-compared" : "")}>${values.map((v) => {
    const last = newest(facet.name, v.value);
    const ended = last !== "" && last < latest ? ` ${m.valueUntil(last.slice(0, 4))}` : "";
    return html`<option value="${v.value}" data-i="${String(v.i)}"${raw(v.value === view.defaults[facet.name] ? " selected" : "")}>${v.label[lang]}${ended}</option>`;
  })}</select></label>
`;
})}</form>
${config.earlyScript === undefined ? "" : html`<script>${raw(config.earlyScript)}</script>
`}<p id="selection-status" class="note" role="status"></p>`;
}

/** The indicator's oldest point's date (or its version date when it has none): where the pages' date fields start. */
function oldestDate(view: ViewIndicator): string {
  return view.series.reduce((min, s) => {
    const first = s.dates.at(-1);
    return first !== undefined && first < min ? first : min;
  }, view.version);
}

/**
 * "What applied on …?": a date for the sub-series on the cards. Without a script
 * the form asks the API itself (`series=…&at=…`, its one-URL answer); the page
 * script answers in the page, with the same rule of coverage (src/site/client/series-view.ts `valueOnDate`).
 */
function askForm(view: ViewIndicator, carded: readonly string[], m: Messages): SafeHtml | string {
  if (carded.length === 0) return "";
  const oldest = oldestDate(view);
  const series = seriesParameter(carded, view.series.map((s) => s.id)) ?? "";
  return html`<form id="ask-at" class="ask" action="${endpointPath(view.id)}" method="get" data-series-ids="${carded.join(",")}">
<label for="ask-at-date">${m.askAtLabel}</label>
<input type="hidden" name="series" value="${series}">
<input id="ask-at-date" name="at" type="date" min="${oldest}" required>
<button type="submit">${m.askAtButton}</button>
</form>
<div id="ask-at-answer" class="answer-box" aria-live="polite"></div>
`;
}

/**
 * More questions about time, answered by the page script with the API's own code
 * (src/site/client/questions.ts): the chart in other terms (pesos of the latest
 * CPI month, an index with a chosen base, changes, ratios to other indicators),
 * the change since a chosen date (nominal and real). Hidden until the script runs.
 */
function questionsSection(config: RenderConfig, meta: SiteIndicator, lang: Lang): SafeHtml {
  const m = MESSAGES[lang];
  const { view } = meta;
  const time = timeConfig(config, meta, lang);
  const f = Formatter.get(lang, view.unit, "monthly");
  const deflatorMonth = time.deflator?.newest ?? null;
  const first = oldestDate(view);
  const options: [string, string][] = [
    ["level", m.modeLevel],
    ...(deflatorMonth === null ? [] : [["real", m.modeReal(f.pointDate(deflatorMonth))] as [string, string]]),
    ["index", m.modeIndex],
    ["percent_change_a_year_ago", m.modeYearAgo],
    ...(view.stepwise ? [] : [["percent_change", m.modePrevious] as [string, string]]),
    ...time.ratios.map((r, i): [string, string] => [`ratio-${String(i)}`, r.label]),
  ];

  return html`<section id="questions" class="questions" aria-labelledby="h-questions" hidden>
<h2 id="h-questions">${m.questionsHeading}</h2>
<form id="chart-mode" class="ask">
<label for="mode">${m.modeLabel}</label>
<select id="mode" name="mode">${options.map(([value, label]) => html`<option value="${value}">${label}</option>`)}</select>
<label for="mode-base">${m.baseLabel}</label> <input id="mode-base" name="base" type="date" min="${first}" max="${view.version}" value="${first < "2019-01-01" && view.version >= "2019-01-01" ? "2019-01-01" : first}">
</form>
<div id="mode-answer" class="answer-box" aria-live="polite"></div>
<form id="ask-since" class="ask">
<label for="since-date">${m.sinceLabel}</label> <input id="since-date" name="since" type="date" min="${first}" max="${view.version}" required>
<button type="submit">${m.askAtButton}</button>
</form>
<div id="ask-since-answer" class="answer-box" aria-live="polite"></div>
</section>`;
}

/**
 * What the newest point's date is, as its indicator declares dates
 * (`display.date`): the period a value refers to ("Último dato: julio de 2026":
 * the CPI of July, published in August), the day a value takes effect ("Último
 * valor: vigente desde el 1 de julio de 2026") or a day ("Último dato: 5 de
 * setiembre de 2026"): never "publication", which none of them is.
 */
function latestText(meta: SiteIndicator, lang: Lang): { label: string; date: string } {
  const m = MESSAGES[lang];
  const { view } = meta;
  const effective = view.display.date === "effective";
  const label = effective ? m.latestEffective : m.latestPoint;
  if (meta.lastUpdated === null) return { label, date: m.noData };
  const f = Formatter.of(lang, view.unit, view.display, view.rhythm);
  return { label, date: effective ? m.heldSince(f.date(meta.lastUpdated)) : f.pointDate(meta.lastUpdated) };
}

/**
 * "obra de referencia o recopilación: 18 (IECON (12), vLex (4), …); prensa: 4
 * (…)": the kinds of source of the points and the sources of each kind they cite,
 * with their numbers, each source linked to the address its declaration covers.
 */
function kindsList(meta: SiteIndicator, lang: Lang): SafeHtml {
  const m = MESSAGES[lang];
  const f = Formatter.get(lang, "");
  return html`${meta.sourceKinds.map(
    (k, i) =>
      html`${i === 0 ? "" : "; "}${m.sourceKindCount(k.label[lang], f.number(k.points))}${
        k.sources.length === 0 ? "" : html` (${k.sources.map((s, j) => html`${j === 0 ? "" : ", "}<a href="${s.url}">${s.name[lang]}</a> (${f.number(s.points)})`)})`
      }`,
  )}`;
}

/** At most this many sources of a kind are named in a citation; the rest are counted ("y 9 más"). */
const CITED_PER_KIND = 3;

/**
 * Who the citation credits: the publisher when every value is its official
 * publication; else the sources the values cite, by kind (the most cited of each
 * named), then the publisher as the one who sets or publishes the value, so that a
 * citation never credits a ministry with what the press or a compilation reported.
 */
function citationSource(meta: SiteIndicator, lang: Lang): string {
  const m = MESSAGES[lang];
  if (allOfficial(meta)) return meta.source.name[lang];
  const f = Formatter.get(lang, "");
  const kinds = meta.sourceKinds.map((k) => {
    const named = k.sources.slice(0, CITED_PER_KIND).map((s) => s.name[lang]);
    const more = k.sources.length - named.length;
    const names = more > 0 ? [...named, m.andMore(f.number(more))] : named;
    return names.length === 0 ? k.label[lang] : `${names.join(", ")} (${k.label[lang]})`;
  });
  return m.citedSources(kinds.join("; "), meta.source.name[lang]);
}

function glossary(meta: SiteIndicator, lang: Lang, m: Messages): SafeHtml | string {
  if (meta.glossary.length === 0) return "";
  return html`<section aria-labelledby="h-glossary"><h2 id="h-glossary">${m.glossary}</h2>
<dl class="glossary">${meta.glossary.map((g) => html`<dt>${g.term[lang]}</dt><dd>${g.definition[lang]}</dd>`)}</dl>
</section>`;
}

/**
 * The indicator page's view of each indicator and language, made once for the page
 * and its embed page, whose own view differs in the card alone (its link to the
 * page's notes): the embed reads the page's chart, the costliest part. Dropped once
 * both have read it.
 */
const sharedViews = new WeakMap<SiteIndicator, Map<Lang, { readonly view: View; reads: number }>>();

/** The page's view of `meta` in `lang` ({@link sharedViews}). */
function pageView(config: RenderConfig, meta: SiteIndicator, lang: Lang): View {
  const byLang = sharedViews.get(meta) ?? new Map<Lang, { readonly view: View; reads: number }>();
  sharedViews.set(meta, byLang);
  let entry = byLang.get(lang);
  if (entry === undefined) {
    const files = config.downloads?.get(meta.id);
    entry = { view: renderView({ lang, indicator: meta.view, selection: meta.view.defaults, baseUrl: config.baseUrl, files: (series) => files?.get(series) }), reads: 0 };
    byLang.set(lang, entry);
  }
  if (++entry.reads === 2) byLang.delete(lang);
  return entry.view;
}

/**
 * What an indicator's page and its embed page share: the default view rendered
 * (its downloads linking the static files the build wrote for it, `RenderConfig.downloads`),
 * and the head's basics.
 */
function indicatorParts(config: RenderConfig, meta: SiteIndicator, lang: Lang, path: (indicator: string, lang: Lang) => string) {
  const { view } = meta;
  const rendered = pageView(config, meta, lang);
  const title = view.title[lang];
  const head = { lang, title: `${title} — ${config.name}`, description: meta.description[lang], paths: pathsOf((l) => path(meta.id, l)), script: true };
  return { m: MESSAGES[lang], view, rendered, title, head };
}

/** The indicator page's downloads: the selection's files, the whole indicator's, and the embed code. */
function downloadsSection(config: RenderConfig, meta: SiteIndicator, lang: Lang, selectionFiles: SafeHtml | string): SafeHtml {
  const m = MESSAGES[lang];
  const title = meta.view.title[lang];
  return html`<section aria-labelledby="h-downloads"><h2 id="h-downloads">${m.downloadsHeading}</h2>
<div id="downloads">${selectionFiles}</div>
<h3>${m.wholeIndicator}</h3>
<ul>
${downloadItems(m, meta)}<li><a href="${metadataPath(meta.id)}">${m.fileMetadata}</a></li>
<li><a href="${feedPath(meta.id)}">${m.fileFeed}</a></li>
</ul>
<h3>${m.embedHeading}</h3>
<p>${m.embedIntro}</p>
${copyable("embed-code", `<iframe src="${config.baseUrl}${embedPagePath(meta.id, lang)}" title="${title}" width="720" height="480" style="border:0;max-width:100%" loading="lazy"></iframe>`, m.copy)}
</section>
`;
}

/** The indicator page's "about": its description, sources, unit, rhythm, newest point, size and licence, notes and freshness. */
function aboutSection(meta: SiteIndicator, lang: Lang): SafeHtml {
  const m = MESSAGES[lang];
  const { view } = meta;
  const f = Formatter.get(lang, view.unit);
  const latest = latestText(meta, lang);
  return html`<section aria-labelledby="h-about"><h2 id="h-about">${m.aboutHeading}</h2>
<p>${meta.description[lang]}</p>
<dl class="facts">
${meta.sourceKinds.length === 0 ? "" : html`<div class="wide"><dt>${m.sourceKinds}</dt><dd id="source-kinds">${kindsList(meta, lang)}</dd></div>
`}<div class="wide"><dt>${allOfficial(meta) ? m.source : m.publisher}</dt><dd id="publisher"><a href="${meta.source.url}">${meta.source.name[lang]}</a></dd></div>
<div><dt>${m.unit}</dt><dd>${view.display.unit?.[lang] ?? view.unit}</dd></div>
<div><dt>${m.rhythm}</dt><dd>${m.rhythms[view.rhythm] ?? view.rhythm}</dd></div>
<div><dt>${latest.label}</dt><dd id="latest-point">${latest.date}</dd></div>
<div><dt>${m.subSeriesCount}</dt><dd>${f.number(meta.seriesCount)}</dd></div>
<div><dt>${m.licence}</dt><dd>${meta.license}</dd></div>
</dl>
${meta.notes.length === 0 ? "" : html`<h3 id="notes">${m.notes}</h3><ol class="notes">${meta.notes.map((n, i) => html`<li id="note-${String(i + 1)}">${n[lang]}</li>`)}</ol>`}${freshnessSentence(view, meta.lastUpdated, m, lang)}
<p class="note">${m.precisionNote}</p>
</section>
`;
}

/** The indicator page's credit: how to attribute the indicator, this page's address and a citation to copy. */
function creditSection(config: RenderConfig, meta: SiteIndicator, lang: Lang): SafeHtml {
  const m = MESSAGES[lang];
  const { view } = meta;
  const title = view.title[lang];
  const f = Formatter.get(lang, view.unit);
  return html`<section aria-labelledby="h-credit"><h2 id="h-credit">${m.creditHeading}</h2>
<p>${codeText(m.creditIndicator)}</p>
${attributionBlock(config, lang, meta.id, "attribution-snippet")}
<p>${m.thisPage} <a rel="cite-as" href="${indicatorPageUrl(config, meta.id, lang)}">${indicatorPageUrl(config, meta.id, lang)}</a></p>
<h3 id="cite">${m.citationHeading}</h3>
<p>${m.citationIntro}</p>
<blockquote class="citation" id="citation">${m.citation(citationSource(meta, lang), title, config.name, indicatorPageUrl(config, meta.id, lang), f.date(view.version))}</blockquote>
<button type="button" data-copy="citation" hidden>${m.copyCitation}</button>
</section>
`;
}

/** `series/<indicator>/index.html` and `en/series/<indicator>/index.html`: the indicator's page. */
export function renderIndicatorPage(config: RenderConfig, meta: SiteIndicator, lang: Lang): string {
  const { m, view, rendered, title, head } = indicatorParts(config, meta, lang, seriesPagePath);
  const page: PageHead = {
    ...head,
    credit: "#h-credit",
    image: { path: previewImagePath(meta.id, lang), alt: previewAlt(meta, lang) },
    extra: html`${feedLink(`${title}: ${m.feed}`, feedPath(meta.id))}<script type="application/ld+json">${jsonScript(meta.jsonLd[lang])}</script>
`,
  };
  const compared = view.compare;
  return layout(
    config,
    page,
    html`<h1>${title}</h1>
<div id="view-card" class="view-card">${rendered.card}</div>
${selectionForm(config, view, lang, m)}
${view.series.length > 1 && view.compare !== null ? searchForm(m, view.id) : ""}
<section aria-labelledby="h-chart" class="chart-section"><h2 id="h-chart" class="visually-hidden">${m.chart}</h2>
<div id="charts">
${rendered.charts}
</div>
<p id="chart-announce" class="visually-hidden" aria-live="polite"></p>
<p class="note"><span class="help-hover">${m.chartHelp}</span><span class="help-touch">${m.chartHelpTouch}</span></p>
</section>
${askForm(view, rendered.carded, m)}
${questionsSection(config, meta, lang)}
${adjustSection(config, lang, meta.id)}${view.series.length > 1 && view.compare === null ? searchForm(m, view.id) : ""}
${
  compared !== null
    ? html`<section aria-labelledby="h-compare"><h2 id="h-compare">${m.compareHeading(view.display.compared?.[lang] ?? null, view.facets.find((x) => x.name === compared)?.title[lang] ?? compared)}</h2>
<details class="fold"><summary>${m.showComparison}</summary>
<div id="compare" class="table-wrap">${rendered.compare}</div>
</details>
</section>
`
    : ""
}<section aria-labelledby="h-data"><h2 id="h-data">${m.dataHeading}</h2>
<details class="fold"><summary>${m.showTable}</summary>
<div id="data-table" class="table-wrap">${rendered.table}</div>
</details>
</section>
${downloadsSection(config, meta, lang, rendered.downloads)}${glossary(meta, lang, m)}
${aboutSection(meta, lang)}${creditSection(config, meta, lang)}${pageConfig(config, lang, meta)}
`,
  );
}

/**
 * `series/<indicator>/embed/index.html` (and under `/en/`): the chart alone, with
 * its attribution, for other sites to show in an iframe. Links open outside the
 * frame; the page asks search engines not to index it (the indicator page is canonical).
 */
export function renderEmbedPage(config: RenderConfig, meta: SiteIndicator, lang: Lang): string {
  const { m, view, rendered, title, head: base } = indicatorParts(config, meta, lang, embedPagePath);
  // The page's chart; the card of the embed's own view, whose link to the notes leads to the page.
  const card = renderView({ lang, indicator: view, selection: view.defaults, baseUrl: config.baseUrl, embedded: true }).card;
  const page: PageHead = {
    ...base,
    robots: "noindex",
    extra: raw('<base target="_blank">\n'),
  };
  return html`<!doctype html>
<html lang="${lang}">
<head>
${head(config, page)}</head>
<body class="embed">
<main id="main">
<h1 class="embed-title"><a href="${seriesPagePath(meta.id, lang)}">${title}</a></h1>
<div id="view-card" class="view-card embed-card">${card}</div>
<div id="charts" class="embed-charts">
${rendered.charts}
</div>
<p id="chart-announce" class="visually-hidden" aria-live="polite"></p>
<p class="embed-credit">${allOfficial(meta) ? m.source : m.publisher}: ${meta.source.name[lang]}. ${raw(localAttribution(config, meta.id, lang))} (CC BY 4.0)</p>
</main>
${pageConfig(config, lang, meta)}
</body>
</html>
`.html;
}

/** `404.html`: what Pages serves, with status 404, for a path that matches no file; in both languages. */
export function renderNotFound(config: RenderConfig): string {
  const es = MESSAGES.es;
  const en = MESSAGES.en;
  const page: PageHead = { lang: "es", title: `${es.notFoundTitle} — ${config.name}`, description: es.notFoundText, paths: pathsOf(homePath), robots: "noindex", canonical: false };
  return layout(
    config,
    page,
    html`<h1>${es.notFoundTitle}</h1>
<p>${es.notFoundText} <a href="${homePath("es")}">${es.notFoundHome}</a></p>
<div lang="en"><h2>${en.notFoundTitle}</h2>
<p>${en.notFoundText} <a href="${homePath("en")}">${en.notFoundHome}</a></p></div>
<p><a href="${CATALOG_PATH}">${es.catalog}</a> (API)</p>
`,
  );
}
