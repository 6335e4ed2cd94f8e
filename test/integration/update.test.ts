/**
 * The unattended update end to end (`npm run update -- --publish`,
 * src/source/update-cli.ts), against a local HTTP server standing in for the
 * publishers: INE's page on gub.uy (the test's fetch sends https://www.gub.uy/…
 * to it, so the data's own declarations are read: the page, the link's pattern,
 * the kinds of sources) and GitHub's API (`--github-api`). The data is a copy of
 * data/ in a temporary git repository with a bare "origin". git runs for real
 * (commits, pushes to the bare origin); gh is a stand-in that records its calls
 * and the pull request's body. Every case asserts the data folder's bytes and
 * the check recorded in indicator.json.
 *
 * - a new INE release at a new upload address (the page links to files/2026-09/,
 *   and to last month's file): August 2026 added to the CPI, the UI extended
 *   (6.6468 on 22 September 2026, as INE published it), every point citing the
 *   new address, the check recorded in both; a branch pushed, a pull request;
 * - the same release again, once merged: a check only (`nothing-new`, the same
 *   address and hash), pushed to main, no point touched;
 * - a page without the link, a link to an HTML page, a broken file, a file older
 *   than the data, one that would remove a point, a page that is not found, a
 *   server that does not answer → exit 1 with the reason, the data folder
 *   byte-identical, no check, nothing committed or pushed;
 * - a new edition of the health prices in the republication's repository: a
 *   pull request asking a person for its month, with the import command; no
 *   data file written.
 */
import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { cp, readFile } from "node:fs/promises";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { promisify } from "node:util";
import ExcelJS from "exceljs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CPI_SHEET } from "../../src/source/import-ine-cpi.js";
import { runUpdate } from "../../src/source/update-cli.js";
import { ROOT, runProcess, tempDir, treeDigest, type CliResult } from "../helpers.js";

const exec = promisify(execFile);

/** The indicator whose indicator.json names INE's page (docs/data.md, "The unattended update"). */
const INDICATOR = "consumer-price-index";
/** The indicator computed from the same workbook (its importer reads the same publication). */
const UI = "unidad-indexada";
/** The indicator whose editions are folders of the republication's repository. */
const PRICES = "health-insurance-prices";
const FIXTURE_BYTES = readFileSync(join(ROOT, "test/fixtures/ine/IPC gral y variaciones_base 2022.xlsx"));
/** The address data/'s points cite (test/fixtures/ine/README.md). */
const CITED =
  "https://github.com/cardo88/UCU-BigData-2026/blob/479dd949b0eaa2c214406a28832ce6db21d61cb4/Actividad03/IPC%20gral%20y%20variaciones_base%202022.xlsx";
const GUB = "https://www.gub.uy";
/** INE's page, as data/consumer-price-index/indicator.json declares it. */
const PAGE = `${GUB}/instituto-nacional-estadistica/datos-y-estadisticas/estadisticas/series-historicas-ipc-base-octubre-2022100`;
/** The workbook's address in a month's upload folder, as gub.uy files it. */
const fileOf = (month: string) => `${GUB}/instituto-nacional-estadistica/sites/instituto-nacional-estadistica/files/${month}/IPC%20gral%20y%20variaciones_base%202022.xlsx`;
const NEW = fileOf("2026-09");
const OLD = fileOf("2026-08");
/** The day of the runs: the test's clock. */
const NOW = new Date("2026-09-02T09:30:00Z");
const TODAY = "2026-09-02";
/** August 2026: a monthly change of 0.24 %, the index July's × 1.0024. */
const JULY = 118.20343852;
const AUGUST = JULY * 1.0024;

// ---------------------------------------------------------------------------
// The publishers: a local server whose answers (path → handler) each test sets

type Handler = (req: IncomingMessage, res: ServerResponse) => void;
let server: Server;
let answers = new Map<string, Handler>();
/** The paths asked, in order. */
let asked: string[] = [];
let local: string;

