/**
 * `npm run import -- <indicator> <file> --source <url> [--date YYYY-MM]`: the
 * command line of src/source/import-cli.ts run with this process's arguments,
 * output and working directory.
 */
import { runImport } from "../src/source/import-cli.js";

process.exitCode = await runImport(process.argv.slice(2), {
  out: (line) => console.log(line),
  err: (line) => console.error(line),
  cwd: process.cwd(),
});
