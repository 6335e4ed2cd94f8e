/**
 * The pieces of the unattended update (src/source/update.ts, links.ts,
 * editions.ts, publish.ts, write-files.ts) without a server: what counts as an
 * HTML page, the links of a page and the newest a declaration recognises, the
 * editions a repository lists and those the points cite, `check` written into
 * indicator.json as the only change, the planned files laid over the data
 * folder, all files written or none, the git and gh calls of each outcome, and
 * which indicators of data/ can be updated unattended.
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
import { citedEditions, findEditions } from "../../src/source/editions.js";
import { decodeEntities, matchingLinks, newestLink, pageLinks } from "../../src/source/links.js";
import { looksLikeHtml, overlaySource, update, utcDay, withCheck, type UpdateResult } from "../../src/source/update.js";
import { writeFilesAtomically } from "../../src/source/write-files.js";
import { ROOT } from "../files.js";

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

describe("check in indicator.json", () => {
  const json = (value: object) => `${JSON.stringify(value, null, 2)}\n`;
  const check = { day: "2026-09-02", by: "update", read: "https://e.test/a.xlsx", outcome: "nothing-new", sha256: "ab".repeat(32), newest: "2026-08-01" } as const;
  const publication = { page: "https://e.test/", link: { href: "a\\.xlsx$" } };

  it("is written right after publication, the rest of the file as it was", () => {
    const before = json({ id: "x", importer: "i", publication, source: {} });
    expect(withCheck(before, check)).toBe(json({ id: "x", importer: "i", publication, check, source: {} }));
  });

  it("is replaced where it is, its keys in the order of a Check", () => {
    const before = json({ id: "x", check: { outcome: "new-data", day: "2026-01-01", by: "person", read: "https://e.test/", note: "n" }, publication });
    const { newest, sha256, ...rest } = check;
    expect(withCheck(before, { newest, sha256, ...rest })).toBe(json({ id: "x", check, publication }));
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
  it("cannot name a page: the update refuses it, writing nothing", async () => {
    const text = { es: "x", en: "x" };
    const meta = {
      id: "prices",
      title: text,
      description: text,
      unit: "UYU",
      rhythm: "irregular",
      license: "CC-BY-4.0",
      importer: "atuservicio-prices",
      publication: { page: "https://example.test/", link: { href: "precios\\.csv$" } },
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

  it("in data/, only indicators whose importer dates its points name a page; an importer that needs a --date, editions", () => {
    const named = readdirSync(join(ROOT, "data"))
      .sort()
      .flatMap((id) => {
        const json = JSON.parse(readFileSync(join(ROOT, "data", id, "indicator.json"), "utf8")) as { importer?: string; publication?: { page?: string; editions?: unknown } };
        if (json.publication === undefined) return [];
        const dated = IMPORTERS.get(json.importer ?? "")?.date !== null;
        expect(dated, id).toBe(json.publication.editions !== undefined);
        return [`${id}: ${json.publication.page === undefined ? "editions" : "page"}`];
      });
    expect(named).toEqual(["consumer-price-index: page", "health-insurance-prices: editions"]);
  });
});

describe("the links of a publisher's page", () => {
  const PAGE = "https://www.gub.uy/instituto-nacional-estadistica/datos-y-estadisticas/estadisticas/series-historicas-ipc-base-octubre-2022100";
  const HREF = "^https://www\\.gub\\.uy/instituto-nacional-estadistica/sites/instituto-nacional-estadistica/files/(\\d{4})-(\\d{2})/IPC%20gral%20y%20variaciones_base%202022\\.xlsx$";
  const FILES = "https://www.gub.uy/instituto-nacional-estadistica/sites/instituto-nacional-estadistica/files";

  it("are resolved against the page, their character references decoded, their texts without tags and with white space (a no-break space too) collapsed; comments and scripts skipped", () => {
    const html = [
      '<a href="/instituto-nacional-estadistica/sites/instituto-nacional-estadistica/files/2026-09/IPC gral y variaciones_base 2022.xlsx">IPC <b>general</b>&nbsp;y variaciones</a>',
      "<a class='x' href='../otra?a=1&amp;b=2#top'>Descargar &aacute;rea &#x2014; &#233;</a>",
      "<!-- <a href=\"/hidden.xlsx\">old</a> --><script>var s = '<a href=\"/script.xlsx\">x</a>';</script>",
      "<a name=anchor>no href</a><A HREF=https://example.test/abs>Abs</A>",
    ].join("\n");
    expect(pageLinks(html, PAGE)).toEqual([
      { href: `${FILES}/2026-09/IPC%20gral%20y%20variaciones_base%202022.xlsx`, text: "IPC general y variaciones" },
      { href: "https://www.gub.uy/instituto-nacional-estadistica/datos-y-estadisticas/otra?a=1&b=2", text: "Descargar área — é" },
      { href: "https://example.test/abs", text: "Abs" },
    ]);
    expect(decodeEntities("&unknown; &amp;amp; &#0;")).toBe("&unknown; &amp; &#0;");
  });

  it("the newest of those the declaration recognises is the one whose groups capture the largest numbers (the upload month)", () => {
    const links = ["2026-08", "2026-10", "2025-12", "2026-09"].map((month) => ({ href: `${FILES}/${month}/IPC%20gral%20y%20variaciones_base%202022.xlsx`, text: "" }));
    const other = { href: `${FILES}/2027-01/IPC%20otro.xlsx`, text: "" };
    expect(newestLink(matchingLinks([...links, other, links[0] as { href: string; text: string }], { href: HREF }))).toEqual(links[1]);
    expect(newestLink(matchingLinks([other], { href: HREF }))).toEqual({ reason: "none" });
  });

  it("a text pattern narrows the links (case ignored); addresses the groups cannot order are no newest", () => {
    const links = [
      { href: "https://e.test/a.xlsx", text: "Serie histórica" },
      { href: "https://e.test/b.xlsx", text: "Otra cosa" },
    ];
    expect(newestLink(matchingLinks(links, { href: "\\.xlsx$", text: "^serie" }))).toEqual(links[0]);
    expect(newestLink(matchingLinks(links, { href: "\\.xlsx$" }))).toEqual({
      reason: "2 links match with nothing to tell which is newest (the href pattern's groups capture the same numbers): https://e.test/a.xlsx, https://e.test/b.xlsx",
    });
  });
});

describe("editions in a repository's folder", () => {
  const declaration = { github: "datauy/ATuServicio", folder: "db/data", name: "^(\\d{4})(?:-(\\d+))?$", file: "precios.csv" };
  const blob = (commit: string, edition: string) => `https://github.com/datauy/ATuServicio/blob/${commit}/db/data/${edition}/precios.csv#L4`;

  it("the points cite the editions in their sources' paths", () => {
    const sources = [blob("ffb6", "2025-1"), blob("af65", "2026-2"), blob("ffb6", "2022"), "https://github.com/datauy/ATuServicio/blob/x/db/data/2026-9/otro.csv#L1", "https://example.test/"];
    expect([...citedEditions(declaration, sources)].sort()).toEqual(["2022", "2025-1", "2026-2"]);
  });

  it("those newer than the newest cited are found (a year alone is its first edition), pinned to their file's last commit", async () => {
    const dir = (name: string) => ({ name, path: `db/data/${name}`, type: "dir", html_url: `https://github.com/datauy/ATuServicio/tree/master/db/data/${name}` });
    const sha = "c".repeat(40);
    const answers: Record<string, unknown> = {
      "https://api.test/repos/datauy/ATuServicio/contents/db/data": [dir("2022"), dir("2026-2"), dir("2025-2"), dir("2027"), dir("2026-10"), { name: "test.rb", path: "db/data/test.rb", type: "file" }, dir("old")],
      [`https://api.test/repos/datauy/ATuServicio/commits?path=db%2Fdata%2F2026-10%2Fprecios.csv&per_page=1`]: [{ sha }],
      [`https://api.test/repos/datauy/ATuServicio/commits?path=db%2Fdata%2F2027%2Fprecios.csv&per_page=1`]: [{ sha }],
      [`https://api.test/repos/datauy/ATuServicio/contents/db/data/2026-10?ref=${sha}`]: [{ name: "precios.csv", path: "db/data/2026-10/precios.csv", type: "file", download_url: `https://raw.test/${sha}/db/data/2026-10/precios.csv` }],
      [`https://api.test/repos/datauy/ATuServicio/contents/db/data/2027?ref=${sha}`]: [{ name: "precios.csv", path: "db/data/2027/precios.csv", type: "file", download_url: `https://raw.test/${sha}/db/data/2027/precios.csv` }],
    };
    const asked: string[] = [];
    const getJson = (url: string) => (asked.push(url), url in answers ? Promise.resolve(answers[url]) : Promise.reject(new Error(`cannot read ${url}: HTTP 404`)));
    const found = await findEditions(declaration, [blob("af65", "2026-2"), blob("ffb6", "2022")], "https://api.test/", getJson);
    expect(found.listing).toBe("https://api.test/repos/datauy/ATuServicio/contents/db/data");
    expect(found.newestCited).toBe("2026-2");
    expect(found.newer.map((e) => [e.name, e.source, e.download])).toEqual([
      ["2026-10", `https://github.com/datauy/ATuServicio/blob/${sha}/db/data/2026-10/precios.csv`, `https://raw.test/${sha}/db/data/2026-10/precios.csv`],
      ["2027", `https://github.com/datauy/ATuServicio/blob/${sha}/db/data/2027/precios.csv`, `https://raw.test/${sha}/db/data/2027/precios.csv`],
    ]);
    // Nothing newer than the newest cited: one request.
    asked.length = 0;
    expect((await findEditions(declaration, [blob("x", "2027")], "https://api.test", getJson)).newer).toEqual([]);
    expect(asked).toHaveLength(1);
    await expect(findEditions(declaration, [], "https://api.test", () => Promise.resolve({ message: "Not Found" }))).rejects.toThrow(
      "https://api.test/repos/datauy/ATuServicio/contents/db/data did not answer a JSON list of the folder's entries (name, path, type)",
    );
  });
});

describe("publishing", () => {
  const result = (kind: "changed" | "checked", written: string[] = ["data/x/indicator.json"]): UpdateResult => ({
    kind,
    today: "2026-09-02",
    checks: [],
    editions: [],
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
