"""
Runs the client's tests (every `test_*.py` here) and prints, last on stdout, one JSON line
of what happened: tests run, failed, in error and skipped, the client calls compared with
the reference, the figures measured and which `openseriesuy` was tested. The project's
test/e2e/python-client.test.ts reads it. Exits 1 unless every test passed.

    python3 tests/run.py          # from clients/python, the package on PYTHONPATH
"""

from __future__ import annotations

import json
import sys
import time
import unittest
from pathlib import Path


class TimedResult(unittest.TextTestResult):
    """A result that also keeps each test's seconds (what makes the suite slow shows in the summary)."""

    seconds: dict[str, float] = {}

    def startTest(self, test: unittest.TestCase) -> None:
        self._started = time.monotonic()
        super().startTest(test)

    def stopTest(self, test: unittest.TestCase) -> None:
        TimedResult.seconds[test.id().rsplit(".", 1)[-1]] = round(time.monotonic() - self._started, 2)
        super().stopTest(test)


def main() -> int:
    """Discovers and runs the tests, the report on stderr, the summary line on stdout."""
    here = Path(__file__).resolve().parent
    suite = unittest.defaultTestLoader.discover(str(here), top_level_dir=str(here.parent))
    result = unittest.TextTestRunner(stream=sys.stderr, verbosity=2, resultclass=TimedResult).run(suite)
    # Imported after the run, as the tests imported them (the same modules, with their counts).
    import openseriesuy
    from tests.reference import COMPARED, FACTS

    summary = {
        "tests": result.testsRun,
        "failures": len(result.failures) + len(result.unexpectedSuccesses),
        "errors": len(result.errors),
        "skipped": len(result.skipped) + len(result.expectedFailures),
        "compared": COMPARED[0],
        "facts": FACTS,
        "slowest": dict(sorted(TimedResult.seconds.items(), key=lambda item: -item[1])[:5]),
        "package": openseriesuy.__file__,
    }
    print(json.dumps(summary))
    return 0 if result.wasSuccessful() and not result.skipped else 1


if __name__ == "__main__":
    sys.exit(main())
