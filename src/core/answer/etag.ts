/**
 * Strong entity tags (RFC 9110 §8.8.3) of the API's answers, with no hash of the
 * body: a tag of the data and the canonical URL of the query, the same in the
 * build (prebuilt pages) and the function (computed answers), so a prebuilt file
 * and a computed answer to the same query share it, and a 304 or a HEAD needs no
 * body. An answer's tag is hashed by the runtime's WebCrypto (workerd, Node,
 * browsers): every request computes one, and a fresh isolate would otherwise run
 * a SHA-256 in JavaScript it has not compiled yet (0.88 ms of thread CPU in Node,
 * 0.22 natively). The data tags, hashed in pieces as the build writes the files,
 * use @noble/hashes (audited, pure JavaScript, synchronous) or Node's own.
 */
import { sha256 } from "@noble/hashes/sha2.js";
import { ANSWER_CODE_VERSION } from "./contract.js";

const encoder = new TextEncoder();

function base64url(bytes: Uint8Array): string {
  let binary = "";
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

/**
 * The data tag of an indicator: the first 128 bits of the SHA-256 of the code
 * version of answers (`ANSWER_CODE_VERSION`) and its answer files (its shards in
 * order, src/core/file/answer-index.ts: every byte an answer can be made of),
 * base64url. The build writes it into the manifest.
 */
export function dataTag(answerFiles: Uint8Array | readonly Uint8Array[]): string {
  const tagger = dataTagger();
  for (const file of answerFiles instanceof Uint8Array ? [answerFiles] : answerFiles) tagger.add(file);
  return tagger.tag();
}

/** A SHA-256 computation fed in pieces: @noble/hashes' `sha256.create()`, or Node's `createHash("sha256")`. */
export interface Sha256 {
  update(bytes: Uint8Array): unknown;
  digest(): Uint8Array;
}

/**
 * `dataTag` of files added one by one, none kept (the build hashes each shard as
 * it is written). `hash` is where the SHA-256 is computed: JavaScript by default;
 * the build passes Node's native one, ten times faster over a million points'
 * shards (the same digest).
 */
export function dataTagger(hash: Sha256 = sha256.create()): { add(file: Uint8Array): void; tag(): string } {
  hash.update(encoder.encode(`${ANSWER_CODE_VERSION}\n`));
  return { add: (file) => void hash.update(file), tag: () => base64url(hash.digest().subarray(0, 16)) };
}

/**
 * The strong ETag of an API answer, with no hash of its body: of the data tags
 * of the indicators it is computed from (the indicator's; with `per` or `real`,
 * the divisor's or the deflator's too) and its canonical URL
 * (src/core/answer/render.ts `queryUrl`, `format` included). The same data and code give
 * the same bytes for the same canonical query, prebuilt or computed, so the tag
 * changes exactly when the body can.
 */
export async function answerEtag(tags: readonly string[], canonicalUrl: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", encoder.encode(`${tags.join(" ")}\n${canonicalUrl}`));
  return `"${base64url(new Uint8Array(digest, 0, 16))}"`;
}
