/**
 * A tiny synthetic data history in a temporary git repository, for the history
 * table's tests (`as_of`, `/changes`): two indicators, a few points, one commit
 * per step on its own day (UTC noon), and each kind of change the table must
 * follow: points added, a value revised, a point removed, a file renamed, an
 * indicator added later (the index that deflates the other's unit), two commits
 * on one day (only the later one is that day's), a value revised back (its text
 * as before) and the index revised (`real` as of before uses the old value).
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, renameSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { tempDir } from "./helpers.js";

/** A commit of the synthetic history: its object name and its UTC day. */
export interface SyntheticCommit {
  readonly commit: string;
  readonly day: string;
  /** What the step did, for test names. */
  readonly step: string;
}

const wagesMeta = {
  id: "wages",
  title: { es: "Salarios <prueba>", en: "Wages <test>" },
  description: { es: "Una historia sintética.", en: "A synthetic history." },
  unit: "UYU",
  rhythm: "semiannual",
  stepwise: true,
  license: "CC-BY-4.0",
  source: { name: { es: "Prueba", en: "Test" }, url: "https://example.test/source" },
  sourceKinds: [{ prefix: "https://example.test/", kind: "official" }],
  series: [
    { id: "hourly", title: { es: "Por hora", en: "Hourly" } },
    { id: "monthly", title: { es: "Mensual", en: "Monthly" } },
  ],
};

const pricesMeta = {
  id: "prices",
  title: { es: "Precios <prueba>", en: "Prices <test>" },
  description: { es: "Un índice sintético.", en: "A synthetic index." },
  unit: "index",
  rhythm: "monthly",
  deflates: [{ unit: "UYU", series: "general" }],
  license: "CC-BY-4.0",
  source: { name: { es: "Prueba", en: "Test" }, url: "https://example.test/source" },
  sourceKinds: [{ prefix: "https://example.test/", kind: "official" }],
  series: [{ id: "general", title: { es: "General", en: "General" } }],
};

const csv = (rows: readonly string[]) => `date,series,value,source\n${rows.map((r) => `${r},https://example.test/p`).join("\n")}\n`;

/**
 * Makes the repository: `<dir>/data` holds the data folder, committed step by
 * step. Returns the folder and the commits, oldest first.
 */
