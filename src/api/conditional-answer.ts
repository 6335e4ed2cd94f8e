/** A 200, or a 304 when the request's preconditions say the client has it (RFC 9110 §13). */
import { notModified } from "../core/answer/conditional.js";

/**
 * The 200, or a 304 (RFC 9110 §15.4.5) with no body and the same validators and
 * caching headers. `body` is only called for a 200 to a GET.
 */
export async function conditionalAnswer(
  request: Request,
  headers: Headers,
  body: () => BodyInit | null | Promise<BodyInit | null>,
): Promise<Response> {
  if (notModified(request.headers, headers.get("ETag") as string, headers.get("Last-Modified") as string)) {
    const notModifiedHeaders = new Headers(headers);
    notModifiedHeaders.delete("Content-Type");
    return new Response(null, { status: 304, headers: notModifiedHeaders });
  }
  return new Response(request.method === "HEAD" ? null : await body(), { status: 200, headers });
}