const serve =
  (bytes: Uint8Array | string, type = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"): Handler =>
  (_, res) => {
    const body = typeof bytes === "string" ? new TextEncoder().encode(bytes) : bytes;
    res.writeHead(200, { "content-type": type, "content-length": body.length });
    res.end(body);
  };
const json = (value: unknown) => serve(JSON.stringify(value), "application/json; charset=utf-8");
/** The path of a gub.uy address on the stand-in. */
const pathOf = (address: string) => address.slice(GUB.length);

beforeAll(async () => {
  server = createServer((req, res) => {
    asked.push(req.url ?? "");
    const handler = answers.get(req.url ?? "");
    if (handler === undefined) res.writeHead(404, "Not Found").end("not here");
    else handler(req, res);
  });
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  local = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((done) => server.close(done));
});

/** INE's page: a list of links, the files' as gub.uy writes them (relative, spaces unencoded, entities in texts). */
function inePage(...links: string[]): string {
  const items = links.map((href) => `<li><a href="${href}" type="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet">IPC general y variaciones &ndash; base 2022</a></li>`);
  return (
    '<!DOCTYPE html>\n<html lang="es"><head><title>Series históricas IPC – base octubre 2022=100 | Instituto Nacional de Estadística</title></head>\n' +
    `<body><nav><a href="/instituto-nacional-estadistica/">INE</a></nav><ul>\n${items.join("\n")}\n</ul></body></html>\n`
  );
}
/** The relative href of a file on INE's page. */
const hrefOf = (address: string) => decodeURIComponent(pathOf(address));

/** The stand-in for gub.uy: the page linking to `links`, each file served as `files` says. */
function gubUy(links: readonly string[], files: Readonly<Record<string, Handler>>): void {
  answers = new Map([[pathOf(PAGE), serve(inePage(...links.map(hrefOf)), "text/html; charset=utf-8")], ...Object.entries(files).map(([address, h]) => [pathOf(address), h] as const)]);
}

// ---------------------------------------------------------------------------
// Workbooks

/** The fixture changed by `edit`, as bytes. */
async function workbook(edit: (sheet: ExcelJS.Worksheet) => void): Promise<Uint8Array> {
  const book = new ExcelJS.Workbook();
  await book.xlsx.load(FIXTURE_BYTES as unknown as ExcelJS.Buffer);
  const sheet = book.getWorksheet(CPI_SHEET);
  if (sheet === undefined) throw new Error(`no sheet ${CPI_SHEET}`);
  edit(sheet);
  return new Uint8Array(await book.xlsx.writeBuffer());
}

/** INE's next release: August 2026 below July (row 1079), in the blank row above the note. */
const nextRelease = () =>
  workbook((sheet) => {
    const month = sheet.getCell(1080, 1);
    month.value = new Date(Date.UTC(2026, 7, 1));
    month.numFmt = sheet.getCell(1079, 1).numFmt;
    sheet.getCell(1080, 2).value = AUGUST;
    // The monthly change as INE publishes it (two decimals): the UI of 6 September to 5 October follows from it.
    sheet.getCell(1080, 3).value = 0.24;
  });

const sha256 = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");

// ---------------------------------------------------------------------------
// The repository

interface Repo {
  /** The working copy: the job's checkout. */
  readonly work: string;
  /** The bare repository it pushes to. */
  readonly origin: string;
  /** The gh calls, each with the text of its --body-file when it has one. */
  readonly gh: { args: readonly string[]; body?: string }[];
}

const git = async (cwd: string, ...args: string[]) =>
  (await exec("git", ["-c", "user.name=update", "-c", "user.email=update@example.test", ...args], { cwd, maxBuffer: 64 * 2 ** 20 })).stdout;

/**
 * A clone of a bare origin whose main holds data/ as it is. The health insurance
 * prices (nine tenths of the points, which no import of INE's file touches) are
 * left out unless a case looks at their editions.
 */
async function repository(withPrices = false): Promise<Repo> {
  const origin = await tempDir("open-series-update-origin-");
  await git(origin, "init", "--quiet", "--bare", "--initial-branch=main");
  const work = await tempDir("open-series-update-work-");
  await git(work, "init", "--quiet", "--initial-branch=main");
  await git(work, "remote", "add", "origin", origin);
  const prices = join(ROOT, "data", PRICES);
  await cp(join(ROOT, "data"), join(work, "data"), { recursive: true, filter: (path) => withPrices || !path.startsWith(prices) });
  await git(work, "add", ".");
  await git(work, "commit", "--quiet", "-m", "published");
  await git(work, "push", "--quiet", "origin", "main");
  return { work, origin, gh: [] };
}

/** Runs `npm run update -- <args>` in process in the repository, at `now`, gub.uy and GitHub's API on the stand-in, git for real and gh recorded. */
async function update(repo: Repo, args: readonly string[], now = NOW): Promise<CliResult> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runUpdate(["--data", "data", "--github-api", `${local}/github-api`, ...args], {
    out: (line) => out.push(line),
    err: (line) => err.push(line),
    cwd: repo.work,
    fetch: (address, init) => fetch(address.startsWith(`${GUB}/`) ? `${local}${pathOf(address)}` : address, init),
    now: () => now,
    async run(command, argv) {
      if (command === "git") return git(repo.work, ...argv);
      const at = argv.indexOf("--body-file");
      repo.gh.push(at < 0 ? { args: argv } : { args: argv, body: await readFile(argv[at + 1] as string, "utf8") });
      return "";
    },
    env: {},
  });
  const text = (lines: string[]) => lines.map((line) => `${line}\n`).join("");
  return { code, stdout: text(out), stderr: text(err) };
}

