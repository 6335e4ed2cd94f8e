/**
 * The pages' script: a progressive enhancement, bundled by the build into
 * `assets/series-page.js`. The static page already shows the default view; this
 * adds the copy buttons, value and date on hover and keyboard focus in the charts,
 * the sortable comparison table, the facet choice (re-rendered with the same code
 * the build uses, src/site/client/series-view.ts, from the group file of the
 * selection only) with a shareable `#<facet>=<value>&…` address, the questions
 * about time (the value on a date; src/site/client/question-views.ts for the rest),
 * and drops `utm_` parameters from the address bar once the visit is counted. It
 * only requests files of the same site.
 */
import { NO_SEPARATORS, withQuery } from "../../core/text/url.js";
import type { Deflator } from "../../core/time/derive.js";
import { html, type SafeHtml } from "../../core/text/html.js";
import type { Lang, Localized } from "../../core/text/i18n.js";
import { viewDataPath } from "../../core/file/paths.js";
import type { Schedule } from "../../core/time/schedule.js";
import { enhanceChart } from "./chart-interaction.js";
import { fetchJson, groupWith, joinedGroup, type ViewGroupFile } from "./group-files.js";
import { MESSAGES, type Messages } from "./messages/index.js";
import { setupAdjust } from "./adjust-view.js";
import { hereOrigin, localiseAddresses } from "./origin.js";
import { modeAnswer, modeQuestion, questionContext, ratioOf, sinceAnswer, type QuestionContext, type QuestionsConfig, type SeriesRef } from "./question-views.js";
import { deflatorOf } from "./questions.js";
import { groupKey, normaliseSelection, renderView, valueOnDate, type Selection, type ViewFacet, type ViewIndicator, type ViewSeries } from "./series-view.js";

/** The page's settings (site.ts `pageConfig`). */
interface PageConfig extends QuestionsConfig {
  readonly title: Localized;
  readonly facets: ViewFacet[];
  readonly compare: string | null;
  readonly defaults: Selection;
  readonly publications: string[];
  readonly longest: number;
  /** When values are due (`schedule` in `indicator.json`), or null. */
  readonly schedule: Schedule | null;
  readonly look: ViewIndicator["look"];
}

/** A date field's value when it holds a day. */
const DAY = /^\d{4}-\d{2}-\d{2}$/;

function setupCopyButtons(m: Messages): void {
  for (const button of document.querySelectorAll<HTMLButtonElement>("button[data-copy]")) {
    if (button.dataset.ready === "1") continue;
    const source = document.getElementById(button.dataset.copy ?? "");
    if (source === null) continue;
    button.dataset.ready = "1";
    button.hidden = false;
    const label = button.textContent ?? "";
    button.addEventListener("click", () => {
      void navigator.clipboard.writeText(source.textContent ?? "").then(
        () => (button.textContent = m.copied),
        () => (button.textContent = m.copyFailed),
      );
      setTimeout(() => (button.textContent = label), 2500);
    });
  }
}

function setupCharts(): void {
  const announce = document.getElementById("chart-announce");
  if (announce === null) return;
  for (const box of document.querySelectorAll<HTMLElement>(".chart-box")) {
    const tooltip = box.querySelector<HTMLElement>(".chart-tooltip");
    if (tooltip === null) continue;
    for (const svg of box.querySelectorAll<SVGSVGElement>("svg.chart")) enhanceChart(svg, tooltip, announce);
  }
}

/** Sorting the comparison table by a column; the pinned (chosen) row stays on top. */
function setupSorting(container: HTMLElement): void {
  container.addEventListener("click", (event) => {
    const button = (event.target as Element).closest<HTMLButtonElement>("button.sort");
    const table = button?.closest("table");
    if (button === null || button === undefined || table === null || table === undefined) return;
    const column = Number(button.dataset.sort);
    const numeric = button.dataset.numeric === "1";
    const th = button.closest("th");
    const ascending = th?.getAttribute("aria-sort") !== "ascending";
    for (const other of table.querySelectorAll("thead th")) other.removeAttribute("aria-sort");
    th?.setAttribute("aria-sort", ascending ? "ascending" : "descending");
    const body = table.tBodies[0];
    if (body === undefined) return;
    const rows = [...body.rows];
    const key = (row: HTMLTableRowElement) => row.cells[column]?.dataset.sortValue ?? "";
    const compare = (a: HTMLTableRowElement, b: HTMLTableRowElement) => {
      const [x, y] = [key(a), key(b)];
      // Rows without a value (a change from 0) go last either way.
      if (x === "" || y === "") return x === y ? 0 : x === "" ? 1 : -1;
      const order = numeric ? Number(x) - Number(y) : x.localeCompare(y, document.documentElement.lang);
      return ascending ? order : -order;
    };
    const pinned = rows.filter((r) => r.classList.contains("pinned"));
    const others = rows.filter((r) => !r.classList.contains("pinned")).sort(compare);
    body.append(...pinned, ...others);
  });
}

