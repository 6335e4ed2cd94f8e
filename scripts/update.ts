/**
 * `npm run update -- [--publish]`: the command line of src/source/update-cli.ts run
 * with this process's arguments, output, working directory, Node's fetch, the
 * clock, and git and gh as child processes.
 */
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { runUpdate } from "../src/source/update-cli.js";

const run = promisify(execFile);

process.exitCode = await runUpdate(process.argv.slice(2), {
  out: (line) => console.log(line),
  err: (line) => console.error(line),
  cwd: process.cwd(),
  fetch: (url, init) => fetch(url, init),
  now: () => new Date(),
  run: async (command, args) => (await run(command, [...args], { cwd: process.cwd(), maxBuffer: 16 * 2 ** 20 })).stdout,
  env: process.env,
});
