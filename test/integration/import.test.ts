/**
 * The importer of the health ministry's price publications: every fixture
 * edition reproduces data/health-insurance-prices/ exactly, every fault is
 * reported as `file:line: column: reason`, and the command line keeps its
 * contract (exit codes, nothing written on error, --force keeping notes).
 * The CLI runs only against temporary copies of data/.
 */
import { existsSync, readFileSync } from "node:fs";
import { cp, readFile, readdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { parse } from "csv-parse/sync";
import { describe, expect, it } from "vitest";
import {
  MAPPING_FILE_NAME,
  dotGroupsThousands,
  importPrices,
  normalisePrice,
  normaliseWording,
  parseMapping,
  type ImportContext,
  type PriceMapping,
} from "../../src/source/import-atuservicio.js";
import { formatPointsCsv, keepNotes, type ImportedPoint } from "../../src/source/import-points.js";
import { formatIssue } from "../../src/source/errors.js";
import { ROOT, runImport, runImportProcess, tempDir, treeDigest } from "../helpers.js";

/** The indicator whose indicator.json names the importer `atuservicio-prices`. */
const INDICATOR_ID = "health-insurance-prices";
const FIXTURES = "test/fixtures/atuservicio";
const DATA = join(ROOT, "data", INDICATOR_ID); // read only
const MAPPING_FILE = `data/${INDICATOR_ID}/${MAPPING_FILE_NAME}`;
const INDICATOR_FILE = `data/${INDICATOR_ID}/indicator.json`;

/** Each edition and the URL its points cite, from the commit and path in SOURCES.txt. */
const EDITIONS = readFileSync(join(ROOT, FIXTURES, "SOURCES.txt"), "utf8")
  .trim()
  .split("\n")
  .map((line) => {
    const [edition = "", commit = "", path = ""] = line.split(" ");
    return { edition, url: `https://github.com/datauy/ATuServicio/blob/${commit}/${path}` };
  });

function loadMapping(): PriceMapping {
  const result = parseMapping(readFileSync(join(ROOT, MAPPING_FILE), "utf8"), MAPPING_FILE);
  if (!result.ok) throw new Error(result.issues.map(formatIssue).join("\n"));
  return result.value;
}

const DECLARED: ReadonlySet<string> = new Set(
  (JSON.parse(readFileSync(join(DATA, "indicator.json"), "utf8")) as { series: { id: string }[] }).series.map((s) => s.id),
);
const CONTEXT: ImportContext = { mapping: loadMapping(), mappingFile: MAPPING_FILE, declared: DECLARED, indicatorFile: INDICATOR_FILE };

const URL_2026 = "https://example.org/precios.csv";

/** Imports `text`; the points, or the issues formatted as the CLI prints them. */
function run(text: string, context: ImportContext = CONTEXT, month = "2026-01") {
  const result = importPrices({ text, file: "p.csv", month, sourceUrl: URL_2026 }, context);
  return result.ok ? { points: result.value.points, errors: [] } : { points: [], errors: result.issues.map(formatIssue) };
}

/** The date, series, value and source of every row of a data/ file, in file order. */
function dataPoints(text: string): ImportedPoint[] {
  const rows: Record<string, string>[] = parse(text, { columns: true });
  return rows.map((r) => ({ date: r.date ?? "", series: r.series ?? "", value: r.value ?? "", source: r.source ?? "" }));
}

function importEdition(edition: string, url: string) {
  const file = `${FIXTURES}/${edition}/precios.csv`;
  const result = importPrices({ text: readFileSync(join(ROOT, file), "utf8"), file, month: edition, sourceUrl: url }, CONTEXT);
  if (!result.ok) throw new Error(result.issues.map(formatIssue).join("\n"));
  return result.value;
}

const HEADER = "1 id_mutualista;TICKET DE MEDICAMENTOS - GENERAL. FONASA;TICKET DE MEDICAMENTOS - GENERAL. NO FONASA";

describe("header wordings and numbers", () => {
  it.each([
    ["1 id_mutualista", "1 id mutualista"],
    ["CONSULTA NO URGENTE CONSULTORIO: MEDICINA GENERAL. FONASA", "consulta no urgente consultorio medicina general fonasa"],
    ["Consulta no urgente consultorio - medicina general. FONASA", "consulta no urgente consultorio medicina general fonasa"],
    ["RX COLORECTAL (C/CONTRASTE). NO FONASA", "rx colorectal c contraste no fonasa"],
    ["RX COLORECTAL. (C/ CONTRASTE) NO FONASA", "rx colorectal c contraste no fonasa"],
    ["RESONANCIA NUCLEAR MAGNÉTICA, UNA REGIÓN. FONASA", "resonancia nuclear magnetica una region fonasa"],
    ["  ", ""],
  ])("normalises %j to %j", (wording, key) => {
    expect(normaliseWording(wording)).toBe(key);
  });

  it("reads a dot as thousands only when every dotted value of the file is grouped", () => {
    expect(dotGroupsThousands(["975", "1.287", "1.043"])).toBe(true); // 2019-01
    expect(dotGroupsThousands(["887.417", "400.081594127778"])).toBe(false); // 2024-01
    expect(dotGroupsThousands(["197.60", "0.00"])).toBe(false); // 2015-01
    expect(dotGroupsThousands(["1010", "448"])).toBe(false);
  });

  it.each([
    ["1.287", true, "1287"],
    ["1,010", false, "1010"],
    ["1,010.50", false, "1010.50"],
    ["887.417", false, "887.417"],
    ["0.00", false, "0.00"],
    ["400.081594127778", false, "400.081594127778"],
    ["12a", false, null],
    ["-5", false, null],
    ["1,5", false, null],
  ])("writes the price %j (dot groups thousands: %j) as %j", (text, dots, value) => {
    expect(normalisePrice(text, dots)).toBe(value);
  });
});

describe("the mapping file", () => {
  it("maps every provider of the fixtures, listing the others with a reason", () => {
    const mapping = loadMapping();
    expect(mapping.providers.size).toBe(37);
    expect([...mapping.excludedProviders.keys()]).toEqual(["9000", "9502", "9508", "9516", "9518", "9526", "9532", "9548"]);
  });

  it("reports every fault of a mapping", () => {
    const bad = {
      providerIdColumns: ["Id"],
      providers: { "62": "asociacion-espanola", "9000": "asse" },
      excludedProviders: { "9000": "public provider" },
      columns: { "rx torax. fonasa": { item: "test-xray-chest", regime: "fonasa" } },
    };
    const result = parseMapping(JSON.stringify(bad), "m.json");
    expect(result.ok ? [] : result.issues.map(formatIssue)).toEqual([
      'm.json: providerIdColumns.0: not a normalised wording: write "id"',
      'm.json: columns.rx torax. fonasa: not a normalised wording: write "rx torax fonasa"',
      "m.json: excludedProviders.9000: also mapped in providers: keep it in one of the two",
    ]);
    const columns = { "rx torax fonasa": { item: "x", regime: "FONASA" }, "rx torax": [{ item: "x", regime: "fonasa" }] };
    const shape = parseMapping(JSON.stringify({ ...bad, providerIdColumns: ["id"], columns }), "m.json");
    expect(shape.ok ? [] : shape.issues.map(formatIssue)).toEqual([
      expect.stringMatching(/^m\.json: columns\.rx torax fonasa\.regime: Invalid option/),
      "m.json: columns.rx torax: a list is for a header cell spanning several fields",
      "m.json: excludedProviders.9000: also mapped in providers: keep it in one of the two",
    ]);
  });

  it("locates a JSON syntax fault by its line", () => {
    const result = parseMapping('{\n  "providerIdColumns": ["id"],\n  oops\n}', "m.json");
    expect(result.ok ? [] : result.issues.map(formatIssue)).toEqual([expect.stringMatching(/^m\.json:3: invalid JSON: /)]);
  });
});

describe("acceptance: each fixture edition reproduces data/", () => {
  it.each(EDITIONS)("$edition", async ({ edition, url }) => {
    const existing = await readFile(join(DATA, `${edition}.csv`), "utf8");
    const { points } = importEdition(edition, url);
    expect(points).toEqual(dataPoints(existing));
    // Re-importing over the file with its notes gives it back byte for byte.
    const kept = keepNotes(points, { text: existing, file: `${edition}.csv` });
    expect(kept.ok && kept.value.dropped).toEqual([]);
    expect(kept.ok && formatPointsCsv(kept.value.rows)).toBe(existing);
  });

  it("reproduces 22,914 points in all", () => {
    expect(EDITIONS).toHaveLength(16);
    const total = EDITIONS.reduce((sum, { edition, url }) => sum + importEdition(edition, url).points.length, 0);
    expect(total).toBe(22_914);
  });
});

describe("faults", () => {
  it("reports every fault, not just the first", () => {
    const text = [
      "id_mutualista;TICKET DE MEDICAMENTOS - ESPECIAL. FONASA;TICKET DE MEDICAMENTOS - GENERAL. FONASA",
      "62;100;200",
      "4242;100;200",
      "9000;1;1",
      "4343;100;200",
    ].join("\n");
    expect(run(text).errors).toEqual([
      'p.csv:1: "TICKET DE MEDICAMENTOS - ESPECIAL. FONASA": unknown column header (normalised "ticket de medicamentos especial fonasa"): add it to "columns" in data/health-insurance-prices/atuservicio-mapping.json',
      'p.csv:3: "id_mutualista": unknown provider id "4242": add it to "providers" (with the provider part of its series ids) or to "excludedProviders" (with the reason) in data/health-insurance-prices/atuservicio-mapping.json',
      'p.csv:5: "id_mutualista": unknown provider id "4343": add it to "providers" (with the provider part of its series ids) or to "excludedProviders" (with the reason) in data/health-insurance-prices/atuservicio-mapping.json',
    ]);
  });

  it("reports bad values, field counts, values without header and repeated providers", () => {
    const text = [`${HEADER};;`, "62;12a;100;;", "769;100;100;;7", "769;1;1;;", "264;1;1"].join("\n");
    expect(run(text).errors).toEqual([
      'p.csv:2: "TICKET DE MEDICAMENTOS - GENERAL. FONASA": expected a price like 1287, 1,010 or 197.60, got "12a"',
      'p.csv:3: field 5: value "7" under a column with no header',
      'p.csv:4: "1 id_mutualista": provider id "769" already on line 3',
      "p.csv:5: expected 5 fields as the header gives, got 3",
    ]);
  });

  it("names a series id that indicator.json does not declare, once", () => {
    const mapping = loadMapping();
    const providers = new Map([...mapping.providers, ["62", "espanola"]]);
    const errors = run(`${HEADER}\n62;1;2\n769;3;4`, { ...CONTEXT, mapping: { ...mapping, providers } }).errors;
    expect(errors).toEqual([
      `p.csv:2: "TICKET DE MEDICAMENTOS - GENERAL. FONASA": series "espanola.medicine-general.fonasa" (from ${MAPPING_FILE}) is not declared in ${INDICATOR_FILE}`,
      `p.csv:2: "TICKET DE MEDICAMENTOS - GENERAL. NO FONASA": series "espanola.medicine-general.no-fonasa" (from ${MAPPING_FILE}) is not declared in ${INDICATOR_FILE}`,
    ]);
  });

  it("refuses two provider ids mapped to one provider", () => {
    const mapping = loadMapping();
    const providers = new Map([...mapping.providers, ["4242", "casmu"]]);
    expect(run(`${HEADER}\n769;1;2\n4242;3;`, { ...CONTEXT, mapping: { ...mapping, providers } }).errors).toEqual([
      `p.csv:3: "TICKET DE MEDICAMENTOS - GENERAL. FONASA": a second point for casmu.medicine-general.fonasa (line 2 has one): two provider ids are mapped to casmu in ${MAPPING_FILE}`,
    ]);
  });

  it("needs a provider id column", () => {
    expect(run("codigo;RX TORAX. FONASA\n62;1").errors).toEqual([
      'p.csv:1: "codigo": unknown column header (normalised "codigo"): add it to "columns" in data/health-insurance-prices/atuservicio-mapping.json',
      'p.csv:1: no provider id column: expected a header cell reading one of "id", "1 id mutualista", "id mutualista" (normalised), as listed in data/health-insurance-prices/atuservicio-mapping.json',
    ]);
  });
});

describe("cells", () => {
  it("writes no row for an empty cell: the provider did not publish that price", () => {
    const { points, errors } = run(`${HEADER}\n62; ;444\n`);
    expect(errors).toEqual([]);
    expect(points).toEqual([{ date: "2026-01-01", series: "asociacion-espanola.medicine-general.no-fonasa", value: "444", source: `${URL_2026}#L2` }]);
  });

  it("reads `,` files with quoted cells and cites physical lines, blank lines included", () => {
    const text = 'id,"Rx torax, FONASA"\r\n\r\n769,"1,010"\r\n';
    expect(run(text).points).toEqual([{ date: "2026-01-01", series: "casmu.test-xray-chest.fonasa", value: "1010", source: `${URL_2026}#L3` }]);
  });
});

describe("notes", () => {
  const point = (series: string, value: string): ImportedPoint => ({ date: "2025-01-01", series, value, source: "https://x/p.csv#L2" });

  it("keeps the note of a point whose value is unchanged and drops, naming it, the others", () => {
    const existing = [
      "date,series,value,source,note",
      "2025-01-01,a.b.fonasa,10,https://x/p.csv#L9,kept",
      "2025-01-01,a.b.no-fonasa,11,https://x/p.csv#L9,changed",
      "2025-01-01,a.c.fonasa,12,https://x/p.csv#L9,gone",
      "",
    ].join("\n");
    const result = keepNotes([point("a.b.fonasa", "10"), point("a.b.no-fonasa", "12")], { text: existing, file: "old.csv" });
    if (!result.ok) throw new Error("unexpected");
    expect(result.value.rows.map((r) => r.note)).toEqual(["kept", ""]);
    expect(result.value.dropped.map(formatIssue)).toEqual([
      'old.csv:3: note: dropped: a.b.no-fonasa 2025-01-01 changed from 11 to 12 (note: "changed")',
      'old.csv:4: note: dropped: a.c.fonasa 2025-01-01 is no longer in the publication (note: "gone")',
    ]);
    expect(formatPointsCsv(result.value.rows)).toBe(
      "date,series,value,source,note\n2025-01-01,a.b.fonasa,10,https://x/p.csv#L2,kept\n2025-01-01,a.b.no-fonasa,12,https://x/p.csv#L2,\n",
    );
  });

  it("writes the note column only when a row has a note, quoting as RFC 4180 needs", () => {
    expect(formatPointsCsv([{ ...point("a.b.fonasa", "1"), note: "" }])).toBe("date,series,value,source\n2025-01-01,a.b.fonasa,1,https://x/p.csv#L2\n");
    expect(formatPointsCsv([{ ...point("a.b.fonasa", "1"), note: 'say "1,2"' }])).toContain(',"say ""1,2"""\n');
  });
});

// ---------------------------------------------------------------------------
// The command line, always against a temporary copy of data/: in process
// (test/helpers.ts), but for one test through scripts/import.ts in a child process.

/** A temporary data folder holding a copy of the real indicator folder. */
async function dataCopy(): Promise<{ data: string; folder: string }> {
  const data = join(await tempDir("open-series-import-"), "data");
  await cp(DATA, join(data, INDICATOR_ID), { recursive: true });
  return { data, folder: join(data, INDICATOR_ID) };
}

const edition = (name: string) => {
  const found = EDITIONS.find((e) => e.edition === name);
  if (found === undefined) throw new Error(name);
  return { file: `${FIXTURES}/${name}/precios.csv`, url: found.url };
};

describe.concurrent("command line", () => {
  const { file, url } = edition("2026-01");

  it.each([
    [["health-insurance-prices", file, "--date", "2026-13", "--source", url], /--date.*expected the month YYYY-MM.*"2026-13"/],
    [["health-insurance-prices", file, "--date", "2026-1", "--source", url], /--date.*"2026-1"/],
    [["health-insurance-prices", file, "--date", "2026-01", "--source", "ftp://x/p.csv"], /--source.*http\(s\) URL/],
    [["health-insurance-prices", file, "--date", "2026-01", "--source", `${url}#L3`], /--source.*without #fragment/],
    [["domestic-worker-wages", file, "--date", "2026-01", "--source", url], /no importer for "domestic-worker-wages"/],
    [["health-insurance-prices", file, "--source", url], /required option '--date/],
    [["health-insurance-prices", "no/such/precios.csv", "--date", "2026-01", "--source", url], /cannot read no\/such\/precios\.csv/],
  ])("%j is a usage error: exit 2", async (args, message) => {
    const { data } = await dataCopy();
    const result = await runImport([...args, "--data", data]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(message);
  });

  it.each([
    ["bad-unknown-provider", 3, '"1 id_mutualista": unknown provider id "4242": add it to "providers" (with the provider part of its series ids) or to "excludedProviders" (with the reason) in'],
    ["bad-unknown-column", 1, '"TICKET DE MEDICAMENTOS - ESPECIAL. FONASA": unknown column header (normalised "ticket de medicamentos especial fonasa"): add it to "columns" in'],
  ])("%s fails with its file:line: column: reason, exit 1, writing nothing", async (name, line, fault) => {
    const { data, folder } = await dataCopy();
    const before = treeDigest(data);
    const bad = `${FIXTURES}/${name}/precios.csv`;
    const result = await runImport(["health-insurance-prices", bad, "--date", "2026-02", "--source", url, "--data", data]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`1 data error:\n${bad}:${line}: ${fault} ${join(folder, MAPPING_FILE_NAME)}\n`);
    expect(result.stderr).toContain("nothing was written");
    expect(treeDigest(data)).toEqual(before);
  });

  it("writes a new month atomically, leaving no temporary file", async () => {
    const { data, folder } = await dataCopy();
    // A month data/ does not have (2026-07 is the list in force from 1 July 2026).
    expect(existsSync(join(DATA, "2027-01.csv"))).toBe(false);
    const result = await runImport(["health-insurance-prices", file, "--date", "2027-01", "--source", url, "--data", data]);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(`wrote ${join(folder, "2027-01.csv")}: 1360 points of 34 providers; left out: 9000 (line 36)`);
    const written = await readFile(join(folder, "2027-01.csv"), "utf8");
    const expected = (await readFile(join(DATA, "2026-01.csv"), "utf8")).replaceAll("2026-01-01,", "2027-01-01,");
    expect(written).toBe(expected);
    expect((await readdir(folder)).filter((f) => !/^(\d{4}-\d{2}\.csv|indicator\.json|atuservicio-mapping\.json)$/.test(f))).toEqual([]);
  });

  it("refuses to overwrite an existing month without --force", async () => {
    const { data } = await dataCopy();
    const before = treeDigest(data);
    const result = await runImport(["health-insurance-prices", file, "--date", "2026-01", "--source", url, "--data", data]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/2026-01\.csv already exists: pass --force to replace it/);
    expect(treeDigest(data)).toEqual(before);
  });

  it("with --force keeps the notes of unchanged points and drops, with a warning, the others (scripts/import.ts in a child process)", async () => {
    const { data, folder } = await dataCopy();
    const target = join(folder, "2025-01.csv");
    const original = await readFile(target, "utf8");
    // As if an earlier import had read 70.005 where the publication says 70.004.
    const edited = original.replace("2025-01-01,amecom.consult-central-emergency.fonasa,70.004,", "2025-01-01,amecom.consult-central-emergency.fonasa,70.005,");
    expect(edited).not.toBe(original);
    await writeFile(target, edited);
    const { file: file2025, url: url2025 } = edition("2025-01");
    const result = await runImportProcess(["health-insurance-prices", file2025, "--date", "2025-01", "--source", url2025, "--data", data, "--force"]);
    expect(result.code).toBe(0);
    expect(result.stderr).toContain(`warning: ${target}:2: note: dropped: amecom.consult-central-emergency.fonasa 2025-01-01 changed from 70.005 to 70.004`);
    expect(result.stdout).toContain("notes kept: 25, dropped: 1");
    const expected = original.replace(/^(2025-01-01,amecom\.consult-central-emergency\.fonasa,70\.004,[^,]+,).*$/m, "$1");
    expect(await readFile(target, "utf8")).toBe(expected);
  });

  it("with --force re-imports an edition over itself byte for byte", async () => {
    const { data, folder } = await dataCopy();
    const { file: f, url: u } = edition("2016-01");
    const result = await runImport(["health-insurance-prices", f, "--date", "2016-01", "--source", u, "--data", data, "--force"]);
    expect(result.code).toBe(0);
    expect(await readFile(join(folder, "2016-01.csv"), "utf8")).toBe(await readFile(join(DATA, "2016-01.csv"), "utf8"));
  });
});
