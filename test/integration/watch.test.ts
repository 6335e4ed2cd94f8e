/**
 * The watcher end to end (`npm run watch`, src/source/watch-cli.ts) over a copy of
 * data/ on fixed days, with gh standing in as a small issue tracker that records
 * its calls. The hand-kept indicators (no importer) of data set version 5: the
 * BPC (newest 1 January 2026, yearly), the national minimum wage (1 July 2026,
 * 1 January and 1 July) and the domestic wages (1 July 2026 for the general
 * category and the two created in December 2025; Montevideo and the interior left
 * out since 2008). Each next value is dated and due 1 January 2027:
 *
 * - 2026-11-28: nothing is due, no issue;
 * - 2027-01-02: one issue each, three; the same day again: nothing changes;
 * - 2027-01-03: the three updated, none opened;
 * - the domestic wages of 1 January 2027 added, a nothing-new check of the BPC on
 *   4 January and one of the minimum wage on 20 December (before its due day):
 *   on 2027-01-05 the first two close, the third is updated;
 * - --dry-run lists and changes nothing; gh failing stops with exit 1.
 */
import { cp, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { runWatch } from "../../src/source/watch-cli.js";
import { markerOf, WATCH_LABEL } from "../../src/source/watch.js";
import { ROOT, tempDir, type CliResult } from "../helpers.js";

const BPC = "bpc";
const MINIMUM = "national-minimum-wage";
const DOMESTIC = "domestic-worker-wages";
/** Nine tenths of the points, an indicator with an importer: not needed here. */
const LARGEST = join(ROOT, "data", "health-insurance-prices");

interface Issue {
  number: number;
  title: string;
  body: string;
  labels: string[];
  state: "open" | "closed";
  comments: string[];
}

/** gh as a small tracker: the issues it holds and every call. */
class FakeGitHub {
  readonly issues: Issue[] = [];
  readonly calls: (readonly string[])[] = [];
  failOn: string | null = null;

  run = (command: "git" | "gh", args: readonly string[]): Promise<string> => {
    if (command !== "gh") throw new Error(`unexpected ${command}`);
    this.calls.push(args);
    const verb = args.slice(0, 2).join(" ");
    if (verb === this.failOn) return Promise.reject(new Error(`Command failed: gh ${verb}\nHTTP 502: Bad Gateway`));
    const flag = (name: string) => args[args.indexOf(name) + 1] as string;
    const issue = () => this.issues.find((i) => i.number === Number(args[2])) as Issue;
    switch (verb) {
      case "issue list": {
        const found = this.issues.filter((i) => i.state === "open" && i.labels.includes(flag("--label")));
        return Promise.resolve(JSON.stringify(found.map(({ number, title, body }) => ({ number, title, body }))));
      }
      case "label create":
        return Promise.resolve("");
      case "issue create": {
        const number = this.issues.length + 1;
        this.issues.push({ number, title: flag("--title"), body: flag("--body"), labels: [flag("--label")], state: "open", comments: [] });
        return Promise.resolve(`https://github.com/example/open-series-uy/issues/${number}\n`);
      }
      case "issue edit":
        Object.assign(issue(), { title: flag("--title"), body: flag("--body") });
        return Promise.resolve("");
      case "issue close":
        issue().state = "closed";
        issue().comments.push(flag("--comment"));
        return Promise.resolve("");
      default:
        throw new Error(`unexpected gh ${args.join(" ")}`);
    }
  };

  /** The calls since `from`, each as its first two words and its issue number when it has one. */
  verbs(from = 0): string[] {
    return this.calls.slice(from).map((a) => [a[0], a[1], ...(/^\d+$/.test(a[2] ?? "") ? [`#${a[2]}`] : [])].join(" "));
  }

  byMarker(indicator: string): Issue[] {
    return this.issues.filter((i) => i.body.includes(markerOf(indicator)));
  }
}

let work: string;
const gh = new FakeGitHub();

beforeAll(async () => {
  work = await tempDir("open-series-watch-");
  await cp(join(ROOT, "data"), join(work, "data"), { recursive: true, filter: (path) => !path.startsWith(LARGEST) });
});

/** `npm run watch -- <args>` in process in the copy, on `day` at 10:30 UTC (the workflow's hour). */
async function watch(day: string, ...args: string[]): Promise<CliResult> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runWatch(["--data", "data", ...args], { out: (l) => out.push(l), err: (l) => err.push(l), cwd: work, now: () => new Date(`${day}T10:30:00Z`), run: gh.run });
  const text = (lines: string[]) => lines.map((line) => `${line}\n`).join("");
  return { code, stdout: text(out), stderr: text(err) };
}

