/**
 * The unattended update end to end (`npm run update -- --publish`,
 * src/source/update-cli.ts), against a local HTTP server standing in for the
 * publisher: a copy of data/ in a temporary git repository with a bare "origin",
 * its consumer price index naming the server's address as its publication (and
 * its points citing it, as they would after a first run). git runs for real
 * (commits, pushes to the bare origin); gh is a stand-in that records its calls
 * and the pull request's body.
 *
 * - a new publication (INE's workbook of the fixture with one more month, made
 *   here with exceljs) → the point added, a branch pushed, a pull request whose
 *   body is the change report;
 * - the same file as committed → a check only: `checked` moves, pushed to main,
 *   the deploy dispatched; no point touched;
 * - a 404, an HTML error page served as 200, a truncated workbook, a workbook
 *   that would remove a point, a server that does not answer → exit 1 with a
 *   message naming the indicator's file and the address, the data folder
 *   byte-identical, nothing committed or pushed.
 */
import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import { cp, readFile, writeFile } from "node:fs/promises";
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

/** The indicator whose indicator.json names a publication (docs/data.md, "The unattended update"). */
const INDICATOR = "consumer-price-index";
const FIXTURE_BYTES = readFileSync(join(ROOT, "test/fixtures/ine/IPC gral y variaciones_base 2022.xlsx"));
/** The address data/'s points cite (test/fixtures/ine/README.md). */
const CITED =
  "https://github.com/cardo88/UCU-BigData-2026/blob/479dd949b0eaa2c214406a28832ce6db21d61cb4/Actividad03/IPC%20gral%20y%20variaciones_base%202022.xlsx";
/** The publisher's page, which the HTML-page message points to (data/'s source.url). */
const PAGE = "https://www.gub.uy/instituto-nacional-estadistica/datos-y-estadisticas/estadisticas/series-historicas-ipc-base-octubre-2022100";
const PATH = "/instituto-nacional-estadistica/files/2026-09/IPC%20gral%20y%20variaciones_base%202022.xlsx";
/** The day of the runs: the test's clock. */
const NOW = new Date("2026-09-02T09:30:00Z");
const TODAY = "2026-09-02";

// ---------------------------------------------------------------------------
// The publisher: a local server whose answer each test sets

type Handler = (req: IncomingMessage, res: ServerResponse) => void;
let server: Server;
let answer: Handler = (_, res) => res.writeHead(500).end();
let url: string;

const serve =
  (bytes: Uint8Array, type = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"): Handler =>
  (_, res) => {
    res.writeHead(200, { "content-type": type, "content-length": bytes.length });
    res.end(bytes);
  };

beforeAll(async () => {
  server = createServer((req, res) => (req.url === PATH ? answer(req, res) : res.writeHead(404).end()));
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}${PATH}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((done) => server.close(done));
});

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
    sheet.getCell(1080, 2).value = 118.9471230769;
    // The monthly change as INE publishes it (two decimals): the UI of 6 September to 5 October follows from it.
    sheet.getCell(1080, 3).value = 0.63;
  });

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

/** The folder left out of the test's repository: nine tenths of the points, which no import here touches. */
const LARGEST = join(ROOT, "data", "health-insurance-prices");

/**
 * A clone of a bare origin whose main holds data/, the consumer price index
 * naming this server's address as its publication and its points citing it.
 */
async function repository(): Promise<Repo> {
  const origin = await tempDir("open-series-update-origin-");
  await git(origin, "init", "--quiet", "--bare", "--initial-branch=main");
  const work = await tempDir("open-series-update-work-");
  await git(work, "init", "--quiet", "--initial-branch=main");
  await git(work, "remote", "add", "origin", origin);
  // The real data but the health insurance prices: the update validates every indicator (and compares with HEAD) on each run.
  await cp(join(ROOT, "data"), join(work, "data"), { recursive: true, filter: (path) => !path.startsWith(LARGEST) });
  const folder = join(work, "data", INDICATOR);
  // The kinds of sources (sourceKinds) are declared by address prefix: the cited address's declaration moves with it.
  const json = JSON.parse((await readFile(join(folder, "indicator.json"), "utf8")).replaceAll(CITED, url)) as { publication: { url: string } };
  json.publication.url = url;
  await writeFile(join(folder, "indicator.json"), `${JSON.stringify(json, null, 2)}\n`);
  await writeFile(join(folder, "cpi.csv"), (await readFile(join(folder, "cpi.csv"), "utf8")).replaceAll(CITED, url));
  // The UI is computed from the same workbook (imported alongside): its points cite it too.
  const ui = join(work, "data", UI, "ui.csv");
  await writeFile(ui, (await readFile(ui, "utf8")).replaceAll(CITED, url));
  const uiJson = join(work, "data", UI, "indicator.json");
  await writeFile(uiJson, (await readFile(uiJson, "utf8")).replaceAll(CITED, url));
  await git(work, "add", ".");
  await git(work, "commit", "--quiet", "-m", "published");
  await git(work, "push", "--quiet", "origin", "main");
  return { work, origin, gh: [] };
}

