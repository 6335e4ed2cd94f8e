/**
 * `npm run smoke -- <base-url>`: checks a deployed service over HTTP (src/builder/smoke.ts)
 * and prints one line per check and a summary. Exit codes: 0 every check passed, 1 some
 * check failed, 2 usage error (no URL, or not an http(s) URL).
 */
import { formatResult, smoke, type FetchLike } from "../src/builder/smoke.js";
import { isHttpUrl } from "../src/core/text/url.js";

const USAGE = "usage: npm run smoke -- <base-url>   (e.g. https://open-series-uy.pages.dev)";

/** The base URL argument, or a usage error message. */
function parseArgs(args: readonly string[]): { url: string } | { error: string } {
  if (args.length !== 1 || args[0] === undefined) return { error: `expected one base URL, got ${args.length} arguments` };
  const url = args[0];
  if (!isHttpUrl(url)) return { error: `expected an http(s) URL, got "${url}"` };
  // Paths are appended to the base, so a query or fragment would end up in front of them.
  const { search, hash } = new URL(url);
  if (search !== "" || hash !== "") return { error: `expected a base URL without query or fragment, got "${url}"` };
  return { url };
}

async function main(args: readonly string[]): Promise<number> {
  if (args[0] === "-h" || args[0] === "--help") {
    console.log(USAGE);
    return 0;
  }
  const parsed = parseArgs(args);
  if ("error" in parsed) {
    console.error(`error: ${parsed.error}\n${USAGE}`);
    return 2;
  }
  let requests = 0;
  // Counted here so the summary shows how much traffic a run puts on production.
  const counting: FetchLike = (input, init) => {
    requests += 1;
    return fetch(input, init);
  };
  const started = performance.now();
  const results = await smoke(parsed.url, counting);
  for (const result of results) console.log(formatResult(result));
  const failed = results.filter((r) => !r.ok).length;
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  console.log(`${failed === 0 ? "passed" : "FAILED"}: ${results.length - failed} of ${results.length} checks ok against ${parsed.url} (${requests} requests, ${seconds} s)`);
  return failed === 0 ? 0 : 1;
}

main(process.argv.slice(2)).then(
  (code) => (process.exitCode = code),
  (error: unknown) => {
    // smoke() turns every failure into a result; reaching here is a bug in this tool.
    console.error(`error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    process.exitCode = 1;
  },
);
