/**
 * The site: the home page, one page per indicator (the target of every
 * `meta.attribution` link) and the 404 page. HTML rendered at build time, escaped
 * by default; charts are inline SVG, so every page is complete without a script.
 * Nothing is requested from another site (no fonts, CDNs or analytics).
 */
import type { BuiltIndicator } from "../build/dataset.js";
import { attributionAnchor, indicatorPageUrl, type SiteConfig } from "../core/config.js";
import { html, raw, type SafeHtml } from "../core/html.js";
import { LIMIT } from "../core/contract.js";
import {
  CATALOG_PATH,
  DCAT_CATALOG_PATH,
  OPENAPI_PATH,
  PAGE_SCRIPT_PATH,
  SERVICE_FEED_PATH,
  csvPath,
  dataPackagePath,
  datasetPath,
  defaultPagePath,
  endpointPath,
  feedPath,
  metadataPath,
  parquetPath,
  seriesPagePath,
  xlsxPath,
} from "../core/paths.js";
import { ATOM_MEDIA_TYPE } from "../build/formats/atom.js";
import { datasetScript } from "../build/formats/schema-org.js";
import { defaultSelection, facetSpecs, renderView, type ViewSeries } from "./series-view.js";

/** `head`: more elements for the page's head (feed links, JSON-LD). */
function layout(config: SiteConfig, title: string, description: string, body: SafeHtml, script = false, head: SafeHtml | string = ""): string {
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title}</title>
<meta name="description" content="${description}">
<link rel="stylesheet" href="/style.css">
<link rel="icon" href="/favicon.svg" type="image/svg+xml">
${head}${script ? raw(`<script src="${PAGE_SCRIPT_PATH}" defer></script>\n`) : ""}</head>
<body>
<a class="skip" href="#main">Skip to content</a>
<header class="site"><a href="/" class="brand">${config.name}</a>
<nav aria-label="Site"><a href="/#indicators">Indicators</a> <a href="/#api">API</a> <a href="/#attribution">Attribution</a></nav></header>
<main id="main">
${body}
</main>
<footer class="site"><p>Data under <a href="https://creativecommons.org/licenses/by/4.0/" rel="license">CC BY 4.0</a>, credited as each page says.
API: <a href="${CATALOG_PATH}">catalog</a> · <a href="${OPENAPI_PATH}">OpenAPI description</a> · <a href="${DCAT_CATALOG_PATH}">DCAT catalog</a> · <a href="${SERVICE_FEED_PATH}">releases feed (Atom)</a>.</p></footer>
</body>
</html>
`.html;
}

/** The head link feed readers discover a feed by. */
const feedLink = (title: string, href: string) => html`<link rel="alternate" type="${ATOM_MEDIA_TYPE}" title="${title}" href="${href}">
`;

const curl = (config: SiteConfig, pathAndQuery: string) => html`<pre><code>curl '${config.baseUrl}${pathAndQuery}'</code></pre>`;

/** The attribution snippet with a copy button (the button appears when the page script runs). */
function attributionBlock(config: SiteConfig, indicator: string, id: string): SafeHtml {
  return html`<pre><code id="${id}">${attributionAnchor(config, indicator)}</code></pre>
<button type="button" data-copy="${id}" hidden>Copy the attribution link</button>`;
}

/** `index.html`: what the service is, its indicators and how to use and credit it. */
export function renderHome(config: SiteConfig, indicators: readonly BuiltIndicator[]): string {
  const rows = indicators.map(
    ({ source, dataset }) => html`<tr>
<th scope="row"><a href="${seriesPagePath(source.meta.id)}">${source.meta.title}</a></th>
<td>${source.meta.unit}</td>
<td>${source.meta.rhythm}</td>
<td>${dataset.lastUpdated ?? "no data"}</td>
<td class="num">${dataset.series.length}</td>
<td><code>${endpointPath(source.meta.id)}</code></td>
</tr>
`,
  );
  const first = indicators[0]?.source.meta.id ?? "domestic-worker-wages";
  const firstSeries = indicators[0]?.labels[0]?.id ?? "monthly";
  const endpoint = endpointPath(first);
  return layout(
    config,
    `${config.name}: Uruguayan statistics as an open JSON API`,
    "Uruguayan statistical indicators as time series, free under CC BY 4.0, over a cached JSON API.",
    html`<h1>${config.name}</h1>
