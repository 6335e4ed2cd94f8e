/**
 * Strong entity tags (RFC 9110 §8.8.3) from the bytes of a representation, with
 * the same algorithm everywhere, so the build and the function compute the same
 * tag for the same body: a prebuilt file and a computed answer to the same query
 * share it.
 *
 * Small bodies are hashed synchronously with @noble/hashes (audited, pure
 * JavaScript, runs in workerd, Node and browsers): Web Crypto's digest is faster
 * per byte but, in Node, every call waits on the thread pool (60–80 µs measured),
 * more than hashing a few kilobytes in JavaScript (about 19 µs for 2 KB). Both
 * give the same SHA-256 (a unit test compares them).
 */
import { sha256 } from "@noble/hashes/sha2.js";

const encoder = new TextEncoder();

/** Bodies up to this size are hashed in JavaScript, larger ones with Web Crypto (crossover measured near 10 KB). */
export const SYNC_HASH_MAX_BYTES = 8 * 1024;

function base64url(bytes: Uint8Array): string {
  let binary = "";
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

/** `"<first 128 bits of SHA-256, base64url>"`: quoted, strong, changes exactly when the body does. */
export async function strongEtag(body: string | Uint8Array<ArrayBuffer>): Promise<string> {
  const bytes = typeof body === "string" ? encoder.encode(body) : body;
  const digest = bytes.length <= SYNC_HASH_MAX_BYTES ? sha256(bytes) : new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  return `"${base64url(digest.subarray(0, 16))}"`;
}
