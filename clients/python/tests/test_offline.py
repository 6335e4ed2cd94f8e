"""What the client does without a server: query strings, the cache's files, errors read from answers."""

from __future__ import annotations

import json
import tempfile
import unittest
from datetime import date, datetime
from decimal import Decimal
from pathlib import Path

from openseriesuy import BadRequest, Client, InternalError, NotFound, OpenSeriesError, Rows, TooManyRequests, error_from_answer
from openseriesuy.cache import CacheEntry, DiskCache
from openseriesuy.query import query_value, url_of


class QueryStrings(unittest.TestCase):
    def test_values_are_written_as_the_api_reads_them(self) -> None:
        cases = [
            (None, None), (True, "true"), (False, "false"), (date(2025, 3, 1), "2025-03-01"),
            (datetime(2025, 3, 1, 23, 59), "2025-03-01"), (5000, "5000"), (1000.0, "1000"), (1234.56, "1234.56"),
            (1e-7, "0.0000001"), (Decimal("1E+3"), "1000"), (["a", "b.*"], "a,b.*"), ("casmu.*", "casmu.*"),
            ({"provider": "casmu", "regime": ["fonasa", "sin fonasa"]}, "provider:casmu,regime:fonasa,regime:sin fonasa"),
        ]
        for value, text in cases:
            with self.subTest(value=value):
                self.assertEqual(query_value(value), text)

    def test_a_url_keeps_the_order_given_and_leaves_out_none(self) -> None:
        url = url_of("https://example.test/", "/api/v1/x", {"series": ["a.*", "b c"], "from": "2024", "to": None, "provenance": True})
        self.assertEqual(url, "https://example.test/api/v1/x?series=a.*,b%20c&from=2024&provenance=true")
        self.assertEqual(url_of("https://example.test", "/api/v1/status.json", {}), "https://example.test/api/v1/status.json")


class TheCacheFiles(unittest.TestCase):
    def test_an_entry_is_read_back_for_its_url_only(self) -> None:
        with tempfile.TemporaryDirectory() as folder:
            cache = DiskCache(Path(folder) / "made")
            entry = CacheEntry('"tag"', "Fri, 20 Nov 2026 00:00:00 GMT", b'{"data":[]}\n\x00 bytes as they came')
            cache.store("https://example.test/a?x=1", entry)
            self.assertEqual(cache.load("https://example.test/a?x=1"), entry)
            self.assertIsNone(cache.load("https://example.test/a?x=2"))
            cache.store("https://example.test/a?x=1", CacheEntry(None, None, b"newer"))
            self.assertEqual(cache.load("https://example.test/a?x=1"), CacheEntry(None, None, b"newer"))
            self.assertEqual(len(list((Path(folder) / "made").iterdir())), 1)


class ErrorsFromAnswers(unittest.TestCase):
    def test_the_class_follows_the_code(self) -> None:
        body = json.dumps({"error": {"code": "bad_request", "message": "m", "detail": "limit: expected an integer"}}).encode()
        error = error_from_answer(400, body, "https://example.test/api/v1/x?limit=0")
        self.assertIsInstance(error, BadRequest)
        self.assertEqual((error.status, error.code, error.detail, error.message), (400, "bad_request", "limit: expected an integer", "m"))
        limited = error_from_answer(429, json.dumps({"error": {"code": "too_many_requests", "detail": "rate: …"}}).encode(), retry_after=3)
        self.assertIsInstance(limited, TooManyRequests)
        self.assertEqual(getattr(limited, "retry_after"), 3)

    def test_an_answer_without_the_error_object_takes_its_statuss_code(self) -> None:
        page = error_from_answer(404, b"<!doctype html><title>No encontrada</title>")
        self.assertIsInstance(page, NotFound)
        self.assertEqual(page.code, "not_found")
        self.assertIsInstance(error_from_answer(502, b"Bad gateway"), InternalError)
        unknown = error_from_answer(418, b"")
        self.assertEqual((type(unknown), unknown.code), (OpenSeriesError, None))


class ClientOptions(unittest.TestCase):
    def test_a_page_size_outside_the_apis_limit_is_refused(self) -> None:
        for size in (0, 5001):
            with self.subTest(size), self.assertRaises(ValueError):
                Client(page_size=size)

    def test_format_is_not_a_parameter_of_values(self) -> None:
        with self.assertRaises(TypeError):
            Client("https://example.test", pandas=False).values("x", format="csv")

    def test_rows_carry_the_first_pages_meta(self) -> None:
        rows = Rows([{"date": "2026-01-01", "series": "a", "value": 1.0}], {"total": 1})
        self.assertEqual((list(rows), rows.meta), ([{"date": "2026-01-01", "series": "a", "value": 1.0}], {"total": 1}))
