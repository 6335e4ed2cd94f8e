/**
 * `/llms.txt` (llmstxt.org): what the service is, for a language model or an AI
 * assistant reading on behalf of someone — its indicators, the endpoint's
 * parameters with a working example URL each, and how to credit the data. Made
 * from the contract (the OpenAPI parameters' own descriptions) and the data (ids,
 * sub-series, dates), never written by hand: a new indicator or parameter appears
 * here by itself. Markdown: an H1, a blockquote summary, then H2 sections of link
 * lists. Every address is a path, relative to the site serving the file (the
 * summary says so), so a mirror's llms.txt leads to the mirror.
 */
import { withQuery, type QueryParams } from "../../core/text/url.js";
import type { BuiltIndicator } from "../dataset.js";
import { freshnessFacts, STATUS_PATH } from "../freshness.js";
import { docContext } from "../openapi.js";
import { ROUTES } from "../../api/routes.js";
import { mcpTools } from "../../api/mcp.js";
import type { DocContext } from "../../api/route.js";
import { API_BASE, LICENSE, MAX_SERIES_ITEMS } from "../../core/answer/contract.js";
import type { SiteConfig } from "../../core/indicator/config.js";
import type { Manifest } from "../../core/file/manifest.js";
import { CATALOG_PATH, DCAT_CATALOG_PATH, MCP_PATH, OPENAPI_PATH, endpointPath, metadataPath, seriesPagePath } from "../../core/file/paths.js";
import { csvFiles } from "../../core/indicator/distributions.js";
import { sourceKindCounts } from "../../core/answer/source-kind-counts.js";

/** One example query per parameter, made from the data: each answers 200 (test/integration/llms-txt.test.ts). */
export function parameterExamples(indicators: readonly BuiltIndicator[], deflators: Manifest["deflators"], currentDay?: (id: string) => string): Record<string, string> {
  const withPoints = indicators.filter((i) => i.answers.points > 0);
  const first = withPoints[0];
  if (first === undefined) return {};
  const id = first.source.meta.id;
  const series = first.plain.find((s) => s.dates.length > 0);
  if (series === undefined) return {};
  const newest = series.dates[0] as string;
  const oldest = series.dates[series.dates.length - 1] as string;
  const url = (indicator: string, params: QueryParams) => withQuery(endpointPath(indicator), params);
  const of = (...more: [string, string][]): [string, string][] => [["series", series.id], ...more];
  // A currency a deflator deflates, for `real`; another indicator's sub-series, for `per`.
  const deflated = withPoints.find((i) => Object.hasOwn(deflators, i.source.meta.unit));
  const deflator = deflated === undefined ? undefined : deflators[deflated.source.meta.unit];
  const deflatorMonth = deflator === undefined ? undefined : withPoints.find((i) => i.source.meta.id === deflator.indicator)?.answers.lastUpdated?.slice(0, 7);
  // For `per`: a ratio of like to like, divided by the indicator of that unit with the fewest sub-series (a reference series).
  const byFewest = [...withPoints].sort((a, b) => a.plain.length - b.plain.length);
  const other = byFewest.find((j) => withPoints.some((i) => i !== j && i.source.meta.unit === j.source.meta.unit)) ?? first;
  const numerator = withPoints.find((i) => i !== other && i.source.meta.unit === other.source.meta.unit) ?? first;
  const perSeries = numerator.plain.find((s) => s.dates.length > 0)?.id as string;
  const divisor = other.plain.find((s) => s.dates.length > 0)?.id as string;
  const examples: Record<string, string> = {
    from: url(id, [["from", newest.slice(0, 4)]]),
    to: url(id, [["to", oldest.slice(0, 7)]]),
    at: url(id, of(["at", newest])),
    series: url(id, of()),
    frequency: url(id, of(["frequency", "year"])),
    aggregation: url(id, of(["frequency", "year"], ["aggregation", "end"])),
    per: url(numerator.source.meta.id, [["series", perSeries], ["per", `${other.source.meta.id}:${divisor}`]]),
    units: url(id, of(["units", "percent_change_a_year_ago"])),
    base: url(id, of(["units", "index"], ["base", oldest])),
    ...(currentDay === undefined ? {} : { as_of: url(id, of(["as_of", currentDay(id)])) }),
    limit: url(id, [["limit", "1"]]),
    offset: url(id, [["limit", "1"], ["offset", "1"]]),
    format: url(id, of(["format", "csv"])),
    dialect: url(id, of(["format", "csv"], ["dialect", "es"])),
    provenance: url(id, of(["at", newest], ["provenance", "true"])),
  };
  if (deflated !== undefined && deflatorMonth !== undefined) {
    const real = deflated.plain.find((s) => s.dates.length > 0)?.id as string;
    examples.real = url(deflated.source.meta.id, [["series", real], ["real", deflatorMonth]]);
  }
  return examples;
}