/** Runs `npm run update -- <args>` in process in the repository, at the test's clock, with git for real and gh recorded. */
async function update(repo: Repo, ...args: string[]): Promise<CliResult> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runUpdate(["--data", "data", ...args], {
    out: (line) => out.push(line),
    err: (line) => err.push(line),
    cwd: repo.work,
    fetch: (address, init) => fetch(address, init),
    now: () => NOW,
    async run(command, argv) {
      if (command === "git") return git(repo.work, ...argv);
      const at = argv.indexOf("--body-file");
      repo.gh.push(at < 0 ? { args: argv } : { args: argv, body: await readFile(argv[at + 1] as string, "utf8") });
      return "";
    },
  });
  const text = (lines: string[]) => lines.map((line) => `${line}\n`).join("");
  return { code, stdout: text(out), stderr: text(err) };
}

/** The branches of the origin and their commits' subjects. */
async function originLog(repo: Repo, branch: string): Promise<string[]> {
  return (await git(repo.origin, "log", "--format=%s", branch)).trim().split("\n");
}

const dataOf = (repo: Repo) => join(repo.work, "data");
const indicatorFile = `data/${INDICATOR}/indicator.json`;
/** The indicator computed from the same workbook (its importer reads the same publication). */
const UI = "unidad-indexada";

// ---------------------------------------------------------------------------

describe("a new publication", () => {
  it("adds its month, pushes the branch data-update and opens a pull request whose body is the change report", async () => {
    const repo = await repository();
    const before = await readFile(join(dataOf(repo), INDICATOR, "cpi.csv"), "utf8");
    answer = serve(await nextRelease());

    const result = await update(repo, "--publish");
    expect(result.code, result.stderr).toBe(0);
    const title = `Data update: ${INDICATOR} 1 added, 0 revised; ${UI} 30 added, 0 revised (checked ${TODAY})`;
    expect(result.stdout).toContain(`${INDICATOR}: downloading ${url}\n${INDICATOR}: imported 1070 points, months 1937-07 to 2026-08\n${UI}: imported 4626 points, 2014-02-05 to 2026-10-05`);
    expect(result.stdout).toContain(`changed: ${title}\n`);

    // The data: one point more, citing its cell; `checked` today; nothing else.
    const after = await readFile(join(dataOf(repo), INDICATOR, "cpi.csv"), "utf8");
    expect(after).toBe(`${before}2026-08-01,general,118.9471230769,${url}#B1080\n`);
    expect(JSON.parse(await readFile(join(repo.work, indicatorFile), "utf8"))).toMatchObject({ publication: { url }, checked: TODAY });
    // The UI of 6 September to 5 October, from August's change (C1080), in the same change.
    const ui = (await readFile(join(dataOf(repo), UI, "ui.csv"), "utf8")).trimEnd().split("\n");
    expect(ui.at(-30)).toBe(`2026-09-06,ui,6.6392,${url}#C1080`);
    expect(ui.at(-1)).toBe(`2026-10-05,ui,6.6796,${url}#C1080`);
    expect((await git(repo.work, "diff", "--name-only", "main", "HEAD")).trim().split("\n")).toEqual([`data/${INDICATOR}/cpi.csv`, indicatorFile, `data/${UI}/indicator.json`, `data/${UI}/ui.csv`]);
    expect((await git(repo.work, "diff", "main", "HEAD", "--", indicatorFile)).split("\n").filter((l) => /^[+-] /.test(l))).toEqual([`+  "checked": "${TODAY}",`]);

    // Pushed: the branch data-update on top of main; main untouched.
    expect(await originLog(repo, "data-update")).toEqual([`Data update from the publishers' files, checked ${TODAY}: ${INDICATOR} 1 added, 0 revised; ${UI} 30 added, 0 revised`, "published"]);
    expect(await originLog(repo, "main")).toEqual(["published"]);

    // The pull request: looked for, then opened with the change report as its body.
    expect(repo.gh.map((call) => call.args.slice(0, 2).join(" "))).toEqual(["pr list", "pr create"]);
    const create = repo.gh[1];
    expect(create?.args).toEqual(expect.arrayContaining(["--base", "main", "--head", "data-update", "--title", title]));
    const body = create?.body ?? "";
    expect(body.startsWith(`## Data update of ${TODAY}\n`)).toBe(true);
    expect(body).toContain(`| \`${INDICATOR}\` | ${url} | 1070 points, months 1937-07 to 2026-08 |\n`);
    expect(body).toContain(`| \`${INDICATOR}\` | 1 | 0 | 0 |\n| \`${UI}\` | 30 | 0 | 0 |\n`);
    expect(body).toContain("No published point changes or disappears.");
    expect(body).toContain(`- added \`${INDICATOR}\` \`general\` 2026-08-01: 118.9471230769\n- added \`${UI}\` \`ui\` 2026-09-06: 6.6392\n`);
    expect(body.match(/^- added `unidad-indexada`/gm)).toHaveLength(30);
    expect(body).toContain(`\`checked\` moves to ${TODAY} in \`${INDICATOR}\`, \`${UI}\`.`);
  });

  it("with a revised month, says in the body that the pull request needs the label data-revision", async () => {
    const repo = await repository();
    answer = serve(await workbook((sheet) => (sheet.getCell(1078, 2).value = 118.2)));
    const result = await update(repo, "--body-file", join(repo.work, "..", "body.md"));
    expect(result.code, result.stderr).toBe(0);
    const body = await readFile(join(repo.work, "..", "body.md"), "utf8");
    expect(body).toContain(`| \`${INDICATOR}\` | 0 | 1 | 0 |`);
    expect(body).toContain(`- revised \`${INDICATOR}\` \`general\` 2026-06-01: 118.12587728 → 118.2`);
    expect(body).toContain(
      "**1 published point revised.** CI refuses revisions unless the pull request has the label `data-revision`: " +
        'add it only after checking that the publisher itself revised these values (docs/data.md, "Updating the data").',
    );
    expect(repo.gh).toEqual([]); // not published without --publish
  });
});

