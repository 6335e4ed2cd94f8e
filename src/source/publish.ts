/**
 * What the scheduled workflow does with an update's result (src/source/update.ts),
 * through git and the GitHub CLI, passed in as one `run` effect:
 *
 * - data changed: a commit on the branch `data-update` (the job's own branch,
 *   replaced on every run: it always holds the latest publication on top of
 *   main), pushed, and a pull request whose body is the change report — opened,
 *   or its title and body replaced when one is already open. A person merges it;
 *   CI refuses revisions without the `data-revision` label, as for any pull request.
 * - a check only (`checked` moved, no point touched): a commit pushed straight to
 *   main, then the deploy workflow dispatched when the push cannot start it (a push
 *   made with the workflow's own token starts no workflow: GitHub's rule against
 *   recursive runs; one made with a user's or an app's token does). The push is
 *   a fast-forward, never forced: if main moved during the run, it is refused and
 *   the job fails, touching nothing; the next day's run checks again. The deploy
 *   workflow runs the whole test suite before it deploys.
 *
 * `preflight` runs before the update writes anything: the checkout must be the
 * tip of main with a clean data folder, so the commit holds the update alone.
 */
import { UsageError } from "./errors.js";
import type { UpdateResult } from "./update.js";

/** Runs `git` or `gh` with arguments in the checkout and resolves with its standard output; rejects when it fails. */
export type Run = (command: "git" | "gh", args: readonly string[]) => Promise<string>;

export interface PublishOptions {
  /** The branch deployed (`main`): check-only commits are pushed to it, pull requests target it. */
  readonly main: string;
  /** The job's branch for pull requests (`data-update`). */
  readonly branch: string;
  /**
   * The deploy workflow's file name (`deploy.yml`), dispatched after a check-only
   * push when that push starts no workflow itself (made with the workflow's own
   * token); `null` when the push starts it (made with a token of a user or an app).
   */
  readonly deployWorkflow: string | null;
  /** Where the pull request's body is written for `gh pr create --body-file`. */
  readonly bodyFile: string;
}

export interface PublishEffects {
  readonly run: Run;
  writeText(file: string, text: string): Promise<void>;
  readonly log: { info(line: string): void };
}

/**
 * The checkout is the tip of `main` on the remote, and nothing under `data` is
 * uncommitted: a check-only push is then a fast-forward of exactly the update.
 * @throws UsageError otherwise.
 */
export async function preflight(data: string, options: Pick<PublishOptions, "main">, run: Run): Promise<void> {
  await run("git", ["fetch", "--quiet", "origin", options.main]);
  const [head, tip] = [(await run("git", ["rev-parse", "HEAD"])).trim(), (await run("git", ["rev-parse", "FETCH_HEAD"])).trim()];
  if (head !== tip) throw new UsageError(`--publish runs on the tip of ${options.main}: HEAD is ${head}, origin/${options.main} is ${tip}`);
  const dirty = (await run("git", ["status", "--porcelain", "--", data])).trim();
  if (dirty !== "") throw new UsageError(`--publish needs a clean data folder, and ${data} has uncommitted changes:\n${dirty}`);
}

/** Commits and pushes the update's files, then opens or updates the pull request, or dispatches the deploy. */
export async function publish(result: UpdateResult, options: PublishOptions, effects: PublishEffects): Promise<void> {
  const { run, log } = effects;
  if (result.written.length === 0) {
    log.info(`nothing to publish: already checked ${result.today}`);
    return;
  }
  const commit = async () => {
    await run("git", ["add", "--", ...result.written]);
    await run("git", ["commit", "--quiet", "-m", result.commit.subject, "-m", result.commit.body]);
  };
  if (result.pullRequest === null) {
    await commit();
    await run("git", ["push", "--quiet", "origin", `HEAD:refs/heads/${options.main}`]);
    log.info(`pushed to ${options.main}: ${result.commit.subject}`);
    if (options.deployWorkflow === null) return;
    await run("gh", ["workflow", "run", options.deployWorkflow, "--ref", options.main]);
    log.info(`dispatched ${options.deployWorkflow} on ${options.main}`);
    return;
  }
  await run("git", ["switch", "--quiet", "-C", options.branch]);
  await commit();
  // The branch is the job's: each run replaces it with the latest publication on top of main.
  await run("git", ["push", "--quiet", "--force", "origin", `HEAD:refs/heads/${options.branch}`]);
  await effects.writeText(options.bodyFile, result.pullRequest.body);
  const open = (await run("gh", ["pr", "list", "--head", options.branch, "--base", options.main, "--state", "open", "--json", "number", "--jq", ".[].number"]))
    .trim()
    .split("\n")[0];
  const { title } = result.pullRequest;
  if (open === undefined || open === "") {
    await run("gh", ["pr", "create", "--base", options.main, "--head", options.branch, "--title", title, "--body-file", options.bodyFile]);
    log.info(`opened a pull request from ${options.branch}: ${title}`);
  } else {
    await run("gh", ["pr", "edit", open, "--title", title, "--body-file", options.bodyFile]);
    log.info(`updated pull request #${open} from ${options.branch}: ${title}`);
  }
}
