"""The client: one method per question the API answers (docs/api.md).

- `values` and `changes` return tables (a DataFrame with pandas, else `Rows`) and follow
  `meta.next` page after page; `metadata`, `search`, `status` and `adjust` return the
  answer's JSON as dicts (nested labels in two languages, one result or one document).
- `as_of` given to the client pins `values`, the only call whose endpoint takes `as_of`
  (`GET /api/v1/{indicator}`: docs/api.md, "What the service knew when").
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping, Sequence
from datetime import date
from typing import Any
from urllib.parse import quote, urljoin

from .cache import DiskCache
from .query import Param, url_of
from .tables import Table, pandas_available, table
from .transport import Stats, Transport

__all__ = ["Client", "DEFAULT_BASE_URL", "MAX_PAGE_SIZE", "MAX_BOUNDED_POINTS"]

DEFAULT_BASE_URL = "https://open-series-uy.pages.dev"
VERSION = "0.1.0"

MAX_PAGE_SIZE = 5000
"""The API's largest `limit`: points per sub-series in one page (docs/api.md, "The API contract")."""

MAX_BOUNDED_POINTS = 8000
"""The most points an answer with provenance or a derived answer may hold (docs/time.md, `MAX_DERIVED_POINTS`)."""

_VALUE_COLUMNS = ("date", "series", "value")
_PROVENANCE_COLUMNS = ("note", "source", "source_kind")
_CHANGE_COLUMNS = ("date", "series", "change", "value", "previous", "changed")


def _asks_provenance(params: Mapping[str, Param]) -> bool:
    """Whether the items carry their point's note, source and kind of source."""
    return params.get("provenance") in (True, "true")


def _is_bounded(params: Mapping[str, Param]) -> bool:
    """Whether the answer holds at most MAX_BOUNDED_POINTS points: provenance, or a question about time that derives values."""
    derives = any(params.get(name) is not None for name in ("frequency", "per", "real")) or params.get("units") not in (None, "level")
    return derives or _asks_provenance(params)


