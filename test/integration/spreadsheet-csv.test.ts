/**
 * The spreadsheet CSV (`format=csv&dialect=es`, and `data.es.csv`) opened as a
 * Spanish-locale spreadsheet opens it: Debian's LibreOffice Calc, headless, with
 * the locale es_UY (language 14346 in its CSV filter options: `;` separator, `"`
 * quotes, UTF-8), converted to XLSX and read back with openpyxl. Every value cell
 * must be a number equal to the data (LibreOffice keeps 15 significant digits),
 * every date a date. The same file in RFC 4180 turns into text in that locale:
 * the reason for the dialect.
 */
import { cpSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { Api } from "../../src/api/handler.js";
import { EPOCH, HIGH, fetched, refs } from "../api-checks.js";
import { folderAssets } from "../../scripts/lib/folder-assets.js";
import { ROOT, runCli, runProcess, tempDir } from "../helpers.js";
import type { RefIndicator } from "../reference.js";

let dir: string;
let out: string;
let get: (path: string) => Promise<Buffer>;

beforeAll(async () => {
  const ensured = await runProcess("bash", [join(ROOT, "scripts/ensure-libreoffice.sh")]);
  expect(ensured.code, ensured.stderr).toBe(0);
  const pythonReady = await runProcess("bash", [join(ROOT, "scripts/ensure-python.sh")]);
  expect(pythonReady.code, pythonReady.stderr).toBe(0);
  dir = await tempDir("open-series-spreadsheet-");
  // The two indicators the checks read: a build of them alone takes seconds.
  for (const id of ["consumer-price-index", "health-insurance-prices"]) cpSync(join(ROOT, "data", id), join(dir, "data", id), { recursive: true });
  out = join(dir, "dist");
  const built = await runCli(["build", "--data", join(dir, "data"), "--out", out, "--no-base", "--no-series-files"], { SOURCE_DATE_EPOCH: EPOCH });
  expect(built.code, built.stderr).toBe(0);
  const api = new Api();
  get = async (path) => {
    const r = await fetched(await api.fetch(new Request(`http://api.test${path}`), { ASSETS: folderAssets(out), ...HIGH }));
    expect(r.status, r.text).toBe(200);
    return r.bytes;
  };
  cpSync(join(out, "api/v1/consumer-price-index/data.es.csv"), join(dir, "cpi.csv"));
}, 300_000);

/** The rows LibreOffice makes of a CSV file in es_UY: each cell as openpyxl reads it, dates as `YYYY-MM-DD`, numbers as numbers. */
async function calc(name: string, es = true): Promise<unknown[][]> {
  const filter = es ? "CSV:59,34,76,1,,14346" : "CSV:44,34,76,1,,14346";
  const converted = await runProcess("soffice", ["--headless", `-env:UserInstallation=file://${dir}/lo-profile`, `--infilter=${filter}`, "--convert-to", "xlsx", "--outdir", dir, join(dir, name)]);
  expect(converted.code, converted.stderr).toBe(0);
  const read = await runProcess("/usr/bin/python3", [
    "-c",
    [
      "import datetime, json, sys, openpyxl",
      "ws = openpyxl.load_workbook(sys.argv[1]).active",
      "cell = lambda v: v.date().isoformat() if isinstance(v, datetime.datetime) else v",
      "print(json.dumps([[cell(v) for v in row] for row in ws.iter_rows(values_only=True)]))",
    ].join("\n"),
    join(dir, name.replace(/\.csv$/, ".xlsx")),
  ]);
  expect(read.code, read.stderr).toBe(0);
  return JSON.parse(read.stdout) as unknown[][];
}

/** Equal to 15 significant digits, what a spreadsheet cell keeps. */
const same = (a: unknown, b: number) => typeof a === "number" && Math.abs(a - b) <= 1e-14 * Math.abs(b);

describe("the spreadsheet CSV in LibreOffice Calc, locale es_UY", () => {
  it("data.es.csv of the CPI: 1,069 rows, each date a date and each value a number equal to the data", async () => {
    const rows = await calc("cpi.csv");
    expect(rows[0]).toEqual(["date", "series", "value", "source", "note"]);
    const expected = new Map((refs.get("consumer-price-index") as RefIndicator).points.map((p) => [p.date, Number(p.raw)]));
    expect(rows.length - 1).toBe(expected.size);
    const off = rows.slice(1).filter(([date, , value]) => !same(value, expected.get(date as string) as number));
    expect(off, "cells that are not the data's number").toEqual([]);
  }, 120_000);

  it("a selection answered by the API (CASMU's sub-series) and a derived answer: numbers equal to the JSON", async () => {
    const selection = "/api/v1/health-insurance-prices?series=casmu.*&format=csv&dialect=es";
    writeFileSync(join(dir, "casmu.csv"), await get(selection));
    const json = JSON.parse((await get(selection.replace("&format=csv&dialect=es", ""))).toString("utf8")) as { data: { date: string; series: string; value: number }[] };
    const rows = await calc("casmu.csv");
    expect(rows.slice(1).map((r) => `${r[1] as string}@${r[0] as string}`)).toEqual(json.data.map((p) => `${p.series}@${p.date}`));
    rows.slice(1).forEach((r, i) => expect(same(r[2], json.data[i]?.value as number), `${String(r[1])} ${String(r[0])}: ${String(r[2])}`).toBe(true));
    // A fractional price (159.05 in the data's text is 159,05 here), read as the number.
    expect(json.data.some((p) => !Number.isInteger(p.value))).toBe(true);

    const derived = "/api/v1/consumer-price-index?units=percent_change_a_year_ago&from=2020&format=csv&dialect=es";
    writeFileSync(join(dir, "derived.csv"), await get(derived));
    const derivedJson = JSON.parse((await get(derived.replace("&format=csv&dialect=es", ""))).toString("utf8")) as { data: { value: number }[] };
    const derivedRows = await calc("derived.csv");
    expect(derivedRows.length - 1).toBe(derivedJson.data.length);
    derivedRows.slice(1).forEach((r, i) => expect(same(r[2], derivedJson.data[i]?.value as number), String(r[2])).toBe(true));
  }, 120_000);

  it("the RFC 4180 CSV in the same locale gives text, not numbers: why the dialect exists", async () => {
    writeFileSync(join(dir, "plain.csv"), await get("/api/v1/consumer-price-index?format=csv&limit=3"));
    // Even told that `,` separates the columns, es_UY reads 118.20343852 as text.
    const rows = await calc("plain.csv", false);
    expect(rows.slice(1).map((r) => typeof r[2])).toEqual(["string", "string", "string"]);
  }, 120_000);
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
