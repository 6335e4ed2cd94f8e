/**
 * The site: the home page and one page per indicator (the target of every
 * `meta.attribution` link). Plain HTML rendered at build time, escaped by default.
 */
import type { BuiltIndicator } from "./catalog.js";
import { attributionAnchor, indicatorPageUrl, type SiteConfig } from "./config.js";
import { html, type SafeHtml } from "./html.js";
import { endpointPath } from "./render.js";

const pesos = new Intl.NumberFormat("en-US", { maximumFractionDigits: 0 });

/** A value for display: rounded to the unit with thousands separators (the API never rounds). */
export function displayValue(value: string): string {
  return pesos.format(Number(value));
}

function layout(config: SiteConfig, title: string, body: SafeHtml): string {
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title}</title>
<link rel="stylesheet" href="/style.css">
</head>
<body>
<header><a href="/">${config.name}</a></header>
<main>
${body}
</main>
<footer><p>Data under <a href="https://creativecommons.org/licenses/by/4.0/">CC BY 4.0</a>. API: <a href="/api/v1/index.json">catalog</a>, <a href="/api/v1/openapi.json">OpenAPI</a>.</p></footer>
</body>
</html>
`.html;
}

/** `index.html`: what the service is, its indicators and how to use and credit it. */
export function renderHome(config: SiteConfig, indicators: readonly BuiltIndicator[]): string {
  const rows = indicators.map(
    ({ source, dataset }) => html`<tr>
<td><a href="/series/${source.meta.id}/">${source.meta.title}</a></td>
<td>${source.meta.unit}</td>
<td>${source.meta.rhythm}</td>
<td>${dataset.lastUpdated ?? "no data"}</td>
<td>${dataset.series.length}</td>
<td><code>${endpointPath(source.meta.id)}</code></td>
</tr>
`,
  );
  const first = indicators[0]?.source.meta.id ?? "domestic-worker-wages";
  return layout(
    config,
    config.name,
    html`<h1>${config.name}</h1>
<p>Uruguayan statistical indicators as time series, free to use under CC BY 4.0, over a cached JSON API.</p>
<h2>Indicators</h2>
<table>
<thead><tr><th scope="col">Indicator</th><th scope="col">Unit</th><th scope="col">Rhythm</th><th scope="col">Latest</th><th scope="col">Sub-series</th><th scope="col">Endpoint</th></tr></thead>
<tbody>
${rows}</tbody>
</table>
<h2>Using the API</h2>
<pre><code>curl '${config.baseUrl}${endpointPath(first)}?from=2020&amp;limit=10'</code></pre>
<p>Parameters: <code>from</code>, <code>to</code> (ISO 8601 dates: YYYY-MM-DD, YYYY-MM or YYYY), <code>limit</code> (1–5000, default 500) and <code>offset</code>, both per sub-series. Newest first.</p>
<h2>Attribution</h2>
<p>Credit the service with the link every response carries in <code>meta.attribution</code>.</p>
`,
  );
}

/** `series/<indicator>/index.html`: the indicator's description, latest values and downloads. */
export function renderIndicatorPage(config: SiteConfig, { source, dataset }: BuiltIndicator): string {
  const { meta } = source;
  const titles = new Map(meta.series.map((s) => [s.id, s.title]));
  const endpoint = endpointPath(meta.id);
  const latest = dataset.series
    .filter((s) => s.dates.length > 0)
    .map(
      (s) => html`<tr><td>${titles.get(s.id) ?? s.id}</td><td>${s.dates[0]}</td><td class="num">${displayValue(s.values[0] as string)}</td></tr>
`,
    );
  return layout(
    config,
    `${meta.title} — ${config.name}`,
    html`<h1>${meta.title}</h1>
<p>${meta.description}</p>
<dl>
<dt>Source</dt><dd><a href="${meta.source.url}">${meta.source.name}</a></dd>
<dt>Unit</dt><dd>${meta.unit}</dd>
<dt>Rhythm</dt><dd>${meta.rhythm}</dd>
<dt>Last update</dt><dd>${dataset.lastUpdated ?? "no data"}</dd>
</dl>
<ul>${meta.notes.map((n) => html`<li>${n}</li>`)}</ul>
<h2>Latest values</h2>
<table>
<thead><tr><th scope="col">Sub-series</th><th scope="col">Date</th><th scope="col">Value (${meta.unit})</th></tr></thead>
<tbody>
${latest}</tbody>
</table>
<h2>Downloads and API</h2>
<ul>
<li><a href="${endpoint}/data.csv">All data (CSV)</a></li>
<li><a href="${endpoint}/index.json">Latest 500 points per sub-series (JSON)</a></li>
</ul>
<pre><code>curl '${config.baseUrl}${endpoint}?limit=10'</code></pre>
<h2>Attribution</h2>
<pre><code>${attributionAnchor(config, meta.id)}</code></pre>
<p>Page: <a href="${indicatorPageUrl(config, meta.id)}">${indicatorPageUrl(config, meta.id)}</a></p>
`,
  );
}

/** `404.html`: what Pages serves, with status 404, for a path that matches no file. */
export function renderNotFound(config: SiteConfig): string {
  return layout(
    config,
    `Not found — ${config.name}`,
    html`<h1>Not found</h1>
<p>There is no page at this address. The <a href="/">home page</a> lists the indicators; the API's
endpoints are listed in the <a href="/api/v1/index.json">catalog</a>.</p>
`,
  );
}
