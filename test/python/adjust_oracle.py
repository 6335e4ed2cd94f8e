"""
An independent oracle of /api/v1/adjust, written from its specification (docs/api.md,
"Adjusting an amount"): amount × the value covering `to` / the value covering `from`,
each value found by the rule of coverage as the time oracle (time_oracle.py, pandas,
reading only data/) finds the point covering a day for `at`. It never imports the
project's code.

Usage: python3 adjust_oracle.py <data-folder> <V: YYYY-MM-DD>
stdin: a JSON list of {"by": "<indicator>:<series>", "amount": number, "from": date, "to": date};
stdout: a JSON list of answers, each {"from_point", "from_value", "to_point", "to_value",
        "factor", "adjusted"} (unrounded), or {"error": 400} when a date has no covering value.
"""

import json
import os
import sys

import pandas as pd

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from time_oracle import Oracle  # noqa: E402  (the time oracle beside this file)


def covering(oracle, ident, series, day):
    """The point [date, series, value] covering `day`, or None."""
    answer = oracle.answer(ident, {"series": series, "at": day})
    if "error" in answer or not answer["points"]:
        return None
    return answer["points"][0]


def main():
    folder, version = sys.argv[1], pd.Timestamp(sys.argv[2])
    oracle = Oracle(folder, version)
    out = []
    for q in json.load(sys.stdin):
        ident, series = q["by"].split(":")
        a = covering(oracle, ident, series, q["from"])
        b = covering(oracle, ident, series, q["to"])
        if a is None or b is None:
            out.append({"error": 400})
            continue
        ratio = float(b[2]) / float(a[2])
        out.append({"from_point": a[0], "from_value": float(a[2]), "to_point": b[0], "to_value": float(b[2]), "factor": ratio, "adjusted": q["amount"] * ratio})
    json.dump(out, sys.stdout)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
