/**
 * The open-data formats of the real data, each read back by an independent real
 * reader: DuckDB (data.parquet against data.csv), openpyxl (data.xlsx), rdflib
 * (the DCAT catalog), extruct (the schema.org Dataset of each page), feedparser
 * (the Atom feeds); the Data Package checked against data.csv here. The Python
 * readers are Debian's, for /usr/bin/python3 (scripts/ensure-python.sh), each a
 * small program under test/python/ that prints JSON.
 */
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { DuckDBInstance, type DuckDBConnection } from "@duckdb/node-api";
import { parse } from "csv-parse/sync";
import fg from "fast-glob";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { ROOT } from "../files.js";
import { EPOCH } from "../epoch.js";
import { INDICATOR_IDS } from "../indicators.js";

/** The shared build's data version (test/epoch.ts), as the formats write it. */
const VERSION_ISO = new Date(Number(EPOCH) * 1000).toISOString().slice(0, 19);
const SITE = "https://open-series-uy.pages.dev";
/** Where the documents are read from: a mirror. What identifies stays the public site's; what a reader follows leads to the mirror. */
const MIRROR = "http://mirror.test";
const IDS = INDICATOR_IDS;
const LICENSE = "https://creativecommons.org/licenses/by/4.0/";
const FILES = ["index.json", "data.csv", "data.parquet", "data.xlsx", "datapackage.json"] as const;

interface CsvRow {
  date: string;
  series: string;
  value: string;
  source: string;
  note: string;
}
interface CatalogSeries {
  id: string;
  title: { es: string; en: string };
  facets: Record<string, string>;
}
interface CatalogIndicator {
  id: string;
  title: { es: string; en: string };
  links: Record<string, string>;
  series: CatalogSeries[];
}

let out: string;
let duck: DuckDBConnection;
let closeDuck: () => void;
const csv = new Map<string, CsvRow[]>();
let catalog: { dcat: string; feed: string; indicators: CatalogIndicator[] };

const read = (path: string) => readFileSync(join(out, path), "utf8");
const indicatorOf = (id: string) => catalog.indicators.find((i) => i.id === id) as CatalogIndicator;
/** The facet names of an indicator, in the order the catalog's first sub-series lists them. */
const facetNames = (id: string) => Object.keys(indicatorOf(id).series[0]?.facets ?? {});
/** The releases as the data says: each distinct date with its number of points, newest first. */
function releasesOf(id: string): [string, number][] {
  const counts = new Map<string, number>();
  for (const r of csv.get(id) ?? []) counts.set(r.date, (counts.get(r.date) ?? 0) + 1);
  return [...counts.entries()].sort(([a], [b]) => (a < b ? 1 : -1));
}
const span = (id: string) => {
  const dates = (csv.get(id) ?? []).map((r) => r.date).sort();
  return { start: dates[0], end: dates.at(-1) };
};

