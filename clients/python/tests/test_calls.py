"""`metadata`, `status`, `search`, `changes` and `adjust` against the served real data, compared with the data folder."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from .reference import RealDataCase, api_order, compared, env, needs, points


def _eight_digits(x: float) -> float:
    """A derived number as the API rounds it: once, to 8 significant digits (docs/time.md)."""
    return float(f"{x:.7e}")


@needs("OSU_BASE_URL", "OSU_DATA")
class TheOtherCalls(RealDataCase):
    def value_on(self, indicator: str, series: str, day: str) -> float:
        """The reference's value of a point."""
        return float(next(r["value"] for r in self.reference[indicator] if r["series"] == series and r["date"] == day))

    def test_metadata_lists_the_declared_sub_series(self) -> None:
        for indicator, rows in self.reference.items():
            with self.subTest(indicator):
                declared = json.loads((Path(env("OSU_DATA")) / indicator / "indicator.json").read_text("utf-8"))
                document = self.client.metadata(indicator)
                self.assertEqual(sorted(s["id"] for s in document["series"]), sorted(s["id"] for s in declared["series"]))
                self.assertEqual((document["points"], document["last_updated"]), (len(rows), rows[0]["date"]))
                compared()

    def test_status_gives_every_indicators_newest_point(self) -> None:
        status = self.client.status()
        self.assertEqual({i["id"]: i["newest"] for i in status["indicators"]}, {i: rows[0]["date"] for i, rows in self.reference.items()})
        compared()

    def test_search_finds_what_people_type_and_filters_by_facet(self) -> None:
        best = self.client.search("casmu gineco", limit=1)["data"][0]
        series = "casmu.consult-gynaecology.fonasa"
        self.assertEqual(best["series"], series)
        newest = next(r for r in self.reference[best["indicator"]] if r["series"] == series)
        self.assertEqual((best["newest"]["date"], best["newest"]["value"]), (newest["date"], newest["value"]))
        filtered = self.client.search("gineco", facet={"provider": "casmu"}, limit=100)
        self.assertGreater(len(filtered["data"]), 0)
        self.assertTrue(all(r["series"].startswith("casmu.") for r in filtered["data"]))
        self.assertEqual(filtered["meta"]["total"], len(filtered["data"]))
        compared(2)

    def test_changes_since_before_the_first_version_add_every_point(self) -> None:
        # Of the health insurance prices, CASMU's sub-series (a pattern, as `changes` takes them):
        # all 1,554 read the whole history table (6.6 MiB), which took 2-3 s on a fresh server here.
        selections = {indicator: None for indicator in self.reference} | {"health-insurance-prices": "casmu.*"}
        for indicator, series in selections.items():
            with self.subTest(indicator):
                changes = self.client.changes(indicator, since="2000-01-01", series=series)
                rows = [r for r in self.reference[indicator] if series is None or r["series"].startswith("casmu.")]
                self.assertEqual({c["change"] for c in changes}, {"added"})
                self.assertTrue(all(c["previous"] is None for c in changes))
                self.assertEqual(points(api_order(changes)), points(rows))
                self.assertIsNotNone(changes.meta["since_before_first"])
                compared()

    def test_adjust_carries_an_amount_by_the_ratio_of_two_values(self) -> None:
        # The UI is daily: each date's own point; the CPI is monthly: the point of each date's month.
        cases = [("unidad-indexada", "ui", 25000, "2024-03-01", "2026-09-01", "2024-03-01", "2026-09-01"),
                 ("consumer-price-index", "general", 1000, "2019-01-15", "2026-07-01", "2019-01-01", "2026-07-01")]
        for indicator, series, amount, start, end, first, last in cases:
            with self.subTest(indicator):
                answer = self.client.adjust(amount, start, end, by=f"{indicator}:{series}")["data"]
                before, after = self.value_on(indicator, series, first), self.value_on(indicator, series, last)
                self.assertEqual((answer["from"]["point"], answer["from"]["value"]), (first, before))
                self.assertEqual((answer["to"]["point"], answer["to"]["value"]), (last, after))
                self.assertEqual(answer["factor"], _eight_digits(after / before))
                self.assertEqual(answer["adjusted"], _eight_digits(amount * after / before))
                compared()
