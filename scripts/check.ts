/**
 * `npm run check -- <indicator> --source <url> [--note "…"]`: the command line of
 * src/source/check-cli.ts with this process's arguments, output, working directory and clock.
 */
import { runCheck } from "../src/source/check-cli.js";

process.exitCode = await runCheck(process.argv.slice(2), {
  out: (line) => console.log(line),
  err: (line) => console.error(line),
  cwd: process.cwd(),
  now: () => new Date(),
});