async function editJson(indicator: string, edit: (json: Record<string, unknown>) => void): Promise<void> {
  const file = join(work, "data", indicator, "indicator.json");
  const json = JSON.parse(await readFile(file, "utf8")) as Record<string, unknown>;
  edit(json);
  await writeFile(file, `${JSON.stringify(json, null, 2)}\n`);
}

/** The body the watcher writes for the domestic wages on 2027-01-02 (docs/data.md, "Watched indicators"). */
const DOMESTIC_BODY = `<!-- watch: domestic-worker-wages -->
**Minimum wage of domestic service (wage group 21)** (\`domestic-worker-wages\`) is kept by hand, and its schedule (\`schedule\` in \`data/domestic-worker-wages/indicator.json\`) says 6 values are due that the data does not have. As of 2027-01-02:

| sub-series | newest in the data | value due, dated | due since |
|---|---|---|---|
| \`monthly\`: Minimum monthly wage, general category, whole country | 2026-07-01 | 2027-01-01 | 2027-01-01 (1 day ago) |
| \`hourly\`: Minimum hourly wage, general category, whole country | 2026-07-01 | 2027-01-01 | 2027-01-01 (1 day ago) |
| \`monthly-cocina\`: Minimum monthly wage, cooking category (from July 2026) | 2026-07-01 | 2027-01-01 | 2027-01-01 (1 day ago) |
| \`hourly-cocina\`: Minimum hourly wage, cooking category (from July 2026) | 2026-07-01 | 2027-01-01 | 2027-01-01 (1 day ago) |
| \`monthly-cuidados\`: Minimum monthly wage, care category (from July 2026) | 2026-07-01 | 2027-01-01 | 2027-01-01 (1 day ago) |
| \`hourly-cuidados\`: Minimum hourly wage, care category (from July 2026) | 2026-07-01 | 2027-01-01 | 2027-01-01 (1 day ago) |

### Where to look

- BPS: aumento salarial del servicio doméstico (una página por ajuste, como «Aumento salarial – Julio 2026») / BPS: domestic service wage increase (one page per adjustment, like "Aumento salarial – Julio 2026"): https://www.bps.gub.uy/24375/aumento-salarial---julio-2026.html
- MTSS: Consejos de Salarios, grupo 21 (servicio doméstico) / MTSS: wage councils, group 21 (domestic service): https://www.gub.uy/ministerio-trabajo-seguridad-social/
- IMPO: decretos del Poder Ejecutivo / IMPO: executive decrees: https://www.impo.com.uy/bases/decretos/

### Published: add the values

1. Add these rows to \`data/domestic-worker-wages/minimum-wages.csv\` (columns \`date,series,value,source,note\`), with the value and the address of the publication it is read from:

   \`\`\`csv
   2027-01-01,monthly,<value>,<address of the publication>,
   2027-01-01,hourly,<value>,<address of the publication>,
   2027-01-01,monthly-cocina,<value>,<address of the publication>,
   2027-01-01,hourly-cocina,<value>,<address of the publication>,
   2027-01-01,monthly-cuidados,<value>,<address of the publication>,
   2027-01-01,hourly-cuidados,<value>,<address of the publication>,
   \`\`\`

2. \`npm run validate\`: it lists every fault as \`file:line: column: reason\`, then the change report; fix until it prints \`ok\`.
3. Commit on a branch and open a pull request to \`main\`. Once it is merged, the watcher's next run closes this issue.

### Not published yet: record the check

\`\`\`sh
npm run check -- domestic-worker-wages --source <the address you read> --note "…"
\`\`\`

then commit \`data/domestic-worker-wages/indicator.json\` in a pull request to \`main\`. Once merged, a check on or after the day a value was due that found nothing new settles it: the watcher stops asking for it and closes this issue when nothing else is due (the pages show the value as overdue until it is added).
`;

