"""The API's errors as exceptions, made in one place (`error_from_answer`).

Every error answer of the API is `{"error": {"code", "message", "detail"}}` with a status
that has one code (docs/api.md, "Errors"); clients branch on `code`, so each code has its
own class and every class carries `status`, `code` and `detail`.
"""

from __future__ import annotations

import json
from typing import Any

class OpenSeriesError(Exception):
    """An answer with status 400 or more: `status`, the API's `code`, `message` and `detail`."""

    def __init__(self, status: int, code: str | None, detail: str, message: str = "", url: str = "") -> None:
        super().__init__(f"{status} {code}: {detail}" + (f" ({url})" if url else ""))
        self.status = status
        self.code = code
        self.detail = detail
        self.message = message
        self.url = url


class BadRequest(OpenSeriesError):
    """400 `bad_request`: `detail` begins with the parameter's name (`limit: expected …`)."""


class NotFound(OpenSeriesError):
    """404 `not_found`: an unknown indicator or path."""


class MethodNotAllowed(OpenSeriesError):
    """405 `method_not_allowed`: the API answers GET, HEAD and OPTIONS only."""


class TooManyRequests(OpenSeriesError):
    """429 `too_many_requests`: over the usage limit; `retry_after` is the answer's Retry-After in seconds."""

    retry_after: float | None = None


class InternalError(OpenSeriesError):
    """500 `internal_error`: a bug or a broken deployment on the server's side."""


# The API's table of statuses and codes (docs/api.md, "Errors"): one code per status.
_CLASSES: dict[str, type[OpenSeriesError]] = {
    "bad_request": BadRequest,
    "not_found": NotFound,
    "method_not_allowed": MethodNotAllowed,
    "too_many_requests": TooManyRequests,
    "internal_error": InternalError,
}
_CODE_OF_STATUS = {400: "bad_request", 404: "not_found", 405: "method_not_allowed", 429: "too_many_requests", 500: "internal_error"}


def _error_object(body: bytes) -> dict[str, Any] | None:
    """The answer's `error` object, or None when the body is not the API's JSON error (a static file's 404 page)."""
    try:
        parsed = json.loads(body)
    except ValueError:
        return None
    error = parsed.get("error") if isinstance(parsed, dict) else None
    return error if isinstance(error, dict) and isinstance(error.get("code"), str) else None


def error_from_answer(status: int, body: bytes, url: str = "", retry_after: float | None = None) -> OpenSeriesError:
    """
    The exception for an answer of `status` ≥ 400 and its `body`.

    The class follows the answer's `error.code`. A body that is not the API's error object
    (a static file that does not exist, such as an unknown indicator's `metadata.json`, is
    the site's HTML 404 page: docs/api.md, "How a request is answered") takes the code the
    API gives that status, and a detail saying so.
    """
    error = _error_object(body)
    if error is not None:
        code: str | None = error["code"]
        detail = str(error.get("detail") or error.get("message") or "")
        message = str(error.get("message") or "")
    else:
        code = _CODE_OF_STATUS.get(status)
        detail = f"HTTP {status} without the API's error object (not an address the API answers)"
        message = ""
    cls = _CLASSES.get(code or "", InternalError if status >= 500 else OpenSeriesError)
    exception = cls(status, code, detail, message, url)
    if isinstance(exception, TooManyRequests):
        exception.retry_after = retry_after
    return exception
