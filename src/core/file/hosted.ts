/**
 * Where the files of the output live when they pass what Pages holds
 * (docs/formats.md, "Files within the host's limits"): the "head" indicators'
 * files are static files that Pages serves directly; a "tail" indicator's files
 * under `/api/v1/<id>/` reach the function, which serves them from the static
 * assets or from an R2 bucket, with the headers Pages would have given them. The
 * build and the function share what is stated here: the index of a tail
 * indicator's files, their validators and their media types.
 */
import { API_BASE, CSV_CONTENT_TYPE } from "../answer/contract.js";
import { XLSX_MEDIA_TYPE } from "../indicator/distributions.js";
import { ATOM_MEDIA_TYPE } from "./paths.js";

/**
 * A path below an indicator's endpoint (`/api/v1/{indicator}/…`): one of its files,
 * which the function serves for a tail indicator (src/api/files.ts). Not in
 * src/core/file/paths.ts, which the page script bundles.
 */
export const FILE_ROUTE = new RegExp(`^${API_BASE}/([^/]+)/.`);

/** The R2 binding the function reads a tail indicator's moved files from (wrangler.toml `[[r2_buckets]]`). */
export const R2_BINDING = "FILES";

/**
 * A tail indicator's files (at `filesIndexPath`, src/core/file/paths.ts): by path from
 * the site's root, the SHA-256 of the file's bytes in hex (its ETag), then 0 when
 * the file is a static asset; or 1 when it is in R2, with where: the key of the
 * indicator's pack (the R2 object holding its moved files one after the other,
 * named by the SHA-256 of its bytes: content-addressed, so a deploy uploads only
 * packs it has not uploaded before) and the file's offset and length in it. One
 * object per indicator, not one per file: putting an object costs the same
 * whatever its size (a request, a row of the local state), and a read of a range
 * is one read.
 */
export type FileIndex = Readonly<Record<string, FileRecord>>;

/** One file of a {@link FileIndex}: a static asset, or in R2 ({@link R2Record}). */
export type FileRecord = readonly [sha256: string, inR2: 0] | R2Record;

/** A file in R2: its bytes' SHA-256, then its pack's key and its offset and length in it. */
export type R2Record = readonly [sha256: string, inR2: 1, pack: string, offset: number, length: number];

/** The strong ETag of a file served by the function: its SHA-256 (RFC 9110 §8.8.3). */
export function fileEtag(sha256: string): string {
  return `"${sha256}"`;
}

/**
 * The media type Pages gives a static file, by extension: what wrangler's asset
 * server and Pages' upload derive from the `mime` package (`getType`, `; charset=utf-8`
 * added to `text/*`), for the extensions the build writes under `/api/v1/`. An
 * extension `mime` does not know (`.parquet`) is `application/octet-stream`, as
 * wrangler serves it. test/e2e/tail-files.test.ts compares each with wrangler's.
 */
const MEDIA_TYPES: Readonly<Record<string, string>> = {
  json: "application/json",
  csv: CSV_CONTENT_TYPE,
  atom: ATOM_MEDIA_TYPE,
  xlsx: XLSX_MEDIA_TYPE,
  jsonld: "application/ld+json",
};

/** The `Content-Type` Pages would give the static file at `path`. */
export function fileMediaType(path: string): string {
  const name = path.slice(path.lastIndexOf("/") + 1);
  const dot = name.lastIndexOf(".");
  const extension = dot < 0 ? "" : name.slice(dot + 1).toLowerCase();
  return Object.hasOwn(MEDIA_TYPES, extension) ? (MEDIA_TYPES[extension] as string) : "application/octet-stream";
}
