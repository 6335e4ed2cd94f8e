/**
 * Keeping a copy of the site up to date over HTTP, and checking one
 * (docs/operations.md "Offline mirrors"). The site lists its files with their
 * SHA-256 in `/manifest.json` (src/core/file/file-manifest.ts); a sync fetches it,
 * hashes the files the folder holds, downloads only those missing or changed,
 * verifying each download's hash, and then, once every download is verified,
 * moves them into place, deletes the files no longer listed and writes the new
 * manifest last. A fault before that (host unreachable, a bad manifest, a
 * download whose hash is wrong) leaves the folder as it was; a folder the last
 * step left half done is put right by the next sync, which trusts hashes, not the
 * old manifest. The source is any static server of the output: Cloudflare Pages,
 * `wrangler pages dev`, nginx, another mirror.
 */
import { createHash } from "node:crypto";
import { createReadStream } from "node:fs";
import { mkdir, readFile, readdir, rename, rm, rmdir, stat, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import fg from "fast-glob";
import { FILE_MANIFEST_PATH, ManifestError, UNLISTED_FILES, listing, parseFileManifest, type FileManifest, type ListedFile } from "../core/file/file-manifest.js";
import { CliError } from "../source/errors.js";

/** A sync or a check that failed (exit 1): what went wrong, and where. */
export class MirrorError extends CliError {
  override name = "MirrorError";
  readonly exitCode = 1;
}

/** How the folder is reached and where the sync reports. */
export interface MirrorEffects {
  readonly fetch: typeof fetch;
  readonly log: (line: string) => void;
}

/** What a sync did. */
export interface SyncReport {
  readonly manifest: FileManifest;
  /** The manifest's own bytes, downloaded every time. */
  readonly manifestBytes: number;
  /** Files downloaded (missing or changed) and their bytes. */
  readonly fetched: number;
  readonly fetchedBytes: number;
  /** Files deleted: no longer listed. */
  readonly removed: number;
}

/** Downloads in flight at once. */
const IN_FLIGHT = 8;
/** Where a sync keeps its verified downloads until it moves them into place: in the folder itself (a rename never crosses a file system). */
const STAGING_PREFIX = ".mirror-tmp-";
const MANIFEST_FILE = FILE_MANIFEST_PATH.slice(1);

const sha256 = (bytes: Uint8Array | string) => createHash("sha256").update(bytes).digest("hex");

/** The SHA-256 of a file, read in a stream (a download of the whole indicator is megabytes). */
function fileSha256(path: string): Promise<string> {
  return new Promise((done, fail) => {
    const hash = createHash("sha256");
    createReadStream(path)
      .on("data", (chunk) => hash.update(chunk))
      .on("error", fail)
      .on("end", () => done(hash.digest("hex")));
  });
}

/** The address of `path` (relative to the site's root) under `base`, each segment encoded. */
export function fileUrl(base: string, path: string): string {
  return `${base.replace(/\/+$/, "")}/${path.split("/").map(encodeURIComponent).join("/")}`;
}

/**
 * The bytes at `url`, following redirects (Pages answers `/x/index.html` with a 308 to `/x/`).
 * @throws MirrorError naming the address: unreachable, or not a 200.
 */
async function download(url: string, effects: MirrorEffects): Promise<Uint8Array> {
  let response: Response;
  try {
    response = await effects.fetch(url, { redirect: "follow" });
  } catch (error) {
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    throw new MirrorError(`cannot reach ${url}: ${cause?.code ?? cause?.message ?? (error as Error).message}`);
  }
  if (response.status !== 200) throw new MirrorError(`${url}: HTTP ${response.status}, expected 200`);
  return new Uint8Array(await response.arrayBuffer());
}

/**
 * The site's manifest, read and checked: its format and fields, and its identity
 * against its files.
 * @throws MirrorError when it cannot be fetched or is not a manifest a mirror can follow.
 */
export async function fetchManifest(base: string, effects: MirrorEffects): Promise<{ manifest: FileManifest; bytes: Uint8Array }> {
  const url = fileUrl(base, MANIFEST_FILE);
  const bytes = await download(url, effects);
  return { manifest: readManifest(new TextDecoder().decode(bytes), url), bytes };
}

/** A manifest's text read and its identity checked; `where` names it in a fault. */
function readManifest(text: string, where: string): FileManifest {
  let manifest: FileManifest;
  try {
    manifest = parseFileManifest(text);
  } catch (error) {
    if (error instanceof ManifestError) throw new MirrorError(`${where}: not a manifest a mirror can follow: ${error.message}`);
    throw error;
  }
  const id = sha256(listing(manifest.files));
  if (id !== manifest.id) throw new MirrorError(`${where}: not a manifest a mirror can follow: id: ${manifest.id}, but its files' listing hashes to ${id}`);
  return manifest;
}

/** Whether the folder holds `file` as listed: its size first, its hash only then. */
async function holds(dir: string, file: ListedFile): Promise<boolean> {
  const found = await stat(join(dir, file.path)).catch(() => null);
  return found !== null && found.isFile() && found.size === file.bytes && (await fileSha256(join(dir, file.path))) === file.sha256;
}

/** Runs `task` on every item, `IN_FLIGHT` at a time; the first failure rejects (after the others in flight end). */
async function eachInFlight<T>(items: readonly T[], task: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await task(items[next++] as T);
  };
  const workers = Array.from({ length: Math.min(IN_FLIGHT, items.length) }, worker);
  const settled = await Promise.allSettled(workers);
  const failed = settled.find((s): s is PromiseRejectedResult => s.status === "rejected");
  if (failed !== undefined) throw failed.reason;
}

