/**
 * The pages' script: a progressive enhancement, bundled by the build into
 * `assets/series-page.js`. The static page already shows the default view; this
 * adds the copy buttons, value and date on hover and keyboard focus in the charts,
 * the sortable comparison table, the facet choice (re-rendered with the same code
 * the build uses, src/site/client/series-view.ts, from the group file of the
 * selection only) with a shareable `#<facet>=<value>&…` address, the questions
 * about time (the value on a date; src/site/client/questions.ts for the rest),
 * and drops `utm_` parameters from the address bar once the visit is counted. It
 * only requests files of the same site.
 */
import type { Display } from "../../core/display.js";
import type { Lang, Localized } from "../../core/i18n.js";
import { MESSAGES, type Messages } from "./messages/index.js";
import { viewDataPath } from "../../core/paths.js";
import { LOCALES } from "../../core/i18n.js";
import { derivedText } from "../../core/derive.js";
import { Formatter } from "./format.js";
import { answer, deflatorOf, questionUrl, type Question } from "./questions.js";
import { derivedFigure, groupKey, normaliseSelection, renderView, valueOnDate, type Selection, type ViewFacet, type ViewIndicator, type ViewSeries } from "./series-view.js";
import { enhanceChart } from "./chart-interaction.js";

interface PageConfig {
  lang: Lang;
  indicator: string;
  title: Localized;
  unit: string;
  rhythm: string;
  stepwise: boolean;
  display: Display;
  facets: ViewFacet[];
  compare: string | null;
  defaults: Selection;
  baseUrl: string;
  publications: string[];
  version: string;
  time: TimeConfig;
}

/** One sub-series of an indicator as the page script finds it (site.ts `seriesRef`). */
interface SeriesRef {
  indicator: string;
  series: string;
  path: string;
  rhythm: string;
  stepwise: boolean;
  version: string;
  title: Localized;
  newest: string | null;
}

/** What the page's questions offer (site.ts `timeConfig`). */
interface TimeConfig {
  deflator: SeriesRef | null;
  ratios: (SeriesRef & { parameter: string; label: string; percent: boolean })[];
  calculator: { series: string; unit: string } | null;
}

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

/** A group file of the view's data (src/build/view-data.ts). */
interface GroupFile {
  parameter: string | null;
  series: ViewSeries[];
}

/** What the inline script (site.ts `EARLY_SCRIPT`) shares: the group files it requested, by URL; and whether this script has taken over. */
declare global {
  interface Window {
    osViewData?: Record<string, Promise<unknown>>;
    osReady?: boolean;
  }
}

const groups = new Map<string, Promise<GroupFile>>();
const loadedGroups = new Map<string, GroupFile>();

/** One group's file, fetched once (or taken from the fetch the inline script started). */
function loadGroup(config: PageConfig, key: string): Promise<GroupFile> {
  let group = groups.get(key);
  if (group === undefined) {
    const url = viewDataPath(config.indicator, key);
    const early = window.osViewData?.[url];
    group = (early ?? fetch(url).then((r) => (r.ok ? r.json() : Promise.reject(new Error(`${url}: ${r.status}`))))) as Promise<GroupFile>;
    group.then((file) => loadedGroups.set(key, file)).catch(() => groups.delete(key));
    groups.set(key, group);
  }
  return group;
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
    version: config.version,
    publications: config.publications,
    groupParameter: (key) => parameters.get(key),
  };
}

/** The indicator with the group of `selection` loaded. */
async function indicatorWith(config: PageConfig, selection: Selection): Promise<ViewIndicator> {
  await loadGroup(config, groupKey(config, selection));
  return indicatorOf(config);
}

const others = new Map<string, Promise<GroupFile>>();
/** One sub-series of another indicator (the deflator, a ratio's divisor), from its group file. */
function otherSeries(ref: SeriesRef): Promise<ViewSeries> {
  let file = others.get(ref.path);
  if (file === undefined) {
    file = fetch(ref.path).then((r) => (r.ok ? (r.json() as Promise<GroupFile>) : Promise.reject(new Error(`${ref.path}: ${r.status}`))));
    others.set(ref.path, file);
  }
  return file.then((f) => f.series.find((s) => s.id === ref.series) ?? Promise.reject(new Error(`${ref.series} is not in ${ref.path}`)));
}

