/**
 * The pieces of the unattended update (src/source/update.ts, publish.ts,
 * write-files.ts) without a server: what counts as an HTML page, `checked`
 * written into indicator.json as the only change, the planned files laid over
 * the data folder, all files written or none, the git and gh calls of each
 * outcome, and which indicators of data/ can be updated unattended.
 * test/integration/update.test.ts runs it end to end against a local server.
 */
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { DataError, formatIssue } from "../../src/source/errors.js";
import { IMPORTERS } from "../../src/source/importers.js";
import type { SourceFiles } from "../../src/source/load.js";
import { publish, type Run } from "../../src/source/publish.js";
import { looksLikeHtml, overlaySource, update, utcDay, withChecked, type UpdateResult } from "../../src/source/update.js";
import { writeFilesAtomically } from "../../src/source/write-files.js";
import { ROOT } from "../helpers.js";

const bytes = (text: string) => new TextEncoder().encode(text);

describe("an HTML page where a file was expected", () => {
  it.each([
    ["<!DOCTYPE html><html>", true],
    ["\ufeff  \n<!doctype HTML>\n<html>", true],
    ["<html lang=\"es\">", true],
    ["<HEAD><title>x</title>", true],
    ["<!-- a comment -->", true],
    ["<p>Not found</p>", true],
    ["<body>", true],
    ["PK\u0003\u0004 a zip file: xlsx", false],
    ["date,series,value\n2026-01-01,a,1", false],
    ["<?xml version=\"1.0\"?><workbook/>", false],
    ["<htmlish>", false],
    ["", false],
  ])("%j is HTML: %s", (text, expected) => {
    expect(looksLikeHtml(bytes(text))).toBe(expected);
  });
});

describe("checked in indicator.json", () => {
  const json = (value: object) => `${JSON.stringify(value, null, 2)}\n`;

  it("is written right after publication, the rest of the file as it was", () => {
    const before = json({ id: "x", importer: "i", publication: { url: "https://e.test/a" }, source: {} });
    expect(withChecked(before, "2026-09-02")).toBe(json({ id: "x", importer: "i", publication: { url: "https://e.test/a" }, checked: "2026-09-02", source: {} }));
  });

  it("is replaced where it is", () => {
    const before = json({ id: "x", checked: "2026-01-01", publication: { url: "https://e.test/a" } });
    expect(withChecked(before, "2026-09-02")).toBe(json({ id: "x", checked: "2026-09-02", publication: { url: "https://e.test/a" } }));
  });

  it("every indicator.json of data/ is in the form the update writes, so a check's diff is the date alone", () => {
    for (const id of readdirSync(join(ROOT, "data"))) {
      const text = readFileSync(join(ROOT, "data", id, "indicator.json"), "utf8");
      expect(json(JSON.parse(text) as object), id).toBe(text);
    }
  });

  it("is the clock's UTC day", () => {
    expect(utcDay(new Date("2026-09-02T23:59:59-03:00"))).toBe("2026-09-03");
    expect(utcDay(new Date("2026-09-02T00:00:00Z"))).toBe("2026-09-02");
  });
});

/** A file system in memory: path → text. */
function memory(files: Record<string, string>): SourceFiles {
  const paths = Object.keys(files);
  return {
    folders: (dir) => Promise.resolve([...new Set(paths.filter((p) => p.startsWith(`${dir}/`)).map((p) => p.slice(dir.length + 1).split("/")[0] as string))].filter((n) => !n.includes("."))),
    csvNames: (dir) => Promise.resolve(paths.filter((p) => p.startsWith(`${dir}/`) && p.endsWith(".csv") && !p.slice(dir.length + 1).includes("/")).map((p) => p.slice(dir.length + 1))),
    read: (file) => (file in files ? Promise.resolve(bytes(files[file] as string)) : Promise.reject(Object.assign(new Error(file), { code: "ENOENT" }))),
  };
}

describe("the planned files over the data folder", () => {
  it("replace files, add new CSV files to their folder's list, and leave the rest", async () => {
    const base = memory({ "data/a/indicator.json": "{}", "data/a/x.csv": "old" });
    const over = overlaySource(base, new Map([["data/a/x.csv", "new"], ["data/a/y.csv", "added"]]));
    expect((await over.csvNames("data/a")).sort()).toEqual(["x.csv", "y.csv"]);
    expect(new TextDecoder().decode(await over.read("data/a/x.csv"))).toBe("new");
    expect(new TextDecoder().decode(await over.read("data/a/indicator.json"))).toBe("{}");
    expect(await over.folders("data")).toEqual(["a"]);
  });
});

describe("writing every file or none", () => {
  const folder = () => mkdtempSync(join(tmpdir(), "open-series-write-"));

  it("replaces every file, leaving no temporary file", async () => {
    const dir = folder();
    writeFileSync(join(dir, "a.csv"), "old a");
    await writeFilesAtomically(new Map([[join(dir, "a.csv"), "new a"], [join(dir, "b.json"), "new b"]]));
    expect(readdirSync(dir).sort()).toEqual(["a.csv", "b.json"]);
    expect(readFileSync(join(dir, "a.csv"), "utf8")).toBe("new a");
  });

  it("leaves every file as it was when one cannot be written", async () => {
    const dir = folder();
    writeFileSync(join(dir, "a.csv"), "old a");
    const failing = new Map([[join(dir, "a.csv"), "new a"], [join(dir, "missing", "b.json"), "new b"]]);
    await expect(writeFilesAtomically(failing)).rejects.toThrow(/ENOENT/);
    expect(readdirSync(dir)).toEqual(["a.csv"]);
    expect(readFileSync(join(dir, "a.csv"), "utf8")).toBe("old a");
  });
});

