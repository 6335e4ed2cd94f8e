"""The disk cache against a served API: a repeat is a conditional request answered 304, with no body downloaded."""

from __future__ import annotations

import tempfile
import unittest
from pathlib import Path

from openseriesuy import Client

from .reference import compared, env, fact, needs, points, read_rows


@needs("OSU_BASE_URL", "OSU_DATA")
class TheDiskCache(unittest.TestCase):
    def test_a_repeat_downloads_no_body_and_gives_the_same_rows(self) -> None:
        expected = points(read_rows(env("OSU_DATA"), "consumer-price-index"))
        with tempfile.TemporaryDirectory() as folder:
            client = Client(env("OSU_BASE_URL"), cache_dir=folder, pandas=False)
            first = client.values("consumer-price-index")
            downloaded = client.stats.body_bytes
            self.assertEqual((client.stats.requests, client.stats.not_modified), (1, 0))
            self.assertGreater(downloaded, 0)
            # A new client on the same folder: what is kept is on disk, one entry file per URL, no temporary file left.
            again = Client(env("OSU_BASE_URL"), cache_dir=folder, pandas=False)
            second = again.values("consumer-price-index")
            self.assertEqual((again.stats.requests, again.stats.not_modified, again.stats.body_bytes), (1, 1, 0))
            self.assertEqual(points(first), expected)
            self.assertEqual(points(second), expected)
            self.assertEqual([p.suffix for p in Path(folder).iterdir()], [".entry"])
            fact("cache: bytes of the first answer, then of the repeat", [downloaded, again.stats.body_bytes])
            compared(2)

    def test_another_question_is_not_answered_from_the_cache(self) -> None:
        with tempfile.TemporaryDirectory() as folder:
            client = Client(env("OSU_BASE_URL"), cache_dir=folder, pandas=False)
            client.values("bpc")
            newest = client.values("bpc", limit=1)
            self.assertEqual((client.stats.requests, client.stats.not_modified), (2, 0))
            self.assertEqual(points(newest), points(read_rows(env("OSU_DATA"), "bpc")[:1]))
            compared()
