/**
 * The indicator page's script: a progressive enhancement, bundled by the build into
 * `assets/series-page.js`. The static page already shows the default charts and
 * tables; this adds the facet choice (re-rendered with the same code the build
 * uses, src/site/series-view.ts), a shareable `#provider=…` address, and the copy button
 * of the attribution snippet. It only requests files of the same site.
 */
import { decodeDataset } from "../../core/columnar.js";
import { seriesLabels, type SeriesDeclaration } from "../../core/series-meta.js";
import { normaliseSelection, renderView, type Selection, type ViewSeries } from "../series-view.js";

interface PageConfig {
  indicator: string;
  title: string;
  unit: string;
  dataset: string;
  catalog: string;
}

interface Catalog {
  indicators: { id: string; series: SeriesDeclaration[] }[];
}

function setupCopyButtons(): void {
  for (const button of document.querySelectorAll<HTMLButtonElement>("button[data-copy]")) {
    const source = document.getElementById(button.dataset.copy ?? "");
    if (source === null) continue;
    button.hidden = false;
    button.addEventListener("click", () => {
      void navigator.clipboard.writeText(source.textContent ?? "").then(
        () => (button.textContent = "Copied"),
        () => (button.textContent = "Select the text to copy"),
      );
    });
  }
}

async function setupSelection(config: PageConfig, form: HTMLFormElement): Promise<void> {
  const [dataset, catalog] = await Promise.all([
    fetch(config.dataset).then(async (r) => decodeDataset(await r.arrayBuffer())),
    fetch(config.catalog).then((r) => r.json() as Promise<Catalog>),
  ]);
  const labels = seriesLabels(
    dataset.series.map((s) => s.id),
    catalog.indicators.find((i) => i.id === config.indicator)?.series ?? [],
  );
  const series: ViewSeries[] = dataset.series.map((s, j) => {
    const ranks = Array.from({ length: s.length }, (_, i) => i);
    return { ...(labels[j] as (typeof labels)[number]), dates: ranks.map((i) => s.date(i)), values: ranks.map((i) => s.value(i)) };
  });
  const selects = [...form.querySelectorAll<HTMLSelectElement>("select")];
  const targets = {
    charts: document.getElementById("charts") as HTMLElement,
    latest: document.getElementById("latest") as HTMLElement,
    table: document.getElementById("data-table") as HTMLElement,
  };
  const render = (selection: Selection) => {
    const view = renderView({ indicator: config.indicator, title: config.title, unit: config.unit, series, selection });
    targets.charts.innerHTML = view.charts.html;
    targets.latest.innerHTML = view.latest.html;
    targets.table.innerHTML = view.table.html;
  };
  const current = (): Selection => Object.fromEntries(selects.map((s) => [s.name, s.value]));

  // A shared address (#provider=…&item=…) opens on its selection.
  const fromHash = normaliseSelection(series, Object.fromEntries(new URLSearchParams(location.hash.slice(1))));
  for (const select of selects) select.value = fromHash[select.name] ?? select.value;
  if (location.hash.length > 1) render(current());

  form.addEventListener("change", () => {
    const selection = current();
    render(selection);
    history.replaceState(null, "", `#${new URLSearchParams(selection).toString()}`);
  });
  form.addEventListener("submit", (event) => event.preventDefault());
  form.hidden = false;
}

function main(): void {
  setupCopyButtons();
  const configElement = document.getElementById("series-config");
  const form = document.getElementById("selection");
  if (configElement === null || !(form instanceof HTMLFormElement)) return;
  const config = JSON.parse(configElement.textContent ?? "{}") as PageConfig;
  setupSelection(config, form).catch((error: unknown) => {
    const note = document.getElementById("selection-status");
    if (note !== null) note.textContent = "The selection could not be loaded; the default chart is shown.";
    console.warn(error);
  });
}

main();