/** What indicator.json says a date means, and the rhythm (read here, not through the build's code). */
function dateMeaning(id: string): { date: string; rhythm: string; unit: { es: string; en: string } | null; code: string } {
  const json = JSON.parse(readFileSync(join(ROOT, "data", id, "indicator.json"), "utf8")) as { rhythm: string; unit: string; display?: { date?: string; unit?: { es: string; en: string } } };
  return { date: json.display?.date ?? "date", rhythm: json.rhythm, unit: json.display?.unit ?? null, code: json.unit };
}
const MONTHS: Record<string, number> = { monthly: 1, quarterly: 3, semiannual: 6, annual: 12 };
/** The first day after the period a period-dated point starting on `date` refers to. */
const afterPeriod = (date: string, rhythm: string) => {
  const d = new Date(`${date}T00:00:00Z`);
  return new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + (MONTHS[rhythm] ?? 0), 1)).toISOString().slice(0, 10);
};
const dayBefore = (date: string) => new Date(Date.parse(`${date}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10);
/** The last day the data of `id` speak of: the newest point's date, or the end of its period. */
const spanEnd = (id: string) => {
  const end = span(id).end as string;
  const { date, rhythm } = dateMeaning(id);
  return date === "period" ? dayBefore(afterPeriod(end, rhythm)) : end;
};
/** A release's Atom title words and `updated` day, by what the indicator's dates mean. */
function releaseWords(id: string, date: string): { phrase: string; updated: string } {
  const { date: meaning, rhythm } = dateMeaning(id);
  if (meaning === "effective") return { phrase: `taking effect on ${date}`, updated: date };
  if (meaning === "period") {
    const next = afterPeriod(date, rhythm);
    return { phrase: `for the ${{ monthly: "month", quarterly: "quarter", semiannual: "half-year", annual: "year" }[rhythm] ?? "period"} ${date}/${dayBefore(next)}`, updated: next };
  }
  return { phrase: `dated ${date}`, updated: date };
}

/** Runs one of test/python/*.py with Debian's Python and parses the JSON it prints. */
function python<T>(script: string, args: readonly string[]): T {
  const run = spawnSync("/usr/bin/python3", [join(ROOT, "test/python", script), ...args], { encoding: "utf8", maxBuffer: 256 * 1024 * 1024 });
  expect(run.status, run.stderr).toBe(0);
  return JSON.parse(run.stdout) as T;
}

/** A SQL string literal. */
const sql = (text: string) => `'${text.replace(/'/g, "''")}'`;

beforeAll(async () => {
  const ensured = spawnSync("bash", [join(ROOT, "scripts/ensure-python.sh")], { encoding: "utf8" });
  expect(ensured.status, ensured.stderr).toBe(0);
  out = inject("realDist");
  for (const id of IDS) csv.set(id, parse<CsvRow>(read(`api/v1/${id}/data.csv`), { columns: true }));
  catalog = JSON.parse(read("api/v1/index.json")) as typeof catalog;
  const instance = await DuckDBInstance.create(":memory:");
  duck = await instance.connect();
  closeDuck = () => {
    duck.closeSync();
    instance.closeSync();
  };
}, 300_000);

afterAll(() => closeDuck?.());

describe("the catalog and the pages link the formats", () => {
  it("lists every format of every indicator, and each link is a file of the output", () => {
    expect(catalog.dcat).toBe("/api/v1/catalog.jsonld");
    expect(catalog.feed).toBe("/feed.atom");
    for (const id of IDS) {
      const { links } = indicatorOf(id);
      expect(links).toMatchObject({
        parquet: `/api/v1/${id}/data.parquet`,
        xlsx: `/api/v1/${id}/data.xlsx`,
        datapackage: `/api/v1/${id}/datapackage.json`,
        feed: `/api/v1/${id}/feed.atom`,
      });
      for (const key of ["csv", "json", "parquet", "xlsx", "datapackage", "feed"]) expect(existsSync(join(out, links[key] as string)), key).toBe(true);
      const page = read(`series/${id}/index.html`);
      for (const file of ["data.parquet", "data.xlsx", "datapackage.json", "feed.atom"]) expect(page).toContain(`<a href="/api/v1/${id}/${file}">`);
    }
  });

  it("names each page's feed in its head, the service feed on the home page", () => {
    const head = (page: string) => page.slice(0, page.indexOf("</head>"));
    expect(head(read("index.html"))).toMatch(/<link rel="alternate" type="application\/atom\+xml" title="[^"]+" href="\/feed\.atom">/);
    for (const id of IDS) {
      expect(head(read(`series/${id}/index.html`))).toMatch(new RegExp(`<link rel="alternate" type="application/atom\\+xml" title="[^"]+" href="/api/v1/${id}/feed\\.atom">`));
    }
  });
});