/** Drops `utm_*` parameters from the address bar: a link copied from it stays clean. */
function dropTrackingParameters(): void {
  const url = new URL(location.href);
  const keys = [...url.searchParams.keys()].filter((k) => k.startsWith("utm_"));
  if (keys.length === 0) return;
  for (const key of keys) url.searchParams.delete(key);
  history.replaceState(history.state, "", url.toString());
}

/** The language switch opens the other language's page on the same selection (`#<facet>=<value>&…`: codes, the same in both). */
function followSelection(hash: string): void {
  for (const link of document.querySelectorAll<HTMLAnchorElement>("a.lang-switch")) {
    link.href = `${link.href.replace(/#.*$/, "")}${hash}`;
  }
}

const groups = new Map<string, Promise<ViewGroupFile>>();
const loadedGroups = new Map<string, ViewGroupFile>();
const partReads = new Map<string, Promise<unknown>>();

/** A part of a large group's file (src/site/client/group-files.ts), fetched once. */
function readPart(url: string): Promise<unknown> {
  let part = partReads.get(url);
  if (part === undefined) {
    part = fetchJson(url);
    part.catch(() => partReads.delete(url));
    partReads.set(url, part);
  }
  return part;
}

/**
 * One group's file, fetched once (or taken from the fetch the inline script
 * started, src/site/client/early.ts); for a group in parts, those holding any of
 * `only` (the sub-series a question is about), every part without it. What is
 * read adds to what the view holds of the group (`loadedGroups`).
 */
async function loadGroup(config: PageConfig, key: string, only?: readonly string[]): Promise<void> {
  let top = groups.get(key);
  if (top === undefined) {
    const url = viewDataPath(config.indicator, key);
    top = (window.osViewData?.[url] ?? fetchJson(url)) as Promise<ViewGroupFile>;
    top.catch(() => groups.delete(key));
    groups.set(key, top);
  }
  const group = await groupWith(await top, only, readPart);
  loadedGroups.set(key, joinedGroup(loadedGroups.get(key), group));
}

/** The indicator as the view needs it: the page's settings and the groups loaded so far. */
function indicatorOf(config: PageConfig): ViewIndicator {
  const files = [...loadedGroups.values()];
  const parameters = new Map([...loadedGroups].map(([key, file]) => [key, file.parameter]));
  return {
    id: config.indicator,
    title: config.title,
    unit: config.unit,
    rhythm: config.rhythm,
    stepwise: config.stepwise,
    display: config.display,
    facets: config.facets,
    compare: config.compare,
    defaults: config.defaults,
    series: files.flatMap((f) => f.series),
    // Without a compared facet the indicator is one group: its ids are all of them, also when only some of its parts were read.
    ...(config.compare === null && files[0]?.ids !== undefined ? { ids: files[0].ids } : {}),
    version: config.version,
    look: config.look,
    schedule: config.schedule,
    publications: config.publications,
    groupParameter: (key) => parameters.get(key),
    longest: config.longest,
  };
}

/** The indicator with the group of `selection` loaded: all of it, or what holds the sub-series `only`. */
async function indicatorWith(config: PageConfig, selection: Selection, only?: readonly string[]): Promise<ViewIndicator> {
  await loadGroup(config, groupKey(config, selection), only);
  return indicatorOf(config);
}

const others = new Map<string, Promise<ViewGroupFile>>();
/** One sub-series of another indicator (the deflator, a ratio's divisor), from its group file (the part holding it). */
function otherSeries(ref: SeriesRef): Promise<ViewSeries> {
  let file = others.get(ref.path);
  if (file === undefined) {
    file = (fetchJson(ref.path) as Promise<ViewGroupFile>).then((f) => groupWith(f, [ref.series], readPart));
    others.set(ref.path, file);
  }
  return file.then((f) => f.series.find((s) => s.id === ref.series) ?? Promise.reject(new Error(`${ref.series} is not in ${ref.path}`)));
}