const numberFormats = new Map<string, Intl.NumberFormat>();
/** Numbers of a question's answer for display: money, an index, a percentage, a ratio (one formatter per kind, made once). */
function numberText(lang: Lang, unit: string | null, digits: number, value: number, percent = false, signed = percent): string {
  const key = `${lang} ${unit ?? ""} ${String(digits)} ${String(percent)} ${String(signed)}`;
  let format = numberFormats.get(key);
  if (format === undefined) {
    const options: Intl.NumberFormatOptions = percent
      ? { style: "percent", maximumFractionDigits: digits, signDisplay: signed ? "exceptZero" : "auto" }
      : unit === null
        ? { maximumFractionDigits: digits }
        : { style: "currency", currency: unit, currencyDisplay: "narrowSymbol", maximumFractionDigits: digits };
    format = new Intl.NumberFormat(LOCALES[lang], options);
    numberFormats.set(key, format);
  }
  return format.format(percent ? value / 100 : value);
}

/**
 * The page's questions about time (src/site/client/questions.ts): the chart in
 * other terms, the change since a date, the CPI calculator; each answer with its
 * API address. The sub-series asked about are those on the cards.
 */
function setupQuestions(config: PageConfig, m: Messages, current: () => Selection, rendered: (() => void)[]): void {
  const section = document.getElementById("questions");
  const mode = document.getElementById("mode");
  const base = document.getElementById("mode-base");
  const modeAnswer = document.getElementById("mode-answer");
  const charts = document.getElementById("charts");
  if (section === null || !(mode instanceof HTMLSelectElement) || !(base instanceof HTMLInputElement) || modeAnswer === null || charts === null) return;
  section.hidden = false;
  const { lang, time } = config;
  const rule = { rhythm: config.rhythm, stepwise: config.stepwise, version: config.version };
  const money = /^[A-Z]{3}$/.test(config.unit) && config.unit !== "XXX" ? config.unit : null;
  const f = new Formatter(lang, config.unit, config.display.date === "period" ? config.rhythm : null);
  const carded = () => (document.getElementById("ask-at")?.dataset.seriesIds ?? "").split(",").filter((id) => id !== "");
  const deflatorMonth = time.deflator?.newest?.slice(0, 7) ?? null;
  const deflator = async () => {
    if (time.deflator === null || deflatorMonth === null) return null;
    return deflatorOf(await otherSeries(time.deflator), deflatorMonth);
  };
  let levelCharts: string | null = null;

  /** The question a mode asks, and how its numbers read. */
  const questionOf = async (value: string): Promise<{ question: Question; text: (v: number) => string; axis: string }> => {
    if (value === "real" && deflatorMonth !== null) return { question: { real: deflatorMonth }, text: (v) => numberText(lang, money, 2, v), axis: f.unitSymbol };
    if (value === "index") return { question: { units: "index", base: base.value }, text: (v) => numberText(lang, null, 1, v), axis: "100 = " + f.date(base.value) };
    if (value === "percent_change_a_year_ago" || value === "percent_change") {
      return { question: { units: value }, text: (v) => numberText(lang, null, value === "percent_change" ? 2 : 1, v, true), axis: "%" };
    }
    const ratio = time.ratios[Number(value.replace("ratio-", ""))];
    if (value.startsWith("ratio-") && ratio !== undefined) {
      const per = { parameter: ratio.parameter, series: await otherSeries(ratio), rule: ratio };
      return ratio.percent
        ? { question: { per }, text: (v) => numberText(lang, null, 2, v * 100, true, false), axis: "%" }
        : { question: { per }, text: (v) => numberText(lang, null, 2, v), axis: ratio.label };
    }
    return { question: {}, text: (v) => numberText(lang, money, 2, v), axis: f.unitSymbol };
  };

  const apply = async () => {
    const value = mode.value;
    base.disabled = value !== "index";
    if (value === "level") {
      if (levelCharts !== null) charts.innerHTML = levelCharts;
      levelCharts = null;
      modeAnswer.innerHTML = "";
      setupCharts();
      return;
    }
    if (value === "index" && !/^\d{4}-\d{2}-\d{2}$/.test(base.value)) return;
    const indicator = await indicatorWith(config, current());
    const ids = carded();
    const { question, text, axis } = await questionOf(value);
    const answers = answer(indicator.series, rule, ids, question, value === "real" ? await deflator() : null);
    const title = (id: string) => indicator.series.find((s) => s.id === id)?.title[lang] ?? id;
    const lines = answers.map((a) => ({ id: a.id, label: title(a.id), points: a.points.map((p) => ({ ...p, text: text(p.value) })) }));
    const label = mode.options[mode.selectedIndex]?.text ?? value;
    levelCharts ??= charts.innerHTML;
    const input = { lang, indicator, selection: current(), baseUrl: config.baseUrl };
    charts.innerHTML = derivedFigure(input, lines, label, axis).html;
    const series = ids.length === 1 ? (ids[0] as string) : ids.join(",");
    const url = questionUrl(config.baseUrl, config.indicator, series, question, 1);
    const latest = lines.map((line) => {
      const p = line.points[0];
      return p === undefined ? `<li>${escapeText(line.label)}: ${escapeText(m.sinceNone)}</li>` : `<li data-series="${escapeText(line.id)}">${escapeText(m.latestOf(line.label, "\u0000", f.pointShortDate(p.date))).replace("\u0000", `<data value="${derivedText(p.value) ?? ""}">${escapeText(p.text)}</data>`)}</li>`;
    });
    modeAnswer.innerHTML = `<ul class="answer">${latest.join("")}</ul><p class="api-equivalent">${escapeText(m.sameInApi)} <a href="${escapeText(url)}"><code>${escapeText(url)}</code></a></p>`;
    setupCharts();
  };
  const run = () => void apply().catch((error: unknown) => {
    modeAnswer.textContent = m.selectionFailed;
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

  const since = document.getElementById("ask-since");
  const sinceDate = document.getElementById("since-date");
  const sinceAnswer = document.getElementById("ask-since-answer");
  if (since instanceof HTMLFormElement && sinceDate instanceof HTMLInputElement && sinceAnswer !== null) {
    since.addEventListener("submit", (event) => {
      event.preventDefault();
      const date = sinceDate.value;
      if (!/^\d{4}-\d{2}-\d{2}$/.test(date)) return;
      void (async () => {
        const indicator = await indicatorWith(config, current());
        const ids = carded();
        const then = answer(indicator.series, rule, ids, { at: date }, null);
        const nominal = answer(indicator.series, rule, ids, { units: "index", base: date }, null);
        const real = deflatorMonth === null ? null : answer(indicator.series, rule, ids, { units: "index", base: date, real: deflatorMonth }, await deflator());
        const items = ids.map((id, k) => {
          const title = indicator.series.find((s) => s.id === id)?.title[lang] ?? id;
          const one = indicator.series.find((s) => s.id === id);
          const from = then[k]?.points[0];
          const index = nominal[k]?.points[0];
          if (one === undefined || from === undefined || index === undefined) return `<li>${escapeText(title)}: ${escapeText(m.sinceNone)}</li>`;
          const to = one.values[0] as string;
          const change = `<data value="${derivedText(index.value - 100) ?? ""}">${escapeText(numberText(lang, null, 1, index.value - 100, true))}</data>`;
          let line = `${escapeText(title)}: ${escapeText(m.sinceNominal(numberText(lang, money, 2, from.value), f.value(to), "\u0000"))}`.replace("\u0000", change);
          const r = real?.[k]?.points[0];
          if (r !== undefined && deflatorMonth !== null) {
            const realChange = `<data value="${derivedText(r.value - 100) ?? ""}" class="real">${escapeText(numberText(lang, null, 1, r.value - 100, true))}</data>`;
            line += `; ${escapeText(m.sinceReal("\u0000", f.pointDate(`${deflatorMonth}-01`))).replace("\u0000", realChange)}`;
          }
          return `<li data-series="${escapeText(id)}">${line}</li>`;
        });
        const series = ids.join(",");
        const urls = [questionUrl(config.baseUrl, config.indicator, series, { units: "index", base: date }, 1), ...(deflatorMonth === null ? [] : [questionUrl(config.baseUrl, config.indicator, series, { real: deflatorMonth, units: "index", base: date }, 1)])];
        sinceAnswer.innerHTML = `<ul class="answer">${items.join("")}</ul><p class="api-equivalent">${escapeText(m.sameInApi)} ${urls.map((u) => `<a href="${escapeText(u)}"><code>${escapeText(u)}</code></a>`).join(" ")}</p>`;
      })().catch(() => (sinceAnswer.textContent = m.selectionFailed));
    });
  }

  const calculator = document.getElementById("calculator");
  const amount = document.getElementById("calc-amount");
  const month = document.getElementById("calc-month");
  const calcAnswer = document.getElementById("calculator-answer");
  const calc = time.calculator;
  if (calc !== null && calculator instanceof HTMLFormElement && amount instanceof HTMLInputElement && month instanceof HTMLInputElement && calcAnswer !== null) {
    calculator.addEventListener("submit", (event) => {
      event.preventDefault();
      const x = Number(amount.value);
      if (!/^\d{4}-\d{2}$/.test(month.value) || !Number.isFinite(x)) return;
      void indicatorWith(config, current()).then((indicator) => {
        const question: Question = { units: "index", base: `${month.value}-01` };
        const point = answer(indicator.series, rule, [calc.series], question, null)[0]?.points[0];
        const latest = indicator.series.find((s) => s.id === calc.series)?.dates[0];
        if (point === undefined || latest === undefined) {
          calcAnswer.textContent = m.sinceNone;
          return;
        }
        const y = (x * point.value) / 100;
        const url = questionUrl(config.baseUrl, config.indicator, calc.series, question, 1);
        const sentence = escapeText(m.calcAnswer(numberText(lang, calc.unit, 2, x), f.pointDate(`${month.value}-01`), "\u0000", f.pointDate(latest)));
        calcAnswer.innerHTML = `<p>${sentence.replace("\u0000", `<strong><data value="${String(y)}">${escapeText(numberText(lang, calc.unit, 2, y))}</data></strong>`)}</p><p class="api-equivalent">${escapeText(m.sameInApi)} <a href="${escapeText(url)}"><code>${escapeText(url)}</code></a> (${escapeText(`${numberText(lang, calc.unit, 2, x)} × ${numberText(lang, null, 4, point.value)} / 100`)})</p>`;
      });
    });
  }
}

/** "What applied on …?": answered in the page for the sub-series on the cards, the API's address beside it. */
function setupAsk(config: PageConfig, m: Messages, selection: () => Selection): void {
  const form = document.getElementById("ask-at");
  const answer = document.getElementById("ask-at-answer");
  const input = document.getElementById("ask-at-date");
  if (!(form instanceof HTMLFormElement) || !(input instanceof HTMLInputElement) || answer === null) return;
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const date = input.value;
    if (!/^\d{4}-\d{2}-\d{2}$/.test(date)) return;
    const ids = (form.dataset.seriesIds ?? "").split(",").filter((id) => id !== "");
    indicatorWith(config, selection()).then(
      (indicator) => (answer.innerHTML = valueOnDate({ lang: config.lang, indicator, selection: {}, baseUrl: config.baseUrl }, ids, date).html),
      () => (answer.textContent = m.selectionFailed),
    );
  });
}

