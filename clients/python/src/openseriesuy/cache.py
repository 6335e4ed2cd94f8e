"""A disk cache of answers with their validators, for conditional requests.

Each URL's entry is one file, `<sha256 of the URL>.entry`: a JSON line with the URL, the
`ETag` and the `Last-Modified` the answer came with, then the body's bytes. One file, so the
validators and the body they describe are replaced together; written to a temporary file
in the same folder and renamed over the old one (`os.replace`, atomic on POSIX and Windows),
so a reader never sees half an entry, and two processes sharing the folder each leave a whole one.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from dataclasses import dataclass
from pathlib import Path

__all__ = ["CacheEntry", "DiskCache"]


@dataclass(frozen=True)
class CacheEntry:
    """A stored answer: its body and the validators to revalidate it with (RFC 9110 §13)."""

    etag: str | None
    last_modified: str | None
    body: bytes


class DiskCache:
    """Entries under `folder` (made when missing), one file per URL."""

    def __init__(self, folder: str | os.PathLike[str]) -> None:
        self.folder = Path(folder)
        self.folder.mkdir(parents=True, exist_ok=True)

    def _path(self, url: str) -> Path:
        """The entry file of `url`: named by a hash, since a URL holds characters no file name may."""
        return self.folder / (hashlib.sha256(url.encode("utf-8")).hexdigest() + ".entry")

    def load(self, url: str) -> CacheEntry | None:
        """The entry of `url`, or None when there is none (or it is not an entry of `url`)."""
        try:
            raw = self._path(url).read_bytes()
        except FileNotFoundError:
            return None
        head, newline, body = raw.partition(b"\n")
        header = json.loads(head) if newline else None
        if not isinstance(header, dict) or header.get("url") != url:
            return None
        return CacheEntry(header.get("etag"), header.get("last_modified"), body)

    def store(self, url: str, entry: CacheEntry) -> None:
        """Writes the entry of `url`: a temporary file renamed over the old entry."""
        header = json.dumps({"url": url, "etag": entry.etag, "last_modified": entry.last_modified}, ensure_ascii=True)
        target = self._path(url)
        descriptor, temporary = tempfile.mkstemp(dir=self.folder, prefix=".tmp-", suffix=".entry")
        try:
            with os.fdopen(descriptor, "wb") as file:
                file.write(header.encode("ascii") + b"\n" + entry.body)
            os.replace(temporary, target)
        except BaseException:
            os.unlink(temporary)
            raise