/** What the questions' handlers share: their context and what they read of the page. */
interface Asking {
  readonly ctx: QuestionContext;
  /** The selection in force. */
  readonly current: () => Selection;
  /** The indicator with the group of the selection in force loaded. */
  indicator(): Promise<ViewIndicator>;
  /** The sub-series on the cards: what the questions ask about. */
  carded(): string[];
  /** The deflator into the pesos of `ctx.deflatorMonth`, loaded (null without one). */
  deflator(): Promise<Deflator | null>;
}

/**
 * The page's questions about time (src/site/client/question-views.ts): the chart
 * in other terms, the change since a date, the CPI calculator. The sub-series
 * asked about are those on the cards.
 */
function setupQuestions(config: PageConfig, current: () => Selection, rendered: (() => void)[]): void {
  const section = document.getElementById("questions");
  const mode = document.getElementById("mode");
  const base = document.getElementById("mode-base");
  const modeAnswer = document.getElementById("mode-answer");
  const charts = document.getElementById("charts");
  if (section === null || !(mode instanceof HTMLSelectElement) || !(base instanceof HTMLInputElement) || modeAnswer === null || charts === null) return;
  section.hidden = false;
  const ctx = questionContext(config);
  const { deflator } = config.time;
  const carded = () => (document.getElementById("ask-at")?.dataset.seriesIds ?? "").split(",").filter((id) => id !== "");
  const asking: Asking = {
    ctx,
    current,
    indicator: () => indicatorWith(config, current(), carded()),
    carded,
    deflator: async () => (deflator === null || ctx.deflatorMonth === null ? null : deflatorOf(await otherSeries(deflator), ctx.deflatorMonth)),
  };
  setupModes(asking, { mode, base, answer: modeAnswer, charts }, rendered);
  setupSince(asking);
}

/** The chart in other terms: the mode's select, the index's base, where its answer goes, the charts it replaces. */
function setupModes(asking: Asking, fields: { mode: HTMLSelectElement; base: HTMLInputElement; answer: HTMLElement; charts: HTMLElement }, rendered: (() => void)[]): void {
  const { ctx } = asking;
  const { mode, base, answer, charts } = fields;
  // The charts of the values as published, while another mode is shown.
  let levelCharts: string | null = null;
  const apply = async () => {
    const value = mode.value;
    base.disabled = value !== "index";
    if (value === "level") {
      if (levelCharts !== null) charts.innerHTML = levelCharts;
      levelCharts = null;
      answer.innerHTML = "";
      setupCharts();
      return;
    }
    if (value === "index" && !DAY.test(base.value)) return;
    const indicator = await asking.indicator();
    const ids = asking.carded();
    const ratio = ratioOf(ctx, value);
    const asked = modeQuestion(ctx, value, base.value, ratio === undefined ? null : await otherSeries(ratio));
    const deflator = value === "real" ? await asking.deflator() : null;
    const label = mode.options[mode.selectedIndex]?.text ?? value;
    const shown = modeAnswer(ctx, { indicator, selection: asking.current(), ids, label }, asked, deflator);
    levelCharts ??= charts.innerHTML;
    charts.innerHTML = shown.charts.html;
    answer.innerHTML = shown.answer.html;
    setupCharts();
  };
  const run = () =>
    void apply().catch((error: unknown) => {
      answer.textContent = ctx.m.selectionFailed;
      console.warn(error);
    });
  mode.addEventListener("change", run);
  base.addEventListener("change", run);
  base.disabled = true;
  // A new selection redraws the view: ask the chosen question again of it.
  rendered.push(() => {
    levelCharts = null;
    if (mode.value !== "level") run();
  });
}

/**
 * A question about a day, asked with form `formId`'s date input `inputId`: on
 * submit, a day (YYYY-MM-DD) is answered into `answerId` by `answer`, or the
 * answer says `failed` when it cannot be (a file that did not load).
 */
function onDayAsked(ids: { form: string; input: string; answer: string }, failed: string, answer: (form: HTMLFormElement, date: string) => Promise<SafeHtml>): void {
  const form = document.getElementById(ids.form);
  const input = document.getElementById(ids.input);
  const out = document.getElementById(ids.answer);
  if (!(form instanceof HTMLFormElement) || !(input instanceof HTMLInputElement) || out === null) return;
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const date = input.value;
    if (!DAY.test(date)) return;
    answer(form, date).then(
      (html) => (out.innerHTML = html.html),
      () => (out.textContent = failed),
    );
  });
}