export async function syntheticHistory(): Promise<{ dir: string; data: string; commits: SyntheticCommit[] }> {
  const dir = await tempDir("open-series-history-");
  const data = join(dir, "data");
  const git = (args: string[], date?: string) =>
    execFileSync("git", ["-C", dir, ...args], {
      encoding: "utf8",
      env: { ...process.env, GIT_AUTHOR_NAME: "t", GIT_AUTHOR_EMAIL: "t@example.test", GIT_COMMITTER_NAME: "t", GIT_COMMITTER_EMAIL: "t@example.test", ...(date === undefined ? {} : { GIT_AUTHOR_DATE: date, GIT_COMMITTER_DATE: date }) },
    }).trim();
  const write = (path: string, text: string) => {
    mkdirSync(dirname(join(data, path)), { recursive: true });
    writeFileSync(join(data, path), text);
  };
  git(["init", "-q", "-b", "main"]);
  const commits: SyntheticCommit[] = [];
  const commit = (day: string, step: string, time = "12:00:00") => {
    git(["add", "-A"]);
    git(["commit", "-q", "-m", step], `${day}T${time}Z`);
    commits.push({ commit: git(["rev-parse", "HEAD"]), day, step });
  };
  write("wages/indicator.json", JSON.stringify(wagesMeta, null, 2));
  write("wages/a.csv", csv(["2025-01-01,monthly,100", "2025-07-01,monthly,110", "2025-07-01,hourly,1.5"]));
  commit("2026-01-10", "first version");
  write("wages/a.csv", csv(["2025-01-01,monthly,100", "2025-07-01,monthly,110", "2025-07-01,hourly,1.5", "2026-01-01,monthly,120", "2026-01-01,hourly,1.60"]));
  commit("2026-02-10", "points added");
  write("wages/a.csv", csv(["2025-01-01,monthly,100", "2025-07-01,monthly,111.5", "2025-07-01,hourly,1.5", "2026-01-01,monthly,120", "2026-01-01,hourly,1.60"]));
  commit("2026-03-10", "a value revised");
  write("wages/a.csv", csv(["2025-01-01,monthly,100", "2025-07-01,monthly,111.5", "2026-01-01,monthly,120", "2026-01-01,hourly,1.60"]));
  commit("2026-04-10", "a point removed");
  renameSync(join(data, "wages/a.csv"), join(data, "wages/b.csv"));
  commit("2026-05-10", "a file renamed");
  write("prices/indicator.json", JSON.stringify(pricesMeta, null, 2));
  write("prices/p.csv", csv(["2025-01-01,general,90", "2025-07-01,general,95", "2026-01-01,general,100", "2026-04-01,general,101.2"]));
  commit("2026-06-10", "an indicator added (the index that deflates UYU)", "09:00:00");
  write("prices/p.csv", csv(["2025-01-01,general,90", "2025-07-01,general,95", "2026-01-01,general,100", "2026-04-01,general,101.25", "2026-05-01,general,102"]));
  commit("2026-06-10", "a value revised and a point added the same day", "18:00:00");
  write("wages/b.csv", csv(["2025-01-01,monthly,100", "2025-07-01,monthly,110", "2026-01-01,monthly,120", "2026-01-01,hourly,1.60", "2026-07-01,monthly,130"]));
  write("prices/p.csv", csv(["2025-01-01,general,90", "2025-07-01,general,95", "2026-01-01,general,100", "2026-04-01,general,101.3", "2026-05-01,general,102"]));
  commit("2026-07-10", "a value revised back, a point added, the index revised");
  return { dir, data, commits };
}

/**
 * The data folder of a clone of the repository checked out at `commit`: the data
 * as they were then with their history up to then, what a build of that day knew
 * (the day its points last changed is read from that history).
 */
export async function dataAt(dir: string, commit: string): Promise<string> {
  const clone = join(await tempDir("open-series-version-"), "repo");
  execFileSync("git", ["clone", "--quiet", "--no-checkout", dir, clone]);
  execFileSync("git", ["-C", clone, "checkout", "--quiet", commit]);
  return join(clone, "data");
}

/**
 * One more step on the synthetic history (after `syntheticHistory`): on 14
 * October 2026 the wages' newest monthly value, 130, is revised to 131.5, so a
 * card shows a revised value (the indicator pages' mark, test/integration/revised-view.test.ts).
 * Returns the commit.
 */
export function reviseNewestWage(dir: string): SyntheticCommit {
  const day = "2026-10-14";
  writeFileSync(join(dir, "data", "wages/b.csv"), csv(["2025-01-01,monthly,100", "2025-07-01,monthly,110", "2026-01-01,monthly,120", "2026-01-01,hourly,1.60", "2026-07-01,monthly,131.5"]));
  const env = { ...process.env, GIT_AUTHOR_NAME: "t", GIT_AUTHOR_EMAIL: "t@example.test", GIT_COMMITTER_NAME: "t", GIT_COMMITTER_EMAIL: "t@example.test", GIT_AUTHOR_DATE: `${day}T12:00:00Z`, GIT_COMMITTER_DATE: `${day}T12:00:00Z` };
  execFileSync("git", ["-C", dir, "add", "-A"], { env });
  execFileSync("git", ["-C", dir, "commit", "-q", "-m", "the newest wage revised"], { env });
  return { commit: execFileSync("git", ["-C", dir, "rev-parse", "HEAD"], { encoding: "utf8" }).trim(), day, step: "the newest wage revised" };
}
