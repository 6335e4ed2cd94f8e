"""The README's example, run against a served API: it prints what the README says it prints."""

from __future__ import annotations

import contextlib
import io
import re
import unittest
from pathlib import Path

from openseriesuy import DEFAULT_BASE_URL

from .reference import compared, env, needs

README = Path(__file__).resolve().parent.parent / "README.md"


def example() -> tuple[str, str]:
    """The code and the printed output of the README's section "Example": its python block and the text block after it."""
    section = README.read_text("utf-8").split("\n## Example", 1)[1].split("\n## ", 1)[0]
    found = re.search(r"```python\n(.*?)```.*?```text\n(.*?)```", section, re.S)
    if found is None:
        raise AssertionError("README.md: no python block followed by a text block under ## Example")
    return found.group(1), found.group(2)


@needs("OSU_BASE_URL")
class TheReadmeExample(unittest.TestCase):
    def test_prints_what_the_readme_shows(self) -> None:
        code, printed = example()
        self.assertIn(DEFAULT_BASE_URL, code)
        output = io.StringIO()
        with contextlib.redirect_stdout(output):
            exec(compile(code.replace(DEFAULT_BASE_URL, env("OSU_BASE_URL")), str(README), "exec"), {})
        self.assertEqual(output.getvalue(), printed)
        compared(4)
