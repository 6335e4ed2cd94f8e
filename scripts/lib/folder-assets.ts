/** `env.ASSETS` for the handler in Node: the files of a built output folder, from the disk or read into memory. */
import { readFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import fg from "fast-glob";
import type { Assets } from "../../src/api/data-store.js";

/** Serves the files of the output folder `dir`; 404 for anything else. */
export function folderAssets(dir: string): Assets {
  return {
    async fetch(url) {
      const { pathname } = new URL(url);
      try {
        return new Response(await readFile(join(dir, decodeURIComponent(pathname))));
      } catch {
        return new Response("not found", { status: 404 });
      }
    },
  };
}

/** The files of the output folder `dir` that match `patterns` (fast-glob), read: path from the site's root → bytes. */
export function filesInMemory(dir: string, patterns: readonly string[]): Map<string, Uint8Array<ArrayBuffer>> {
  const files = new Map<string, Uint8Array<ArrayBuffer>>();
  for (const path of fg.sync([...patterns], { cwd: dir })) files.set(`/${path}`, new Uint8Array(readFileSync(join(dir, path))));
  return files;
}

/**
 * A file's response whose whole-body reads are a copy of its bytes, as an isolate's
 * asset binding reads a body natively. Node's own `Response` reads a body through
 * JavaScript web streams, about 1.8 ms of CPU per MB on the bench machine even
 * warm (`npm run bench`'s cold table states it): a cost no isolate has, which
 * would otherwise be most of what a cold question reading a megabyte measures.
 * `body` (a stream, for pages too large to keep) is Node's.
 */
class FileResponse extends Response {
  readonly #bytes: Uint8Array<ArrayBuffer>;
  #stream: ReadableStream<Uint8Array<ArrayBuffer>> | null | undefined;

  /** No body given to Node's constructor, which would copy the bytes once more before any read. */
  constructor(bytes: Uint8Array<ArrayBuffer>) {
    super(null);
    this.#bytes = bytes;
  }

  override get body(): ReadableStream<Uint8Array<ArrayBuffer>> | null {
    this.#stream ??= new Response(this.#bytes).body;
    return this.#stream;
  }

  override arrayBuffer(): Promise<ArrayBuffer> {
    return Promise.resolve(this.#bytes.slice().buffer);
  }

  override text(): Promise<string> {
    return Promise.resolve(new TextDecoder().decode(this.#bytes));
  }

  override json(): Promise<unknown> {
    return this.text().then((text) => JSON.parse(text) as unknown);
  }
}

/**
 * Serves `files` (`filesInMemory`), telling `read` of each path asked; 404 for
 * anything else. The time is the function's, not the disk's, nor Node's body
 * streams' (`FileResponse`).
 */
export function memoryAssets(files: ReadonlyMap<string, Uint8Array<ArrayBuffer>>, read?: (path: string) => void): Assets {
  return {
    fetch(url) {
      const { pathname } = new URL(url);
      read?.(pathname);
      const bytes = files.get(pathname);
      return Promise.resolve(bytes === undefined ? new Response("not found", { status: 404 }) : new FileResponse(bytes));
    },
  };
}

/** The same output folder, but a manifest that lists no prebuilt page: every answer is computed. */
export function computedOnly(assets: Assets): Assets {
  return {
    async fetch(url) {
      const response = await assets.fetch(url);
      if (!url.endsWith("/_data/manifest.json")) return response;
      const manifest = (await response.json()) as { indicators: Record<string, { pages: object; index: number }> };
      for (const entry of Object.values(manifest.indicators)) {
        entry.pages = {};
        entry.index = 0;
      }
      return Response.json(manifest);
    },
  };
}
