"""
What the tests compare the client with, read independently of the API and of the client:
the data folder's CSV files through Python's `csv` module, and where the servers are
(environment variables set by the project's test/e2e/python-client.test.ts).

Without those variables the tests that need a server skip, so `python3 -m unittest` alone
runs the offline ones.
"""

from __future__ import annotations

import csv
import functools
import json
import os
import unittest
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any, TypeVar

from openseriesuy import Client

Point = tuple[str, str, float]
"""(date, series, value) of one point."""

Case = TypeVar("Case", bound=type[unittest.TestCase])

COMPARED = [0]
"""Client calls whose answer a test compared with the reference (the runner prints the count)."""

FACTS: dict[str, Any] = {}
"""Figures the tests measured (pages followed, seconds waited), printed by the runner."""


def compared(calls: int = 1) -> None:
    """Counts `calls` client calls compared with the reference."""
    COMPARED[0] += calls


def fact(name: str, value: Any) -> None:
    """Records a measured figure for the runner's summary."""
    FACTS[name] = value


def env(name: str) -> str:
    """The environment variable `name` (its test is skipped where it is not set)."""
    return os.environ.get(name, "")


def needs(*names: str) -> Callable[[Case], Case]:
    """Skips a test class unless every variable of `names` is set (a server to ask, a folder to read)."""
    missing = [name for name in names if not os.environ.get(name)]

    def decorate(case: Case) -> Case:
        return unittest.skipIf(bool(missing), f"needs {', '.join(missing)} (set by test/e2e/python-client.test.ts)")(case)

    return decorate


def api_order(rows: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
    """Rows in the API's order (docs/api.md): date descending, then series ascending."""
    return sorted(sorted(rows, key=lambda r: str(r["series"])), key=lambda r: str(r["date"]), reverse=True)


def _kind(source: str | None, kinds: list[dict[str, Any]]) -> str | None:
    """The kind of a source address: its longest declared prefix's (docs/data.md, "Kinds of source")."""
    if source is None:
        return None
    matching = [k for k in kinds if source.startswith(k["prefix"])]
    return str(max(matching, key=lambda k: len(k["prefix"]))["kind"]) if matching else None


def indicators(data: str) -> list[str]:
    """The indicators of a data folder: its folders with an `indicator.json`, sorted."""
    return sorted(p.parent.name for p in Path(data).glob("*/indicator.json"))


def read_rows(data: str, indicator: str) -> list[dict[str, Any]]:
    """
    Every point of `indicator` in `data` as the CSV files say: date, series, value (as a
    float), source and note (None when empty or absent) and the source's declared kind,
    in the API's order.
    """
    folder = Path(data) / indicator
    kinds = json.loads((folder / "indicator.json").read_text("utf-8")).get("sourceKinds", [])
    rows = []
    for path in sorted(folder.glob("*.csv")):
        with path.open(encoding="utf-8-sig", newline="") as file:
            for line in csv.DictReader(file):
                source, note = line.get("source") or None, line.get("note") or None
                rows.append({"date": line["date"], "series": line["series"], "value": float(line["value"]),
                             "source": source, "note": note, "source_kind": _kind(source, kinds)})
    return api_order(rows)


def points(rows: Iterable[dict[str, Any]]) -> list[Point]:
    """(date, series, value) of each row, in order (a row of the client's or of the reference)."""
    return [(row["date"], row["series"], row["value"]) for row in rows]


@functools.cache
def real_data() -> dict[str, list[dict[str, Any]]]:
    """Every indicator's rows in the real data folder (`OSU_DATA`), read once per run."""
    return {indicator: read_rows(env("OSU_DATA"), indicator) for indicator in indicators(env("OSU_DATA"))}


class RealDataCase(unittest.TestCase):
    """Tests of the served real data (`OSU_BASE_URL`): a client returning `Rows`, and the reference rows of every indicator."""

    client: Client
    reference: dict[str, list[dict[str, Any]]]

    @classmethod
    def setUpClass(cls) -> None:
        cls.client = Client(env("OSU_BASE_URL"), pandas=False)
        cls.reference = real_data()


def history_versions() -> list[dict[str, str]]:
    """The history server's versions, oldest first: each day and the data folder of that day's last commit."""
    with open(env("OSU_HISTORY_VERSIONS"), encoding="utf-8") as file:
        versions: list[dict[str, str]] = json.load(file)
    return versions
