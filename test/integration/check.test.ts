/**
 * A check is a check (docs/data.md "Checks"): the golden fixture's indicator in a
 * git repository of its own, built by the CLI as `npm run build` does.
 *
 * - its points committed on 14 November 2023, then only its metadata on
 *   2 March 2024: no check recorded, so status.json, the metadata document and
 *   the card say so, and the data changed on the day of the points, not of the
 *   metadata (the rule of coverage's bound: an `at` question after it says both);
 * - `npm run check` (src/source/check-cli.ts) on 5 March 2024 by a person: the
 *   address, the note, `nothing-new`, written in indicator.json, and every surface
 *   names it; with a point added first, `new-data`;
 * - an unknown indicator, an address that is not one, and a data folder that
 *   does not validate with the check: nothing written.
 */
import { execFile } from "node:child_process";
import { cp, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { beforeAll, describe, expect, it } from "vitest";
import { Api } from "../../src/api/handler.js";
import { runCheck } from "../../src/source/check-cli.js";
import { folderAssets } from "../../scripts/lib/folder-assets.js";
import { ROOT, runCli, tempDir, type CliResult } from "../helpers.js";

const exec = promisify(execFile);
const ID = "tiny-wages";

let repo: string;
let data: string;

const git = async (...args: string[]) => {
  const [day] = args.splice(0, 1) as [string];
  const when = `${day}T12:00:00Z`;
  return (await exec("git", ["-c", "user.name=t", "-c", "user.email=t@example.test", ...args], { cwd: repo, env: { ...process.env, GIT_AUTHOR_DATE: when, GIT_COMMITTER_DATE: when } })).stdout;
};

async function check(argv: readonly string[], day: string): Promise<CliResult> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCheck(argv, { out: (l) => out.push(l), err: (l) => err.push(l), cwd: repo, now: () => new Date(`${day}T15:00:00Z`) });
  return { code, stdout: out.join("\n"), stderr: err.join("\n") };
}

/** What MCP's get_metadata and get_values (a day after the last look) say of the indicator, read by the SDK's client from the handler over `out`. */
async function mcp(out: string): Promise<{ metadata: string; values: string }> {
  const api = new Api();
  const env = { ASSETS: folderAssets(out), RATE_LIMIT_REQUESTS: "1000000" };
  const fetchFn = (input: string | URL | Request, init?: RequestInit) => api.fetch(new Request(input, init), env);
  const client = new Client({ name: "open-series-uy-check", version: "1" });
  await client.connect(new StreamableHTTPClientTransport(new URL("http://api.test/mcp"), { fetch: fetchFn }));
  const text = async (name: string, args: Record<string, unknown>) => ((await client.callTool({ name, arguments: args })) as { content: { text: string }[] }).content[0]?.text ?? "";
  try {
    return { metadata: await text("get_metadata", { indicator: ID }), values: await text("get_values", { indicator: ID, series: ["monthly"], at: "2024-12-01" }) };
  } finally {
    await client.close();
  }
}

/** Builds the repository's data and reads what the surfaces say. */
async function built(): Promise<{ status: Record<string, unknown>; metadata: { freshness: Record<string, unknown> }; page: string; mcp: { metadata: string; values: string } }> {
  const out = join(await tempDir("open-series-check-out-"), "dist");
  const result = await runCli(["build", "--data", data, "--out", out]);
  expect(result.code, result.stderr).toBe(0);
  const status = JSON.parse(await readFile(join(out, "api/v1/status.json"), "utf8")) as { indicators: Record<string, unknown>[] };
  return {
    status: status.indicators[0] as Record<string, unknown>,
    metadata: JSON.parse(await readFile(join(out, `api/v1/${ID}/metadata.json`), "utf8")) as { freshness: Record<string, unknown> },
    page: await readFile(join(out, `series/${ID}/index.html`), "utf8"),
    mcp: await mcp(out),
  };
}

const indicatorJson = async () => JSON.parse(await readFile(join(data, ID, "indicator.json"), "utf8")) as Record<string, unknown>;

beforeAll(async () => {
  repo = await tempDir("open-series-check-");
  data = join(repo, "data");
  await git("2023-11-14", "init", "--quiet", "--initial-branch=main");
  await cp(join(ROOT, "test/fixtures/golden/data"), data, { recursive: true });
  await git("2023-11-14", "add", ".");
  await git("2023-11-14", "commit", "--quiet", "-m", "points");
  // Metadata only: a schedule, the kind of change that is no check and no change of points.
  const json = await indicatorJson();
  await writeFile(join(data, ID, "indicator.json"), `${JSON.stringify({ ...json, schedule: { dates: { months: [1, 7], day: 1 } } }, null, 2)}\n`);
  await git("2024-03-02", "commit", "--quiet", "-am", "a schedule declared");
});

