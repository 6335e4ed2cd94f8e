/**
 * The pages' script: a progressive enhancement, bundled by the build into
 * `assets/series-page.js`. The static page already shows the default view; this
 * adds the copy buttons, value and date on hover and keyboard focus in the charts,
 * the sortable comparison table, the facet choice (re-rendered with the same code
 * the build uses, src/site/client/series-view.ts) with a shareable `#<facet>=<value>&…` address,
 * and drops `utm_` parameters from the address bar once the visit is counted. It
 * only requests files of the same site.
 */
import { decodeDataset } from "../../core/columnar.js";
import type { Display } from "../../core/display.js";
import type { Lang, Localized } from "../../core/i18n.js";
import { MESSAGES, type Messages } from "./messages/index.js";
import { normaliseSelection, renderView, seriesParameter, valueOnDate, type Selection, type ViewFacet, type ViewIndicator, type ViewSeries } from "./series-view.js";
import { enhanceChart } from "./chart-interaction.js";

interface PageConfig {
  lang: Lang;
  indicator: string;
  unit: string;
  rhythm: string;
  stepwise: boolean;
  display: Display;
  compare: string | null;
  defaults: Selection;
  baseUrl: string;
  dataset: string;
  metadata: string;
  notes: Record<string, Record<string, Localized>>;
  version: string;
}

/** The parts of the metadata document (`/api/v1/<id>/metadata.json`) the page reads. */
interface MetadataDocument {
  title: Localized;
  facets: { name: string; title: Localized; values: string[]; labels: Localized[] }[];
  series: { id: string; title: Localized; facets: (number | null)[] }[];
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

/** The indicator as the view needs it, from the dataset file and the metadata document. */
async function loadIndicator(config: PageConfig): Promise<ViewIndicator> {
  const [dataset, doc] = await Promise.all([
    fetch(config.dataset).then(async (r) => decodeDataset(await r.arrayBuffer())),
    fetch(config.metadata).then((r) => r.json() as Promise<MetadataDocument>),
  ]);
  const facets: ViewFacet[] = doc.facets.map((f) => ({
    name: f.name,
    title: f.title,
    values: f.values.map((value, i) => ({ value, label: f.labels[i] ?? { es: value, en: value } })),
  }));
  const declared = new Map(doc.series.map((s) => [s.id, s]));
  const series: ViewSeries[] = dataset.series.map((s) => {
    const meta = declared.get(s.id);
    const ranks = Array.from({ length: s.length }, (_, i) => i);
    const own: Record<string, string> = {};
    meta?.facets.forEach((index, k) => {
      const facet = doc.facets[k];
      if (index !== null && facet !== undefined) own[facet.name] = facet.values[index] ?? "";
    });
    return {
      id: s.id,
      title: meta?.title ?? { es: s.id, en: s.id },
      facets: own,
      dates: ranks.map((i) => s.date(i)),
      values: ranks.map((i) => s.value(i)),
      notes: config.notes[s.id] ?? {},
    };
  });
  return {
    id: config.indicator,
    title: doc.title,
    unit: config.unit,
    rhythm: config.rhythm,
    stepwise: config.stepwise,
    display: config.display,
    facets,
    compare: config.compare,
    defaults: config.defaults,
    series,
    version: config.version,
  };
}

let loaded: Promise<ViewIndicator> | null = null;
/** The indicator's data, fetched once, when something first needs it. */
const indicatorOf = (config: PageConfig) => (loaded ??= loadIndicator(config));

/** "What applied on …?": answered in the page for the sub-series on the cards, the API's address beside it. */
function setupAsk(config: PageConfig, m: Messages): void {
  const form = document.getElementById("ask-at");
  const answer = document.getElementById("ask-at-answer");
  const input = document.getElementById("ask-at-date");
  if (!(form instanceof HTMLFormElement) || !(input instanceof HTMLInputElement) || answer === null) return;
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const date = input.value;
    if (!/^\d{4}-\d{2}-\d{2}$/.test(date)) return;
    const ids = (form.dataset.seriesIds ?? "").split(",").filter((id) => id !== "");
    indicatorOf(config).then(
      (indicator) => (answer.innerHTML = valueOnDate({ lang: config.lang, indicator, selection: {}, baseUrl: config.baseUrl }, ids, date).html),
      () => (answer.textContent = m.selectionFailed),
    );
  });
}

/** The facet choice: re-renders the view, keeps the choice in the address (`#<facet>=<value>&…`). */
async function setupSelection(config: PageConfig, m: Messages): Promise<void> {
  const form = document.getElementById("selection");
  const fromHash = Object.fromEntries(new URLSearchParams(location.hash.slice(1)));
  // The embed page has no form: it follows the address only.
  if (!(form instanceof HTMLFormElement) && Object.keys(fromHash).length === 0) return;
  const indicator = await indicatorOf(config);
  const selects = form instanceof HTMLFormElement ? [...form.querySelectorAll<HTMLSelectElement>("select")] : [];
  const targets = ["view-card", "charts", "compare", "data-table", "downloads"].map((id) => document.getElementById(id));
  const render = (selection: Selection) => {
    const view = renderView({ lang: config.lang, indicator, selection, baseUrl: config.baseUrl, embedded: document.body.classList.contains("embed") });
    const parts = [view.card, view.charts, view.compare, view.table, view.downloads];
    targets.forEach((target, i) => {
      if (target !== null) target.innerHTML = parts[i]?.html ?? "";
    });
    followSelection(`#${new URLSearchParams(selection).toString()}`);
    const ask = document.getElementById("ask-at");
    if (ask instanceof HTMLFormElement) {
      ask.dataset.seriesIds = view.carded.join(",");
      const hidden = ask.elements.namedItem("series");
      if (hidden instanceof HTMLInputElement) hidden.value = seriesParameter(view.carded, indicator.series.map((s) => s.id)) ?? "";
      const answer = document.getElementById("ask-at-answer");
      if (answer !== null) answer.innerHTML = "";
    }
    const embed = document.getElementById("embed-code");
    if (embed !== null) embed.textContent = (embed.textContent ?? "").replace(/(embed\/)(#[^"]*)?"/, `$1#${new URLSearchParams(selection).toString()}"`);
    setupCharts();
    setupCopyButtons(m);
  };
  const current = (): Selection => Object.fromEntries(selects.map((s) => [s.name, s.value]));

  // A shared address (#<facet>=<value>&…) opens on its selection.
  const chosen = normaliseSelection(indicator, fromHash);
  for (const select of selects) select.value = chosen[select.name] ?? select.value;
  if (Object.keys(fromHash).length > 0) render(chosen);
  if (form instanceof HTMLFormElement) {
    form.addEventListener("change", () => {
      const selection = current();
      render(selection);
      history.replaceState(history.state, "", `#${new URLSearchParams(selection).toString()}`);
    });
    form.addEventListener("submit", (event) => event.preventDefault());
    form.hidden = false;
  }
  // A search result on this same page changes the address only: follow it.
  window.addEventListener("hashchange", () => {
    const next = normaliseSelection(indicator, Object.fromEntries(new URLSearchParams(location.hash.slice(1))));
    for (const select of selects) select.value = next[select.name] ?? select.value;
    render(next);
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
  setupAsk(config, m);
  if (config.compare === null) return;
  setupSelection(config, m).catch((error: unknown) => {
    const note = document.getElementById("selection-status");
    if (note !== null) note.textContent = m.selectionFailed;
    console.warn(error);
  });
}

main();
