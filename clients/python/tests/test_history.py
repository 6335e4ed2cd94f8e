"""`as_of` pinning over a synthetic data history: each day's answer is that day's data folder, and the same bytes on every run."""

from __future__ import annotations

import tempfile
import unittest
from typing import Any

from openseriesuy import BadRequest, Client

from .reference import compared, env, history_versions, indicators, needs, points, read_rows


@needs("OSU_HISTORY_URL", "OSU_HISTORY_VERSIONS")
class PinnedToADay(unittest.TestCase):
    def test_each_day_answers_that_days_data_folder(self) -> None:
        versions = history_versions()
        every = sorted({i for v in versions for i in indicators(v["data"])})
        self.assertEqual(len(versions), 7)
        for version in versions:
            client = Client(env("OSU_HISTORY_URL"), as_of=version["day"], pandas=False)
            published = indicators(version["data"])
            for indicator in every:
                with self.subTest(day=version["day"], indicator=indicator):
                    if indicator in published:
                        rows = client.values(indicator)
                        self.assertEqual(points(rows), points(read_rows(version["data"], indicator)))
                        self.assertEqual(rows.meta["as_of"], version["day"])
                    else:
                        # Not yet published that day: the API's 400 for as_of, naming its first day.
                        with self.assertRaises(BadRequest) as raised:
                            client.values(indicator)
                        self.assertRegex(raised.exception.detail, rf"^as_of: {indicator} was first published on \d{{4}}-\d\d-\d\d")
                    compared()

    def test_a_pinned_frame_is_the_same_bytes_on_every_run(self) -> None:
        # Three runs: a client with a disk cache, the same again (answered 304), and one point per page merged again.
        for version in history_versions():
            for indicator in indicators(version["data"]):
                with self.subTest(day=version["day"], indicator=indicator), tempfile.TemporaryDirectory() as folder:
                    cached: Any = Client(env("OSU_HISTORY_URL"), as_of=version["day"], cache_dir=folder, pandas=True)
                    runs = [cached.values(indicator).to_csv().encode(), cached.values(indicator).to_csv().encode()]
                    self.assertEqual(cached.stats.not_modified, 1)
                    paged: Any = Client(env("OSU_HISTORY_URL"), as_of=version["day"], page_size=1, pandas=True)
                    runs.append(paged.values(indicator).to_csv().encode())
                    self.assertGreater(paged.stats.requests, 1)
                    self.assertEqual(len(set(runs)), 1)
                    compared(len(runs))