def _api_order(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The API's order, date descending then series ascending: pages that each follow it need not together."""
    by_series = sorted(rows, key=lambda row: str(row["series"]))
    return sorted(by_series, key=lambda row: str(row["date"]), reverse=True)


def _value_row(item: Mapping[str, Any]) -> dict[str, Any]:
    """An item of `data` with its value as a float (JSON gives an int for `192`: the same number)."""
    return {**item, "value": float(item["value"])}


def _number(value: Any) -> float | None:
    """A JSON number as a float; null stays None."""
    return None if value is None else float(value)


def _change_row(item: Mapping[str, Any]) -> dict[str, Any]:
    """An item of a change list with `value` and `previous` as floats or None (a point added has no previous, one removed no value)."""
    return {**item, "value": _number(item["value"]), "previous": _number(item["previous"])}


class Client:
    """
    A client of the Open Series UY API at `base_url`.

    `as_of` (a `YYYY-MM-DD` day or a date) asks `values` for the data as published at the end
    of that day (UTC), so the same call gives the same table, byte for byte, whenever it runs
    again (pin a past day: today's data may still change before it ends). `cache_dir` keeps
    answers with their ETag and Last-Modified and revalidates them (a 304 downloads no body).
    `headers` are sent with every request; a 429 is waited out for its Retry-After while one
    request's waits stay within `max_retry_wait` seconds, else raised. `page_size` is the
    `limit` per sub-series of each page `values` asks for. `pandas`: None uses pandas when it
    is installed, False always returns `Rows`, True requires pandas.
    """

    def __init__(
        self,
        base_url: str = DEFAULT_BASE_URL,
        as_of: str | date | None = None,
        cache_dir: str | os.PathLike[str] | None = None,
        *,
        headers: Mapping[str, str] | None = None,
        timeout: float = 60.0,
        max_retry_wait: float = 60.0,
        page_size: int = MAX_PAGE_SIZE,
        user_agent: str = f"openseriesuy-python/{VERSION}",
        pandas: bool | None = None,
    ) -> None:
        if not 1 <= page_size <= MAX_PAGE_SIZE:
            raise ValueError(f"page_size: expected an integer from 1 to {MAX_PAGE_SIZE}, got {page_size!r}")
        if pandas is True and not pandas_available():
            raise ImportError("pandas=True, but pandas is not installed")
        self.base_url = base_url.rstrip("/")
        self.as_of = as_of
        self.page_size = page_size
        self.as_frame = pandas_available() if pandas is None else pandas
        cache = DiskCache(cache_dir) if cache_dir is not None else None
        self._transport = Transport({"User-Agent": user_agent, **(headers or {})}, timeout, max_retry_wait, cache)

    @property
    def stats(self) -> Stats:
        """Requests sent, 304s, body bytes received, retries after a 429 and seconds waited."""
        return self._transport.stats

    def get(self, path: str, params: Mapping[str, Param] | None = None) -> dict[str, Any]:
        """The JSON answer of `GET path?params` (a path under the base URL, `/api/v1/…`)."""
        return self._get_url(url_of(self.base_url, path, params or {}))

    def _get_url(self, url: str) -> dict[str, Any]:
        """The JSON object answered at `url`, absolute or relative to the base URL (`meta.next`)."""
        absolute = urljoin(self.base_url + "/", url)
        answer = json.loads(self._transport.get(absolute))
        if not isinstance(answer, dict):
            raise ValueError(f"{absolute}: expected a JSON object, got {type(answer).__name__}")
        return answer

    def _follow(self, path: str, params: Mapping[str, Param]) -> tuple[list[dict[str, Any]], dict[str, Any]]:
        """Every page's `data`, following `meta.next` while `meta.has_more`, and the first page's `meta`."""
        answer = self.get(path, params)
        meta, data = answer["meta"], list(answer["data"])
        while answer["meta"]["has_more"] and answer["meta"]["next"] is not None:
            answer = self._get_url(answer["meta"]["next"])
            data.extend(answer["data"])
        return data, meta

    def _page_limit(self, path: str, params: Mapping[str, Param]) -> int:
        """
        The `limit` of each page: `page_size`, or for a bounded answer at most
        MAX_BOUNDED_POINTS ÷ the sub-series answered (a page holds `limit` points of each),
        counted by asking for one point of each.
        """
        if not _is_bounded(params):
            return self.page_size
        answered = len(self.get(path, {**params, "limit": 1})["data"])
        return max(1, min(self.page_size, MAX_BOUNDED_POINTS // max(1, answered)))

    def values(
        self,
        indicator: str,
        series: str | Sequence[str] | None = None,
        start: str | date | None = None,
        end: str | date | None = None,
        **params: Param,
    ) -> Table:
        """
        The points of `indicator`: `series` (ids or patterns, a str or a list), `start` and
        `end` (the API's `from` and `to`) and any other parameter by its API name (`at`,
        `frequency`, `aggregation`, `units`, `base`, `real`, `per`, `as_of`, `provenance`).

        Every page is fetched and the rows are in the API's order (date descending, then
        series). `limit` or `offset` given asks for that one page only, as the API pages:
        `limit` points per sub-series from the newest, after `offset` of each.
        Columns: `date`, `series`, `value`, and with `provenance=True` `note`, `source`, `source_kind`.
        """
        if "format" in params or "dialect" in params:
            raise TypeError("values() reads the JSON answer: format and dialect are not its parameters")
        path = f"/api/v1/{quote(indicator, safe='')}"
        query: dict[str, Param] = {"series": series, "from": start, "to": end, **params}
        if query.get("as_of") is None:
            query["as_of"] = self.as_of
        if query.get("limit") is None and query.get("offset") is None:
            data, meta = self._follow(path, {**query, "limit": self._page_limit(path, query)})
            data = _api_order(data)
        else:
            answer = self.get(path, query)
            data, meta = answer["data"], answer["meta"]
        columns = _VALUE_COLUMNS + (_PROVENANCE_COLUMNS if _asks_provenance(params) else ())
        return table([_value_row(item) for item in data], columns, meta, self.as_frame)

    def metadata(self, indicator: str) -> dict[str, Any]:
        """The indicator's metadata document: titles, unit, rhythm, facets, sub-series, freshness (a dict)."""
        return self.get(f"/api/v1/{quote(indicator, safe='')}/metadata.json")

    def status(self) -> dict[str, Any]:
        """The status document, `/api/v1/status.json`: every indicator's freshness (a dict)."""
        return self.get("/api/v1/status.json")

    def search(
        self,
        q: str,
        indicator: str | None = None,
        facet: str | Mapping[str, str | Sequence[str]] | None = None,
        limit: int | None = None,
        offset: int | None = None,
    ) -> dict[str, Any]:
        """
        One page of the search for `q` (`data`: the best matches first; `meta`: the facet counts,
        `total`, `next`). `facet` as the API writes it (`"provider:casmu"`) or as a mapping
        (`{"provider": "casmu", "regime": ["fonasa", "sin fonasa"]}`).
        """
        return self.get("/api/v1/search", {"q": q, "indicator": indicator, "facet": facet, "limit": limit, "offset": offset})

    def changes(self, indicator: str, since: str | date, series: str | Sequence[str] | None = None) -> Table:
        """
        What changed in `indicator` since the end of the day `since`, up to the current version
        (not pinned by `as_of`: the endpoint takes none), every page: columns `date`, `series`,
        `change` (`added`, `revised`, `removed`), `value`, `previous` and `changed`.
        """
        path = f"/api/v1/{quote(indicator, safe='')}/changes"
        data, meta = self._follow(path, {"since": since, "series": series, "limit": MAX_PAGE_SIZE})
        rows = [_change_row(item) for item in data]
        return table(rows, _CHANGE_COLUMNS, meta, self.as_frame, dates=("date", "changed"), numbers=("value", "previous"))

    def adjust(self, amount: float | int | str, start: str | date, end: str | date, by: str) -> dict[str, Any]:
        """
        `amount` carried from `start` to `end` by `by` (`<indicator>:<sub-series>`, one that
        adjusts): the answer's `data` (`factor`, `adjusted`, `in_units`, both ends) and `meta`.
        Not pinned by `as_of`: the endpoint takes none, and its answer depends on today.
        """
        return self.get("/api/v1/adjust", {"amount": amount, "from": start, "to": end, "by": by})
