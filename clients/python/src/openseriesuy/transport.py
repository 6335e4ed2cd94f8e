"""GET requests to the API: conditional through the disk cache, waiting out the usage limit.

- With a cache, a repeated URL is asked with `If-None-Match` / `If-Modified-Since`; a 304
  (no body) answers with the stored body (RFC 9110 §13.1, §15.4.5).
- A 429 is waited out for its `Retry-After` seconds and asked again, as long as the waits of
  one request stay within `max_retry_wait`; beyond it, the 429 is raised (docs/api.md, "Usage limit").
- Any other answer of status 400 or more raises its `OpenSeriesError` (errors.py).
"""

from __future__ import annotations

import email.utils
import gzip
import time
import urllib.error
import urllib.request
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime, timezone
from email.message import Message

from .cache import CacheEntry, DiskCache
from .errors import error_from_answer

__all__ = ["Stats", "Transport"]


@dataclass
class Stats:
    """What a client has sent and received, so that a caller (or a test) sees the cache and the waits at work."""

    requests: int = 0
    """HTTP requests sent, retries after a 429 included."""
    not_modified: int = 0
    """Answers 304: the cached body was used, none downloaded."""
    body_bytes: int = 0
    """Bytes of bodies received, as sent (compressed when the server compressed them)."""
    retries: int = 0
    """Requests asked again after a 429."""
    waited: float = 0.0
    """Seconds slept on Retry-After."""


@dataclass(frozen=True)
class _Answer:
    """One HTTP answer: status, headers and body as received."""

    status: int
    headers: Message
    body: bytes


def _retry_after(value: str | None) -> float | None:
    """Seconds to wait by a Retry-After header: delay-seconds or an HTTP-date (RFC 9110 §10.2.3); None when absent or unreadable."""
    if value is None:
        return None
    value = value.strip()
    if value.isdigit():
        return float(value)
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    return max(0.0, (when - datetime.now(timezone.utc)).total_seconds())


def _decoded(answer: _Answer) -> bytes:
    """The body without its content coding (the client asks for gzip)."""
    if answer.headers.get("Content-Encoding", "").lower() == "gzip":
        return gzip.decompress(answer.body)
    return answer.body


class Transport:
    """Sends GETs with the client's headers, its cache and its bound on waiting; counts in `stats`."""

    def __init__(
        self,
        headers: Mapping[str, str],
        timeout: float,
        max_retry_wait: float,
        cache: DiskCache | None,
    ) -> None:
        self.headers = {"Accept": "application/json", "Accept-Encoding": "gzip", **headers}
        self.timeout = timeout
        self.max_retry_wait = max_retry_wait
        self.cache = cache
        self.stats = Stats()

    def _send(self, url: str, cached: CacheEntry | None) -> _Answer:
        """One request; a status ≥ 300 is an answer too, not an exception."""
        headers = dict(self.headers)
        if cached is not None and cached.etag is not None:
            headers["If-None-Match"] = cached.etag
        if cached is not None and cached.last_modified is not None:
            headers["If-Modified-Since"] = cached.last_modified
        request = urllib.request.Request(url, headers=headers, method="GET")
        self.stats.requests += 1
        try:
            with urllib.request.urlopen(request, timeout=self.timeout) as response:
                answer = _Answer(response.status, response.headers, response.read())
        except urllib.error.HTTPError as error:
            with error:
                answer = _Answer(error.code, error.headers, error.read())
        self.stats.body_bytes += len(answer.body)
        return answer

    def _wait_or_raise(self, answer: _Answer, url: str, waited: float) -> float:
        """Sleeps the Retry-After of a 429 and returns the seconds slept, or raises it when that would exceed `max_retry_wait`."""
        delay = _retry_after(answer.headers.get("Retry-After"))
        if delay is None or waited + delay > self.max_retry_wait:
            raise error_from_answer(answer.status, _decoded(answer), url, delay)
        time.sleep(delay)
        self.stats.retries += 1
        self.stats.waited += delay
        return delay

    def get(self, url: str) -> bytes:
        """The body of `url` (from the cache on a 304); raises `OpenSeriesError` for an error answer."""
        cached = self.cache.load(url) if self.cache is not None else None
        waited = 0.0
        while True:
            answer = self._send(url, cached)
            if answer.status == 429:
                waited += self._wait_or_raise(answer, url, waited)
                continue
            break
        if answer.status == 304 and cached is not None:
            self.stats.not_modified += 1
            return cached.body
        body = _decoded(answer)
        if answer.status >= 300:
            raise error_from_answer(answer.status, body, url)
        self._keep(url, answer, body)
        return body

    def _keep(self, url: str, answer: _Answer, body: bytes) -> None:
        """Stores a 200 with a validator in the cache (without one a repeat could not be conditional)."""
        etag, last_modified = answer.headers.get("ETag"), answer.headers.get("Last-Modified")
        if self.cache is not None and (etag is not None or last_modified is not None):
            self.cache.store(url, CacheEntry(etag, last_modified, body))
