/**
 * INE's consumer price index workbook through the importer its indicator.json
 * names (`ine-cpi-workbook`): the fixture reproduces data/'s cpi.csv byte for
 * byte; workbooks made faulty here with exceljs are refused with every fault as
 * `file!cell: reason` and nothing written; the registry's errors reach the
 * command line; and a revised month goes through the change report. The CLI
 * runs in process (one test runs scripts/import.ts as a child process), only
 * against temporary copies of data/.
 */
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { cp, readFile, readdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import ExcelJS from "exceljs";
import { describe, expect, it } from "vitest";
import { formatIssue } from "../../src/source/errors.js";
import { CPI_SHEET, gridOf, importCpi, readWorkbook } from "../../src/source/import-ine-cpi.js";
import { formatPointsCsv } from "../../src/source/import-points.js";
import { ROOT, runCli, runImport, runImportProcess, tempDir, treeDigest } from "../helpers.js";

/** The indicator whose indicator.json names the importer `ine-cpi-workbook`. */
const INDICATOR = "consumer-price-index";
const DATA = join(ROOT, "data", INDICATOR); // read only
const EXPECTED = readFileSync(join(DATA, "cpi.csv"), "utf8");
const FIXTURE = "test/fixtures/ine/IPC gral y variaciones_base 2022.xlsx";
const FIXTURE_BYTES = readFileSync(join(ROOT, FIXTURE));
/** The URL data/'s points cite (test/fixtures/ine/README.md). */
const SOURCE =
  "https://github.com/cardo88/UCU-BigData-2026/blob/479dd949b0eaa2c214406a28832ce6db21d61cb4/Actividad03/IPC%20gral%20y%20variaciones_base%202022.xlsx";

/** A temporary data folder holding copies of the named indicator folders of data/. */
async function dataCopy(indicators: readonly string[] = [INDICATOR]): Promise<{ data: string; folder: string }> {
  const data = join(await tempDir("open-series-cpi-"), "data");
  for (const id of indicators) await cp(join(ROOT, "data", id), join(data, id), { recursive: true });
  return { data, folder: join(data, INDICATOR) };
}

/** The fixture's sheet, freshly read, for a test to change. */
async function fixtureSheet(): Promise<{ book: ExcelJS.Workbook; sheet: ExcelJS.Worksheet }> {
  const book = new ExcelJS.Workbook();
  await book.xlsx.load(FIXTURE_BYTES as unknown as ExcelJS.Buffer);
  const sheet = book.getWorksheet(CPI_SHEET);
  if (sheet === undefined) throw new Error(`no sheet ${CPI_SHEET}`);
  return { book, sheet };
}

function swapRows(sheet: ExcelJS.Worksheet, a: number, b: number): void {
  for (const column of [1, 2]) {
    const value = sheet.getCell(a, column).value;
    sheet.getCell(a, column).value = sheet.getCell(b, column).value;
    sheet.getCell(b, column).value = value;
  }
}

/** Deletes a row, as a user would in a spreadsheet program. */
function deleteRow(sheet: ExcelJS.Worksheet, row: number): void {
  // exceljs cannot write a shared formula whose first cell moved (the
  // variations in C:H, not read by the importer): keep their values instead.
  sheet.eachRow((r) =>
    r.eachCell((cell) => {
      if (cell.type === ExcelJS.ValueType.Formula) cell.value = cell.result;
    }),
  );
  sheet.spliceRows(row, 1);
}

/** Clears the months and indices of the table, rows 11–1079 (not spliceRows: exceljs 4 leaves the last rows of a sparse sheet in place). */
function clearTable(sheet: ExcelJS.Worksheet): void {
  for (let r = 11; r <= 1079; r++) for (const column of [1, 2]) sheet.getCell(r, column).value = null;
}

/** The fixture changed by `edit`, written to a temporary file: its path. */
async function faultyWorkbook(edit: (sheet: ExcelJS.Worksheet) => void): Promise<string> {
  const { book, sheet } = await fixtureSheet();
  edit(sheet);
  const file = join(await tempDir("open-series-cpi-book-"), "ipc.xlsx");
  await writeFile(file, new Uint8Array(await book.xlsx.writeBuffer()));
  return file;
}

/** Rows of the fixture: 11 is July 1937, so `row(1940, 3)` is March 1940's. */
const row = (year: number, month: number): number => 11 + (year * 12 + month - 1) - (1937 * 12 + 6);

describe("the fixture", () => {
  it("imports to data/'s cpi.csv byte for byte", async () => {
    const read = await readWorkbook(FIXTURE_BYTES, FIXTURE, SOURCE);
    if (!read.ok) throw new Error(read.issues.map(formatIssue).join("\n"));
    const result = importCpi(read.value, { declared: new Set(["general"]), indicatorFile: "indicator.json" });
    if (!result.ok) throw new Error(result.issues.map(formatIssue).join("\n"));
    expect(result.value).toMatchObject({ first: "1937-07", last: "2026-07" });
    expect(result.value.points).toHaveLength(1069);
    expect(formatPointsCsv(result.value.points.map((p) => ({ ...p, note: "" })))).toBe(EXPECTED);
  });
});

describe("faults of the real workbook, each as file!cell: reason", () => {
  /** Imports the fixture changed by `edit`, in process: the faults as the CLI prints them. */
  async function faults(edit: (sheet: ExcelJS.Worksheet) => void): Promise<string[]> {
    const { book, sheet } = await fixtureSheet();
    edit(sheet);
    const workbook = { sheets: book.worksheets.map((s) => s.name), grid: gridOf(sheet), file: "ipc.xlsx", sourceUrl: SOURCE };
    const result = importCpi(workbook, { declared: new Set(["general"]), indicatorFile: "indicator.json" });
    return result.ok ? [] : result.issues.map(formatIssue);
  }

  it.each<[string, (sheet: ExcelJS.Worksheet) => void, string[]]>([
    ["the title", (s) => (s.getCell("A1").value = "Índice de Precios al Productor"), ['ipc.xlsx!A1: expected the title "Índice de Precios del Consumo", got "Índice de Precios al Productor"']],
    ["the base", (s) => (s.getCell("A4").value = "Base Diciembre 2010 = 100"), ['ipc.xlsx!A4: expected the base "Base Octubre 2022 = 100", got "Base Diciembre 2010 = 100"']],
    ["a header cell", (s) => (s.getCell("B8").value = "Índice general"), ['ipc.xlsx!B8: expected the column header "Índice", got "Índice general"']],
    ["a month row deleted", (s) => deleteRow(s, row(1950, 1)), ["ipc.xlsx!A161: expected 1950-01 (the month after A160), got 1950-02"]],
    [
      "two months swapped",
      (s) => swapRows(s, row(1940, 3), row(1940, 4)),
      [
        "ipc.xlsx!A43: expected 1940-03 (the month after A42), got 1940-04",
        "ipc.xlsx!A44: expected 1940-05 (the month after A43), got 1940-03",
        "ipc.xlsx!A45: expected 1940-04 (the month after A44), got 1940-05",
      ],
    ],
    ["a zero", (s) => (s.getCell("B1079").value = 0), ["ipc.xlsx!B1079: expected the index, a positive number, got 0"]],
    ["a negative number", (s) => (s.getCell("B500").value = -3.2), ["ipc.xlsx!B500: expected the index, a positive number, got -3.2"]],
    ["a text", (s) => (s.getCell("B11").value = "1,59E-07"), ['ipc.xlsx!B11: expected the index, a positive number, got "1,59E-07"']],
    ["an empty table", (s) => clearTable(s), ["ipc.xlsx!A9: empty table: no month (a date in column A) below the header row 8"]],
  ])("%s", async (_, edit, expected) => {
    expect(await faults(edit)).toEqual(expected);
  });
});

describe.concurrent("command line", () => {
  const args = (file: string, data: string, ...more: string[]) => [INDICATOR, file, "--source", SOURCE, "--data", data, ...more];

  it("with --force re-imports the fixture over data/'s cpi.csv byte for byte, leaving no temporary file", async () => {
    const { data, folder } = await dataCopy();
    const result = await runImport(args(FIXTURE, data, "--force"));
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toBe(`replaced ${join(folder, "cpi.csv")}: 1069 points, months 1937-07 to 2026-07; notes kept: 0, dropped: 0\n`);
    expect(await readFile(join(folder, "cpi.csv"), "utf8")).toBe(EXPECTED);
    expect((await readdir(folder)).sort()).toEqual(["cpi.csv", "indicator.json"]);
  });

  it("writes a new file with --out-dir", async () => {
    const { data } = await dataCopy();
    const out = join(await tempDir("open-series-cpi-out-"), "new");
    const result = await runImport(args(FIXTURE, data, "--out-dir", out));
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toBe(`wrote ${join(out, "cpi.csv")}: 1069 points, months 1937-07 to 2026-07\n`);
    expect(await readFile(join(out, "cpi.csv"), "utf8")).toBe(EXPECTED);
  });

  it("refuses to overwrite cpi.csv without --force (exit 2)", async () => {
    const { data, folder } = await dataCopy();
    const before = treeDigest(data);
    const result = await runImport(args(FIXTURE, data));
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(`error: ${join(folder, "cpi.csv")} already exists: pass --force to replace it (the notes of points whose value is unchanged are kept)\n`);
    expect(treeDigest(data)).toEqual(before);
  });

  it("refuses --date (exit 2): the workbook dates its months", async () => {
    const { data } = await dataCopy();
    const result = await runImport(args(FIXTURE, data, "--force", "--date", "2026-07"));
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`--date: the importer ine-cpi-workbook of "${INDICATOR}" takes no date: the publication dates its points`);
  });

  it("refuses a workbook of another layout, listing every fault, exit 1, writing nothing even with --force (scripts/import.ts in a child process)", async () => {
    const { data } = await dataCopy();
    const before = treeDigest(data);
    const file = await faultyWorkbook((s) => {
      s.getCell("A1").value = "Índice de Precios al Productor";
      s.getCell("A4").value = "Base Diciembre 2010 = 100";
      s.getCell("B8").value = "Índice general";
    });
    const result = await runImportProcess(args(file, data, "--force"));
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      [
        "3 data errors:",
        `${file}!A1: expected the title "Índice de Precios del Consumo", got "Índice de Precios al Productor"`,
        `${file}!A4: expected the base "Base Octubre 2022 = 100", got "Base Diciembre 2010 = 100"`,
        `${file}!B8: expected the column header "Índice", got "Índice general"`,
        "nothing was written",
        "",
      ].join("\n"),
    );
    expect(treeDigest(data)).toEqual(before);
  });

  it("refuses months missing or out of order and indices that are not positive numbers, exit 1, writing nothing", async () => {
    const { data } = await dataCopy();
    const before = treeDigest(data);
    const file = await faultyWorkbook((s) => {
      swapRows(s, row(1940, 3), row(1940, 4));
      s.getCell("B100").value = 0;
      s.getCell("B120").value = -1.5;
      s.getCell("B140").value = "118,2";
      deleteRow(s, row(1950, 1)); // last: the rows above keep their numbers
    });
    const result = await runImport(args(file, data, "--force"));
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      [
        "7 data errors:",
        `${file}!A43: expected 1940-03 (the month after A42), got 1940-04`,
        `${file}!A44: expected 1940-05 (the month after A43), got 1940-03`,
        `${file}!A45: expected 1940-04 (the month after A44), got 1940-05`,
        `${file}!B100: expected the index, a positive number, got 0`,
        `${file}!B120: expected the index, a positive number, got -1.5`,
        `${file}!B140: expected the index, a positive number, got "118,2"`,
        `${file}!A161: expected 1950-01 (the month after A160), got 1950-02`,
        "nothing was written",
        "",
      ].join("\n"),
    );
    expect(treeDigest(data)).toEqual(before);
  });
});

