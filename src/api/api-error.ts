/**
 * The API's few error kinds and their one JSON shape (docs/DESIGN.md §2, "Errors"):
 * `{"error":{"code","message","detail"}}`, never cached, never a stack trace.
 * Each error the API sends is made by one constructor here, which the function
 * and the OpenAPI examples both call.
 */
import { ALLOWED_METHODS, CACHE_CONTROL, ERRORS, ERROR_CODES, JSON_CONTENT_TYPE, quote, type ErrorCode } from "../core/answer/contract.js";
import { closedObject, type JsonSchema } from "../core/answer/schema.js";
import { CATALOG_PATH } from "../core/file/paths.js";

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
    return ERRORS[this.code].status;
  }
}

/** The error object's schema: `errorBody`'s fields (OpenAPI's `Error`). */
export function errorSchema(): JsonSchema {
  return closedObject({
    error: {
      schema: closedObject({
        code: { schema: { type: "string", enum: ERROR_CODES } },
        message: { schema: { type: "string", description: "The general text of the code." } },
        detail: { schema: { type: "string", description: "What exactly was wrong; a 400's begins with the parameter's name." } },
      }),
    },
  });
}

/** The error body's text. */
export function errorBody(code: ErrorCode, detail: string): string {
  return JSON.stringify({ error: { code, message: ERRORS[code].message, detail } });
}

/** The response for an error: JSON, `no-store` (an error must not be pinned at the edge). */
export function errorResponse(error: ApiError, method: string): Response {
  const headers = new Headers(error.headers);
  headers.set("Content-Type", JSON_CONTENT_TYPE);
  headers.set("Cache-Control", CACHE_CONTROL.error);
  return new Response(method === "HEAD" ? null : errorBody(error.code, error.detail), { status: error.status, headers });
}

/** A 400 whose `detail` begins with the parameter's name. */
export function badRequest(detail: string): ApiError {
  return new ApiError("bad_request", detail);
}

/** A 404 for an indicator id that is not published. */
export function unknownIndicator(indicator: string): ApiError {
  return new ApiError("not_found", `indicator: there is no indicator ${quote(indicator)}; the list is at ${CATALOG_PATH}`);
}

/** A 404 for any other path under `/api/` that reaches the function. */
export function unknownPath(path: string): ApiError {
  return new ApiError("not_found", `path: nothing at ${quote(path, 80)}; the API's endpoints are listed at ${CATALOG_PATH}`);
}

/** A 405, with `Allow`. */
export function methodNotAllowed(method: string, methods: readonly string[] = ALLOWED_METHODS): ApiError {
  const allowed = methods.join(", ");
  return new ApiError("method_not_allowed", `method: ${quote(method)} is not allowed; use ${allowed}`, { Allow: allowed });
}

/** A 429, with `Retry-After` in whole seconds. */
export function tooManyRequests(limit: number, windowSeconds: number, retrySeconds: number): ApiError {
  return new ApiError(
    "too_many_requests",
    `rate: over the limit of ${limit} requests per ${windowSeconds} s for this address; retry in ${retrySeconds} s`,
    { "Retry-After": String(retrySeconds) },
  );
}

/** Any thrown value as an `ApiError`: unknown errors become `internal_error` without their details. */
export function asApiError(error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  return new ApiError("internal_error", "an unexpected error occurred; it has been logged");
}