describe("data.parquet, read by DuckDB", () => {
  it.each(IDS)("%s: typed columns DATE and DOUBLE, strings, one per facet", async (id) => {
    const described = await duck.runAndReadAll(`DESCRIBE SELECT * FROM read_parquet(${sql(join(out, `api/v1/${id}/data.parquet`))})`);
    const types = described.getRowObjectsJson().map((r) => [r.column_name, r.column_type]);
    expect(types).toEqual([
      ["date", "DATE"],
      ["series", "VARCHAR"],
      ["value", "DOUBLE"],
      ["source", "VARCHAR"],
      ["note", "VARCHAR"],
      ...facetNames(id).map((name) => [name, "VARCHAR"]),
    ]);
    if (id === "health-insurance-prices") expect(facetNames(id)).toEqual(["provider", "item", "regime"]);
    if (id === "domestic-worker-wages") expect(facetNames(id)).toEqual(["category", "period"]);
  });

  it.each(IDS)("%s: the same rows as data.csv (read by DuckDB too), in its order, with each sub-series' facets", async (id) => {
    const parquet = join(out, `api/v1/${id}/data.parquet`);
    const csvFile = join(out, `api/v1/${id}/data.csv`);
    const columns = "strftime(date, '%Y-%m-%d') AS date, series, value, source, note";
    const fromParquet = (await duck.runAndReadAll(`SELECT ${columns} FROM read_parquet(${sql(parquet)})`)).getRowsJson();
    const csvTypes = "{'date': 'DATE', 'series': 'VARCHAR', 'value': 'DOUBLE', 'source': 'VARCHAR', 'note': 'VARCHAR'}";
    const fromCsv = (await duck.runAndReadAll(`SELECT ${columns} FROM read_csv(${sql(csvFile)}, header = true, columns = ${csvTypes})`)).getRowsJson();
    const rows = csv.get(id) ?? [];
    expect(fromParquet).toHaveLength(rows.length);
    expect(fromParquet).toEqual(fromCsv);
    // And against the CSV's text as csv-parse reads it: the value is the text's double, an empty field is null.
    expect(fromParquet).toEqual(rows.map((r) => [r.date, r.series, Number(r.value), r.source || null, r.note || null]));
    const facets = facetNames(id);
    if (facets.length > 0) {
      const byId = new Map(indicatorOf(id).series.map((s) => [s.id, s.facets]));
      const fromFacets = (await duck.runAndReadAll(`SELECT series, ${facets.join(", ")} FROM read_parquet(${sql(parquet)})`)).getRowsJson();
      expect(fromFacets).toEqual(rows.map((r) => [r.series, ...facets.map((f) => byId.get(r.series)?.[f] ?? null)]));
    }
  });
});

interface XlsxRead {
  sheets: string[];
  header: string[];
  frozen: string;
  autoFilter: string;
  dateFormats: string[];
  types: Record<string, string[]>;
  rows: (string | number | null)[][];
  metadata: [string, string | null, string | null][];
  created: string;
  modified: string;
  creator: string;
}

describe("data.xlsx, read by openpyxl", () => {
  it.each(IDS)("%s: date cells and number cells equal to data.csv, frozen header, auto filter, a metadata sheet", (id) => {
    const book = python<XlsxRead>("read_xlsx.py", [join(out, `api/v1/${id}/data.xlsx`)]);
    const rows = csv.get(id) ?? [];
    const facets = facetNames(id);
    expect(book.sheets).toEqual(["data", "metadata"]);
    expect(book.header).toEqual(["date", "series", "value", "source", "note", ...facets]);
    expect(book.frozen).toBe("A2");
    expect(book.autoFilter).toBe(`A1:${String.fromCharCode(64 + book.header.length)}${rows.length + 1}`);
    expect(book.types.date).toEqual(["date"]);
    expect(book.types.value).toEqual(["number"]);
    expect(book.dateFormats).toEqual(["yyyy-mm-dd"]);
    const byId = new Map(indicatorOf(id).series.map((s) => [s.id, s.facets]));
    expect(book.rows).toEqual(
      rows.map((r) => [r.date, r.series, Number(r.value), r.source || null, r.note || null, ...facets.map((f) => byId.get(r.series)?.[f] ?? null)]),
    );
    // Document properties from the data version, never the clock.
    expect([book.created, book.modified, book.creator]).toEqual([VERSION_ISO, VERSION_ISO, "Open Series UY"]);
    const meta = new Map(book.metadata.map(([field, value, link]) => [field, { value, link }]));
    expect(meta.get("title")?.value).toBe(indicatorOf(id).title.en);
    expect(meta.get("licence")).toEqual({ value: "CC-BY-4.0", link: LICENSE });
    expect(meta.get("last update")?.value).toBe(span(id).end);
    expect(meta.get("data version")?.value).toBe(`${VERSION_ISO}Z`);
    expect(meta.get("attribution")?.value).toBe("Data: Open Series UY");
    expect(meta.get("attribution link")?.link).toBe(`${SITE}/series/${id}/?utm_source=api&utm_medium=attribution&utm_campaign=backlinks`);
    for (const field of ["description", "unit", "dates", "source", "note"]) expect(meta.get(field)?.value, field).toBeTruthy();
  });
});