/** Every file under `dir` (relative, `/`-separated), but the manifest, the files no host serves and a sync's staging folder. */
async function folderFiles(dir: string): Promise<string[]> {
  const files = await fg("**/*", { cwd: dir, dot: true, onlyFiles: true, ignore: [`${STAGING_PREFIX}*/**`] });
  return files.filter((f) => f !== MANIFEST_FILE && !UNLISTED_FILES.includes(f)).sort();
}

/** Removes the folders a deletion left empty, deepest first, up to `dir` (kept). */
async function removeEmptyFolders(dir: string, deleted: readonly string[]): Promise<void> {
  const folders = new Set<string>();
  for (const path of deleted) for (let d = dirname(path); d !== "."; d = dirname(d)) folders.add(d);
  for (const folder of [...folders].sort((a, b) => b.length - a.length)) {
    if ((await readdir(join(dir, folder)).catch(() => ["?"])).length === 0) await rmdir(join(dir, folder));
  }
}

/** Downloads `files` into `staging`, each verified against its size and hash before it is written. */
async function stage(base: string, staging: string, files: readonly ListedFile[], effects: MirrorEffects): Promise<void> {
  await eachInFlight(files, async (file) => {
    const url = fileUrl(base, file.path);
    const bytes = await download(url, effects);
    const got = sha256(bytes);
    if (bytes.length !== file.bytes || got !== file.sha256) {
      throw new MirrorError(`${url}: ${bytes.length} bytes with SHA-256 ${got}, where the manifest lists ${file.bytes} bytes with ${file.sha256}`);
    }
    await mkdir(dirname(join(staging, file.path)), { recursive: true });
    await writeFile(join(staging, file.path), bytes);
  });
}

/**
 * Deletes what is no longer listed (first: a file may now be a folder, or the
 * reverse), moves the staged files into place, then writes the manifest: the last
 * step, so a folder with the new manifest holds its files.
 */
async function commit(dir: string, staging: string, manifest: FileManifest, staged: readonly ListedFile[], manifestBytes: Uint8Array): Promise<number> {
  const listed = new Set(manifest.files.map((f) => f.path));
  const stale = (await folderFiles(dir)).filter((path) => !listed.has(path));
  for (const path of stale) await rm(join(dir, path));
  await removeEmptyFolders(dir, stale);
  for (const file of staged) {
    await mkdir(dirname(join(dir, file.path)), { recursive: true });
    await rename(join(staging, file.path), join(dir, file.path));
  }
  await writeFile(join(staging, MANIFEST_FILE), manifestBytes);
  await rename(join(staging, MANIFEST_FILE), join(dir, MANIFEST_FILE));
  return stale.length;
}