/** The branches of the origin and their commits' subjects. */
async function originLog(repo: Repo, branch: string): Promise<string[]> {
  return (await git(repo.origin, "log", "--format=%s", branch)).trim().split("\n");
}

const dataOf = (repo: Repo) => join(repo.work, "data");
const read = (repo: Repo, path: string) => readFile(join(dataOf(repo), path), "utf8");
const checkOf = async (repo: Repo, id: string) => (JSON.parse(await read(repo, `${id}/indicator.json`)) as { check?: unknown }).check;
const committed = (path: string) => readFileSync(join(ROOT, "data", path), "utf8");
/** The pattern data/consumer-price-index/indicator.json declares for the workbook's link. */
const DECLARED_HREF = (JSON.parse(committed(`${INDICATOR}/indicator.json`)) as { publication: { link: { href: string } } }).publication.link.href;

// ---------------------------------------------------------------------------

describe("a new INE release at a new upload address", () => {
  it("is found on INE's page and imported: August in the CPI, the UI extended to INE's published value, the check recorded in both; then again, a check only", async () => {
    const repo = await repository();
    const release = await nextRelease();
    // The page links this month's file and, further down, last month's: the newest is the one of the latest upload month.
    gubUy([NEW, OLD], { [NEW]: serve(release), [OLD]: serve(FIXTURE_BYTES) });
    asked = [];

    const result = await update(repo, ["--publish"]);
    expect(result.code, result.stderr).toBe(0);
    expect(asked).toEqual([pathOf(PAGE), pathOf(NEW)]);
    expect(result.stdout).toContain(
      `${INDICATOR}: looking for the file on ${PAGE}\n${INDICATOR}: downloading ${NEW}\n${INDICATOR}: imported 1070 points, months 1937-07 to 2026-08\n${UI}: imported 4626 points, 2014-02-05 to 2026-10-05`,
    );

    // The CPI: August added, citing its cell; every point citing the file read.
    const cpi = await read(repo, `${INDICATOR}/cpi.csv`);
    expect(cpi).toBe(`${committed(`${INDICATOR}/cpi.csv`).replaceAll(CITED, NEW)}2026-08-01,general,${String(AUGUST)},${NEW}#B1080\n`);
    // The UI: 6 September to 5 October from August's change (C1080); 22 September as INE published it.
    const ui = (await read(repo, `${UI}/ui.csv`)).trimEnd().split("\n");
    expect(ui.slice(0, -30).join("\n")).toBe(committed(`${UI}/ui.csv`).replaceAll(CITED, NEW).trimEnd());
    expect(ui.slice(-30).map((line) => line.split(",")[0])).toEqual(Array.from({ length: 30 }, (_, i) => new Date(Date.UTC(2026, 8, 6 + i)).toISOString().slice(0, 10)));
    const published = readFileSync(join(ROOT, "test/fixtures/ine/ui-published-2026-09.csv"), "utf8").split("\n")[1]?.split(",") ?? [];
    expect(published.slice(0, 2)).toEqual(["2026-09-22", "6.6468"]);
    expect(ui).toContain(`2026-09-22,ui,6.6468,${NEW}#C1080`);

    // The checks: the address read, its hash, the newest period it held for each indicator.
    const check = { day: TODAY, by: "update", read: NEW, outcome: "new-data", sha256: sha256(release) };
    expect(await checkOf(repo, INDICATOR)).toEqual({ ...check, newest: "2026-08-01" });
    expect(await checkOf(repo, UI)).toEqual({ ...check, newest: "2026-10-05" });
    // indicator.json: the check alone (the data's kinds of sources already classify the address: the UI's as computed).
    for (const id of [INDICATOR, UI]) {
      const before = JSON.parse(committed(`${id}/indicator.json`)) as Record<string, unknown>;
      const after = JSON.parse(await read(repo, `${id}/indicator.json`)) as Record<string, unknown>;
      expect({ ...after, check: undefined }).toEqual({ ...before, check: undefined });
    }

    // Pushed: the branch data-update on top of main; main untouched; the pull request opened with the change report.
    const what = `${INDICATOR} 1 added, 0 revised, 1069 cite a new address; ${UI} 30 added, 0 revised, 4595 cite a new address`;
    expect(await originLog(repo, "data-update")).toEqual([`Data update from the publishers' files, checked ${TODAY}: ${what}`, "published"]);
    expect(await originLog(repo, "main")).toEqual(["published"]);
    expect(repo.gh.map((call) => call.args.slice(0, 2).join(" "))).toEqual(["pr list", "pr create"]);
    const body = repo.gh[1]?.body ?? "";
    expect(body).toContain(`| \`${INDICATOR}\` | ${NEW} | 1070 points, months 1937-07 to 2026-08 |\n`);
    expect(body).toContain(`- added \`${INDICATOR}\` \`general\` 2026-08-01: ${String(AUGUST)}\n- added \`${UI}\` \`ui\` 2026-09-06: `);
    expect(body).toContain(`- \`${INDICATOR}\`: 1069 points of unchanged value now cite ${NEW}\n`);
    expect(body).toContain(`- \`${INDICATOR}\`: new-data, read ${NEW} (SHA-256 ${sha256(release)}, newest 2026-08-01)\n- \`${UI}\`: new-data, read ${NEW} (SHA-256 ${sha256(release)}, newest 2026-10-05)\n`);

    // Merged; the next day the page links the same file: a check only, pushed to main.
    await git(repo.work, "switch", "--quiet", "main");
    await git(repo.work, "merge", "--quiet", "--ff-only", "data-update");
    await git(repo.work, "push", "--quiet", "origin", "main");
    const merged = treeDigest(dataOf(repo));
    const again = await update(repo, ["--publish", "--dispatch-deploy"], new Date("2026-09-03T09:30:00Z"));
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toContain(`check only: ${INDICATOR}, ${UI} unchanged; checked 2026-09-03\n`);
    const after = treeDigest(dataOf(repo));
    const changedFiles = [...after].filter(([path, digest]) => merged.get(path) !== digest).map(([path]) => path);
    expect(changedFiles.sort()).toEqual([`${INDICATOR}/indicator.json`, `${UI}/indicator.json`]);
    const same = { ...check, day: "2026-09-03", outcome: "nothing-new" };
    expect(await checkOf(repo, INDICATOR)).toEqual({ ...same, newest: "2026-08-01" });
    expect(await checkOf(repo, UI)).toEqual({ ...same, newest: "2026-10-05" });
    expect(await originLog(repo, "main")).toEqual([`Checked 2026-09-03: ${INDICATOR}, ${UI} unchanged`, `Data update from the publishers' files, checked ${TODAY}: ${what}`, "published"]);
    expect(repo.gh.at(-1)).toEqual({ args: ["workflow", "run", "deploy.yml", "--ref", "main"] });
  });

  it("with a revised month, says in the body that the pull request needs the label data-revision", async () => {
    const repo = await repository();
    gubUy([NEW], { [NEW]: serve(await workbook((sheet) => (sheet.getCell(1078, 2).value = 118.2))) });
    const result = await update(repo, ["--body-file", join(repo.work, "..", "body.md")]);
    expect(result.code, result.stderr).toBe(0);
    const body = await readFile(join(repo.work, "..", "body.md"), "utf8");
    expect(body).toContain(`| \`${INDICATOR}\` | 0 | 1 | 0 |`);
    expect(body).toContain(`- revised \`${INDICATOR}\` \`general\` 2026-06-01: 118.12587728 → 118.2`);
    expect(body).toContain("**1 published point revised.** CI refuses revisions unless the pull request has the label `data-revision`");
    expect(await checkOf(repo, INDICATOR)).toMatchObject({ read: NEW, outcome: "new-data" });
    expect(repo.gh).toEqual([]); // not published without --publish
  });
});

