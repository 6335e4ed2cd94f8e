/**
 * Whole-indicator downloads in parts (docs/formats.md "Files within the host's
 * limit"): a small daily indicator built twice, whole and with a small
 * `--max-download-bytes`, so its files split at test scale. The parts, newest
 * first and without their headers, are data.csv byte for byte; each is within the
 * limit; DuckDB reads the CSV and Parquet parts as the whole files, openpyxl the
 * workbooks; and every place that links the whole files lists the parts instead.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { DuckDBInstance, type DuckDBConnection } from "@duckdb/node-api";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ROOT, runCli, tempDir } from "../helpers.js";
import { responseValidator, staticDocuments } from "../schemas.js";

const ID = "daily-parts";
const SITE = "https://open-series-uy.pages.dev";
const API = `/api/v1/${ID}`;
/** Small enough that 2024 (3 × 366 lines) needs five numbered parts, large enough for 2023 and 2025 whole. */
const MAX = 16_000;
const SERIES = ["alpha", "beta", "gamma"];

let whole: string;
let split: string;
let duck: DuckDBConnection;
let closeDuck: () => void;
let parts: { part: string; first: string; last: string; points: number }[];
let links: Record<string, string[]>;

const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const read = (out: string, path: string) => readFileSync(join(out, path), "utf8");
const sql = (text: string) => `'${text.replaceAll("'", "''")}'`;
/** A data line without its header. */
const body = (text: string) => text.slice(text.indexOf("\n") + 1);

/** Daily points of three sub-series from 2023-11-01 to 2025-02-10. */
function writeData(data: string): void {
  const dir = join(data, ID);
  mkdirSync(dir, { recursive: true });
  const same = (text: string) => ({ es: text, en: text });
  writeFileSync(
    join(dir, "indicator.json"),
    JSON.stringify({
      id: ID,
      title: same("Daily parts"),
      description: same("A daily indicator for the test of downloads in parts."),
      unit: "UYU",
      rhythm: "daily",
      license: "CC-BY-4.0",
      source: { name: same("Test"), url: "https://example.test/" },
      sourceKinds: [{ prefix: "https://example.test/", kind: "official" }],
      notes: [],
      series: SERIES.map((id) => ({ id, title: same(id) })),
    }),
  );
  const lines = ["date,series,value,source"];
  for (let t = Date.UTC(2023, 10, 1), k = 0; t <= Date.UTC(2025, 1, 10); t += 86_400_000, k++) {
    SERIES.forEach((s, i) => lines.push(`${day(t)},${s},${100 + k + i / 4},https://example.test/${s}/${day(t)}`));
  }
  writeFileSync(join(dir, "points.csv"), `${lines.join("\n")}\n`);
}

async function buildInto(data: string, out: string, extra: readonly string[]): Promise<void> {
  const result = await runCli(["build", "--no-base", "--no-history", "--data", data, "--out", out, ...extra], { SOURCE_DATE_EPOCH: "1700000000" });
  expect(result.code, result.stderr).toBe(0);
}

beforeAll(async () => {
  const ensured = spawnSync("bash", [join(ROOT, "scripts/ensure-python.sh")], { encoding: "utf8" });
  expect(ensured.status, ensured.stderr).toBe(0);
  const dir = await tempDir();
  const data = join(dir, "data");
  writeData(data);
  [whole, split] = [join(dir, "whole"), join(dir, "split")];
  await buildInto(data, whole, []);
  await buildInto(data, split, ["--max-download-bytes", String(MAX)]);
  const metadata = JSON.parse(read(split, `${API}/metadata.json`)) as { links: Record<string, unknown> };
  parts = metadata.links.parts as typeof parts;
  links = metadata.links as Record<string, string[]>;
  const instance = await DuckDBInstance.create(":memory:");
  duck = await instance.connect();
  closeDuck = () => {
    duck.closeSync();
    instance.closeSync();
  };
}, 60_000);