/**
 * Brings the folder `dir` to the site at `base`: see the module's comment. Reports
 * what it did through `effects.log` and returns it.
 * @throws MirrorError (the folder as it was) when the site cannot be read, its manifest
 *   is not one a mirror can follow, or a download is not what the manifest lists.
 */
export async function syncMirror(base: string, dir: string, effects: MirrorEffects): Promise<SyncReport> {
  const { manifest, bytes: manifestBytes } = await fetchManifest(base, effects);
  await mkdir(dir, { recursive: true });
  for (const leftover of await readdir(dir)) if (leftover.startsWith(STAGING_PREFIX)) await rm(join(dir, leftover), { recursive: true, force: true });
  const wanted: ListedFile[] = [];
  await eachInFlight(manifest.files, async (file) => void (!(await holds(dir, file)) && wanted.push(file)));
  wanted.sort((a, b) => (a.path < b.path ? -1 : 1));
  const staging = join(dir, `${STAGING_PREFIX}${process.pid}`);
  await mkdir(staging);
  let removed: number;
  try {
    await stage(base, staging, wanted, effects);
    removed = await commit(dir, staging, manifest, wanted, manifestBytes);
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
  const report = { manifest, manifestBytes: manifestBytes.length, fetched: wanted.length, fetchedBytes: wanted.reduce((n, f) => n + f.bytes, 0), removed };
  for (const line of syncSummary(base, dir, report)) effects.log(line);
  return report;
}

const count = (n: number) => n.toLocaleString("en-US");

/** What a sync says it did: files and bytes transferred against a full copy's. */
export function syncSummary(base: string, dir: string, r: SyncReport): string[] {
  const transferred = r.fetchedBytes + r.manifestBytes;
  const full = r.manifest.bytes + r.manifestBytes;
  return [
    `${dir}: the site at ${base}, data version ${r.manifest.dataVersion}, build ${r.manifest.id.slice(0, 12)}`,
    `fetched ${count(r.fetched)} of ${count(r.manifest.files.length)} files (missing or changed), removed ${count(r.removed)}`,
    `transferred ${count(transferred)} bytes (${count(r.fetchedBytes)} in files, ${count(r.manifestBytes)} the manifest) of a full copy's ${count(full)}: ${((100 * transferred) / full).toFixed(2)} %`,
  ];
}

/** At most this many paths are named per kind of fault; the rest are counted. */
const NAMED = 20;

/**
 * Checks the folder `dir` against its own manifest: every listed file present with
 * its size and hash, no other file (but the manifest and the files no host serves).
 * @throws MirrorError naming the files missing, changed and extra.
 */
export async function checkMirror(dir: string, effects: Pick<MirrorEffects, "log">): Promise<FileManifest> {
  const where = join(dir, MANIFEST_FILE);
  const text = await readFile(where, "utf8").catch((error: NodeJS.ErrnoException) => {
    throw new MirrorError(`${where}: cannot read: ${error.code ?? error.message}`);
  });
  const manifest = readManifest(text, where);
  const missing: string[] = [];
  const changed: string[] = [];
  await eachInFlight(manifest.files, async (file) => {
    const found = await stat(join(dir, file.path)).catch(() => null);
    if (found === null || !found.isFile()) missing.push(file.path);
    else if (!(await holds(dir, file))) changed.push(file.path);
  });
  const listed = new Set(manifest.files.map((f) => f.path));
  const extra = (await folderFiles(dir)).filter((path) => !listed.has(path));
  const faults = ([["missing", missing], ["changed", changed], ["extra", extra]] as const).filter(([, paths]) => paths.length > 0);
  if (faults.length > 0) {
    const named = (paths: readonly string[]) => [...paths].sort().slice(0, NAMED).join(", ") + (paths.length > NAMED ? `, and ${paths.length - NAMED} more` : "");
    throw new MirrorError(`${dir} differs from its manifest (build ${manifest.id.slice(0, 12)}):\n${faults.map(([kind, paths]) => `${kind} (${paths.length}): ${named(paths)}`).join("\n")}`);
  }
  effects.log(`${dir}: all ${count(manifest.files.length)} files as listed (${count(manifest.bytes)} bytes), data version ${manifest.dataVersion}, build ${manifest.id.slice(0, 12)}`);
  return manifest;
}