describe("a failure touches nothing and records no check", () => {
  const truncated = FIXTURE_BYTES.subarray(0, Math.floor(FIXTURE_BYTES.length / 2));
  const about = '<!DOCTYPE html>\n<html lang="es"><head><title>IPC gral y variaciones | Instituto Nacional de Estadística</title></head><body><h1>Archivo</h1></body></html>';
  const file = `data/${INDICATOR}/indicator.json`;

  it.each<[string, () => Promise<void>, string[], (string | RegExp)[]]>([
    [
      "a page without the link",
      () => Promise.resolve(gubUy([`${GUB}/instituto-nacional-estadistica/sites/instituto-nacional-estadistica/files/2026-09/IPC%20otro.xlsx`], {})),
      [],
      [
        `${file}: publication.link: no link on ${PAGE} matches href /${DECLARED_HREF}/ (the page has 2 links): the file may have moved or been renamed; look at the page`,
      ],
    ],
    [
      "a link to an HTML page",
      () => Promise.resolve(gubUy([NEW], { [NEW]: serve(about, "application/octet-stream") })),
      [],
      [
        `${file}: publication.link: cannot download ${NEW}: got an HTML page (its title: "IPC gral y variaciones | Instituto Nacional de Estadística"), ` +
          `not the publication file: the link may lead to a page about the file, or the file may have moved (look for it on ${PAGE})`,
      ],
    ],
    [
      "a broken file",
      () => Promise.resolve(gubUy([NEW], { [NEW]: serve(truncated) })),
      [],
      [`${file}: publication.link: the file downloaded from ${NEW} does not import (the faults below)`, /^https:\/\/www\.gub\.uy\/.+: not an xlsx workbook: .+/],
    ],
    [
      "a file whose newest period is older than the data's (July 2026 not in it)",
      async () =>
        gubUy([NEW], {
          [NEW]: serve(
            await workbook((sheet) => {
              sheet.getCell(1079, 1).value = null;
              sheet.getCell(1079, 2).value = null;
              sheet.getCell(1079, 3).value = null;
            }),
          ),
        }),
      [],
      [
        `${file}: publication.link: the file at ${NEW} holds points to 2026-06-01, before the data's newest point, 2026-07-01: an older release than the one the data has (is the page's link out of date?)`,
      ],
    ],
    [
      "a file that would remove a point (July 1937 withdrawn)",
      async () =>
        gubUy([NEW], {
          [NEW]: serve(
            await workbook((sheet) => {
              sheet.getCell(11, 1).value = null;
              sheet.getCell(11, 2).value = null;
            }),
          ),
        }),
      [],
      [`data/${INDICATOR}/cpi.csv: would remove general 1937-07-01 (was 1.5944905510202967e-7): the file at ${NEW} no longer has it`],
    ],
    ["a page not found", () => Promise.resolve(void (answers = new Map())), [], [`${file}: publication.page: cannot download ${PAGE}: HTTP 404 Not Found`]],
    [
      "a server that does not answer",
      () => Promise.resolve(gubUy([NEW], { [NEW]: () => undefined })),
      ["--timeout", "0.5"],
      [`${file}: publication.link: cannot download ${NEW}: no complete answer within 0.5 s`],
    ],
  ])("%s: exit 1, the reason named, the data folder and the repository untouched", async (_, publisher, args, faults) => {
    const repo = await repository();
    const before = treeDigest(dataOf(repo));
    await publisher();

    const result = await update(repo, ["--publish", ...args]);
    expect(result.code).toBe(1);
    const lines = result.stderr.trimEnd().split("\n");
    expect(lines[0]).toBe(`${faults.length} data error${faults.length === 1 ? "" : "s"}:`);
    lines.slice(1, -1).forEach((line, i) => {
      const fault = faults[i] as string | RegExp;
      if (typeof fault === "string") expect(line).toBe(fault);
      else expect(line).toMatch(fault);
    });
    expect(lines).toHaveLength(faults.length + 2);
    expect(lines.at(-1)).toBe("nothing was written: the data folder is as it was");

    expect(treeDigest(dataOf(repo))).toEqual(before);
    expect(await checkOf(repo, INDICATOR)).toBeUndefined();
    expect(await checkOf(repo, UI)).toBeUndefined();
    expect((await git(repo.work, "status", "--porcelain")).trim()).toBe("");
    expect(await originLog(repo, "main")).toEqual(["published"]);
    expect((await git(repo.origin, "for-each-ref", "--format=%(refname:short)", "refs/heads")).trim()).toBe("main");
    expect(repo.gh).toEqual([]);
  });

  it("as scripts/update.ts in a child process too (the real fetch, gub.uy unreachable from here: a page at a local address)", async () => {
    const repo = await repository();
    const json = join(dataOf(repo), INDICATOR, "indicator.json");
    const meta = JSON.parse(await readFile(json, "utf8")) as { publication: { page: string } };
    meta.publication.page = `${local}/ipc`;
    await (await import("node:fs/promises")).writeFile(json, `${JSON.stringify(meta, null, 2)}\n`);
    const before = treeDigest(dataOf(repo));
    answers = new Map();
    const result = await runProcess(process.execPath, ["--import", "tsx", "scripts/update.ts", "--data", dataOf(repo), INDICATOR]);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(`1 data error:\n${json}: publication.page: cannot download ${local}/ipc: HTTP 404 Not Found\nnothing was written: the data folder is as it was\n`);
    expect(treeDigest(dataOf(repo))).toEqual(before);
  });
});

