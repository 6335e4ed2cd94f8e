/**
 * `npm run watch -- [--dry-run]`: the command line of src/source/watch-cli.ts run
 * with this process's arguments, output, working directory, the clock, and gh as a
 * child process (its repository: GH_REPO, else the checkout's remote, as gh does).
 */
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { runWatch } from "../src/source/watch-cli.js";

const run = promisify(execFile);

process.exitCode = await runWatch(process.argv.slice(2), {
  out: (line) => console.log(line),
  err: (line) => console.error(line),
  cwd: process.cwd(),
  now: () => new Date(),
  run: async (command, args) => (await run(command, [...args], { cwd: process.cwd(), maxBuffer: 16 * 2 ** 20 })).stdout,
});
