/**
 * A tail indicator's pack: the files the build moves to R2 (src/builder/host-plan.ts),
 * one after the other in one object, each file's bytes once (a prebuilt page and
 * the default answer of the same bytes share them). The indicator's index says
 * where each file is (src/core/file/hosted.ts `FileIndex`); the function reads the
 * range. The object's key is the SHA-256 of its bytes, known once the last file is in.
 */
import { BuildError } from "../source/errors.js";

/**
 * The most bytes of a pack: under what `wrangler r2 object put` uploads in one
 * request (scripts/upload-r2.ts; R2 itself takes 5 GiB). A tail indicator's files
 * are each within Pages' 25 MiB, and the tail is the indicators with fewest points.
 */
export const MAX_PACK_BYTES = 300 * 2 ** 20;

export class Pack {
  private readonly parts: Uint8Array[] = [];
  private readonly at = new Map<string, readonly [offset: number, length: number]>();
  private size = 0;
  /** The pack's R2 key, once its bytes are hashed (`null` before). */
  key: string | null = null;

  /** `indicator`: the pack's, named in errors. */
  constructor(private readonly indicator: string) {}

  /**
   * Appends the bytes of the file `path` (SHA-256 `sha256`) unless the pack holds
   * them already; returns where they are.
   * @throws BuildError past MAX_PACK_BYTES.
   */
  add(path: string, sha256: string, body: string | Uint8Array): readonly [offset: number, length: number] {
    const there = this.at.get(sha256);
    if (there !== undefined) return there;
    const bytes = typeof body === "string" ? new TextEncoder().encode(body) : body;
    if (this.size + bytes.length > MAX_PACK_BYTES) {
      throw new BuildError(`${path}: the files of ${this.indicator} moved to R2 would pass ${MAX_PACK_BYTES / 2 ** 20} MiB in one object: raise --max-files, so that fewer move`);
    }
    const where = [this.size, bytes.length] as const;
    this.parts.push(bytes);
    this.at.set(sha256, where);
    this.size += bytes.length;
    return where;
  }

  /** The pack's bytes: every file added, in order. */
  bytes(): Uint8Array {
    const all = new Uint8Array(this.size);
    let offset = 0;
    for (const part of this.parts) {
      all.set(part, offset);
      offset += part.length;
    }
    return all;
  }
}