// The days follow each other: one copy of the data, one tracker.
describe.sequential("the watcher over days", () => {
  it("2026-11-28: none of the three hand-kept indicators is due (each next value is due 2027-01-01): no issue", async () => {
    const result = await watch("2026-11-28");
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toBe(
      [BPC, DOMESTIC, MINIMUM].map((id) => `${id}: nothing to do: next value due 2027-01-01\n`).join(""),
    );
    expect(gh.calls).toEqual([["issue", "list", "--label", WATCH_LABEL, "--state", "open", "--limit", "500", "--json", "number,title,body"]]);
  });

  it("2027-01-02: one issue for each, labelled, its body naming what is due; the indicators with an importer are not watched", async () => {
    const from = gh.calls.length;
    const result = await watch("2027-01-02");
    expect(result.code, result.stderr).toBe(0);
    expect(gh.verbs(from)).toEqual(["issue list", "label create", "issue create", "issue create", "issue create"]);
    expect(result.stdout).toBe(
      `${BPC}: opened https://github.com/example/open-series-uy/issues/1: Value due since 2027-01-01: ${BPC}, Base for benefits and contributions (BPC)\n` +
        `${DOMESTIC}: opened https://github.com/example/open-series-uy/issues/2: Value due since 2027-01-01: ${DOMESTIC}, Minimum wage of domestic service (wage group 21)\n` +
        `${MINIMUM}: opened https://github.com/example/open-series-uy/issues/3: Value due since 2027-01-01: ${MINIMUM}, National minimum wage\n`,
    );
    expect(gh.issues.every((i) => i.labels.join() === WATCH_LABEL)).toBe(true);
    const [bpc, domestic, minimum] = gh.issues;
    expect(domestic?.body).toBe(DOMESTIC_BODY);
    // The manual shows the same body (docs/data.md, "Watched indicators").
    const manual = await readFile(join(ROOT, "docs", "data.md"), "utf8");
    expect(/\n### Watched indicators\n[^]*?\n````markdown\n([^]*?)````\n/.exec(manual)?.[1]).toBe(DOMESTIC_BODY);
    expect(bpc?.body).toContain("| `bpc`: BPC value | 2026-01-01 | 2027-01-01 | 2027-01-01 (1 day ago) |\n");
    expect(bpc?.body).toContain("1. Add this row to `data/bpc/bpc.csv` (columns `date,series,value,source,note`)");
    expect(minimum?.body).toContain("| `monthly`: National monthly minimum wage | 2026-07-01 | 2027-01-01 | 2027-01-01 (1 day ago) |\n");
    expect(minimum?.body).toContain(`npm run check -- ${MINIMUM} --source <the address you read> --note "…"`);
  });

  it("2027-01-02 again: the issues say it already, nothing changes", async () => {
    const from = gh.calls.length;
    const result = await watch("2027-01-02");
    expect(result.code, result.stderr).toBe(0);
    expect(gh.verbs(from)).toEqual(["issue list"]);
    expect(result.stdout).toContain(`${DOMESTIC}: nothing to do: issue #2 is up to date\n`);
  });

  it("2027-01-03: the three issues updated, no second one", async () => {
    const from = gh.calls.length;
    const result = await watch("2027-01-03");
    expect(result.code, result.stderr).toBe(0);
    expect(gh.verbs(from)).toEqual(["issue list", "issue edit #1", "issue edit #2", "issue edit #3"]);
    expect(gh.issues).toHaveLength(3);
    for (const id of [BPC, DOMESTIC, MINIMUM]) expect(gh.byMarker(id)).toHaveLength(1);
    expect(gh.issues[1]?.body).toContain("| 2027-01-01 (2 days ago) |");
  });

  it("2027-01-05: the domestic wages arrived and the BPC's check found nothing new: closed; the minimum wage's check predates its due day: updated", async () => {
    const csv = join(work, "data", DOMESTIC, "minimum-wages.csv");
    const source = "https://www.bps.gub.uy/24400/aumento-salarial---enero-2027.html";
    const added = ["monthly", "hourly", "monthly-cocina", "hourly-cocina", "monthly-cuidados", "hourly-cuidados"].map((s, i) => `2027-01-01,${s},${30000 + i},${source},\n`);
    await writeFile(csv, (await readFile(csv, "utf8")) + added.join(""));
    await editJson(DOMESTIC, (json) => (json.sourceKinds as { prefix: string; kind: string }[]).push({ prefix: source, kind: "official" }));
    const check = (day: string, note: string) => ({ day, by: "person", read: "https://www.impo.com.uy/bases/decretos/", outcome: "nothing-new", note });
    await editJson(BPC, (json) => (json.check = check("2027-01-04", "no decree for 2027 yet")));
    await editJson(MINIMUM, (json) => (json.check = check("2026-12-20", "nothing announced")));

    const from = gh.calls.length;
    const result = await watch("2027-01-05");
    expect(result.code, result.stderr).toBe(0);
    expect(gh.verbs(from)).toEqual(["issue list", "issue close #1", "issue close #2", "issue edit #3"]);
    expect(gh.issues.map((i) => i.state)).toEqual(["closed", "closed", "open"]);
    expect(gh.issues[0]?.comments).toEqual([
      'The check recorded on 2027-01-04 (by a person, reading https://www.impo.com.uy/bases/decretos/) ("no decree for 2027 yet") found nothing new, on or after the day `bpc` 2027-01-01 was due (2027-01-01): the watcher asks for it no more.\n\n' +
        "No other value is due and missing (newest points: 2026-01-01, `bpc`). Closing.",
    ]);
    expect(gh.issues[1]?.comments).toEqual([
      "Every value due is in the data now (newest points: 2027-01-01, `monthly`, `hourly`, `monthly-cocina`, `hourly-cocina`, `monthly-cuidados`, `hourly-cuidados`). Closing.",
    ]);
    expect(gh.issues[2]?.body).toContain("| 2027-01-01 (4 days ago) |");
  });

  it("--dry-run lists the issues and prints what it would do, changing nothing", async () => {
    const from = gh.calls.length;
    const result = await watch("2027-01-06", "--dry-run");
    expect(result.code, result.stderr).toBe(0);
    expect(gh.verbs(from)).toEqual(["issue list"]);
    expect(result.stdout).toContain(`${MINIMUM}: would update #3: Value due since 2027-01-01: ${MINIMUM}, National minimum wage\n\n${markerOf(MINIMUM)}\n`);
    expect(result.stdout).toContain(`${BPC}: nothing to do: due since 2027-01-01, settled by the check of 2027-01-04 that found nothing new\n`);
    expect(gh.issues[2]?.body).toContain("(4 days ago)");
  });

  it("gh failing stops the run: exit 1, its message, and what was done before it said", async () => {
    gh.failOn = "issue edit";
    const result = await watch("2027-01-07");
    gh.failOn = null;
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      "error: Command failed: gh issue edit\nHTTP 502: Bad Gateway\nthe watcher stopped: what the lines above say was done is done, nothing after it\n",
    );
  });
});