describe("an indicator whose importer needs a --date", () => {
  it("cannot name a publication: the update refuses it, writing nothing", async () => {
    const text = { es: "x", en: "x" };
    const meta = {
      id: "prices",
      title: text,
      description: text,
      unit: "UYU",
      rhythm: "irregular",
      license: "CC-BY-4.0",
      importer: "atuservicio-prices",
      publication: { url: "https://example.test/precios.csv" },
      source: { name: text, url: "https://example.test/" },
      series: [{ id: "a", title: text }],
    };
    const files = memory({ "data/prices/indicator.json": JSON.stringify(meta), "data/prices/2026-01.csv": "date,series,value\n2026-01-01,a,1\n" });
    let fetched = 0;
    let written = 0;
    const run = update(
      { data: "data", base: "HEAD", timeoutMs: 1000 },
      {
        fetch: () => {
          fetched++;
          return Promise.reject(new Error("no fetch"));
        },
        now: () => new Date("2026-09-02T00:00:00Z"),
        source: files,
        publishedSource: () => Promise.resolve(files),
        writeFiles: () => {
          written++;
          return Promise.resolve();
        },
        log: { info: () => undefined, warn: () => undefined },
      },
    );
    const error = await run.then(() => null, (e: unknown) => e);
    expect(error).toBeInstanceOf(DataError);
    expect((error as DataError).issues.map(formatIssue)).toEqual([
      "data/prices/indicator.json: publication: the importer atuservicio-prices cannot run unattended: it needs the month from which the prices apply (the publication does not say it), which a person gives with npm run import --date",
    ]);
    expect([fetched, written]).toEqual([0, 0]);
  });

  it("in data/, only indicators whose importer dates its points name a publication: today the consumer price index", () => {
    const named = readdirSync(join(ROOT, "data"))
      .sort()
      .flatMap((id) => {
        const json = JSON.parse(readFileSync(join(ROOT, "data", id, "indicator.json"), "utf8")) as { importer?: string; publication?: unknown };
        if (json.publication === undefined) return [];
        expect(IMPORTERS.get(json.importer ?? "")?.date, id).toBeNull();
        return [id];
      });
    expect(named).toEqual(["consumer-price-index"]);
  });
});

describe("publishing", () => {
  const result = (kind: "changed" | "checked", written: string[] = ["data/x/indicator.json"]): UpdateResult => ({
    kind,
    today: "2026-09-02",
    checks: [],
    written,
    commit: { subject: "subject", body: "body" },
    pullRequest: kind === "changed" ? { title: "title", body: "the report" } : null,
  });
  const options = { main: "main", branch: "data-update", deployWorkflow: "deploy.yml", bodyFile: "/tmp/body.md" };

  function recorder(answers: Record<string, string> = {}) {
    const calls: string[] = [];
    const texts: string[] = [];
    const run: Run = (command, args) => {
      const call = `${command} ${args.join(" ")}`;
      calls.push(call);
      return Promise.resolve(Object.entries(answers).find(([start]) => call.startsWith(start))?.[1] ?? "");
    };
    return { calls, texts, effects: { run, writeText: (_: string, text: string) => Promise.resolve(void texts.push(text)), log: { info: () => undefined } } };
  }

  it("a check only: a commit pushed to main (never forced), then the deploy dispatched (--dispatch-deploy)", async () => {
    const { calls, effects } = recorder();
    await publish(result("checked"), options, effects);
    expect(calls).toEqual([
      "git add -- data/x/indicator.json",
      "git commit --quiet -m subject -m body",
      "git push --quiet origin HEAD:refs/heads/main",
      "gh workflow run deploy.yml --ref main",
    ]);
  });

  it("a check only pushed with a token whose pushes start workflows: no dispatch", async () => {
    const { calls, effects } = recorder();
    await publish(result("checked"), { ...options, deployWorkflow: null }, effects);
    expect(calls.at(-1)).toBe("git push --quiet origin HEAD:refs/heads/main");
  });

  it("data changed: the job's branch replaced and a pull request opened with the body file", async () => {
    const { calls, texts, effects } = recorder();
    await publish(result("changed"), options, effects);
    expect(calls).toEqual([
      "git switch --quiet -C data-update",
      "git add -- data/x/indicator.json",
      "git commit --quiet -m subject -m body",
      "git push --quiet --force origin HEAD:refs/heads/data-update",
      "gh pr list --head data-update --base main --state open --json number --jq .[].number",
      "gh pr create --base main --head data-update --title title --body-file /tmp/body.md",
    ]);
    expect(texts).toEqual(["the report"]);
  });

  it("data changed with the pull request already open: its title and body replaced", async () => {
    const { calls, effects } = recorder({ "gh pr list": "17\n" });
    await publish(result("changed"), options, effects);
    expect(calls.at(-1)).toBe("gh pr edit 17 --title title --body-file /tmp/body.md");
    expect(calls.some((c) => c.startsWith("gh pr create"))).toBe(false);
  });

  it("nothing written (checked already today): no call", async () => {
    const { calls, effects } = recorder();
    await publish(result("checked", []), options, effects);
    expect(calls).toEqual([]);
  });
});
