/**
 * The importer registry: an indicator's importer is the one its indicator.json
 * names; an indicator without one, or without indicator.json, is a usage error
 * naming the indicators that have one; an unknown name is a fault of the
 * indicator.json; `--date` is required by exactly the importers that need it.
 */
import { describe, expect, it } from "vitest";
import { DataError, UsageError } from "../../src/source/errors.js";
import { IMPORTERS, chooseImporter, fedAlongside, isMonth, planImport, type ImportableIndicator } from "../../src/source/importers.js";
import { parseIndicatorMeta, type IndicatorMeta } from "../../src/source/metadata.js";

const TEXT = { es: "x", en: "x" };

/** The metadata of an indicator `demo`, naming `importer` when given. */
function meta(importer?: string): IndicatorMeta {
  const json = {
    id: "demo",
    title: TEXT,
    description: TEXT,
    unit: "index",
    rhythm: "monthly",
    license: "CC-BY-4.0",
    source: { name: TEXT, url: "https://example.test/" },
    ...(importer === undefined ? {} : { importer }),
    series: [{ id: "general", title: TEXT }],
  };
  const parsed = parseIndicatorMeta(JSON.stringify(json), "data/demo/indicator.json", "demo");
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.issues));
  return parsed.value;
}

const FILE = "data/demo/indicator.json";
const IMPORTABLE: ImportableIndicator[] = [
  { indicator: "a-prices", importer: "atuservicio-prices" },
  { indicator: "b-index", importer: "ine-cpi-workbook" },
];

/** A lister that counts its calls: data/ is read only to word an error. */
function lister(list: readonly ImportableIndicator[] = IMPORTABLE) {
  const calls = { count: 0 };
  const read = () => {
    calls.count++;
    return Promise.resolve(list);
  };
  return { calls, list: read };
}

async function rejection(promise: Promise<unknown>): Promise<Error> {
  return promise.then(
    () => {
      throw new Error("expected a rejection");
    },
    (error: unknown) => error as Error,
  );
}

describe("choosing the importer", () => {
  it("registers the importers by name", () => {
    expect([...IMPORTERS.keys()]).toEqual(["atuservicio-prices", "ine-cpi-workbook", "ui-ley-17761"]);
  });

  it("takes the importer indicator.json names, without reading the other indicators", async () => {
    const { calls, list } = lister();
    const chosen = await chooseImporter("demo", { file: FILE, meta: meta("ine-cpi-workbook") }, list);
    expect(chosen.name).toBe("ine-cpi-workbook");
    expect(chosen.importer).toBe(IMPORTERS.get("ine-cpi-workbook"));
    expect(calls.count).toBe(0);
  });

  it("refuses an indicator that names no importer (exit 2), naming the ones that have one", async () => {
    const error = await rejection(chooseImporter("demo", { file: FILE, meta: meta() }, lister().list));
    expect(error).toBeInstanceOf(UsageError);
    expect((error as UsageError).exitCode).toBe(2);
    expect(error.message).toBe(
      'no importer for "demo": data/demo/indicator.json names none (its "importer" key); the indicators with an importer are a-prices (atuservicio-prices), b-index (ine-cpi-workbook)',
    );
  });

  it("refuses an indicator without indicator.json (exit 2), and says when no indicator has an importer", async () => {
    const error = await rejection(chooseImporter("gdp", { file: "data/gdp/indicator.json", meta: null }, lister([]).list));
    expect(error).toBeInstanceOf(UsageError);
    expect(error.message).toBe('no importer for "gdp": there is no data/gdp/indicator.json; no indicator names an importer in its indicator.json');
  });

  it("reports an unknown importer name as a fault of indicator.json (exit 1)", async () => {
    const error = await rejection(chooseImporter("demo", { file: FILE, meta: meta("ine-cpi-pdf") }, lister().list));
    expect(error).toBeInstanceOf(DataError);
    expect((error as DataError).exitCode).toBe(1);
    expect(error.message).toBe(
      '1 data error:\ndata/demo/indicator.json: importer: unknown importer "ine-cpi-pdf": the importers are atuservicio-prices, ine-cpi-workbook, ui-ley-17761 (src/source/importers.ts)',
    );
  });
});

describe("the indicators one publication feeds", () => {
  const chosen = (name: string) => ({ name, importer: IMPORTERS.get(name)!, meta: meta(name) });
  const importable: ImportableIndicator[] = [
    { indicator: "a-prices", importer: "atuservicio-prices" },
    { indicator: "b-index", importer: "ine-cpi-workbook" },
    { indicator: "c-unit", importer: "ui-ley-17761" },
    { indicator: "d-index", importer: "ine-cpi-workbook" },
  ];

  it("are those whose importer reads the same publication, the named one left out, in the given order", () => {
    expect(fedAlongside("b-index", chosen("ine-cpi-workbook"), importable).map((i) => i.indicator)).toEqual(["c-unit", "d-index"]);
    expect(fedAlongside("c-unit", chosen("ui-ley-17761"), importable).map((i) => i.indicator)).toEqual(["b-index", "d-index"]);
    expect(fedAlongside("a-prices", chosen("atuservicio-prices"), importable)).toEqual([]);
  });
});

describe("the importers' options", () => {
  const chosen = (name: string) => ({ name, importer: IMPORTERS.get(name)!, meta: meta(name) });

  it("gives each importer its output file", () => {
    expect(planImport("demo", chosen("atuservicio-prices"), "2026-08").outputFile).toBe("2026-08.csv");
    expect(planImport("demo", chosen("ine-cpi-workbook"), undefined).outputFile).toBe("cpi.csv");
    expect(planImport("demo", chosen("ui-ley-17761"), undefined).outputFile).toBe("ui.csv");
  });

  it("requires --date for an importer of undated publications", () => {
    expect(() => planImport("demo", chosen("atuservicio-prices"), undefined)).toThrow(
      new UsageError(
        `required option '--date <YYYY-MM>' not specified: the importer atuservicio-prices of "demo" needs the month from which the prices apply (the publication does not say it)`,
      ),
    );
  });

  it("refuses --date for an importer whose publication dates its points", () => {
    expect(() => planImport("demo", chosen("ine-cpi-workbook"), "2026-07")).toThrow(
      new UsageError('--date: the importer ine-cpi-workbook of "demo" takes no date: the publication dates its points'),
    );
  });

  it.each([
    ["2026-08", true],
    ["2026-13", false],
    ["2026-8", false],
    ["2026-08-01", false],
  ])("isMonth(%j) is %j", (text, ok) => {
    expect(isMonth(text)).toBe(ok);
  });
});