interface DcatRead {
  triples: number;
  catalogs: number;
  catalogDatasets: string[];
  catalogLicense: string;
  catalogPublisher: string;
  datasets: {
    id: string;
    identifier: string;
    title: { es: string; en: string };
    license: string;
    publisher: string;
    modified: string;
    start: string;
    end: string;
    keywords: string[];
    language: string[];
    distributions: { types: string[]; downloadURL: string; accessURL: string; mediaType: string; format: string; license: string }[];
  }[];
  services: { endpointURL: string; endpointDescription: string; servesDataset: string[] }[];
}

describe("the DCAT catalog, parsed by rdflib", () => {
  it("holds one dcat:Dataset per indicator, each with its distributions, licence, time span and version; read from a mirror, its links lead there", () => {
    const read = python<DcatRead>("read_dcat.py", [join(out, "api/v1/catalog.jsonld"), `${MIRROR}/api/v1/catalog.jsonld`]);
    const iri = (id: string) => `${SITE}/series/${id}/#dataset`;
    expect(read.catalogs).toBe(1);
    expect(read.catalogDatasets).toEqual(IDS.map(iri));
    expect(read.catalogLicense).toBe(LICENSE);
    expect(read.catalogPublisher).toBe(`${SITE}/#publisher`);
    expect(read.datasets.map((d) => d.identifier)).toEqual([...IDS]);
    for (const d of read.datasets) {
      const id = d.identifier;
      expect(d.id).toBe(iri(id));
      expect(d.title).toEqual(indicatorOf(id).title);
      expect(d.license).toBe(LICENSE);
      expect(d.publisher).toBe(`${SITE}/#publisher`);
      expect(d.modified).toBe(`${VERSION_ISO}+00:00`);
      expect({ start: d.start, end: d.end }).toEqual({ start: span(id).start, end: spanEnd(id) });
      expect(d.keywords).toContain("Uruguay");
      expect(d.language).toEqual(["ENG", "SPA"].map((code) => `http://publications.europa.eu/resource/authority/language/${code}`));
      expect(d.distributions.map((x) => x.downloadURL).sort()).toEqual(FILES.map((f) => `${MIRROR}/api/v1/${id}/${f}`).sort());
      for (const x of d.distributions) {
        expect(x.types).toEqual(["http://www.w3.org/ns/dcat#Distribution"]);
        expect(x.license).toBe(LICENSE);
        expect(x.mediaType).toMatch(/^https:\/\/www\.iana\.org\/assignments\/media-types\/[a-z]+\/[a-z0-9.+-]+$/);
        expect(x.format).toMatch(/^http:\/\/publications\.europa\.eu\/resource\/authority\/file-type\/(JSON|CSV|PARQUET|XLSX)$/);
        expect(existsSync(join(out, new URL(x.downloadURL).pathname)), x.downloadURL).toBe(true);
      }
      expect(d.distributions.find((x) => x.downloadURL.endsWith("/index.json"))?.accessURL).toBe(`${MIRROR}/api/v1/${id}`);
    }
    expect(read.services).toEqual([{ endpointURL: `${MIRROR}/api/v1`, endpointDescription: `${MIRROR}/api/v1/openapi.json`, servesDataset: IDS.map(iri) }]);
  });
});

