/**
 * `/manifest.json`: every file of the output with its size and SHA-256, the data
 * version and the build's identity, for mirrors (docs/operations.md "Offline
 * mirrors"). A mirror compares it with the files it holds and fetches only those
 * whose hash changed (src/mirror/sync.ts); `npm run mirror -- --check` verifies a
 * copy against it. Not the function's internal `/_data/manifest.json`
 * (src/core/file/manifest.ts).
 *
 * The files are grouped by folder, each folder's files by name: the 4,300 paths
 * of the real output share 250 folders, and written whole they were 40 % of the
 * manifest (630 KB where this is 480 KB), which every sync of a mirror downloads.
 * Sorted by code units and compact, so the same output gives the same bytes.
 * Pure: the caller hashes (node:crypto in the build and the mirror).
 */
import { byCodeUnits } from "../text/order.js";

/** Where the manifest is: the output's root. */
export const FILE_MANIFEST_PATH = "/manifest.json";

/** The version of this format; a reader refuses another. */
export const FILE_MANIFEST_FORMAT = 1;

/**
 * The files no host serves, Cloudflare Pages' configuration (src/builder/pages-config.ts):
 * not listed (a mirror could not fetch them) and, with the manifest itself, ignored
 * when a copy is checked.
 */
export const UNLISTED_FILES: readonly string[] = ["_headers", "_routes.json"];

/** One file: its path relative to the output's root (`/`-separated), its size and the SHA-256 of its bytes, in hex. */
export interface ListedFile {
  readonly path: string;
  readonly bytes: number;
  readonly sha256: string;
}

/** What the manifest says besides its files. */
export interface ManifestHead {
  readonly name: string;
  /** The public base URL (`site.config.json`): where the original is. */
  readonly site: string;
  /** The newest data version (ISO 8601, UTC): `SOURCE_DATE_EPOCH` when the build had it, the `Last-Modified` of the newest answers. */
  readonly dataVersion: string;
  /** Each indicator's data version (ISO 8601). */
  readonly dataVersions: Readonly<Record<string, string>>;
}

/** A manifest read back: its head, its identity and its files, sorted by path. */
export interface FileManifest extends ManifestHead {
  /** The build's identity: the SHA-256 of `listing(files)`, the same for the same files. */
  readonly id: string;
  readonly files: readonly ListedFile[];
  /** Every listed file's bytes: a full copy. */
  readonly bytes: number;
}

/**
 * The files as `sha256sum` prints them (`<hex>  <path>` per line, sorted by path):
 * the text whose SHA-256 is the build's identity, so anyone can recompute it from
 * the manifest, and `sha256sum -c` can check a copy with it.
 */
export function listing(files: readonly ListedFile[]): string {
  return [...files]
    .sort((a, b) => byCodeUnits(a.path, b.path))
    .map((f) => `${f.sha256}  ${f.path}\n`)
    .join("");
}

/** The folder of a path ("" at the root) and the name in it. */
function split(path: string): [string, string] {
  const slash = path.lastIndexOf("/");
  return slash < 0 ? ["", path] : [path.slice(0, slash), path.slice(slash + 1)];
}

/** The manifest's text: `id` is the SHA-256 of `listing(files)` (the caller hashes). */
export function renderFileManifest(head: ManifestHead, files: readonly ListedFile[], id: string): string {
  const sorted = [...files].sort((a, b) => byCodeUnits(a.path, b.path));
  const folders: Record<string, Record<string, [number, string]>> = {};
  for (const [folder, name, file] of sorted.map((f) => [...split(f.path), f] as const).sort(([a], [b]) => byCodeUnits(a, b))) {
    (folders[folder] ??= {})[name] = [file.bytes, file.sha256];
  }
  const dataVersions = Object.fromEntries(Object.entries(head.dataVersions).sort(([a], [b]) => byCodeUnits(a, b)));
  return `${JSON.stringify({
    format: FILE_MANIFEST_FORMAT,
    name: head.name,
    site: head.site,
    data_version: head.dataVersion,
    data_versions: dataVersions,
    id,
    files: sorted.length,
    bytes: sorted.reduce((n, f) => n + f.bytes, 0),
    // Each folder's files by name: [size in bytes, SHA-256 in hex].
    folders,
  })}\n`;
}