describe("the same publication as committed", () => {
  it("is a check only: checked moves on main, no point is touched, the deploy is dispatched; a second run the same day writes nothing", async () => {
    const repo = await repository();
    const points = await readFile(join(dataOf(repo), INDICATOR, "cpi.csv"));
    answer = serve(FIXTURE_BYTES);

    const result = await update(repo, "--publish", "--dispatch-deploy");
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain(`check only: ${INDICATOR}, ${UI} unchanged; checked ${TODAY}\n`);
    expect(await readFile(join(dataOf(repo), INDICATOR, "cpi.csv"))).toEqual(points);
    expect(await originLog(repo, "main")).toEqual([`Checked ${TODAY}: ${INDICATOR}, ${UI} unchanged`, "published"]);
    expect((await git(repo.origin, "diff", "--name-only", "main~1", "main")).trim().split("\n")).toEqual([indicatorFile, `data/${UI}/indicator.json`]);
    expect((await git(repo.origin, "diff", "main~1", "main")).split("\n").filter((l) => /^[+-] /.test(l))).toEqual([`+  "checked": "${TODAY}",`, `+  "checked": "${TODAY}",`]);
    expect(repo.gh).toEqual([{ args: ["workflow", "run", "deploy.yml", "--ref", "main"] }]);

    const again = await update(repo, "--publish", "--dispatch-deploy");
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toContain(`check only: ${INDICATOR}, ${UI} unchanged; checked ${TODAY} (already written today: nothing to write)\n`);
    expect(again.stdout).toContain(`nothing to publish: already checked ${TODAY}\n`);
    expect(await originLog(repo, "main")).toHaveLength(2);
    expect(repo.gh).toHaveLength(1);
  });
});

