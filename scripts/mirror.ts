/**
 * `npm run mirror -- <base-url> <dir>` and `npm run mirror -- --check <dir>`: the
 * command line of src/mirror/cli.ts with this process's arguments, output and fetch.
 */
import { runMirror } from "../src/mirror/cli.js";

process.exitCode = await runMirror(process.argv.slice(2), {
  out: (line) => console.log(line),
  err: (line) => console.error(line),
  fetch,
});
