/**
 * `npm run deploy`'s upload of the files the build moved to R2 (src/builder/host-plan.ts):
 * `tsx scripts/upload-r2.ts [--out dist] [--ledger <file>] [--dry-run]` puts each object of
 * `<out>.r2/` that the ledger (default `.wrangler/r2-uploaded.txt`) does not list into the
 * bucket of wrangler.toml with `wrangler r2 object put <bucket>/<key> --remote`, one after the
 * other, adding each key to the ledger once uploaded. `--dry-run` prints the commands instead.
 * Before `wrangler pages deploy`: the new deployment's function reads objects already there.
 */
import { spawnSync } from "node:child_process";
import { appendFileSync, existsSync, mkdirSync, readFileSync, readdirSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { R2_BINDING } from "../src/core/file/hosted.js";
import { bucketName, ledgerKeys, uploadCommands } from "../src/builder/r2-upload.js";

const ROOT = resolve(import.meta.dirname, "..");
const option = (name: string, fallback: string) => {
  const at = process.argv.indexOf(`--${name}`);
  return at < 0 ? fallback : (process.argv[at + 1] ?? fallback);
};
const folder = `${resolve(option("out", "dist"))}.r2`;
const ledger = resolve(option("ledger", join(ROOT, ".wrangler/r2-uploaded.txt")));
const dryRun = process.argv.includes("--dry-run");

const keys = existsSync(folder) ? readdirSync(folder) : [];
const uploaded = existsSync(ledger) ? ledgerKeys(readFileSync(ledger, "utf8")) : new Set<string>();
const bucket = bucketName(readFileSync(join(ROOT, "wrangler.toml"), "utf8"), R2_BINDING);
const commands = uploadCommands(keys, uploaded, bucket, folder);
console.log(`${folder}: ${keys.length} objects, ${keys.length - commands.length} already uploaded (${ledger}), ${commands.length} to upload to ${bucket}`);
mkdirSync(dirname(ledger), { recursive: true });
for (const { key, args } of commands) {
  if (dryRun) {
    console.log(`npx wrangler ${args.join(" ")}`);
    continue;
  }
  const run = spawnSync(process.execPath, [join(ROOT, "node_modules/wrangler/bin/wrangler.js"), ...args], { stdio: "inherit", cwd: ROOT });
  if (run.status !== 0) {
    console.error(`upload of ${key} failed (exit ${run.status ?? "?"}): the ledger keeps what was uploaded; run again`);
    process.exit(1);
  }
  appendFileSync(ledger, `${key}\n`);
}
