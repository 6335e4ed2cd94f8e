/**
 * "A new indicator is a new folder under data/": a data folder with an extra,
 * synthetic indicator of a shape none of the real ones has — a daily rhythm,
 * negative values, a 0 that is a real zero, no facets, sub-series ids with dots,
 * notes in Spanish — built by the real CLI with no code change. Its pages, its
 * API answers (the handler workerd runs, against the independent reference),
 * every open-data format (read back by DuckDB, openpyxl, rdflib, feedparser and
 * extruct) and the catalogs must all carry it.
 */
import { spawnSync } from "node:child_process";
import { cpSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { DuckDBInstance } from "@duckdb/node-api";
import { parse } from "csv-parse/sync";
import { beforeAll, describe, expect, it } from "vitest";
import { Api } from "../../src/api/handler.js";
import { EPOCH, HIGH, PHRASE, SITE, etagFor, fetched, useOutput } from "../api-checks.js";
import { folderAssets } from "../../scripts/lib/folder-assets.js";
import { ROOT, runCli, tempDir } from "../helpers.js";
import { expectedCsv, expectedResponse, readIndicator, refCanonicalUrl, type RefIndicator } from "../reference.js";

const ID = "synthetic-daily-balance";
const SERIES = ["north.station-1.mean", "south.station-2.mean"];
/** Two real indicators beside it (the small ones: the build stays quick). */
const REAL = ["consumer-price-index", "domestic-worker-wages"];

/** 60 days from 2026-01-01 without 2026-01-20 (a gap); values from -3 to 3, a real 0 on the newest day of the first sub-series. */
function points(): string[] {
  const rows = ["date,series,value,source,note"];
  for (const [k, series] of SERIES.entries()) {
    for (let day = 0; day < 60; day++) {
      const date = new Date(Date.UTC(2026, 0, 1 + day)).toISOString().slice(0, 10);
      if (date === "2026-01-20") continue;
      const value = day === 59 && k === 0 ? "0" : (Math.round(300 * Math.sin(day / 5 + k)) / 100).toString();
      const note = day === 10 ? "medición revisada por la estación" : "";
      rows.push(`${date},${series},${value},https://example.test/daily/${date},${note}`);
    }
  }
  return rows;
}

const indicatorJson = {
  id: ID,
  title: { es: "Balance diario sintético", en: "Synthetic daily balance" },
  description: { es: "Un indicador de prueba: diario, con valores negativos y ceros.", en: "A test indicator: daily, with negative values and zeros." },
  unit: "mm",
  rhythm: "daily",
  stepwise: false,
  display: { unit: { es: "milímetros", en: "millimetres" }, noteLanguage: "es" },
  license: "CC-BY-4.0",
  source: { name: { es: "Fuente de prueba", en: "Test source" }, url: "https://example.test/daily" },
  sourceKinds: [{ prefix: "https://example.test/daily/", kind: "official" }],
  notes: [{ es: "Datos inventados para las pruebas.", en: "Made-up data for the tests." }],
  noteTranslations: { en: { "medición revisada por la estación": "measurement revised by the station" } },
  series: SERIES.map((id) => ({ id, title: { es: `Estación ${id}`, en: `Station ${id}` } })),
};

let out: string;
let ref: RefIndicator;
let csvRows: Record<string, string>[];
const read = (path: string) => readFileSync(join(out, path), "utf8");
const api = new Api();
const get = async (path: string) => fetched(await api.fetch(new Request(`http://api.test${path}`), { ASSETS: folderAssets(out), ...HIGH }));

/** Runs one of test/python/*.py with Debian's Python and parses the JSON it prints. */
function python<T>(script: string, args: readonly string[]): T {
  const run = spawnSync("/usr/bin/python3", [join(ROOT, "test/python", script), ...args], { encoding: "utf8", maxBuffer: 64 * 1024 * 1024 });
  expect(run.status, run.stderr).toBe(0);
  return JSON.parse(run.stdout) as T;
}

beforeAll(async () => {
  const ensured = spawnSync("bash", [join(ROOT, "scripts/ensure-python.sh")], { encoding: "utf8" });
  expect(ensured.status, ensured.stderr).toBe(0);
  const dir = await tempDir();
  const data = join(dir, "data");
  for (const id of REAL) cpSync(join(ROOT, "data", id), join(data, id), { recursive: true });
  mkdirSync(join(data, ID));
  writeFileSync(join(data, ID, "indicator.json"), JSON.stringify(indicatorJson, null, 2));
  writeFileSync(join(data, ID, "points.csv"), `${points().join("\n")}\n`);
  out = join(dir, "dist");
  const built = await runCli(["build", "--data", data, "--out", out, "--no-base"], { SOURCE_DATE_EPOCH: EPOCH });
  expect(built.code, built.stderr).toBe(0);
  useOutput(out);
  expect(built.stdout).toMatch(new RegExp(`^${ID}\\s+2\\s+118\\s`, "m"));
  ref = readIndicator(join(data, ID));
  csvRows = parse<Record<string, string>>(read(`api/v1/${ID}/data.csv`), { columns: true });
}, 120_000);

describe("an indicator added as a folder, with no code change", () => {
  it("is in the catalog, the OpenAPI description, the sitemap and on the home page", () => {
    const catalog = JSON.parse(read("api/v1/index.json")) as { indicators: { id: string; points: number; series: { id: string }[] }[] };
    expect(catalog.indicators.map((i) => i.id)).toEqual([...REAL, ID].sort());
    expect(catalog.indicators.find((i) => i.id === ID)).toMatchObject({ points: 118, series: SERIES.map((id): unknown => expect.objectContaining({ id })) });
    const openapi = JSON.parse(read("api/v1/openapi.json")) as { paths: Record<string, { get: { parameters: { name: string; schema: { enum?: string[] } }[] } }> };
    expect(openapi.paths["/api/v1/{indicator}"]?.get.parameters.find((p) => p.name === "indicator")?.schema.enum).toContain(ID);
    expect(read("sitemap.xml")).toContain(`${SITE}/series/${ID}/`);
    expect(read("index.html")).toContain(`href="/series/${ID}/"`);
    expect(read("en/index.html")).toContain("Synthetic daily balance");
  });

  it("answers the API as the reference says: the default page, a window, a pattern, CSV", async () => {
    for (const [path, query] of [
      [`/api/v1/${ID}`, {}],
      [`/api/v1/${ID}?from=2026-02-10&to=2026-02-20&limit=3`, { from: "2026-02-10", to: "2026-02-20", limit: 3 }],
      [`/api/v1/${ID}?series=north.*&limit=5&offset=5`, { series: ["north.*"], limit: 5, offset: 5 }],
    ] as const) {
      const r = await get(path);
      expect(r.status, r.text).toBe(200);
      expect(JSON.parse(r.text)).toEqual(expectedResponse(ref, query, SITE, PHRASE));
      expect(r.headers.get("etag")).toBe(etagFor([ID], refCanonicalUrl(ID, query)));
    }
    const csv = await get(`/api/v1/${ID}?series=south.station-2.mean&from=2026-01-15&format=csv`);
    expect(parse(csv.text, { columns: true })).toEqual(expectedCsv(ref, { series: ["south.station-2.mean"], from: "2026-01-15" }).rows);
    // Negative values are published as written.
    expect(csv.text).toMatch(/,-\d/);
  });

  it("shows pages in both languages: a 0 is a 0, negative values, the date as a date, notes in each page's language", () => {
    const es = read(`series/${ID}/index.html`);
    const en = read(`en/series/${ID}/index.html`);
    for (const [page, lang] of [[es, "es"], [en, "en"]] as const) {
      expect(page).toContain(`<html lang="${lang}">`);
      expect(page).toContain(lang === "es" ? "Balance diario sintético" : "Synthetic daily balance");
      // The newest point of the first sub-series is a real zero: shown as a number, no special label.
      expect(page).toContain('<data value="0">0</data>');
      expect(page).not.toMatch(/sin costo|no charge|Vigente|In force/);
      expect(page).toContain(lang === "es" ? "Dato del 1 de marzo de 2026" : "Dated March 1, 2026");
      // The machine-readable value keeps the hyphen-minus; the text writes the minus sign U+2212 (src/site/client/format.ts, trueMinus).
      expect(page).toMatch(lang === "es" ? /<data value="-[\d.]+">\u2212\d+,\d+<\/data>/ : /<data value="-[\d.]+">\u2212\d+\.\d+<\/data>/);
      expect(page).not.toMatch(/<data value="[^"]*">-/);
      expect(page).toContain(lang === "es" ? "milímetros" : "millimetres");
      // The missing day is a gap in each sub-series, listed.
      expect(page).toContain(lang === "es" ? "2 períodos sin datos" : "2 periods without data");
    }
    // Notes are written in Spanish (noteLanguage) and translated in indicator.json (noteTranslations): each page shows its own.
    expect(es).toContain("Nota: medición revisada por la estación");
    expect(en).toContain("Note: measurement revised by the station");
    expect(en).not.toContain("medición revisada");
    // The value axis reaches below zero (its ticks with the minus sign too).
    expect(es).toMatch(/<text x="[\d.]+" y="[\d.]+" dy="0.32em" text-anchor="end">\u2212\d/);
  });

  it("publishes every format, read back by independent readers", async () => {
    const instance = await DuckDBInstance.create(":memory:");
    const duck = await instance.connect();
    try {
      const rows = (await duck.runAndReadAll(`SELECT strftime(date, '%Y-%m-%d'), series, value FROM read_parquet('${join(out, `api/v1/${ID}/data.parquet`)}')`)).getRowsJson();
      expect(rows).toEqual(csvRows.map((r) => [r.date, r.series, Number(r.value)]));
      expect(rows.some((r) => (r[2] as number) < 0)).toBe(true);
    } finally {
      duck.closeSync();
      instance.closeSync();
    }
    const xlsx = python<{ rows: (string | number | null)[][]; metadata: [string, string | null, string | null][] }>("read_xlsx.py", [join(out, `api/v1/${ID}/data.xlsx`)]);
    expect(xlsx.rows.map((r) => [r[0], r[1], r[2]])).toEqual(csvRows.map((r) => [r.date, r.series, Number(r.value)]));
    expect(new Map(xlsx.metadata.map(([field, value]) => [field, value])).get("dates")).toMatch(/^The date of the value/);
    const dcat = python<{ datasets: { identifier: string; start: string; end: string }[] }>("read_dcat.py", [join(out, "api/v1/catalog.jsonld")]);
    expect(dcat.datasets.find((d) => d.identifier === ID)).toMatchObject({ start: "2026-01-01", end: "2026-03-01" });
    const [feed] = python<{ bozo: boolean; entries: { title: string; updated: string }[] }[]>("read_feeds.py", [join(out, `api/v1/${ID}/feed.atom`)]);
    expect(feed?.bozo).toBe(false);
    expect(feed?.entries[0]).toEqual(expect.objectContaining({ title: "2 points dated 2026-03-01", updated: "2026-03-01T00:00:00Z" }));
    expect(feed?.entries).toHaveLength(59);
    const [page] = python<{ datasets: { variableMeasured: { unitText: string }[]; temporalCoverage: string }[] }[]>("read_schema_org.py", [join(out, `series/${ID}/index.html`), `${SITE}/series/${ID}/`]);
    expect(page?.datasets[0]).toMatchObject({ temporalCoverage: "2026-01-01/2026-03-01", variableMeasured: [expect.objectContaining({ unitText: "milímetros" })] });
    const pkg = JSON.parse(read(`api/v1/${ID}/datapackage.json`)) as { resources: { schema?: { fields: { name: string; description: string }[] } }[] };
    expect(pkg.resources[0]?.schema?.fields.find((f) => f.name === "value")?.description).toContain("millimetres");
  });
});