describe("a check is a check", () => {
  it("with none recorded, every surface says so, and the data changed with its points, not its metadata", async () => {
    const { status, metadata, page, mcp } = await built();
    expect(mcp.metadata).toContain("No check of the publisher is recorded; the data last changed on 2023-11-14; its next value is due on 2025-01-01.");
    expect(mcp.values).toContain("The day asked is after the last look at the data (no check of the publisher is recorded; the data last changed on 2023-11-14)");
    expect(status).toMatchObject({ id: ID, checked: null, check: null, data_changed: "2023-11-14", newest: "2024-07-01", next_due: "2025-01-01", overdue: false });
    expect(metadata.freshness).toEqual({ checked: null, check: null, data_changed: "2023-11-14", newest: "2024-07-01", next_due: "2025-01-01", overdue: false, overdue_since: null, overdue_series: 0 });
    expect(page).toContain("(sin comprobación registrada; datos modificados por última vez el 14 de noviembre de 2023).");
    expect(page).not.toContain("comprobados");
    // The sentence the card's "why" leads to: what is next, when, and how current the data are.
    expect(page).toContain(
      '<p id="freshness" class="note">El valor que rija desde el 1 de enero de 2025 se espera hacia el 1 de enero de 2025, según el calendario de la fuente; el último de estos datos rige desde el 1 de julio de 2024 (sin comprobación registrada; datos modificados por última vez el 14 de noviembre de 2023).</p>',
    );
  });

  it("records a person's look with the address and the note, and every surface names it", async () => {
    const before = await readFile(join(data, ID, "indicator.json"), "utf8");
    const result = await check([ID, "--source", "https://example.test/source/2024", "--note", "no adjustment announced yet"], "2024-03-05");
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toBe(`checked ${ID} on 2024-03-05: https://example.test/source/2024 (nothing-new; no adjustment announced yet), written to ${join("data", ID, "indicator.json")}`);
    const after = await readFile(join(data, ID, "indicator.json"), "utf8");
    const check_ = { day: "2024-03-05", by: "person", read: "https://example.test/source/2024", outcome: "nothing-new", note: "no adjustment announced yet" };
    expect(JSON.parse(after)).toEqual({ ...JSON.parse(before), check: check_ });
    // The check alone is added, after the source's declarations.
    expect(Object.keys(JSON.parse(after) as object).indexOf("check")).toBe(Object.keys(JSON.parse(after) as object).indexOf("source") + 1);
    await git("2024-03-05", "commit", "--quiet", "-am", "checked");
    const { status, metadata, page, mcp } = await built();
    expect(mcp.metadata).toContain("Publisher last checked on 2024-03-05 by a person, reading https://example.test/source/2024 (nothing new); its next value is due on 2025-01-01.");
    expect(mcp.values).toContain("The day asked is after the last look at the data (the publisher was last checked on 2024-03-05)");
    expect(status).toMatchObject({ checked: "2024-03-05", check: check_, data_changed: "2023-11-14" });
    expect(metadata.freshness).toMatchObject({ checked: "2024-03-05", check: check_ });
    expect(page).toContain("(fuente consultada el 5 de marzo de 2024 por una persona del proyecto).");
  });

  it("says new-data when the person added points with the look", async () => {
    await writeFile(join(data, ID, "2024.csv"), `${(await readFile(join(data, ID, "2024.csv"), "utf8")).trimEnd()}\n2025-01-01,monthly,30000,https://example.test/2025-01,\n`);
    const result = await check([ID, "--source", "https://example.test/2025-01"], "2025-01-03");
    expect(result.code, result.stderr).toBe(0);
    expect((await indicatorJson()).check).toEqual({ day: "2025-01-03", by: "person", read: "https://example.test/2025-01", outcome: "new-data" });
    await git("2025-01-03", "commit", "--quiet", "-am", "a value and its check");
    const { status } = await built();
    expect(status).toMatchObject({ checked: "2025-01-03", data_changed: "2025-01-03", newest: "2025-01-01" });
  });

  it.each([
    [["no-such-indicator", "--source", "https://example.test/"], 'no indicator "no-such-indicator"'],
    [[ID, "--source", "example.test/page"], "--source: expected the address consulted"],
    [[ID, "--source", "ftp://example.test/page"], "--source: expected an http or https address"],
    [[ID], "required option '--source <url>' not specified"],
  ])("refuses %j and writes nothing", async (argv, message) => {
    const before = await readFile(join(data, ID, "indicator.json"), "utf8");
    const result = await check(argv, "2025-02-01");
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(message);
    expect(await readFile(join(data, ID, "indicator.json"), "utf8")).toBe(before);
  });

  it("refuses a data folder that does not validate with the check in place, and writes nothing", async () => {
    const csv = join(data, ID, "2024.csv");
    const good = await readFile(csv, "utf8");
    await writeFile(csv, `${good.trimEnd()}\n2025-07-01,monthly,not-a-number,https://example.test/x,\n`);
    const before = await readFile(join(data, ID, "indicator.json"), "utf8");
    const result = await check([ID, "--source", "https://example.test/"], "2025-07-02");
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("2024.csv:");
    expect(result.stderr).toContain("nothing was written");
    expect(await readFile(join(data, ID, "indicator.json"), "utf8")).toBe(before);
    await writeFile(csv, good);
  });
});
