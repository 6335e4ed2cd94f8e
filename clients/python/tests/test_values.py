"""`values` against the served real data, each answer compared with the indicator's CSV files."""

from __future__ import annotations

import math
import re
from collections import Counter
from datetime import date
from typing import Any

from openseriesuy import Client

from .reference import RealDataCase, api_order, compared, env, fact, needs, points

PRICES = "health-insurance-prices"
CASMU_GP = "casmu.consult-general-medicine.fonasa"


def _selected(rows: list[dict[str, Any]], patterns: list[str], first: str, last: str) -> list[dict[str, Any]]:
    """The rows of sub-series matching a pattern (`*`: any run of characters, dots included) dated within [first, last]."""
    matchers = [re.compile("^" + ".*".join(map(re.escape, p.split("*"))) + "$") for p in patterns]
    return [r for r in rows if any(m.match(r["series"]) for m in matchers) and first <= r["date"] <= last]


@needs("OSU_BASE_URL", "OSU_DATA")
class ValuesOfTheRealData(RealDataCase):
    def test_every_indicator_is_its_csv_files(self) -> None:
        self.assertEqual(len(self.reference), 6)
        for indicator, rows in self.reference.items():
            with self.subTest(indicator):
                self.assertEqual(points(self.client.values(indicator)), points(rows))
                compared()

    def test_provenance_gives_each_point_its_source_note_and_kind(self) -> None:
        keys = ("date", "series", "value", "note", "source", "source_kind")
        for indicator, rows in self.reference.items():
            with self.subTest(indicator):
                got = self.client.values(indicator, provenance=True)
                self.assertEqual([{k: r[k] for k in keys} for r in got], [{k: r[k] for k in keys} for r in rows])
                self.assertTrue(all(set(r) == set(keys) for r in got))
                compared()

    def test_a_selection_by_series_and_dates(self) -> None:
        cases: list[tuple[str, dict[str, Any], list[str], str, str]] = [
            (PRICES, {"series": CASMU_GP}, [CASMU_GP], "0000-01-01", "9999-12-31"),
            (PRICES, {"series": ["casmu.*", "*.consult-general-medicine.fonasa"], "start": "2020-01", "end": "2024"}, ["casmu.*", "*.consult-general-medicine.fonasa"], "2020-01-01", "2024-12-31"),
            ("domestic-worker-wages", {"series": "hourly,monthly", "start": "2015-06-15", "end": "2025-03"}, ["hourly", "monthly"], "2015-06-15", "2025-03-31"),
            ("unidad-indexada", {"start": date(2025, 1, 1), "end": date(2025, 1, 31)}, ["*"], "2025-01-01", "2025-01-31"),
        ]
        for indicator, arguments, patterns, first, last in cases:
            with self.subTest(indicator=indicator, arguments=arguments):
                expected = _selected(self.reference[indicator], patterns, first, last)
                self.assertGreater(len(expected), 0)
                self.assertEqual(points(self.client.values(indicator, **arguments)), points(expected))
                compared()
        # The README's sub-series: 17 prices, the newest 192 from July 2026.
        self.assertEqual(points(self.client.values(PRICES, series=CASMU_GP))[0], ("2026-07-01", CASMU_GP, 192.0))

    def test_pages_are_followed_and_merged_in_the_apis_order(self) -> None:
        rows = self.reference[PRICES]
        longest = max(Counter(r["series"] for r in rows).values())
        self.assertEqual((len(rows), longest), (24274, 17))
        for page_size, provenance in [(2, False), (5000, True)]:
            with self.subTest(page_size=page_size, provenance=provenance):
                client = Client(env("OSU_BASE_URL"), page_size=page_size, pandas=False)
                got = client.values(PRICES, provenance=provenance)
                self.assertEqual(points(got), points(rows))
                compared()
                # With provenance an answer holds at most 8,000 points: 8000 // 1,554 = 5 per sub-series, after one request counting them.
                per_page = 8000 // 1554 if provenance else page_size
                self.assertEqual(client.stats.requests, math.ceil(longest / per_page) + (1 if provenance else 0))
                fact(f"pages of {PRICES} (page_size={page_size}, provenance={provenance})", client.stats.requests)

    def test_an_explicit_limit_is_one_page_of_the_api(self) -> None:
        client = Client(env("OSU_BASE_URL"), pandas=False)
        got = client.values(PRICES, limit=1, offset=2)
        by_series: dict[str, list[dict[str, Any]]] = {}
        for row in self.reference[PRICES]:
            by_series.setdefault(row["series"], []).append(row)
        # The third newest point of each sub-series that has three (the reference is newest first).
        expected = [rows[2] for rows in by_series.values() if len(rows) > 2]
        self.assertEqual(client.stats.requests, 1)
        self.assertEqual(points(got), points(api_order(expected)))
        self.assertTrue(got.meta["has_more"])
        compared()

    def test_a_data_frame_with_pandas(self) -> None:
        client = Client(env("OSU_BASE_URL"), pandas=True)
        for indicator, provenance in (("bpc", True), (PRICES, False)):
            with self.subTest(indicator):
                frame: Any = client.values(indicator, provenance=provenance)
                dtypes = ["datetime64[ns]", "object", "float64"] + ["object"] * (3 if provenance else 0)
                self.assertEqual([str(t) for t in frame.dtypes], dtypes)
                got = [(d.strftime("%Y-%m-%d"), s, v) for d, s, v in zip(frame["date"], frame["series"], frame["value"])]
                self.assertEqual(got, points(self.reference[indicator]))
                if provenance:
                    self.assertEqual(frame["note"].tolist(), [r["note"] for r in self.reference[indicator]])
                self.assertEqual(frame.attrs["meta"]["indicator"], indicator)
                compared()
