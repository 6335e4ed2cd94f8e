/**
 * The spreadsheet CSV (`format=csv&dialect=es`, and `data.es.csv`) opened as a
 * Spanish-locale spreadsheet opens it: Debian's LibreOffice Calc, headless, with
 * the locale es_UY (language 14346 in its CSV filter options: `;` separator, `"`
 * quotes, UTF-8), converted to XLSX and read back with openpyxl. Every value cell
 * must be a number equal to the data (LibreOffice keeps 15 significant digits),
 * every date a date. The same file in RFC 4180 turns into text in that locale:
 * the reason for the dialect. The four files are converted before the tests, by one
 * Calc per CSV filter, and read by one Python; the answers come from the handler over
 * the shared build of the real data (test/real-build.ts).
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, inject, it } from "vitest";
import { Api } from "../../src/api/handler.js";
import { HIGH, fetched, refs } from "../api-checks.js";
import { folderAssets } from "../../scripts/lib/folder-assets.js";
import { ROOT, runProcess, tempDir } from "../helpers.js";
import type { RefIndicator } from "../reference.js";

/** The shared build of the real data (test/real-build.ts). */
const out = inject("realDist");
const api = new Api();
/** The answer to `path` from the handler over that build. */
async function get(path: string): Promise<Buffer> {
  const r = await fetched(await api.fetch(new Request(`http://api.test${path}`), { ASSETS: folderAssets(out), ...HIGH }));
  expect(r.status, r.text).toBe(200);
  return r.bytes;
}

const SELECTION = "/api/v1/health-insurance-prices?series=casmu.*&format=csv&dialect=es";
const DERIVED = "/api/v1/consumer-price-index?units=percent_change_a_year_ago&from=2020&format=csv&dialect=es";
/** The CSV files opened, each with where it comes from: the spreadsheet dialect (es) or RFC 4180 (plain). */
const FILES = {
  cpi: { es: true, bytes: () => readFileSync(join(out, "api/v1/consumer-price-index/data.es.csv")) },
  casmu: { es: true, bytes: () => get(SELECTION) },
  derived: { es: true, bytes: () => get(DERIVED) },
  plain: { es: false, bytes: () => get("/api/v1/consumer-price-index?format=csv&limit=3") },
} as const;
type Name = keyof typeof FILES;

/** Each file's rows as LibreOffice makes them in es_UY: each cell as openpyxl reads it, dates as `YYYY-MM-DD`, numbers as numbers. */
let opened: Record<Name, unknown[][]>;

beforeAll(async () => {
  const ensured = await runProcess("bash", [join(ROOT, "scripts/ensure-libreoffice.sh")]);
  expect(ensured.code, ensured.stderr).toBe(0);
  const pythonReady = await runProcess("bash", [join(ROOT, "scripts/ensure-python.sh")]);
  expect(pythonReady.code, pythonReady.stderr).toBe(0);
  const dir = await tempDir("open-series-spreadsheet-");
  const names = Object.keys(FILES) as Name[];
  for (const name of names) writeFileSync(join(dir, `${name}.csv`), await FILES[name].bytes());
  // One Calc per CSV filter (its options: separator, quote, UTF-8, the first line, the locale), each converting its files to XLSX.
  for (const es of [true, false]) {
    const filter = es ? "CSV:59,34,76,1,,14346" : "CSV:44,34,76,1,,14346";
    const inputs = names.filter((name) => FILES[name].es === es).map((name) => join(dir, `${name}.csv`));
    const converted = await runProcess("soffice", ["--headless", `-env:UserInstallation=file://${dir}/lo-profile`, `--infilter=${filter}`, "--convert-to", "xlsx", "--outdir", dir, ...inputs]);
    expect(converted.code, converted.stderr).toBe(0);
  }
  const read = await runProcess("/usr/bin/python3", [
    "-c",
    [
      "import datetime, json, sys, openpyxl",
      "cell = lambda v: v.date().isoformat() if isinstance(v, datetime.datetime) else v",
      "rows = lambda path: [[cell(v) for v in row] for row in openpyxl.load_workbook(path).active.iter_rows(values_only=True)]",
      "print(json.dumps([rows(path) for path in sys.argv[1:]]))",
    ].join("\n"),
    ...names.map((name) => join(dir, `${name}.xlsx`)),
  ]);
  expect(read.code, read.stderr).toBe(0);
  const sheets = JSON.parse(read.stdout) as unknown[][][];
  opened = Object.fromEntries(names.map((name, i) => [name, sheets[i] as unknown[][]])) as Record<Name, unknown[][]>;
}, 300_000);