/** An example pattern from the data: the first dotted sub-series id's first part, then `*`. */
function patternExample(indicators: readonly BuiltIndicator[]): string {
  for (const { source, plain } of indicators) {
    const dotted = plain.find((s) => s.id.includes("."));
    if (dotted !== undefined) return `, e.g. ${withQuery(endpointPath(source.meta.id), [["series", `${dotted.id.split(".")[0] as string}.*`], ["limit", "1"]])}`;
  }
  return "";
}

/** Words a search finds, from the data: the first two of the title of the last indicator's first sub-series. */
function searchWords(indicators: readonly BuiltIndicator[]): string | undefined {
  const label = indicators[indicators.length - 1]?.labels[0];
  return label === undefined ? undefined : label.title.es.split(/\s+/).slice(0, 2).join(" ");
}

/** The routes' sections (src/api/routes.ts), each at its place, each after a blank line. */
function routeSections(context: DocContext): string[] {
  const sections = ROUTES.flatMap((r) => (r.llms === undefined ? [] : [r.llms]));
  return [...sections].sort((a, b) => a.place - b.place).flatMap((section) => ["", ...section.lines(context)]);
}

/** The kinds of sources of `indicators`' points, with their numbers of points: "12 official publication, 34 press". */
function kindsText(indicators: readonly Pick<BuiltIndicator, "source">[]): string {
  const totals = new Map<string, number>();
  for (const { source } of indicators) {
    for (const k of sourceKindCounts(source.meta.sourceKinds, source.rows).kinds) totals.set(k.label.en, (totals.get(k.label.en) ?? 0) + k.points);
  }
  return [...totals].map(([label, n]) => `${n} ${label}`).join(", ");
}

/** What an indicator's line says of its freshness (src/builder/freshness.ts): the last check and the next value due, or since when it is overdue. */
function freshnessText(indicator: BuiltIndicator, version: number): string {
  const f = freshnessFacts(indicator, version);
  const next = f.overdue_since !== null ? `next value overdue since ${f.overdue_since}` : f.next_due !== null ? `next value due ${f.next_due}` : "no date set for the next value";
  const look = f.check === null ? `no check recorded, data last changed ${f.data_changed}` : `publisher checked ${f.check.day} (${f.check.by}, ${f.check.outcome})`;
  return `; ${look}, ${next}`;
}

/** Where every point of an indicator is: `data.csv`, or the CSV files of its parts (src/builder/download-parts.ts), newest first. */
function allPoints({ source, parts }: BuiltIndicator): string {
  const files = csvFiles(source.meta.id, parts);
  return parts === undefined ? `all points: ${files.join("")}` : `all points, one CSV file per year or part of a year: ${files.join(", ")}`;
}

/**
 * The text of `/llms.txt`; `versions`: each indicator's data version (seconds), the
 * last check's fallback; `currentDay`: each indicator's current version day (the
 * `as_of` example).
 */