afterAll(() => closeDuck?.());

describe("downloads in parts", () => {
  it("splits by year, a year over the limit in numbered parts of whole days, part 1 the oldest", () => {
    expect(parts.map((p) => p.part)).toEqual(["2025", "2024-part-5", "2024-part-4", "2024-part-3", "2024-part-2", "2024-part-1", "2023"]);
    // Newest first, each a stretch of days after the next one's.
    parts.forEach((p, i) => expect(p.first <= p.last && (i === parts.length - 1 || (parts[i + 1] as (typeof parts)[number]).last < p.first)).toBe(true));
    for (const p of parts) expect(p.points % SERIES.length).toBe(0); // whole days
    expect(parts[0]).toMatchObject({ first: "2025-01-01", last: "2025-02-10" });
    expect(parts.at(-1)).toMatchObject({ first: "2023-11-01", last: "2023-12-31" });
  });

  it("writes no whole file, and each part's files within the limit", () => {
    for (const name of ["data.csv", "data.es.csv", "data.parquet", "data.xlsx"]) {
      expect(existsSync(join(whole, API, name))).toBe(true);
      expect(existsSync(join(split, API, name))).toBe(false);
    }
    for (const key of ["csv", "csv_es", "parquet", "xlsx"]) {
      expect(links[key]).toHaveLength(parts.length);
      for (const path of links[key] as string[]) expect(statSync(join(split, path)).size).toBeLessThanOrEqual(MAX);
    }
    expect(links.csv?.[1]).toBe(`${API}/data-2024-part-5.csv`);
    expect(links.csv_es?.[1]).toBe(`${API}/data-2024-part-5.es.csv`);
  });

  it("gives data.csv and data.es.csv byte for byte: the parts newest first, each with the header", () => {
    for (const [key, name] of [["csv", "data.csv"], ["csv_es", "data.es.csv"]] as const) {
      const wholeText = read(whole, `${API}/${name}`);
      const header = wholeText.slice(0, wholeText.indexOf("\n") + 1);
      const texts = (links[key] as string[]).map((path) => read(split, path));
      for (const text of texts) expect(text.startsWith(header)).toBe(true);
      expect(texts.map(body).join("")).toBe(body(wholeText));
    }
  });

  it("is read by DuckDB as the whole CSV and Parquet files", async () => {
    const rows = async (query: string) => (await duck.runAndReadAll(query)).getRowsJson();
    const list = (paths: readonly string[]) => `[${paths.map((p) => sql(join(split, p))).join(", ")}]`;
    const order = "ORDER BY date DESC, series";
    const columns = "date, series, value, source";
    const csv = await rows(`SELECT ${columns} FROM read_csv(${sql(join(whole, API, "data.csv"))}, header = true) ${order}`);
    expect(csv).toHaveLength(3 * 468);
    expect(await rows(`SELECT ${columns} FROM read_csv(${list(links.csv as string[])}, header = true) ${order}`)).toEqual(csv);
    const parquet = await rows(`SELECT ${columns} FROM read_parquet(${sql(join(whole, API, "data.parquet"))}) ${order}`);
    expect(await rows(`SELECT ${columns} FROM read_parquet(${list(links.parquet as string[])}) ${order}`)).toEqual(parquet);
  });

  it("is read by openpyxl: each workbook holds its part's points", () => {
    const lines = (links.csv as string[]).map((path) => body(read(split, path)).trimEnd().split("\n"));
    (links.xlsx as string[]).forEach((path, i) => {
      const run = spawnSync("/usr/bin/python3", [join(ROOT, "test/python/read_xlsx.py"), join(split, path)], { encoding: "utf8" });
      expect(run.status, run.stderr).toBe(0);
      const book = JSON.parse(run.stdout) as { rows: (string | number | null)[][] };
      expect(book.rows.map((r) => `${r[0]},${r[1]}`)).toEqual((lines[i] as string[]).map((l) => l.split(",").slice(0, 2).join(",")));
    });
  });

  it("lists the parts wherever the whole files were linked", () => {
    const every = ["csv", "parquet", "xlsx"].flatMap((key) => links[key] as string[]);
    // The catalog's links.
    const catalog = JSON.parse(read(split, "/api/v1/index.json")) as { indicators: { id: string; links: Record<string, unknown> }[] };
    const entry = catalog.indicators.find((i) => i.id === ID);
    expect([entry?.links.csv, entry?.links.parquet, entry?.links.xlsx]).toEqual([links.csv, links.parquet, links.xlsx]);
    // The Data Package's resources, relative to the descriptor.
    const pkg = JSON.parse(read(split, `${API}/datapackage.json`)) as { resources: { path: string; schema?: unknown }[] };
    expect(pkg.resources.map((r) => `${API}/${r.path}`).sort()).toEqual([...every].sort());
    expect(pkg.resources.filter((r) => r.schema !== undefined)).toHaveLength(parts.length);
    // The DCAT catalog's distributions.
    const dcat = read(split, "/api/v1/catalog.jsonld");
    for (const path of every) expect(dcat).toContain(`"dcat:downloadURL":{"@id":"${path}"}`);
    expect(dcat).not.toContain(`${API}/data.csv`);
    // llms.txt, the OpenAPI description, the pages (downloads list and schema.org JSON-LD).
    const llms = read(split, "/llms.txt");
    for (const path of links.csv as string[]) expect(llms).toContain(path);
    const openapi = JSON.parse(read(split, "/api/v1/openapi.json")) as { paths: Record<string, unknown> };
    expect(Object.keys(openapi.paths)).toContain("/api/v1/{indicator}/data-{part}.csv");
    expect(Object.keys(openapi.paths)).not.toContain("/api/v1/{indicator}/data.csv");
    for (const page of [`/series/${ID}/index.html`, `/en/series/${ID}/index.html`]) {
      const html = read(split, page);
      for (const path of every) expect(html).toContain(`href="${path}"`);
      for (const path of every) expect(html).toContain(`${SITE}${path}`);
      expect(html).not.toContain(`${API}/data.csv`);
    }
    for (const out of [whole, split]) expect(read(out, "/index.html")).toContain(out === whole ? `${API}/data.csv` : `${API}/data-2025.csv`);
  });

  it("writes a catalog and a metadata document in parts that validate against the build's OpenAPI description", () => {
    const doc = JSON.parse(read(split, "/api/v1/openapi.json")) as object;
    const documents = staticDocuments(split);
    expect(documents.map((d) => d.file)).toEqual(["api/v1/index.json", `${API.slice(1)}/metadata.json`]);
    for (const { file, route, body } of documents) {
      const validate = responseValidator(doc, route, 200);
      expect(validate(body), `${file}: ${JSON.stringify(validate.errors)}`).toBe(true);
    }
  });

  it("links each feed entry to the part holding its date", () => {
    for (const feed of [`${API}/feed.atom`, "/feed.atom"]) {
      const entries = read(split, feed).split("<entry>").slice(1);
      expect(entries.length).toBeGreaterThan(0);
      for (const entry of entries) {
        const date = /tag:[^<]*\/(\d{4}-\d{2}-\d{2})<\/id>/.exec(entry)?.[1] as string;
        const i = parts.findIndex((p) => p.first <= date && date <= p.last);
        expect([...entry.matchAll(/rel="related" type="text\/csv" href="([^"]+)"/g)].map((m) => m[1])).toEqual([links.csv?.[i]]);
      }
    }
  });

  it("keeps an indicator that fits whole as it was", () => {
    const metadata = JSON.parse(read(whole, `${API}/metadata.json`)) as { links: Record<string, unknown> };
    expect(metadata.links.csv).toBe(`${API}/data.csv`);
    expect(metadata.links.parts).toBeUndefined();
  });
});