/**
 * The facet choice: re-renders the view with the chosen group loaded, keeps the
 * choice in the address (`#<facet>=<value>&…`). The inline script of the page
 * (site.ts `earlyScript`) has already set the selects from a shared address and
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

/** A search result as the API gives it (README "Search"). */
interface Found {
  indicator: string;
  series: string;
  title: Localized;
  indicator_title: Localized;
  facets: { name: string; value: string }[];
}

/** Escapes text for HTML (results are data). */
const escapeText = (text: string) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

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
      const response = await fetch(`${form.getAttribute("action") ?? ""}?${params.toString()}`);
      const body = (await response.json()) as { data: Found[]; meta: { total: number } };
      if (ask !== asked) return;
      if (!response.ok || body.data.length === 0) {
        results.innerHTML = `<p class="note">${escapeText(response.ok ? m.searchNone : m.searchFailed)}</p>`;
        return;
      }
      const prefix = lang === "es" ? "" : `/${lang}`;
      const items = body.data.map((found) => {
        const selection = new URLSearchParams(found.facets.map((f) => [f.name, f.value])).toString();
        const href = `${prefix}/series/${found.indicator}/${selection === "" ? "" : `#${selection}`}`;
        return `<li><a href="${escapeText(href)}">${escapeText(found.title[lang])}</a> <span class="note">${escapeText(found.indicator_title[lang])}</span></li>`;
      });
      results.innerHTML = `<p class="note">${escapeText(m.searchCount(body.data.length, body.meta.total))}</p><ol>${items.join("")}</ol>`;
    } catch {
      if (ask === asked) results.innerHTML = `<p class="note">${escapeText(m.searchFailed)}</p>`;
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
  setupCopyButtons(m);
  setupCharts();
  setupSearch(m, lang);
  const compare = document.getElementById("compare");
  if (compare !== null) setupSorting(compare);
  const configElement = document.getElementById("series-config");
  if (configElement === null) return;
  const config = JSON.parse(configElement.textContent ?? "{}") as PageConfig;
  // The selection in force: the form's selects (set from a shared address by the inline script), else the address (the embed page), else the defaults.
  const form = document.getElementById("selection");
  const current = (): Selection =>
    form instanceof HTMLFormElement
      ? Object.fromEntries([...form.querySelectorAll<HTMLSelectElement>("select")].map((s) => [s.name, s.value]))
      : normaliseSelection({ ...indicatorOf(config), facets: config.facets }, Object.fromEntries(new URLSearchParams(location.hash.slice(1))));
  setupAsk(config, m, current);
  const rendered: (() => void)[] = [];
  setupQuestions(config, m, current, rendered);
  if (config.compare === null) return;
  // From now on this script renders a choice: the inline script's stand-in is no longer needed.
  window.osReady = true;
  setupSelection(config, m, current, rendered);
}

main();