export function renderLlmsTxt(
  config: SiteConfig,
  indicators: readonly BuiltIndicator[],
  deflators: Manifest["deflators"],
  adjusters: Manifest["adjusters"],
  versions: ReadonlyMap<string, number>,
  currentDay?: (id: string) => string,
): string {
  const lines: string[] = [
    `# ${config.name}`,
    "",
    `> Uruguayan statistical indicators as a free HTTP API of JSON and CSV, under ${LICENSE} (credit required): ${indicators.map((i) => i.source.meta.title.en).join("; ")}. ` +
      `Every value cites the source it was read from, and each source's kind is declared (points by kind: ${kindsText(indicators)}); ` +
      "not every value comes from an official publication: the press and reference works fill gaps, and a point's note says what is doubtful about it. " +
      "A day a value does not cover has none (nothing is estimated).",
    "",
    `Addresses below are paths on the site serving this file. Each indicator is \`GET ${API_BASE}/{indicator}\`, newest first, with \`meta\` (total, has_more, next, last_updated, attribution). ` +
      "A stepwise value (\"each value in force until the next\" below) holds from its date until the next one: ask `at=` for the value in force on a day, not `from=`. " +
      "A day after the last look at the data (the later of the last recorded check of the publisher and the last change of points) is answered with the value in force then while its successor is not due (`meta.checked`, null when no check is recorded, and `meta.data_changed`); an empty answer says why in `meta.missing`. " +
      "Texts come in Spanish (es) and English (en). Errors are JSON with a `detail` naming the bad parameter (400), never a guess.",
    "",
    "## Indicators",
    "",
  ];
  for (const indicator of indicators) {
    const { source, answers, plain } = indicator;
    const { meta } = source;
    const withPoints = plain.filter((s) => s.dates.length > 0);
    const first = withPoints.map((s) => s.dates[s.dates.length - 1] as string).sort()[0] ?? null;
    const ids = plain.slice(0, 6).map((s) => `\`${s.id}\``).join(", ");
    lines.push(
      `- [${meta.title.en} / ${meta.title.es}](${metadataPath(meta.id)}): id \`${meta.id}\`; unit ${meta.unit}; ${meta.rhythm}${meta.stepwise ? ", each value in force until the next" : ""}; ` +
        `${plain.length} sub-series (${ids}${plain.length > 6 ? ", …: all listed in the metadata document" : ""}); ${answers.points} points${first === null ? "" : ` from ${first} to ${answers.lastUpdated ?? ""}`}${freshnessText(indicator, versions.get(meta.id) ?? 0)}; ` +
        `source: ${meta.source.name.en}; points by kind of source: ${kindsText([{ source }])}; page: ${seriesPagePath(meta.id)}; ${allPoints(indicator)}`,
    );
  }
  const examples = parameterExamples(indicators, deflators, currentDay);
  lines.push(...routeSections(docContext(indicators, adjusters, { parameterExamples: examples, searchWords: searchWords(indicators) })));
  lines.push(
    "",
    "## Credit",
    "",
    `- The data is ${LICENSE}: credit it as "${config.attributionText}" with a link to the indicator's page (every JSON answer's \`meta.attribution\` is the ready-made link; a CSV answer's \`Link: <…>; rel="cite-as"\` header names it), and name the source a value cites (\`provenance=true\` gives each value's source, its kind and its note; a note is part of the value: quote it with it).`,
    "",
    "## Machine-readable descriptions",
    "",
    `- [OpenAPI 3.1](${OPENAPI_PATH}): every parameter, answer and error`,
    `- [Catalog](${CATALOG_PATH}): indicators, sub-series with titles and facets, sources`,
    `- [Status](${STATUS_PATH}): every indicator's newest point, last check, next value due and whether it is overdue`,
    `- [DCAT-AP catalog](${DCAT_CATALOG_PATH}): the datasets and their distributions`,
    `- [MCP server](${MCP_PATH}): Model Context Protocol over Streamable HTTP, stateless, JSON; tools ${mcpTools(indicators.map((i) => i.source.meta.id)).map((t) => t.name).join(", ")} (the API's parameters and answers, each value with its note, source and kind of source, each result with its API URL and the credit)`,
    "",
    "## Optional",
    "",
    `- A \`series\` item may be a pattern with \`*\` (at most ${MAX_SERIES_ITEMS} items)${patternExample(indicators)}; the ids of an indicator are in its metadata document.`,
    "",
  );
  return lines.join("\n");
}