describe("a failure touches nothing", () => {
  const truncated = FIXTURE_BYTES.subarray(0, Math.floor(FIXTURE_BYTES.length / 2));
  const page = '<!DOCTYPE html>\n<html lang="es"><head><title>Página no encontrada | Uruguay Presidencia</title></head><body><h1>404</h1></body></html>';

  it.each<[string, () => Promise<Handler>, string[], (string | RegExp)[]]>([
    ["a 404", () => Promise.resolve((_, res) => res.writeHead(404, "Not Found").end("no")), [], [`${indicatorFile}: publication.url: cannot download {url}: HTTP 404 Not Found`]],
    [
      "an HTML error page served as 200",
      () => Promise.resolve(serve(new TextEncoder().encode(page), "text/html; charset=utf-8")),
      [],
      [
        `${indicatorFile}: publication.url: cannot download {url}: got an HTML page (its title: "Página no encontrada | Uruguay Presidencia"), ` +
          `not the publication file: the file may have moved (look for it on ${PAGE})`,
      ],
    ],
    [
      "a truncated workbook",
      () => Promise.resolve(serve(truncated)),
      [],
      [`${indicatorFile}: publication.url: the file downloaded from {url} does not import (the faults below)`, /^\{url\}: not an xlsx workbook: .+/],
    ],
    [
      "a workbook that would remove a point (July 2026 withdrawn)",
      async () =>
        serve(
          await workbook((sheet) => {
            sheet.getCell(1079, 1).value = null;
            sheet.getCell(1079, 2).value = null;
          }),
        ),
      [],
      [
        `data/${INDICATOR}/cpi.csv: would remove general 2026-07-01 (was 118.20343852): the file at {url} no longer has it`,
        // The UI computed from July's change (6 August to 5 September) goes with it: all listed.
        ...Array.from({ length: 31 }, () => /^data\/unidad-indexada\/ui\.csv: would remove ui 2026-0[89]-\d\d \(was \d\.\d{4}\): the file at \{url\} no longer has it$/),
      ],
    ],
    ["a server that does not answer", () => Promise.resolve(() => undefined), ["--timeout", "0.5"], [`${indicatorFile}: publication.url: cannot download {url}: no complete answer within 0.5 s`]],
  ])("%s: exit 1, every fault named with the address, the data folder and the repository untouched", async (_, handler, args, faults) => {
    const repo = await repository();
    const before = treeDigest(dataOf(repo));
    answer = await handler();

    const result = await update(repo, "--publish", ...args);
    expect(result.code).toBe(1);
    const lines = result.stderr.trimEnd().split("\n");
    expect(lines[0]).toBe(`${faults.length} data error${faults.length === 1 ? "" : "s"}:`);
    lines.slice(1, -1).forEach((line, i) => {
      const fault = faults[i] as string | RegExp;
      if (typeof fault === "string") expect(line).toBe(fault.replaceAll("{url}", url));
      else expect(line.replace(url, "{url}")).toMatch(fault);
    });
    expect(lines).toHaveLength(faults.length + 2);
    expect(lines.at(-1)).toBe("nothing was written: the data folder is as it was");

    expect(treeDigest(dataOf(repo))).toEqual(before);
    expect((await git(repo.work, "status", "--porcelain")).trim()).toBe("");
    expect(await originLog(repo, "main")).toEqual(["published"]);
    expect((await git(repo.origin, "for-each-ref", "--format=%(refname:short)", "refs/heads")).trim()).toBe("main");
    expect(repo.gh).toEqual([]);
  });

  it("as scripts/update.ts in a child process too (a 404)", async () => {
    const repo = await repository();
    const before = treeDigest(dataOf(repo));
    answer = (_, res) => res.writeHead(404, "Not Found").end();
    const result = await runProcess(process.execPath, ["--import", "tsx", "scripts/update.ts", "--data", dataOf(repo)]);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      `1 data error:\n${join(dataOf(repo), INDICATOR, "indicator.json")}: publication.url: cannot download ${url}: HTTP 404 Not Found\n` +
        "nothing was written: the data folder is as it was\n",
    );
    expect(treeDigest(dataOf(repo))).toEqual(before);
  });
});

describe("--publish runs only on the tip of main", () => {
  it("refuses a checkout behind origin/main (exit 2), before downloading", async () => {
    const repo = await repository();
    await git(repo.work, "commit", "--quiet", "--allow-empty", "-m", "ahead");
    await git(repo.work, "push", "--quiet", "origin", "main");
    await git(repo.work, "reset", "--quiet", "--hard", "HEAD~1");
    let asked = 0;
    answer = (_, res) => {
      asked++;
      res.writeHead(404).end();
    };
    const result = await update(repo, "--publish");
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^error: --publish runs on the tip of main: HEAD is [0-9a-f]{40}, origin\/main is [0-9a-f]{40}\n$/);
    expect(asked).toBe(0);
  });
});
