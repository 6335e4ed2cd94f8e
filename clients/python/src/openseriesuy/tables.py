"""The rows of an answer as a pandas DataFrame, or, without pandas, as a list of dicts.

pandas is imported only here and only when a frame is made, so the client works (and
imports fast) where pandas is not installed.
"""

from __future__ import annotations

import importlib.util
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Union

if TYPE_CHECKING:
    import pandas

__all__ = ["Rows", "Table", "pandas_available", "table"]


class Rows(list[dict[str, Any]]):
    """The rows of an answer as dicts (dates as the API's `YYYY-MM-DD` text), with the `meta` of its first page."""

    def __init__(self, rows: Sequence[dict[str, Any]], meta: dict[str, Any]) -> None:
        super().__init__(rows)
        self.meta = meta


Table = Union["pandas.DataFrame", Rows]
"""What the tabular calls return: a DataFrame with pandas, else `Rows`."""


def pandas_available() -> bool:
    """Whether pandas can be imported (looked up without importing it)."""
    return importlib.util.find_spec("pandas") is not None


def table(
    rows: Sequence[dict[str, Any]],
    columns: Sequence[str],
    meta: dict[str, Any],
    as_frame: bool,
    dates: Sequence[str] = ("date",),
    numbers: Sequence[str] = ("value",),
) -> Table:
    """
    The rows as a DataFrame of `columns` (`dates` as datetime64, `numbers` as float64, a
    missing number NaN; the first page's `meta` in `frame.attrs["meta"]`) when `as_frame`,
    else as `Rows`. Both keep the rows' order.
    """
    if not as_frame:
        return Rows(rows, meta)
    import pandas

    frame = pandas.DataFrame.from_records(list(rows), columns=list(columns))
    for column in dates:
        frame[column] = pandas.to_datetime(frame[column], format="%Y-%m-%d")
    for column in numbers:
        frame[column] = frame[column].astype("float64")
    frame.attrs["meta"] = meta
    return frame