describe("the indicators named", () => {
  it.each([
    ["no-such-indicator", `error: unknown indicator "no-such-indicator": no folder of data has that id; the indicators the update checks are ${INDICATOR}`],
    [UI, `error: "${UI}" declares no publication of its own: it is computed from ${INDICATOR}'s and checked with it (name ${INDICATOR})`],
    ["bpc", `error: "bpc" declares no publication in its indicator.json: the indicators the update checks are ${INDICATOR}`],
  ])("%s: a usage error (exit 2), nothing asked of a publisher", async (id, message) => {
    const repo = await repository();
    asked = [];
    const result = await update(repo, [id]);
    expect([result.code, result.stderr]).toEqual([2, `${message}\n`]);
    expect(asked).toEqual([]);
  });
});

describe("a new edition of the health prices in the republication's repository", () => {
  const COMMIT = "0123456789abcdef0123456789abcdef01234567";
  const listing = "/github-api/repos/datauy/ATuServicio/contents/db/data";
  const dir = (name: string) => ({
    name,
    path: `db/data/${name}`,
    sha: "f".repeat(40),
    size: 0,
    url: `https://api.github.com/repos/datauy/ATuServicio/contents/db/data/${name}?ref=master`,
    html_url: `https://github.com/datauy/ATuServicio/tree/master/db/data/${name}`,
    git_url: `https://api.github.com/repos/datauy/ATuServicio/git/trees/${"f".repeat(40)}`,
    download_url: null,
    type: "dir",
  });
  const fileEntry = (path: string, ref: string) => ({
    name: path.split("/").at(-1),
    path,
    type: "file",
    html_url: `https://github.com/datauy/ATuServicio/blob/${ref}/${path}`,
    download_url: `https://raw.githubusercontent.com/datauy/ATuServicio/${ref}/${path}`,
  });

  it("is proposed in a pull request asking a person for its month, with the import command; no data file written", async () => {
    const repo = await repository(true);
    const before = treeDigest(dataOf(repo));
    answers = new Map([
      [listing, json([dir("2025-2"), dir("2026-1"), dir("2026-2"), dir("2026-3"), fileEntry("db/data/recognitions.csv", "master"), fileEntry("db/data/test.rb", "master")])],
      ["/github-api/repos/datauy/ATuServicio/commits?path=db%2Fdata%2F2026-3%2Fprecios.csv&per_page=1", json([{ sha: COMMIT, commit: { message: "Precios 2026-3" } }])],
      [`/github-api/repos/datauy/ATuServicio/contents/db/data/2026-3?ref=${COMMIT}`, json([fileEntry("db/data/2026-3/precios.csv", COMMIT), fileEntry("db/data/2026-3/README.md", COMMIT)])],
    ]);
    asked = [];

    const result = await update(repo, ["--publish", PRICES]);
    expect(result.code, result.stderr).toBe(0);
    expect(asked).toEqual([...answers.keys()]);
    const source = `https://github.com/datauy/ATuServicio/blob/${COMMIT}/db/data/2026-3/precios.csv`;
    expect(result.stdout).toContain(`${PRICES}: a new edition, 2026-3: ${source}\n`);

    // No data file: only the check, in indicator.json.
    const after = treeDigest(dataOf(repo));
    expect([...after].filter(([path, digest]) => before.get(path) !== digest).map(([path]) => path)).toEqual([`${PRICES}/indicator.json`]);
    expect(after.size).toBe(before.size);
    expect(await checkOf(repo, PRICES)).toEqual({ day: TODAY, by: "update", read: `${local}${listing}`, outcome: "new-data" });

    const title = `Data update: ${PRICES} edition 2026-3 to import (checked ${TODAY})`;
    expect(await originLog(repo, "data-update")).toEqual([`Data update from the publishers' files, checked ${TODAY}: ${PRICES} edition 2026-3 to import`, "published"]);
    expect(repo.gh[1]?.args).toEqual(expect.arrayContaining(["--title", title]));
    const body = repo.gh[1]?.body ?? "";
    expect(body).toContain("**Which month does it apply from?**");
    expect(body).toContain(`- edition \`2026-3\` (https://github.com/datauy/ATuServicio/tree/master/db/data/2026-3), its file at commit ${COMMIT}: ${source}\n`);
    expect(body).toContain(`  curl -fL -o precios.csv 'https://raw.githubusercontent.com/datauy/ATuServicio/${COMMIT}/db/data/2026-3/precios.csv'\n`);
    expect(body).toContain(`  npm run import -- ${PRICES} precios.csv --date YYYY-MM --source ${source}\n`);
    expect(body).toContain(`- \`${PRICES}\`: new-data, read ${local}${listing}\n`);
  });

  it("none newer than the newest the data cites (2026-2): a check only", async () => {
    const repo = await repository(true);
    answers = new Map([[listing, json([dir("2025-2"), dir("2026-1"), dir("2026-2")])]]);
    const result = await update(repo, ["--publish", PRICES]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain(`check only: ${PRICES} unchanged; checked ${TODAY}\n`);
    expect(await checkOf(repo, PRICES)).toEqual({ day: TODAY, by: "update", read: `${local}${listing}`, outcome: "nothing-new" });
    expect(await originLog(repo, "main")).toEqual([`Checked ${TODAY}: ${PRICES} unchanged`, "published"]);
  });
});

describe("--publish runs only on the tip of main", () => {
  it("refuses a checkout behind origin/main (exit 2), before downloading", async () => {
    const repo = await repository();
    await git(repo.work, "commit", "--quiet", "--allow-empty", "-m", "ahead");
    await git(repo.work, "push", "--quiet", "origin", "main");
    await git(repo.work, "reset", "--quiet", "--hard", "HEAD~1");
    gubUy([NEW], { [NEW]: serve(FIXTURE_BYTES) });
    asked = [];
    const result = await update(repo, ["--publish"]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^error: --publish runs on the tip of main: HEAD is [0-9a-f]{40}, origin\/main is [0-9a-f]{40}\n$/);
    expect(asked).toEqual([]);
  });
});