describe.concurrent("the registry on the command line", () => {
  it("refuses an indicator whose indicator.json names no importer (exit 2), naming those that have one", async () => {
    const { data } = await dataCopy([INDICATOR, "domestic-worker-wages"]);
    const before = treeDigest(data);
    const result = await runImport(["domestic-worker-wages", FIXTURE, "--source", SOURCE, "--data", data]);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(
      `error: no importer for "domestic-worker-wages": ${join(data, "domestic-worker-wages", "indicator.json")} names none (its "importer" key); ` +
        `the indicators with an importer are ${INDICATOR} (ine-cpi-workbook)\n`,
    );
    expect(treeDigest(data)).toEqual(before);
  });

  it("refuses an unknown importer name in indicator.json (exit 1), naming the registered ones", async () => {
    const { data, folder } = await dataCopy();
    const indicatorFile = join(folder, "indicator.json");
    const json = await readFile(indicatorFile, "utf8");
    await writeFile(indicatorFile, json.replace('"importer": "ine-cpi-workbook"', '"importer": "ine-cpi-pdf"'));
    const before = treeDigest(data);
    const result = await runImport([INDICATOR, FIXTURE, "--source", SOURCE, "--data", data, "--force"]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      `1 data error:\n${indicatorFile}: importer: unknown importer "ine-cpi-pdf": the importers are atuservicio-prices, ine-cpi-workbook, ui-ley-17761 (src/source/importers.ts)\n`,
    );
    expect(treeDigest(data)).toEqual(before);
  });

  it("every importer named in data/ is registered, and code names no indicator", async () => {
    const names = new Map<string, string>();
    for (const id of (await readdir(join(ROOT, "data"))).sort()) {
      const json = JSON.parse(await readFile(join(ROOT, "data", id, "indicator.json"), "utf8")) as { importer?: string };
      if (json.importer !== undefined) names.set(id, json.importer);
    }
    expect(Object.fromEntries(names)).toMatchObject({ [INDICATOR]: "ine-cpi-workbook", "health-insurance-prices": "atuservicio-prices", "unidad-indexada": "ui-ley-17761" });
    const { IMPORTERS } = await import("../../src/source/importers.js");
    for (const name of names.values()) expect(IMPORTERS.has(name), name).toBe(true);
    // The registry is keyed by importer, never by indicator: no id in the import code.
    const code = [
      "scripts/import.ts",
      "src/source/import-cli.ts",
      "src/source/importers.ts",
      "src/source/import-points.ts",
      "src/source/import-atuservicio.ts",
      "src/source/import-ine-cpi.ts",
      "src/source/import-ine-ui.ts",
      "src/source/ley-17761.ts",
    ];
    for (const file of code) {
      const text = await readFile(join(ROOT, file), "utf8");
      for (const id of names.keys()) expect(text.includes(id), `${file} names ${id}`).toBe(false);
    }
  });
});