/** "How much did it change since …?" */
function setupSince(asking: Asking): void {
  onDayAsked({ form: "ask-since", input: "since-date", answer: "ask-since-answer" }, asking.ctx.m.selectionFailed, async (_, date) => {
    const indicator = await asking.indicator();
    const ids = asking.carded();
    const deflator = asking.ctx.deflatorMonth === null ? null : await asking.deflator();
    return sinceAnswer(asking.ctx, indicator, ids, date, deflator);
  });
}

/** "What applied on …?": answered in the page for the sub-series on the cards, the API's address beside it. */
function setupAsk(config: PageConfig, m: Messages, selection: () => Selection): void {
  onDayAsked({ form: "ask-at", input: "ask-at-date", answer: "ask-at-answer" }, m.selectionFailed, async (form, date) => {
    const ids = (form.dataset.seriesIds ?? "").split(",").filter((id) => id !== "");
    const indicator = await indicatorWith(config, selection(), ids);
    return valueOnDate({ lang: config.lang, indicator, selection: {}, baseUrl: config.baseUrl }, ids, date);
  });
}

/**
 * The facet choice: re-renders the view with the chosen group loaded, keeps the
 * choice in the address (`#<facet>=<value>&…`). The inline script of the page
 * (src/site/client/early.ts) has already set the selects from a shared address and
 * marked the view pending: this renders what they say.
 */
