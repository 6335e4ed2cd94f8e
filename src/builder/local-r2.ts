/**
 * Puts the files the build moved to R2 into wrangler's local R2 state, the one
 * `wrangler r2 object put <bucket>/<key> --local --persist-to <state>` writes and
 * `wrangler pages dev --persist-to <state>` reads (default `.wrangler/state` of the
 * project): so that `npm run build` then `wrangler pages dev` serves every answer,
 * through the function's real R2 binding. Through wrangler's `getPlatformProxy`
 * (one local runtime for all the objects, not a process per file), with the
 * bucket of wrangler.toml; only keys not already there are put (a key is the
 * SHA-256 of its bytes: one there holds them already).
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { R2_BINDING } from "../core/file/hosted.js";

/** What this needs of an R2 binding. */
interface LocalBucket {
  list(options: { cursor?: string; limit: number }): Promise<{ objects: { key: string }[]; truncated: boolean; cursor?: string }>;
  put(key: string, value: Uint8Array): Promise<unknown>;
}

/** Puts at once at most this many objects: the local runtime answers each over a socket. */
const PUTS_IN_FLIGHT = 64;

/** The keys already in `bucket`, listed a thousand at a time. */
async function listedKeys(bucket: LocalBucket): Promise<Set<string>> {
  const keys = new Set<string>();
  let cursor: string | undefined;
  for (;;) {
    const page = await bucket.list(cursor === undefined ? { limit: 1000 } : { limit: 1000, cursor });
    for (const object of page.objects) keys.add(object.key);
    if (!page.truncated) return keys;
    cursor = page.cursor;
  }
}

/**
 * Puts the objects `keys` of `folder` (each file named by its key) into the local
 * R2 state `state` of the project at `root` (its wrangler.toml names the bucket).
 * @returns how many were put (the others were there).
 */
export async function putLocalR2(root: string, folder: string, keys: readonly string[], state: string): Promise<number> {
  const { getPlatformProxy } = await import("wrangler");
  // A plain Uint8Array: the proxy does not carry a Buffer over. wrangler keeps its local state under `<persist-to>/v3` (getPlatformProxy takes that folder itself).
  const proxy = await getPlatformProxy<Record<string, unknown>>({ configPath: join(root, "wrangler.toml"), persist: { path: join(state, "v3") }, remoteBindings: false });
  try {
    const bucket = proxy.env[R2_BINDING] as LocalBucket | undefined;
    if (bucket === undefined) throw new Error(`wrangler.toml binds no R2 bucket as ${R2_BINDING}`);
    const there = await listedKeys(bucket);
    const missing = keys.filter((key) => !there.has(key));
    for (let i = 0; i < missing.length; i += PUTS_IN_FLIGHT) {
      await Promise.all(missing.slice(i, i + PUTS_IN_FLIGHT).map(async (key) => bucket.put(key, new Uint8Array(await readFile(join(folder, key))))));
    }
    return missing.length;
  } finally {
    await proxy.dispose();
  }
}