describe("a revised month goes through the change report", () => {
  it("is reported as 1 revised point and refused without --allow-revisions", async () => {
    const repo = await tempDir("open-series-cpi-repo-");
    const data = join(repo, "data");
    await cp(DATA, join(data, INDICATOR), { recursive: true });
    const git = (...a: string[]) => execFileSync("git", ["-C", repo, "-c", "user.name=t", "-c", "user.email=t@example.test", ...a], { encoding: "utf8" });
    git("init", "-q");
    git("add", ".");
    git("commit", "-qm", "published");

    // INE revises June 2026 in a later release of the same workbook.
    const revised = await faultyWorkbook((s) => (s.getCell(`B${row(2026, 6)}`).value = 118.2));
    const imported = await runImport([INDICATOR, revised, "--source", SOURCE, "--data", data, "--force"]);
    expect(imported.code, imported.stderr).toBe(0);

    const validate = await runCli(["validate", "--data", data]);
    expect(validate.code).toBe(1);
    expect(validate.stdout).toContain(`${INDICATOR}: 0 added, 1 revised, 0 removed`);
    expect(validate.stdout).toContain("  revised general 2026-06-01: 118.12587728 → 118.2");
    expect(validate.stderr).toContain("1 published point would change or disappear (listed above): if the source revised them, run again with --allow-revisions");

    const allowed = await runCli(["validate", "--data", data, "--allow-revisions"]);
    expect(allowed.code, allowed.stderr).toBe(0);
  });
});
