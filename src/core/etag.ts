/**
 * Strong entity tags (RFC 9110 §8.8.3) from the bytes of a representation, with
 * Web Crypto only, so the build and the function compute the same tag for the
 * same body: a prebuilt file and a computed answer to the same query share it.
 */

const encoder = new TextEncoder();

function base64url(bytes: Uint8Array): string {
  let binary = "";
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

/** `"<first 128 bits of SHA-256, base64url>"`: quoted, strong, changes exactly when the body does. */
export async function strongEtag(body: string | Uint8Array<ArrayBuffer>): Promise<string> {
  const bytes = typeof body === "string" ? encoder.encode(body) : body;
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  return `"${base64url(digest.subarray(0, 16))}"`;
}