<p class="lead">Uruguayan statistical indicators as time series: free to use under CC BY 4.0,
served as cached JSON from a CDN, with every point citing the publication it comes from.</p>
<section aria-labelledby="indicators"><h2 id="indicators">Indicators</h2>
<div class="scroll"><table>
<thead><tr><th scope="col">Indicator</th><th scope="col">Unit</th><th scope="col">Rhythm</th><th scope="col">Latest publication</th><th scope="col" class="num">Sub-series</th><th scope="col">Endpoint</th></tr></thead>
<tbody>
${rows}</tbody>
</table></div>
</section>
<section aria-labelledby="api"><h2 id="api">Using the API</h2>
<p>The latest values of every sub-series, the first 10 points per sub-series since 2020, and the next page:</p>
${curl(config, `${endpoint}?limit=1`)}
${curl(config, `${endpoint}?from=2020&limit=10`)}
${curl(config, `${endpoint}?from=2020&limit=10&offset=10`)}
<p>One sub-series, or those a pattern names (<code>*</code> matches any run of characters), and the same answer as CSV:</p>
${curl(config, `${endpoint}?series=${firstSeries}`)}
${curl(config, `${endpoint}?series=${firstSeries}&format=csv`)}
<p>The whole series as CSV, the indicator's sub-series with their labels, and the catalog of indicators:</p>
${curl(config, csvPath(first))}
${curl(config, metadataPath(first))}
${curl(config, CATALOG_PATH)}
<h3>The contract in short</h3>
<ul>
<li><code>GET /api/v1/{indicator}</code> with optional <code>from</code> and <code>to</code> (ISO 8601 dates: <code>YYYY-MM-DD</code>, <code>YYYY-MM</code> or <code>YYYY</code>; the window is inclusive), <code>limit</code> (1–${LIMIT.max}, default ${LIMIT.default}) and <code>offset</code> (≥ 0). <code>limit</code> and <code>offset</code> apply to each sub-series separately; <code>series</code> (a comma-separated list of sub-series ids or patterns with <code>*</code>) selects sub-series; <code>format=csv</code> answers as CSV. Any other parameter is a 400.</li>
<li>Points come newest first (<code>date</code> descending, then <code>series</code>); each is <code>{"date","series","value"}</code> with <code>value</code> a number, exactly as published.</li>
<li><code>meta</code> has <code>total</code>, <code>has_more</code>, <code>next</code> (the next page's URL), <code>last_updated</code>, the <code>attribution</code> link and <code>metadata</code>, the document that labels every sub-series.</li>
<li>Errors are <code>{"error":{"code","message","detail"}}</code>: 400 <code>bad_request</code> (the detail names the parameter), 404, 405, 429 with <code>Retry-After</code>.</li>
<li>Responses are cached 15 minutes and carry <code>ETag</code> and <code>Last-Modified</code>: send <code>If-None-Match</code> to get a 304. CORS is open to every origin.</li>
</ul>
<p>The full description: <a href="${OPENAPI_PATH}">OpenAPI 3.1</a>.</p>
</section>
<section aria-labelledby="attribution"><h2 id="attribution">Licence and attribution</h2>
<p>The data is published under <a href="https://creativecommons.org/licenses/by/4.0/" rel="license">CC BY 4.0</a>: use it for anything, and credit the service with the link every response carries in <code>meta.attribution</code>. Wherever the data is shown, include it as it is, for example:</p>
${attributionBlock(config, first, "attribution-home")}
</section>
`,
    true,
    feedLink(`${config.name}: data releases`, SERVICE_FEED_PATH),
  );
}

/** The sub-series of an indicator with their labels, in the dataset's order. */
export function viewSeries({ plain, labels }: BuiltIndicator): ViewSeries[] {
  return plain.map((s, i) => ({ ...(labels[i] as (typeof labels)[number]), dates: s.dates, values: s.values }));
}

/** `series/<indicator>/index.html`: the indicator's page. */
export function renderIndicatorPage(config: SiteConfig, indicator: BuiltIndicator): string {
  const { source, dataset } = indicator;
  const { meta } = source;
  const series = viewSeries(indicator);
  const specs = facetSpecs(series);
  const selection = defaultSelection(series);
  const view = renderView({ indicator: meta.id, title: meta.title, unit: meta.unit, series, selection });
  const endpoint = endpointPath(meta.id);
  const form =
    specs.length === 0
      ? ""
      : html`<form id="selection" class="selection" hidden>
${specs.map(
  (spec) => html`<label>${spec.name}
<select name="${spec.name}">${spec.values.map((v) => html`<option${raw(v === selection[spec.name] ? " selected" : "")}>${v}</option>`)}</select></label>
`,
)}</form>
<p id="selection-status" class="note" role="status"></p>`;
  const config_ = JSON.stringify({
    indicator: meta.id,
    title: meta.title,
    unit: meta.unit,
    dataset: datasetPath(meta.id),
    catalog: CATALOG_PATH,
  }).replace(/</g, "\\u003c");
  return layout(
    config,
    `${meta.title} — ${config.name}`,
    meta.description,
    html`<h1>${meta.title}</h1>
<p class="lead">${meta.description}</p>
<dl class="facts">
<div class="wide"><dt>Source</dt><dd><a href="${meta.source.url}">${meta.source.name}</a></dd></div>
<div><dt>Unit</dt><dd>${meta.unit}</dd></div>
<div><dt>Rhythm</dt><dd>${meta.rhythm}</dd></div>
<div><dt>Last update</dt><dd>${dataset.lastUpdated ?? "no data"}</dd></div>
<div><dt>Sub-series</dt><dd>${dataset.series.length}</dd></div>
<div><dt>Licence</dt><dd>${meta.license}</dd></div>
</dl>
<section aria-labelledby="h-chart"><h2 id="h-chart">Chart</h2>
${form}
<div id="charts">
${view.charts}
</div>
<p class="note">Values are rounded to the peso for display; the API and the downloads give them exactly as published.</p>
</section>
<section aria-labelledby="h-latest"><h2 id="h-latest">Latest values</h2>
<div id="latest" class="scroll">${view.latest}</div>
</section>
<section aria-labelledby="h-data"><h2 id="h-data">Data</h2>
<p>Newest first, for the sub-series in the chart. Every point, with its source: <a href="${csvPath(meta.id)}">CSV</a>.</p>
<div id="data-table" class="scroll tall" tabindex="0" role="region" aria-label="Data table">${view.table}</div>
</section>
${meta.notes.length === 0 ? "" : html`<section aria-labelledby="h-notes"><h2 id="h-notes">Notes</h2><ul>${meta.notes.map((n) => html`<li>${n}</li>`)}</ul></section>`}
<section aria-labelledby="h-downloads"><h2 id="h-downloads">Downloads and API</h2>
<ul>
<li><a href="${csvPath(meta.id)}">All points as CSV</a> (date, series, value, source, note)</li>
<li><a href="${defaultPagePath(meta.id)}">The newest ${LIMIT.default} points of every sub-series as JSON</a></li>
<li><a href="${metadataPath(meta.id)}">The sub-series with their titles${specs.length > 0 ? " and facets" : ""}</a> (JSON), to label the answers</li>
<li><a href="${parquetPath(meta.id)}">All points as Apache Parquet</a> (typed: dates and numbers${specs.length > 0 ? ", the facets as columns" : ""})</li>
<li><a href="${xlsxPath(meta.id)}">All points as an Excel workbook</a> (a data sheet and a metadata sheet)</li>
<li><a href="${dataPackagePath(meta.id)}">Frictionless Data Package</a>: the CSV's schema, licence and sources</li>
<li><a href="${feedPath(meta.id)}">The data releases as an Atom feed</a></li>
</ul>
${curl(config, `${endpoint}?limit=1`)}
${curl(config, `${endpoint}?from=${(dataset.lastUpdated ?? "2020").slice(0, 4)}&limit=10`)}
${curl(config, `${endpoint}?series=${series[0]?.id ?? ""}&format=csv`)}
</section>
<section aria-labelledby="h-credit"><h2 id="h-credit">How to credit</h2>
<p>Free to use under CC BY 4.0. Credit the data with this link (it is also in every API response as <code>meta.attribution</code>):</p>
${attributionBlock(config, meta.id, "attribution-snippet")}
<p>This page: <a href="${indicatorPageUrl(config, meta.id)}">${indicatorPageUrl(config, meta.id)}</a></p>
</section>
<script type="application/json" id="series-config">${raw(config_)}</script>
`,
    true,
    html`${feedLink(`${meta.title}: data releases`, feedPath(meta.id))}<script type="application/ld+json">${raw(datasetScript(config, indicator))}</script>
`,
  );
}

/** `404.html`: what Pages serves, with status 404, for a path that matches no file. */
export function renderNotFound(config: SiteConfig): string {
  return layout(
    config,
    `Not found — ${config.name}`,
    "There is no page at this address.",
    html`<h1>Not found</h1>
<p>There is no page at this address. The <a href="/">home page</a> lists the indicators; the API's
endpoints are listed in the <a href="${CATALOG_PATH}">catalog</a>.</p>
`,
  );
}
