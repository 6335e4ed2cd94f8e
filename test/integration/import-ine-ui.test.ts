/**
 * The UI through the importer its indicator.json names (`ui-ley-17761`): INE's
 * CPI workbook of the fixtures and the anchor of data/ reproduce data/'s ui.csv
 * byte for byte, and every UI value INE published that was found
 * (test/fixtures/ine/ui-published.csv); a workbook with one more month extends
 * the CPI by a month and the UI by a period in one command, which the change
 * report shows as added points only; a change cell that is not a number, or a
 * change that contradicts the anchor, is refused as `file!cell: reason` with
 * nothing written. The CLI runs in process, only against temporary copies of data/.
 */
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { cp, readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import ExcelJS from "exceljs";
import { parse } from "csv-parse/sync";
import { describe, expect, it } from "vitest";
import { formatIssue } from "../../src/source/errors.js";
import { CPI_SHEET, readWorkbook } from "../../src/source/import-ine-cpi.js";
import { formatPointsCsv } from "../../src/source/import-points.js";
import { ANCHOR_FILE_NAME, importUi, parseAnchor } from "../../src/source/import-ine-ui.js";
import { ROOT, runCli, runImport, tempDir, treeDigest } from "../helpers.js";

/** The indicator whose indicator.json names the importer `ui-ley-17761`, and the one fed by the same workbook. */
const INDICATOR = "unidad-indexada";
const CPI = "consumer-price-index";
const DATA = join(ROOT, "data", INDICATOR); // read only
const EXPECTED = readFileSync(join(DATA, "ui.csv"), "utf8");
const EXPECTED_CPI = readFileSync(join(ROOT, "data", CPI, "cpi.csv"), "utf8");
const ANCHOR_FILE = join(DATA, ANCHOR_FILE_NAME);
const FIXTURE = "test/fixtures/ine/IPC gral y variaciones_base 2022.xlsx";
const FIXTURE_BYTES = readFileSync(join(ROOT, FIXTURE));
/** The URL data/'s points cite (test/fixtures/ine/README.md). */
const SOURCE =
  "https://github.com/cardo88/UCU-BigData-2026/blob/479dd949b0eaa2c214406a28832ce6db21d61cb4/Actividad03/IPC%20gral%20y%20variaciones_base%202022.xlsx";
/** The audited data set the UI was copied from, where it lies beside the clone (the developers' machines, CI). */
const AUDITED = join(ROOT, "..", "shared", "data", INDICATOR, "ui.csv");

/** The rows of a CSV text as records keyed by the header. */
const records = (text: string) => parse<Record<string, string>>(text, { columns: true });

/** A temporary data folder holding copies of the named indicator folders of data/. */
async function dataCopy(indicators: readonly string[] = [CPI, INDICATOR]): Promise<string> {
  const data = join(await tempDir("open-series-ui-"), "data");
  for (const id of indicators) await cp(join(ROOT, "data", id), join(data, id), { recursive: true });
  return data;
}

/** The fixture changed by `edit` with exceljs, written to a temporary file: its path. */
async function editedWorkbook(edit: (sheet: ExcelJS.Worksheet) => void): Promise<string> {
  const book = new ExcelJS.Workbook();
  await book.xlsx.load(FIXTURE_BYTES as unknown as ExcelJS.Buffer);
  const sheet = book.getWorksheet(CPI_SHEET);
  if (sheet === undefined) throw new Error(`no sheet ${CPI_SHEET}`);
  edit(sheet);
  const file = join(await tempDir("open-series-ui-book-"), "ipc.xlsx");
  await writeFile(file, new Uint8Array(await book.xlsx.writeBuffer()));
  return file;
}

/** Rows of the fixture: 11 is July 1937, 1079 July 2026. */
const row = (year: number, month: number): number => 11 + (year * 12 + month - 1) - (1937 * 12 + 6);

/** The UI computed in process from the fixture and data/'s anchor, as the CSV it writes. */
async function computedCsv(): Promise<string> {
  const anchor = parseAnchor(readFileSync(ANCHOR_FILE, "utf8"), ANCHOR_FILE);
  const workbook = await readWorkbook(FIXTURE_BYTES, FIXTURE, SOURCE);
  if (!anchor.ok || !workbook.ok) throw new Error("the anchor or the workbook does not read");
  const context = { anchor: anchor.value, anchorFile: ANCHOR_FILE, declared: new Set(["ui"]), indicatorFile: "indicator.json" };
  const result = importUi(workbook.value, context);
  if (!result.ok) throw new Error(result.issues.map(formatIssue).join("\n"));
  return formatPointsCsv(result.value.points.map((p) => ({ ...p, note: "" })));
}

describe("the fixture", () => {
  it("computes data/'s ui.csv byte for byte: 4,596 days from 5 February 2014 to 5 September 2026", async () => {
    const csv = await computedCsv();
    expect(csv).toBe(EXPECTED);
    const rows = records(csv);
    expect(rows).toHaveLength(4596);
    expect([rows[0]?.date, rows.at(-1)?.date]).toEqual(["2014-02-05", "2026-09-05"]);
    // Each point cites its period's change, the anchor its publication.
    expect(rows.find((r) => r.date === "2015-02-05")?.source).toBe("https://sociedaduruguaya.org/?p=87417");
    expect(rows.find((r) => r.date === "2014-02-05")?.source).toBe(`${SOURCE}#C928`);
    expect(rows.find((r) => r.date === "2014-02-06")?.source).toBe(`${SOURCE}#C929`);
  });

  it.runIf(existsSync(AUDITED))("computes the audited data set's ui.csv byte for byte (../shared)", async () => {
    expect(await computedCsv()).toBe(readFileSync(AUDITED, "utf8"));
  });

  it("equals all 65 published values found, the 30 of the January 2015 release before the anchor included", async () => {
    const computed = new Map(records(await computedCsv()).map((r) => [r.date, r.value]));
    const published = records(readFileSync(join(ROOT, "test/fixtures/ine/ui-published.csv"), "utf8"));
    expect(published).toHaveLength(65);
    // A value published with fewer decimals is compared with the computed one rounded half up to as many.
    const mismatches = published.flatMap(({ date = "", value = "" }) => {
      const ours = computed.get(date);
      const decimals = value.split(".")[1]?.length ?? 0;
      const rounded = ours === undefined ? undefined : roundHalfUp(ours, decimals);
      return rounded === value ? [] : [`${date}: published ${value}, computed ${ours ?? "nothing"}`];
    });
    expect(mismatches).toEqual([]);
    const beforeAnchor = published.filter((p) => (p.date ?? "") < "2015-02-05");
    expect(beforeAnchor.map((p) => p.date)).toEqual(Array.from({ length: 30 }, (_, i) => dateAfter("2015-01-06", i)));
  });
});

/** A four-decimal value rounded half up to fewer decimals, on its digits. */
function roundHalfUp(value: string, decimals: number): string {
  const units = Number(value.replace(".", ""));
  const step = 10 ** (4 - decimals);
  const rounded = Math.floor((units + step / 2) / step);
  return decimals === 0 ? String(rounded) : `${Math.floor(rounded / 10 ** decimals)}.${String(rounded % 10 ** decimals).padStart(decimals, "0")}`;
}

/** `YYYY-MM-DD` plus `days`. */
function dateAfter(date: string, days: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
}

describe.concurrent("one command imports the workbook into the CPI and the UI", () => {
  const args = (indicator: string, file: string, data: string, ...more: string[]) => [indicator, file, "--source", SOURCE, "--data", data, ...more];

  it.each([INDICATOR, CPI])("importing into %s with --force rewrites both files byte for byte", async (indicator) => {
    const data = await dataCopy();
    const before = treeDigest(data);
    const result = await runImport(args(indicator, FIXTURE, data, "--force"));
    expect(result.code, result.stderr).toBe(0);
    const ui = `replaced ${join(data, INDICATOR, "ui.csv")}: 4596 points, 2014-02-05 to 2026-09-05, from 2.9482 on 2015-02-05 (before it, 2014-01-05 could be 2.7430 or 2.7431); notes kept: 0, dropped: 0`;
    const cpi = `replaced ${join(data, CPI, "cpi.csv")}: 1069 points, months 1937-07 to 2026-07; notes kept: 0, dropped: 0`;
    expect(result.stdout).toBe(`${(indicator === CPI ? [cpi, ui] : [ui, cpi]).join("\n")}\n`);
    expect(treeDigest(data)).toEqual(before);
  });

  it("writes both into --out-dir, and only the named indicator where the other is not in the data folder", async () => {
    const out = join(await tempDir("open-series-ui-out-"), "new");
    const both = await runImport(args(INDICATOR, FIXTURE, await dataCopy(), "--out-dir", out));
    expect(both.code, both.stderr).toBe(0);
    expect(await readFile(join(out, "ui.csv"), "utf8")).toBe(EXPECTED);
    expect(await readFile(join(out, "cpi.csv"), "utf8")).toBe(EXPECTED_CPI);

    await rm(out, { recursive: true });
    const alone = await runImport(args(INDICATOR, FIXTURE, await dataCopy([INDICATOR]), "--out-dir", out));
    expect(alone.code, alone.stderr).toBe(0);
    expect(alone.stdout).toMatch(/^wrote \S+ui\.csv: 4596 points[^\n]*\n$/);
    expect(existsSync(join(out, "cpi.csv"))).toBe(false);
  });

  it("refuses without --force when either file exists (exit 2), writing nothing", async () => {
    const data = await dataCopy();
    await rm(join(data, INDICATOR, "ui.csv"));
    const before = treeDigest(data);
    const result = await runImport(args(INDICATOR, FIXTURE, data));
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(`error: ${join(data, CPI, "cpi.csv")} already exists: pass --force to replace it (the notes of points whose value is unchanged are kept)\n`);
    expect(treeDigest(data)).toEqual(before);
  });
});

describe("a new month of the CPI", () => {
  it("adds the month to the CPI and one period to the UI, 6 September to 5 October 2026, in one command: the change report shows only added points", async () => {
    const repo = await tempDir("open-series-ui-repo-");
    const data = join(repo, "data");
    for (const id of [CPI, INDICATOR]) await cp(join(ROOT, "data", id), join(data, id), { recursive: true });
    const git = (...a: string[]) => execFileSync("git", ["-C", repo, "-c", "user.name=t", "-c", "user.email=t@example.test", ...a], { encoding: "utf8" });
    git("init", "-q");
    git("add", ".");
    git("commit", "-qm", "published");

    // INE's next release: August 2026 in row 1080, its change unrounded as INE writes it (shown 0.25).
    const next = await editedWorkbook((s) => {
      const [a, b, c] = [s.getCell("A1080"), s.getCell("B1080"), s.getCell("C1080")];
      a.value = new Date(Date.UTC(2026, 7, 1));
      a.numFmt = s.getCell("A1079").numFmt;
      b.value = 118.5;
      c.value = 0.25341;
    });
    const imported = await runImport([CPI, next, "--source", SOURCE, "--data", data, "--force"]);
    expect(imported.code, imported.stderr).toBe(0);
    expect(imported.stdout).toContain("1070 points, months 1937-07 to 2026-08");
    expect(imported.stdout).toContain("4626 points, 2014-02-05 to 2026-10-05");

    const cpi = await readFile(join(data, CPI, "cpi.csv"), "utf8");
    expect(cpi).toBe(`${EXPECTED_CPI}2026-08-01,general,118.5,${SOURCE}#B1080\n`);
    const ui = await readFile(join(data, INDICATOR, "ui.csv"), "utf8");
    expect(ui.startsWith(EXPECTED)).toBe(true);
    const added = records(ui).slice(4596);
    expect(added.map((r) => r.date)).toEqual(Array.from({ length: 30 }, (_, i) => dateAfter("2026-09-06", i)));
    expect(added.every((r) => r.source === `${SOURCE}#C1080`)).toBe(true);
    // Independently: 6.6378 (5 September) × 1.0025^(k/30), rounded to four decimals (no value here is near a tie).
    const expected = added.map((_, i) => {
      const x = 66378 * Math.pow(1.0025, (i + 1) / 30);
      expect(Math.abs(x - Math.floor(x) - 0.5)).toBeGreaterThan(1e-6);
      return (Math.round(x) / 10_000).toFixed(4);
    });
    expect(added.map((r) => r.value)).toEqual(expected);
    expect(added.at(-1)?.value).toBe("6.6544");

    const validate = await runCli(["validate", "--data", data]);
    expect(validate.code, validate.stderr).toBe(0);
    expect(validate.stdout).toContain(`${CPI}: 1 added, 0 revised, 0 removed`);
    expect(validate.stdout).toContain(`${INDICATOR}: 30 added, 0 revised, 0 removed`);
  });
});

describe.concurrent("faults, each as file!cell: reason, nothing written", () => {
  /** Imports `edit`ed fixture into a copy of data/ with --force: the exit code and the error output, and whether data/ is untouched. */
  async function refused(edit: (sheet: ExcelJS.Worksheet) => void, indicators?: readonly string[]) {
    const data = await dataCopy(indicators);
    const before = treeDigest(data);
    const file = await editedWorkbook(edit);
    const result = await runImport([INDICATOR, file, "--source", SOURCE, "--data", data, "--force"]);
    const untouched = JSON.stringify([...treeDigest(data)]) === JSON.stringify([...before]);
    return { file, anchorFile: join(data, INDICATOR, ANCHOR_FILE_NAME), code: result.code, stderr: result.stderr, untouched };
  }

  it.each<[string, (s: ExcelJS.Worksheet) => void, (file: string, anchorFile: string) => string[]]>([
    ["a change cell emptied", (s) => (s.getCell(`C${row(2020, 3)}`).value = null), (f) => [`${f}!C1003: expected the monthly change in percent, a number above -100, got an empty cell`]],
    ["a change typed as text", (s) => (s.getCell(`C${row(2026, 7)}`).value = "0,07"), (f) => [`${f}!C1079: expected the monthly change in percent, a number above -100, got "0,07"`]],
    [
      "a change that contradicts the anchor (December 2014 at 2.53 %: no value of 5 January 2015 computes to 2.9482)",
      (s) => (s.getCell(`C${row(2014, 12)}`).value = 2.53),
      (f, anchorFile) => [
        `${f}!C940: no value of 2015-01-05 computes with this change (2.53 %) to 2.9482 on 2015-02-05: a revised change, or an anchor (${anchorFile}) that does not belong with these changes`,
      ],
    ],
  ])("%s", async (_, edit, expected) => {
    const { file, anchorFile, code, stderr, untouched } = await refused(edit, [INDICATOR]);
    expect(code).toBe(1);
    expect(stderr).toBe(["1 data error:", ...expected(file, anchorFile), "nothing was written", ""].join("\n"));
    expect(untouched).toBe(true);
  });

  it("lists a fault both importers find once", async () => {
    const { file, code, stderr, untouched } = await refused((s) => (s.getCell("A4").value = "Base Diciembre 2010 = 100"));
    expect(code).toBe(1);
    expect(stderr).toBe(`1 data error:\n${file}!A4: expected the base "Base Octubre 2022 = 100", got "Base Diciembre 2010 = 100"\nnothing was written\n`);
    expect(untouched).toBe(true);
  });

  it("refuses an indicator folder without its anchor, and an anchor the workbook's changes do not reach", async () => {
    const data = await dataCopy([INDICATOR]);
    const anchorFile = join(data, INDICATOR, ANCHOR_FILE_NAME);
    await writeFile(anchorFile, JSON.stringify({ date: "2030-02-05", value: "9.0000", source: "https://example.test/ui" }));
    const far = await runImport([INDICATOR, FIXTURE, "--source", SOURCE, "--data", data, "--force"]);
    expect(far.code).toBe(1);
    expect(far.stderr).toContain(
      `${anchorFile}: date: the workbook's changes (1937-08 to 2026-07) do not include 2029-12's, which determines the anchor's value of 2030-02-05\n`,
    );
    await rm(anchorFile);
    const before = treeDigest(data);
    const missing = await runImport([INDICATOR, FIXTURE, "--source", SOURCE, "--data", data, "--force"]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toBe(`1 data error:\n${anchorFile}: cannot read: ENOENT\nnothing was written\n`);
    expect(treeDigest(data)).toEqual(before);
  });
});