/** Equal to 15 significant digits, what a spreadsheet cell keeps. */
const same = (a: unknown, b: number) => typeof a === "number" && Math.abs(a - b) <= 1e-14 * Math.abs(b);

describe("the spreadsheet CSV in LibreOffice Calc, locale es_UY", () => {
  it("data.es.csv of the CPI: 1,069 rows, each date a date and each value a number equal to the data", () => {
    const rows = opened.cpi;
    expect(rows[0]).toEqual(["date", "series", "value", "source", "note"]);
    const expected = new Map((refs.get("consumer-price-index") as RefIndicator).points.map((p) => [p.date, Number(p.raw)]));
    expect(rows.length - 1).toBe(expected.size);
    const off = rows.slice(1).filter(([date, , value]) => !same(value, expected.get(date as string) as number));
    expect(off, "cells that are not the data's number").toEqual([]);
  });

  it("a selection answered by the API (CASMU's sub-series) and a derived answer: numbers equal to the JSON", async () => {
    const json = JSON.parse((await get(SELECTION.replace("&format=csv&dialect=es", ""))).toString("utf8")) as { data: { date: string; series: string; value: number }[] };
    const rows = opened.casmu;
    expect(rows.slice(1).map((r) => `${r[1] as string}@${r[0] as string}`)).toEqual(json.data.map((p) => `${p.series}@${p.date}`));
    rows.slice(1).forEach((r, i) => expect(same(r[2], json.data[i]?.value as number), `${String(r[1])} ${String(r[0])}: ${String(r[2])}`).toBe(true));
    // A fractional price (159.05 in the data's text is 159,05 here), read as the number.
    expect(json.data.some((p) => !Number.isInteger(p.value))).toBe(true);

    const derivedJson = JSON.parse((await get(DERIVED.replace("&format=csv&dialect=es", ""))).toString("utf8")) as { data: { value: number }[] };
    const derivedRows = opened.derived;
    expect(derivedRows.length - 1).toBe(derivedJson.data.length);
    derivedRows.slice(1).forEach((r, i) => expect(same(r[2], derivedJson.data[i]?.value as number), String(r[2])).toBe(true));
  });

  it("the RFC 4180 CSV in the same locale gives text, not numbers: why the dialect exists", () => {
    // Even told that `,` separates the columns, es_UY reads 118.20343852 as text.
    const rows = opened.plain;
    expect(rows.slice(1).map((r) => typeof r[2])).toEqual(["string", "string", "string"]);
  });
});

describe("the page's \"Usar en Excel / Google Sheets\"", () => {
  it("offers the spreadsheet CSV of the selection, which the API answers in the dialect, and the formulas", async () => {
    const page = readFileSync(join(out, "series/health-insurance-prices/index.html"), "utf8");
    // Written with the public origin (the page script writes the page's own: src/site/client/origin.ts).
    const url = (/<code id="sheet-url" data-address>([^<]*)<\/code>/.exec(page)?.[1] ?? "").replaceAll("&amp;", "&");
    expect(url).toBe("https://open-series-uy.pages.dev/api/v1/health-insurance-prices?series=casmu.consult-general-medicine.fonasa&limit=5000&format=csv&dialect=es");
    const bytes = await get(url.replace("https://open-series-uy.pages.dev", ""));
    expect(bytes.subarray(0, 3)).toEqual(Buffer.from([0xef, 0xbb, 0xbf]));
    expect(bytes.subarray(3).toString("utf8").split("\r\n")[0]).toBe("date;series;value;source;note");
    expect(page).toContain(`=IMPORTDATA("${url.replaceAll("&", "&amp;")}"; ";"; "es_UY")`);
    expect(page).toContain("Datos → Desde la Web");
  });
});
