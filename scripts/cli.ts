/**
 * `npm run build` and `npm run validate`: the command line of src/builder/cli.ts run
 * with this process's arguments, output and environment.
 */
import { resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { runCli } from "../src/builder/cli.js";
import { nodeBuildEffects } from "../src/builder/effects.js";

const root = resolve(fileURLToPath(import.meta.url), "../..");

process.exitCode = await runCli(process.argv.slice(2), {
  out: (line) => console.log(line),
  err: (line) => console.error(line),
  env: process.env,
  root,
  cwd: process.cwd(),
  effects: (log) => nodeBuildEffects(root, log),
});
