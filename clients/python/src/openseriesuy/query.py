"""Python values as the API's query strings, and URLs built from them.

The API validates every parameter itself and names the one it refuses (docs/api.md,
"Errors"), so nothing here judges a value: it only writes Python's values the way the API
reads them — dates as `YYYY-MM-DD`, lists comma-joined, booleans `true`/`false`, numbers
without an exponent — and leaves out what is None.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from datetime import date, datetime
from decimal import Decimal
from urllib.parse import quote, urlencode

__all__ = ["Param", "query_value", "url_of"]

Param = str | int | float | Decimal | bool | date | Sequence[str] | Mapping[str, "str | Sequence[str]"] | None
"""What a parameter may be given as."""


def _plain_number(value: float | Decimal) -> str:
    """A number as the API reads it: digits and a point, never an exponent (`1e-07` is a 400)."""
    text = format(Decimal(repr(value)) if isinstance(value, float) else value, "f")
    return text.rstrip("0").rstrip(".") if "." in text else text


def _pairs(value: Mapping[str, str | Sequence[str]]) -> Iterable[str]:
    """`name:value` for each value of each name (the search's `facet`: two values of one name are alternatives)."""
    for name, values in value.items():
        for one in [values] if isinstance(values, str) else values:
            yield f"{name}:{one}"


def query_value(value: Param) -> str | None:
    """The query-string text of one parameter's value, or None to leave the parameter out."""
    if value is None:
        return None
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, datetime):
        return value.date().isoformat()
    if isinstance(value, date):
        return value.isoformat()
    if isinstance(value, (float, Decimal)):
        return _plain_number(value)
    if isinstance(value, (str, int)):
        return str(value)
    if isinstance(value, Mapping):
        return ",".join(_pairs(value))
    return ",".join(str(item) for item in value)


def url_of(base_url: str, path: str, params: Mapping[str, Param]) -> str:
    """`base_url` + `path` + the query of the parameters that are not None, in the order given (`,`, `:` and `*` left readable)."""
    written = [(name, text) for name, value in params.items() if (text := query_value(value)) is not None]
    query = urlencode(written, quote_via=quote, safe=",:*")
    return f"{base_url.rstrip('/')}{path}" + (f"?{query}" if query else "")
