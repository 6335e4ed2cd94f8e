/**
 * The API's few error kinds and their one JSON shape (DESIGN §2, "Errors"):
 * `{"error":{"code","message","detail"}}`, never cached, never a stack trace.
 */

export type ErrorCode = "bad_request" | "not_found" | "method_not_allowed" | "too_many_requests" | "internal_error";

const STATUS: Record<ErrorCode, number> = {
  bad_request: 400,
  not_found: 404,
  method_not_allowed: 405,
  too_many_requests: 429,
  internal_error: 500,
};

/** General human text per code; `detail` says what exactly was wrong. */
const MESSAGE: Record<ErrorCode, string> = {
  bad_request: "The request's parameters are not valid.",
  not_found: "There is no such resource.",
  method_not_allowed: "This method is not allowed here.",
  too_many_requests: "Too many requests: the usage limit is exceeded; retry later.",
  internal_error: "Internal error: the request could not be answered.",
};

/** An error the API answers with its JSON error object. */
export class ApiError extends Error {
  override name = "ApiError";
  constructor(
    readonly code: ErrorCode,
    readonly detail: string,
    /** Extra response headers, e.g. `Allow` or `Retry-After`. */
    readonly headers: Record<string, string> = {},
  ) {
    super(detail);
  }

  get status(): number {
    return STATUS[this.code];
  }
}

/** The error body's text. */
export function errorBody(code: ErrorCode, detail: string): string {
  return JSON.stringify({ error: { code, message: MESSAGE[code], detail } });
}

/** The response for an error: JSON, `no-store` (an error must not be pinned at the edge). */
export function errorResponse(error: ApiError, method: string): Response {
  const headers = new Headers(error.headers);
  headers.set("Content-Type", "application/json; charset=utf-8");
  headers.set("Cache-Control", "no-store");
  return new Response(method === "HEAD" ? null : errorBody(error.code, error.detail), { status: error.status, headers });
}

/** Any thrown value as an `ApiError`: unknown errors become `internal_error` without their details. */
export function asApiError(error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  return new ApiError("internal_error", "an unexpected error occurred; it has been logged");
}
