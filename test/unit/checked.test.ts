/**
 * `publication` and `check` in indicator.json: where the unattended update
 * looks (a page and the pattern of the file's link, or a repository's editions)
 * needs the importer that reads the file; the day of the last check is a real
 * day, not before the newest point unless points are dated when they take
 * effect (announced ahead). The corpus cases publication-faults and
 * checked-before-points show the messages through the CLI.
 */
import { describe, expect, it } from "vitest";
import { DataError, formatIssue } from "../../src/source/errors.js";
import { loadData, type SourceFiles } from "../../src/source/load.js";
import { parseIndicatorMeta } from "../../src/source/metadata.js";

const TEXT = { es: "x", en: "x" };

function indicator(more: Record<string, unknown>): Record<string, unknown> {
  return {
    id: "demo",
    title: TEXT,
    description: TEXT,
    unit: "index",
    rhythm: "monthly",
    license: "CC-BY-4.0",
    source: { name: TEXT, url: "https://example.test/" },
    series: [{ id: "general", title: TEXT }],
    ...more,
  };
}

/** A data folder of one indicator `demo` in memory. */
function folder(json: Record<string, unknown>, csv: string): SourceFiles {
  const files = new Map([
    ["data/demo/indicator.json", JSON.stringify(json)],
    ["data/demo/a.csv", csv],
  ]);
  return {
    folders: () => Promise.resolve(["demo"]),
    csvNames: () => Promise.resolve(["a.csv"]),
    read: (file) => {
      const text = files.get(file);
      return text === undefined ? Promise.reject(Object.assign(new Error(file), { code: "ENOENT" })) : Promise.resolve(new TextEncoder().encode(text));
    },
  };
}

const CSV = "date,series,value\n2026-06-01,general,1\n2026-07-01,general,2\n";

async function faults(json: Record<string, unknown>, csv = CSV): Promise<string[]> {
  try {
    await loadData("data", folder(json, csv));
    return [];
  } catch (error) {
    if (!(error instanceof DataError)) throw error;
    return error.issues.map(formatIssue);
  }
}

const PAGE = { page: "https://example.test/", link: { href: "files/(\\d{4})-(\\d{2})/a\\.xlsx$", text: "serie" } };
const EDITIONS = { editions: { github: "owner/repo", folder: "db/data", name: "^(\\d{4})(?:-(\\d+))?$", file: "precios.csv" } };

describe("publication", () => {
  it.each([["a page and its link", PAGE], ["editions", EDITIONS]])("is read as %s", (_, publication) => {
    const parsed = parseIndicatorMeta(JSON.stringify(indicator({ importer: "ine-cpi-workbook", publication })), "f", "demo");
    expect(parsed.ok && parsed.value.publication).toEqual(publication);
  });

  it("needs the importer that reads it", () => {
    const parsed = parseIndicatorMeta(JSON.stringify(indicator({ publication: PAGE })), "f", "demo");
    expect(parsed.ok ? [] : parsed.issues.map(formatIssue)).toEqual(['f: publication: names no importer: add the "importer" that reads this file']);
  });

  const either = 'publication: expected {"page": "https://…", "link": {"href": "…"}} or {"editions": {"github": "owner/name", "folder": "…", "name": "…", "file": "…"}}';
  it.each<[string, unknown, string]>([
    ["a page that is no http(s) address", { ...PAGE, page: "ftp://example.test/" }, "publication.page: expected an http(s) URL"],
    ["a link pattern that is no regular expression", { ...PAGE, link: { href: "files/(" } }, 'publication.link.href: expected a regular expression, got "files/("'],
    ["a page without its link", { page: "https://example.test/" }, either],
    ["a page and editions", { ...PAGE, ...EDITIONS }, either],
    ["the fixed address of before", { url: "https://example.test/a.xlsx" }, `publication: Unrecognized key: "url"\n${either}`],
    ["editions of no repository", { editions: { ...EDITIONS.editions, github: "repo" } }, "publication.editions.github: expected a repository as owner/name"],
    ["editions in a folder with a trailing /", { editions: { ...EDITIONS.editions, folder: "db/data/" } }, "publication.editions.folder: expected a folder path like db/data, without a leading or trailing /"],
  ])("refuses %s", (_, publication, fault) => {
    const parsed = parseIndicatorMeta(JSON.stringify(indicator({ importer: "x", publication })), "f", "demo");
    expect(parsed.ok ? [] : parsed.issues.map(formatIssue)).toEqual(fault.split("\n").map((line) => `f: ${line}`));
  });
});

/** A recorded check of `day` (and `more`). */
const check = (day: unknown, more: Record<string, unknown> = {}) => ({ check: { day, by: "person", read: "https://example.test/page", outcome: "nothing-new", ...more } });

describe("check", () => {
  it.each([["2026-02-29"], ["2026-7-01"], ["yesterday"], [20260701]])("refuses the day %s, not a real day", async (day) => {
    expect(await faults(indicator(check(day)))).toEqual([
      typeof day === "number"
        ? "data/demo/indicator.json: check.day: expected a day YYYY-MM-DD"
        : `data/demo/indicator.json: check.day: expected a real calendar day YYYY-MM-DD, got ${JSON.stringify(day)}`,
    ]);
  });

  it("says who looked, at what address, and what it found, each validated", async () => {
    expect(await faults(indicator(check("2026-11-25", { by: "robot", read: "ftp://example.test/", outcome: "maybe", sha256: "ABC", extra: 1 })))).toEqual([
      "data/demo/indicator.json: check.by: expected one of update, person",
      "data/demo/indicator.json: check.read: expected an http(s) URL",
      "data/demo/indicator.json: check.outcome: expected one of new-data, nothing-new",
      "data/demo/indicator.json: check.sha256: expected a SHA-256 in 64 lower-case hex digits",
      'data/demo/indicator.json: check: Unrecognized key: "extra"',
    ]);
    const parsed = parseIndicatorMeta(JSON.stringify(indicator(check("2026-11-25", { by: "update", outcome: "new-data", sha256: "a".repeat(64), newest: "2026-08-01" }))), "f", "demo");
    expect(parsed.ok && parsed.value.check).toEqual({ day: "2026-11-25", by: "update", read: "https://example.test/page", outcome: "new-data", sha256: "a".repeat(64), newest: "2026-08-01" });
  });

  it("may be the newest point's day or later", async () => {
    expect(await faults(indicator({ ...check("2026-07-01"), display: { date: "period" } }))).toEqual([]);
    expect(await faults(indicator(check("2026-11-25")))).toEqual([]);
  });

  it("is not before the newest point when points are periods (a month is measured after it began)", async () => {
    expect(await faults(indicator({ ...check("2026-06-30"), display: { date: "period" } }))).toEqual([
      'data/demo/indicator.json: check.day: 2026-06-30 is before the newest point, 2026-07-01: a check cannot predate the period of a point it found (display.date "period")',
    ]);
  });

  it.each(["effective", "date"])("may be before the newest point when points are %s dates (announced, or fixed by a rule, ahead)", async (date) => {
    expect(await faults(indicator({ ...check("2026-06-20"), display: { date } }))).toEqual([]);
  });

  it("is optional: no check recorded", async () => {
    expect(await faults(indicator({}))).toEqual([]);
  });

  it("is no longer a bare checked day", async () => {
    expect(await faults(indicator({ checked: "2026-11-25" }))).toEqual(['data/demo/indicator.json: (root): Unrecognized key: "checked"']);
  });
});
