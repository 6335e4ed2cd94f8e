"""Each error code the API gives, raised by the client; the usage limit waited out or raised."""

from __future__ import annotations

import secrets
import unittest
import urllib.error
import urllib.request
from collections.abc import Callable
from typing import Any

from openseriesuy import BadRequest, Client, MethodNotAllowed, NotFound, OpenSeriesError, TooManyRequests, error_from_answer

from .reference import compared, env, fact, needs, points, read_rows

MOST_REQUESTS = 40
"""Requests a test sends at most to meet the limit (5 per 3 s): a window of 3 s holds six of them unless each takes over half a second."""


def _client_address() -> str:
    """A client address of this run alone (IPv6 documentation range): the usage limit counts per `CF-Connecting-IP`."""
    return f"2001:db8:{secrets.token_hex(2)}:{secrets.token_hex(2)}::1"


@needs("OSU_BASE_URL")
class ErrorsOfTheApi(unittest.TestCase):
    client: Client

    @classmethod
    def setUpClass(cls) -> None:
        cls.client = Client(env("OSU_BASE_URL"), pandas=False)

    def test_bad_request_names_the_parameter(self) -> None:
        cases: list[tuple[dict[str, Any], str]] = [({"start": "2024-13-01"}, "from"), ({"provider": "CASMU"}, "provider"), ({"limit": 0}, "limit")]
        for arguments, parameter in cases:
            with self.subTest(parameter), self.assertRaises(BadRequest) as raised:
                self.client.values("bpc", **arguments)
            error = raised.exception
            self.assertEqual((error.status, error.code), (400, "bad_request"))
            self.assertTrue(error.detail.startswith(f"{parameter}:"), error.detail)

    def test_not_found_for_an_unknown_indicator(self) -> None:
        # The endpoint's JSON 404, and the static metadata file's 404 page (not JSON): both NotFound, code not_found.
        errors: list[OpenSeriesError] = []
        calls: list[Callable[[], object]] = [lambda: self.client.values("gdp"), lambda: self.client.metadata("gdp")]
        for call in calls:
            with self.assertRaises(NotFound) as raised:
                call()
            errors.append(raised.exception)
        self.assertEqual([(e.status, e.code) for e in errors], [(404, "not_found")] * 2)
        self.assertIn('"gdp"', errors[0].detail)

    def test_method_not_allowed_read_from_a_real_answer(self) -> None:
        # The client only sends GET (the API is read-only), so it cannot meet a 405 itself:
        # a POST sent here, its answer turned into the client's exception by the client's one mapping.
        request = urllib.request.Request(env("OSU_BASE_URL") + "/api/v1/bpc", data=b"", method="POST")
        with self.assertRaises(urllib.error.HTTPError) as sent:
            urllib.request.urlopen(request, timeout=30)
        with sent.exception as answer:
            error = error_from_answer(answer.code, answer.read())
        self.assertIsInstance(error, MethodNotAllowed)
        self.assertEqual((error.status, error.code), (405, "method_not_allowed"))
        self.assertTrue(error.detail.startswith("method:"), error.detail)


@needs("OSU_TIGHT_URL", "OSU_DATA")
class TheUsageLimit(unittest.TestCase):
    """Against a server that allows 5 requests per 3 s per client address."""

    def test_a_429_is_waited_out_and_the_request_answered(self) -> None:
        client = Client(env("OSU_TIGHT_URL"), headers={"CF-Connecting-IP": _client_address()}, max_retry_wait=10, pandas=False)
        newest = points(read_rows(env("OSU_DATA"), "bpc")[:1])
        for _ in range(MOST_REQUESTS):
            self.assertEqual(points(client.values("bpc", limit=1)), newest)
            compared()
            if client.stats.retries > 0:
                break
        self.assertEqual(client.stats.retries, 1)
        self.assertGreaterEqual(client.stats.waited, 1)
        fact("usage limit: requests, of them retries, seconds waited", [client.stats.requests, client.stats.retries, client.stats.waited])

    def test_a_429_over_the_longest_wait_is_raised(self) -> None:
        client = Client(env("OSU_TIGHT_URL"), headers={"CF-Connecting-IP": _client_address()}, max_retry_wait=0.5, pandas=False)
        with self.assertRaises(TooManyRequests) as raised:
            for _ in range(MOST_REQUESTS):
                client.values("bpc", limit=1)
        error = raised.exception
        self.assertEqual((error.status, error.code), (429, "too_many_requests"))
        self.assertTrue(error.detail.startswith("rate:"), error.detail)
        self.assertGreaterEqual(error.retry_after or 0, 1)
        self.assertIsInstance(error, OpenSeriesError)
        self.assertEqual(client.stats.retries, 0)