function setupSelection(config: PageConfig, m: Messages, current: () => Selection, rendered: (() => void)[]): void {
  const form = document.getElementById("selection");
  const selects = form instanceof HTMLFormElement ? [...form.querySelectorAll<HTMLSelectElement>("select")] : [];
  const targets = ["view-card", "charts", "compare", "data-table", "downloads"].map((id) => document.getElementById(id));
  const status = document.getElementById("selection-status");
  let asked = 0;
  const render = async (selection: Selection) => {
    const ask = ++asked;
    let indicator: ViewIndicator;
    try {
      indicator = await indicatorWith(config, selection);
    } catch (error) {
      if (status !== null) status.textContent = m.selectionFailed;
      throw error;
    }
    if (ask !== asked) return; // a later choice wins
    const view = renderView({ lang: config.lang, indicator, selection, baseUrl: config.baseUrl, embedded: document.body.classList.contains("embed") });
    const parts = [view.card, view.charts, view.compare, view.table, view.downloads];
    targets.forEach((target, i) => {
      if (target !== null) target.innerHTML = parts[i]?.html ?? "";
    });
    document.body.classList.remove("view-pending");
    if (status !== null) status.textContent = "";
    followSelection(`#${new URLSearchParams(selection).toString()}`);
    const askForm = document.getElementById("ask-at");
    if (askForm instanceof HTMLFormElement) {
      askForm.dataset.seriesIds = view.carded.join(",");
      const hidden = askForm.elements.namedItem("series");
      if (hidden instanceof HTMLInputElement && view.carded.length === 1) hidden.value = view.carded[0] as string;
      const answer = document.getElementById("ask-at-answer");
      if (answer !== null) answer.innerHTML = "";
    }
    const embed = document.getElementById("embed-code");
    if (embed !== null) embed.textContent = (embed.textContent ?? "").replace(/(embed\/)(#[^"]*)?"/, `$1#${new URLSearchParams(selection).toString()}"`);
    setupCharts();
    setupCopyButtons(m);
    for (const hook of rendered) hook();
  };
  const show = (selection: Selection) => void render(selection).catch((error: unknown) => console.warn(error));

  // The selection the page opens on: the selects as the inline script set them (from a shared address).
  const opening = current();
  const isDefault = config.facets.every((f) => opening[f.name] === config.defaults[f.name]);
  if (!isDefault) show(opening);
  if (form instanceof HTMLFormElement) {
    form.addEventListener("change", () => {
      const selection = current();
      show(selection);
      history.replaceState(history.state, "", `#${new URLSearchParams(selection).toString()}`);
    });
    form.addEventListener("submit", (event) => event.preventDefault());
  }
  // A search result on this same page changes the address only: follow it.
  window.addEventListener("hashchange", () => {
    const next = normaliseSelection(indicatorOf(config), Object.fromEntries(new URLSearchParams(location.hash.slice(1))));
    for (const select of selects) select.value = next[select.name] ?? select.value;
    show(next);
  });
}

/** A search result as the API gives it (docs/api.md "Search"). */
interface Found {
  indicator: string;
  series: string;
  title: Localized;
  indicator_title: Localized;
  facets: { name: string; value: string }[];
}

/** The search's matches as links to their pages, the selection in the address (`#provider=…&item=…`). */
function searchResults(m: Messages, lang: Lang, found: readonly Found[], total: number): SafeHtml {
  const prefix = lang === "es" ? "" : `/${lang}`;
  const items = found.map((one) => {
    const selection = new URLSearchParams(one.facets.map((f) => [f.name, f.value])).toString();
    const href = `${prefix}/series/${one.indicator}/${selection === "" ? "" : `#${selection}`}`;
    return html`<li><a href="${href}">${one.title[lang]}</a> <span class="note">${one.indicator_title[lang]}</span></li>`;
  });
  return html`<p class="note">${m.searchCount(found.length, total)}</p><ol>${items}</ol>`;
}

/**
 * The search box: the words sent to the search API as they are typed (after a
 * pause) or submitted, the matches listed as links to their pages with the
 * selection in the address (`#provider=…&item=…`), which the page opens on.
 */
function setupSearch(m: Messages, lang: Lang): void {
  const form = document.getElementById("search");
  const input = document.getElementById("search-q");
  const results = document.getElementById("search-results");
  if (!(form instanceof HTMLFormElement) || !(input instanceof HTMLInputElement) || results === null) return;
  let asked = 0;
  const run = async () => {
    const q = input.value.trim();
    const ask = ++asked;
    if (q.length < 2) {
      results.innerHTML = "";
      return;
    }
    const params = new URLSearchParams(new FormData(form) as unknown as Record<string, string>);
    params.set("q", q);
    params.set("limit", "10");
    try {
      const response = await fetch(withQuery(form.getAttribute("action") ?? "", params, NO_SEPARATORS));
      const body = (await response.json()) as { data: Found[]; meta: { total: number } };
      if (ask !== asked) return;
      const shown = !response.ok || body.data.length === 0 ? html`<p class="note">${response.ok ? m.searchNone : m.searchFailed}</p>` : searchResults(m, lang, body.data, body.meta.total);
      results.innerHTML = shown.html;
    } catch {
      if (ask === asked) results.innerHTML = html`<p class="note">${m.searchFailed}</p>`.html;
    }
  };
  let timer: ReturnType<typeof setTimeout> | undefined;
  input.addEventListener("input", () => {
    clearTimeout(timer);
    timer = setTimeout(() => void run(), 250);
  });
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    clearTimeout(timer);
    void run();
  });
}

function main(): void {
  const lang = document.documentElement.lang === "en" ? "en" : "es";
  const m = MESSAGES[lang];
  dropTrackingParameters();
  localiseAddresses();
  setupCopyButtons(m);
  setupCharts();
  setupSearch(m, lang);
  setupAdjust(lang, m);
  const compare = document.getElementById("compare");
  if (compare !== null) setupSorting(compare);
  const configElement = document.getElementById("series-config");
  if (configElement === null) return;
  const written = JSON.parse(configElement.textContent ?? "{}") as PageConfig;
  // The addresses this script writes out name the site it runs on (src/site/client/origin.ts).
  const config: PageConfig = { ...written, baseUrl: hereOrigin(written.baseUrl) };
  // The selection in force: the form's selects (set from a shared address by the inline script), else the address (the embed page), else the defaults.
  const form = document.getElementById("selection");
  const current = (): Selection =>
    form instanceof HTMLFormElement
      ? Object.fromEntries([...form.querySelectorAll<HTMLSelectElement>("select")].map((s) => [s.name, s.value]))
      : normaliseSelection({ ...indicatorOf(config), facets: config.facets }, Object.fromEntries(new URLSearchParams(location.hash.slice(1))));
  setupAsk(config, m, current);
  const rendered: (() => void)[] = [];
  setupQuestions(config, current, rendered);
  if (config.compare === null) return;
  // From now on this script renders a choice: the inline script's stand-in is no longer needed.
  window.osReady = true;
  setupSelection(config, m, current, rendered);
}

main();