/** A manifest that cannot be read: what is wrong, and where. */
export class ManifestError extends Error {}

const SHA256 = /^[0-9a-f]{64}$/;
/** A name a mirror may write: no separator, not `.` or `..`, no control character. */
const SAFE_NAME = /^(?!\.\.?$)[^/\\\u0000-\u001f]+$/;

function fault(where: string, what: string): never {
  throw new ManifestError(`${where}: ${what}`);
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

/** A folder's listed files, each checked: a name a mirror may write, a size, a hash. */
function folderFiles(folder: string, files: unknown): ListedFile[] {
  if (folder !== "" && !folder.split("/").every((part) => SAFE_NAME.test(part))) fault(`folders["${folder}"]`, "not a relative folder a mirror may write");
  if (!isRecord(files)) fault(`folders["${folder}"]`, "expected an object of files");
  return Object.entries(files).map(([name, entry]) => {
    const where = `folders["${folder}"]["${name}"]`;
    if (!SAFE_NAME.test(name)) fault(where, "not a file name a mirror may write");
    if (!Array.isArray(entry) || entry.length !== 2) fault(where, "expected [bytes, sha256]");
    const [bytes, sha256] = entry as unknown[];
    if (!Number.isSafeInteger(bytes) || (bytes as number) < 0) fault(where, `expected a size in bytes, got ${JSON.stringify(bytes)}`);
    if (typeof sha256 !== "string" || !SHA256.test(sha256)) fault(where, `expected a SHA-256 in hex, got ${JSON.stringify(sha256)}`);
    return { path: folder === "" ? name : `${folder}/${name}`, bytes: bytes as number, sha256 };
  });
}

/** No listed path is also a folder of another (a mirror could not write both), nor a file the manifest leaves out. */
function checkPaths(files: readonly ListedFile[]): void {
  const paths = new Set(files.map((f) => f.path));
  for (const { path } of files) {
    if (path === FILE_MANIFEST_PATH.slice(1) || UNLISTED_FILES.includes(path)) fault(path, "a file the manifest never lists");
    for (let slash = path.indexOf("/"); slash >= 0; slash = path.indexOf("/", slash + 1)) {
      if (paths.has(path.slice(0, slash))) fault(path, `its folder ${path.slice(0, slash)} is listed as a file`);
    }
  }
}

/**
 * Reads a manifest's text, checking every field a mirror relies on: the format,
 * each path relative and free of `..` (a manifest cannot make a mirror write
 * outside its folder), sizes, hashes, and the totals.
 * @throws ManifestError naming the field and what is wrong.
 */
export function parseFileManifest(text: string): FileManifest {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    throw new ManifestError(`not JSON: ${(error as Error).message}`);
  }
  if (!isRecord(raw)) fault("(root)", "expected an object");
  if (raw.format !== FILE_MANIFEST_FORMAT) fault("format", `expected ${FILE_MANIFEST_FORMAT}, got ${JSON.stringify(raw.format)}`);
  for (const key of ["name", "site", "data_version", "id"] as const) if (typeof raw[key] !== "string") fault(key, "expected a string");
  if (!SHA256.test(raw.id as string)) fault("id", "expected a SHA-256 in hex");
  if (!isRecord(raw.data_versions) || !Object.values(raw.data_versions).every((v) => typeof v === "string")) fault("data_versions", "expected an object of strings");
  if (!isRecord(raw.folders)) fault("folders", "expected an object");
  const files = Object.entries(raw.folders)
    .flatMap(([folder, list]) => folderFiles(folder, list))
    .sort((a, b) => byCodeUnits(a.path, b.path));
  checkPaths(files);
  const bytes = files.reduce((n, f) => n + f.bytes, 0);
  if (raw.files !== files.length) fault("files", `says ${JSON.stringify(raw.files)}, the folders list ${files.length}`);
  if (raw.bytes !== bytes) fault("bytes", `says ${JSON.stringify(raw.bytes)}, the files add up to ${bytes}`);
  return {
    name: raw.name as string,
    site: raw.site as string,
    dataVersion: raw.data_version as string,
    dataVersions: raw.data_versions as Record<string, string>,
    id: raw.id as string,
    files,
    bytes,
  };
}