interface SchemaOrgRead {
  url: string;
  jsonLd: number;
  datasets: {
    name: string;
    url: string;
    license: string;
    isAccessibleForFree: boolean;
    temporalCoverage: string;
    creator: { name: string };
    publisher: { name: string };
    variableMeasured: { name: string; unitText: string }[];
    distribution: { "@type": string; contentUrl: string; encodingFormat: string }[];
  }[];
}

describe("the schema.org Dataset of each page, extracted by extruct", () => {
  it("finds one Dataset per indicator page, with its downloads", () => {
    const args = IDS.flatMap((id) => [join(out, `series/${id}/index.html`), `${SITE}/series/${id}/`]);
    const pages = python<SchemaOrgRead[]>("read_schema_org.py", args);
    expect(pages.map((p) => p.url)).toEqual(IDS.map((id) => `${SITE}/series/${id}/`));
    for (const [i, page] of pages.entries()) {
      const id = IDS[i] as string;
      expect(page.jsonLd).toBe(1);
      expect(page.datasets).toHaveLength(1);
      const dataset = page.datasets[0]!;
      expect(dataset).toMatchObject({ name: indicatorOf(id).title.es, inLanguage: "es", url: `${SITE}/series/${id}/`, license: LICENSE, isAccessibleForFree: true });
      expect(dataset.temporalCoverage).toBe(`${span(id).start}/${spanEnd(id)}`);
      expect(dataset.publisher.name).toBe("Open Series UY");
      expect(dataset.creator.name).toBeTruthy();
      expect(dataset.variableMeasured[0]).toMatchObject({ name: "value", unitText: dateMeaning(id).unit?.es ?? dateMeaning(id).code });
      expect(dataset.distribution.map((d) => d["@type"])).toEqual(FILES.map(() => "DataDownload"));
      expect(dataset.distribution.map((d) => d.contentUrl).sort()).toEqual(FILES.map((f) => `${SITE}/api/v1/${id}/${f}`).sort());
      const formats = Object.fromEntries(dataset.distribution.map((d) => [d.contentUrl.slice(d.contentUrl.lastIndexOf("/") + 1), d.encodingFormat]));
      expect(formats).toMatchObject({ "data.csv": "text/csv", "data.parquet": "application/vnd.apache.parquet", "data.xlsx": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet" });
    }
  });
});

interface FeedRead {
  path: string;
  version: string;
  bozo: boolean;
  bozoException: string;
  id: string;
  title: string;
  updated: string;
  links: { rel: string; type: string; href: string }[];
  entries: { id: string; title: string; updated: string; summary: string; link: string; category: string }[];
}

describe("the Atom feeds, parsed by feedparser", () => {
  let feeds: Map<string, FeedRead>;
  beforeAll(() => {
    const paths = [join(out, "feed.atom"), ...IDS.map((id) => join(out, `api/v1/${id}/feed.atom`))];
    // Read as fetched from a mirror: the links are paths, resolved against the feed's address; the ids stay the tag: URIs.
    feeds = new Map(python<FeedRead[]>("read_feeds.py", ["--served", out, MIRROR, ...paths]).map((f) => [f.path.slice(out.length + 1), f]));
  });

  it("parses every feed as Atom 1.0 without errors", () => {
    expect([...feeds.keys()]).toEqual(["feed.atom", ...IDS.map((id) => `api/v1/${id}/feed.atom`)]);
    for (const feed of feeds.values()) expect([feed.version, feed.bozo, feed.bozoException], feed.path).toEqual(["atom10", false, ""]);
  });

  it.each(IDS)("%s: one entry per release of the data, newest first, with stable ids and the page as alternate", (id) => {
    const feed = feeds.get(`api/v1/${id}/feed.atom`) as FeedRead;
    // A feed holds the newest 200 releases (the CPI has 1,069 months).
    const releases = releasesOf(id).slice(0, 200);
    expect(feed.entries.map((e) => [e.updated, e.title])).toEqual(
      releases.map(([date, n]) => [`${releaseWords(id, date).updated}T00:00:00Z`, `${n.toLocaleString("en-US")} point${n === 1 ? "" : "s"} ${releaseWords(id, date).phrase}`]),
    );
    expect(feed.entries.map((e) => e.id)).toEqual(releases.map(([date]) => `tag:open-series-uy.pages.dev,2026-11-23:${id}/${date}`));
    expect(feed.entries.every((e) => e.link === `${MIRROR}/series/${id}/` && e.category === id)).toBe(true);
    expect(feed.updated).toBe(feed.entries[0]?.updated);
    expect(feed.links).toContainEqual({ rel: "alternate", type: "text/html", href: `${MIRROR}/series/${id}/` });
    expect(feed.links).toContainEqual({ rel: "self", type: "application/atom+xml", href: `${MIRROR}/api/v1/${id}/feed.atom` });
    if (id === "health-insurance-prices") expect(releases).toHaveLength(17);
    if (id === "consumer-price-index") expect(releases).toHaveLength(200);
    if (id === "consumer-price-index") expect(feed.entries[0]).toMatchObject({ title: "1 point for the month 2026-07-01/2026-07-31", updated: "2026-08-01T00:00:00Z" });
  });

  it("lists every indicator's releases in the service feed, naming the indicator", () => {
    const feed = feeds.get("feed.atom") as FeedRead;
    // Each indicator's newest releases (at most 200 per feed), newest first by `updated`.
    const expected = IDS.flatMap((id) => releasesOf(id).map(([date, n]) => ({ id, date, n, ...releaseWords(id, date) })))
      .sort((a, b) => (a.updated === b.updated ? (a.id < b.id ? -1 : 1) : a.updated < b.updated ? 1 : -1))
      .slice(0, 200)
      .map(({ id, date, n, phrase, updated }) => [`tag:open-series-uy.pages.dev,2026-11-23:${id}/${date}`, id, `${updated}T00:00:00Z`, `${indicatorOf(id).title.en}: ${n.toLocaleString("en-US")} point${n === 1 ? "" : "s"} ${phrase}`]);
    expect(feed.entries.map((e) => [e.id, e.category, e.updated, e.title])).toEqual(expected);
    expect(new Set(feed.entries.map((e) => e.id)).size).toBe(feed.entries.length);
    expect(feed.updated).toBe(feed.entries[0]?.updated);
    expect(feed.links).toContainEqual({ rel: "alternate", type: "text/html", href: `${MIRROR}/` });
  });
});

interface Field {
  name: string;
  type: string;
  format?: string;
  constraints?: { required?: boolean; pattern?: string };
}
interface DataPackage {
  profile: string;
  name: string;
  title: string;
  description: string;
  licenses: { name: string; path: string }[];
  sources: { title: string; path: string }[];
  contributors: { title: string; role: string }[];
  resources: {
    name: string;
    path: string;
    profile: string;
    format: string;
    dialect?: { delimiter: string; lineTerminator: string; header: boolean };
    schema?: { fields: Field[]; primaryKey: string[]; missingValues: string[] };
  }[];
}

/** Table Schema's lexical forms (https://specs.frictionlessdata.io/table-schema/#types-and-formats): why a text is not of its field's type, or null. */
function typeFault(field: Field, text: string): string | null {
  switch (field.type) {
    case "date": {
      const time = Date.parse(`${text}T00:00:00Z`);
      return /^\d{4}-\d{2}-\d{2}$/.test(text) && !Number.isNaN(time) && new Date(time).toISOString().startsWith(text) ? null : "not a date (YYYY-MM-DD)";
    }
    case "number":
      return /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/.test(text) || ["NaN", "INF", "-INF"].includes(text) ? null : "not a number";
    case "string":
      if (field.format === "uri" && !URL.canParse(text)) return "not a URI";
      if (field.constraints?.pattern !== undefined && !new RegExp(`^(?:${field.constraints.pattern})$`).test(text)) return "does not match the pattern";
      return null;
    default:
      return `unknown type ${field.type}`;
  }
}

describe("datapackage.json, checked against data.csv", () => {
  it.each(IDS)("%s: a Tabular Data Package whose schema every row of data.csv meets, primary key unique", (id) => {
    const pkg = JSON.parse(read(`api/v1/${id}/datapackage.json`)) as DataPackage;
    expect(pkg).toMatchObject({ profile: "tabular-data-package", name: id, title: indicatorOf(id).title.en });
    expect(pkg.description).toBeTruthy();
    expect(pkg.licenses).toEqual([expect.objectContaining({ name: "CC-BY-4.0", path: LICENSE })]);
    expect(pkg.sources[0]?.path).toMatch(/^https?:\/\//);
    expect(pkg.contributors).toEqual([expect.objectContaining({ title: "Open Series UY", role: "publisher" })]);
    // Every resource is a file next to the descriptor.
    for (const r of pkg.resources) expect(existsSync(join(out, `api/v1/${id}`, r.path)), r.path).toBe(true);
    const table = pkg.resources.find((r) => r.profile === "tabular-data-resource");
    expect(table?.path).toBe("data.csv");
    const schema = table?.schema as NonNullable<(typeof pkg.resources)[number]["schema"]>;
    expect(schema.fields.map((f) => [f.name, f.type, f.format ?? null])).toEqual([
      ["date", "date", "default"],
      ["series", "string", null],
      ["value", "number", null],
      ["source", "string", "uri"],
      ["note", "string", null],
    ]);
    expect(schema.primaryKey).toEqual(["series", "date"]);

    const text = read(`api/v1/${id}/data.csv`);
    expect(table?.dialect).toMatchObject({ delimiter: ",", lineTerminator: "\n", header: true });
    const records: string[][] = parse(text, { delimiter: table?.dialect?.delimiter ?? "," });
    const header = records.shift();
    expect(header).toEqual(schema.fields.map((f) => f.name));
    const faults: string[] = [];
    const keys = new Set<string>();
    records.forEach((record, i) => {
      const line = i + 2;
      if (record.length !== schema.fields.length) faults.push(`line ${line}: ${record.length} fields`);
      schema.fields.forEach((field, j) => {
        const value = record[j] ?? "";
        if (schema.missingValues.includes(value)) {
          if (field.constraints?.required === true) faults.push(`line ${line}: ${field.name}: required`);
          return;
        }
        const fault = typeFault(field, value);
        if (fault !== null) faults.push(`line ${line}: ${field.name}: ${fault}: ${JSON.stringify(value)}`);
      });
      const key = JSON.stringify(schema.primaryKey.map((name) => record[schema.fields.findIndex((f) => f.name === name)]));
      if (keys.has(key)) faults.push(`line ${line}: primary key ${key} repeated`);
      keys.add(key);
    });
    expect(faults).toEqual([]);
    expect(records).toHaveLength(csv.get(id)?.length ?? -1);
  });
});

describe("sitemap.xml and robots.txt", () => {
  it("lists every HTML page but the 404 page with its absolute URL, and robots.txt points to it", () => {
    // Embed pages ask not to be indexed: not listed.
    const pages = fg.sync("**/index.html", { cwd: out, ignore: ["**/embed/**"] }).map((f) => `${SITE}/${f.replace(/index\.html$/, "")}`);
    const sitemap = read("sitemap.xml");
    expect(sitemap).toMatch(/^<\?xml version="1\.0" encoding="UTF-8"\?>\n<urlset xmlns="http:\/\/www\.sitemaps\.org\/schemas\/sitemap\/0\.9" xmlns:xhtml="http:\/\/www\.w3\.org\/1999\/xhtml">\n/);
    // Each page names its translations.
    expect(sitemap).toContain(`<xhtml:link rel="alternate" hreflang="en" href="${SITE}/en/series/domestic-worker-wages/"/>`);
    const locs = [...sitemap.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1]);
    expect(locs.sort()).toEqual(pages.sort());
    expect(read("robots.txt")).toBe(`User-agent: *\nAllow: /\nDisallow: /_data/\n\nSitemap: ${SITE}/sitemap.xml\n`);
  });
});
