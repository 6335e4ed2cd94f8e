/**
 * What `npm run deploy` uploads to R2 (scripts/upload-r2.ts): the objects of
 * `<out>.r2/` (src/builder/build.ts `r2Folder`) that the bucket does not hold yet.
 * A key is the SHA-256 of its bytes, so one uploaded once never needs uploading
 * again: a ledger of the keys uploaded (one a line) is all there is to compare
 * with, and an object the ledger forgot is uploaded again, the same bytes.
 */

/** The bucket of wrangler.toml's `[[r2_buckets]]` bound as `binding`. @throws Error when there is none. */
export function bucketName(wranglerToml: string, binding: string): string {
  for (const block of wranglerToml.split(/^\[\[r2_buckets\]\]\s*$/m).slice(1)) {
    const section = block.split(/^\[/m)[0] ?? "";
    const bound = /^\s*binding\s*=\s*"([^"]+)"/m.exec(section)?.[1];
    const name = /^\s*bucket_name\s*=\s*"([^"]+)"/m.exec(section)?.[1];
    if (bound === binding && name !== undefined) return name;
  }
  throw new Error(`wrangler.toml binds no R2 bucket as ${binding}`);
}

/** The keys of a ledger's text (one a line; blank lines and surrounding spaces ignored). */
export function ledgerKeys(text: string): Set<string> {
  return new Set(text.split("\n").map((line) => line.trim()).filter((line) => line !== ""));
}

/**
 * The `wrangler` arguments that upload each key of `keys` not in `uploaded` from
 * `folder` to `bucket`, in key order (a stable log).
 */
export function uploadCommands(keys: readonly string[], uploaded: ReadonlySet<string>, bucket: string, folder: string): { key: string; args: string[] }[] {
  return [...keys]
    .filter((key) => !uploaded.has(key))
    .sort()
    .map((key) => ({ key, args: ["r2", "object", "put", `${bucket}/${key}`, "--file", `${folder}/${key}`, "--remote"] }));
}
