/**
 * A tail indicator's files (src/builder/host-plan.ts): `_routes.json` keeps no rule
 * for them, so a request for `/api/v1/<id>/data.csv`, a prebuilt page or any
 * other of its files reaches the function, which serves the file from the static
 * assets or from R2, as its index says (src/core/file/hosted.ts), with the headers
 * Pages gives the static file (`_headers`, which Pages does not apply to the
 * function): the same bytes, `Content-Type`, `Cache-Control`, CORS,
 * `X-Content-Type-Options`, `Referrer-Policy` and the indicator's `Last-Modified`;
 * its ETag is the SHA-256 of its bytes, and a 304 or a HEAD reads no file.
 */
import { unknownPath } from "./api-error.js";
import { conditionalAnswer } from "./conditional-answer.js";
import type { Assets, DataStore } from "./data-store.js";
import { CACHE_CONTROL } from "../core/answer/contract.js";
import { FILE_ROUTE, fileEtag, fileMediaType, type FileRecord, type R2Record } from "../core/file/hosted.js";
import { manifestEntry, type ManifestEntry } from "../core/file/manifest.js";

/** What the function needs of its R2 binding (src/core/file/hosted.ts `R2_BINDING`): a range of an object's bytes by key. */
export interface Bucket {
  get(key: string, options: { readonly range: { readonly offset: number; readonly length: number } }): Promise<{ readonly body: ReadableStream } | null>;
}

/** Where a tail indicator's file is: its indicator's manifest entry, the SHA-256 of its bytes, and its record (src/core/file/hosted.ts). */
interface Located {
  readonly entry: ManifestEntry;
  readonly sha256: string;
  readonly record: FileRecord;
}

/**
 * Where the file at `path` (a path from the site's root, as the URL has it) is,
 * when it is a tail indicator's file; `undefined` for any other path. Reads the
 * manifest and the indicator's index, both kept by the isolate once read.
 */
async function locate(assets: Assets, store: DataStore, origin: URL, path: string): Promise<Located | undefined> {
  const match = FILE_ROUTE.exec(path);
  if (match === null) return undefined;
  const entry = manifestEntry(await store.manifest(assets, origin), match[1] as string);
  if (entry?.files === undefined) return undefined;
  const index = await store.fileIndex(assets, origin, entry.files, entry.lastModified);
  const record = Object.hasOwn(index, path) ? index[path] : undefined;
  return record === undefined ? undefined : { entry, sha256: record[0], record };
}

/** The bytes of the file at `path`, its range of its pack in R2. @throws Error when there is no bucket or no such object: the deploy did not upload it. */
async function r2Body(bucket: Bucket | undefined, record: R2Record, path: string): Promise<ReadableStream> {
  const [, , pack, offset, length] = record;
  if (bucket === undefined) throw new Error(`${path} is in R2, but the function has no R2 binding`);
  const object = await bucket.get(pack, { range: { offset, length } });
  if (object === null) throw new Error(`${path} is in R2 in ${pack}, which the bucket does not hold`);
  return object.body;
}

/** Whether the file is in R2 (its record says where), else a static asset. */
const inR2 = (record: FileRecord): record is R2Record => record[1] === 1;

/**
 * `assets` that read a tail indicator's files moved to R2 from `bucket`: what the
 * function reads of the output (prebuilt pages, the metadata documents the MCP
 * tools quote) wherever the build put it.
 */
export function hostedAssets(assets: Assets, bucket: Bucket | undefined, store: DataStore): Assets {
  return {
    async fetch(url) {
      const target = new URL(url);
      const located = await locate(assets, store, target, target.pathname);
      if (located === undefined || !inR2(located.record)) return assets.fetch(url);
      return new Response(await r2Body(bucket, located.record, target.pathname));
    },
  };
}

/**
 * Serves a tail indicator's file (the request's path), a 304 when the client
 * has it (RFC 9110 §13), no body to a HEAD.
 * @throws ApiError 404 for a path that is not one.
 */
export async function serveFile(request: Request, assets: Assets, bucket: Bucket | undefined, store: DataStore): Promise<Response> {
  const url = new URL(request.url);
  const path = url.pathname;
  const located = await locate(assets, store, url, path);
  if (located === undefined) throw unknownPath(path);
  const headers = new Headers({
    "Content-Type": fileMediaType(path),
    "Cache-Control": CACHE_CONTROL.success,
    ETag: fileEtag(located.sha256),
    "Last-Modified": located.entry.lastModified,
  });
  return conditionalAnswer(request, headers, async () => {
    if (inR2(located.record)) return r2Body(bucket, located.record, path);
    const response = await assets.fetch(new URL(path, url).toString());
    if (!response.ok) throw new Error(`${path}: static asset answered ${response.status}`);
    return response.body;
  });
}
