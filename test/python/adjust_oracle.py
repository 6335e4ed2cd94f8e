"""
An independent oracle of /api/v1/adjust, written from its specification (docs/api.md,
"Adjusting an amount"): amount × the value for `to` / the value for `from`, each value
found by the rule of coverage as the time oracle (time_oracle.py, pandas, reading only
data/) finds the point covering a day for `at`; a day after the data version: a stepwise
value in force until its successor is due (by rhythm or schedule, whichever first), else,
past the newest value, that value with why the day has none: `overdue` when the value
after it was due by the schedule on or before today, else `pending`. A day after today,
before the first value or in a gap is a 400. It never imports the project's code.

Usage: python3 adjust_oracle.py <data-folder> <V: YYYY-MM-DD> <today: YYYY-MM-DD>
stdin: a JSON list of {"by": "<indicator>:<series>", "amount": number, "from": date, "to": date};
stdout: a JSON list of answers, each {"from_point", "from_value", "from_reason", "from_due",
        "to_point", ..., "factor", "adjusted"} (unrounded), or {"error": 400}.
"""

import calendar
import json
import os
import sys
from datetime import date, timedelta

import pandas as pd

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from time_oracle import Oracle  # noqa: E402  (the time oracle beside this file)


def covering(oracle, ident, series, day):
    """The point [date, series, value] covering `day`, or None."""
    answer = oracle.answer(ident, {"series": series, "at": day})
    if "error" in answer or not answer["points"]:
        return None
    return answer["points"][0]


RHYTHM_MONTHS = {"monthly": 1, "quarterly": 3, "semiannual": 6, "annual": 12}


def add_months(day, months):
    """`day` (a date) `months` later, the day clamped to the month's length."""
    m = day.month - 1 + months
    year, month = day.year + m // 12, m % 12 + 1
    return date(year, month, min(day.day, calendar.monthrange(year, month)[1]))


class Schedule:
    """indicator.json's `schedule`: the dates values are dated on and when each comes out."""

    def __init__(self, meta):
        schedule = meta.get("schedule")
        self.dates = None if schedule is None else schedule["dates"]
        self.published = None if schedule is None else schedule.get("published")

    def next_dated(self, day):
        """The first scheduled date after `day`, or None."""
        if self.dates is None or self.dates == "irregular":
            return None
        if self.dates == "daily":
            return day + timedelta(days=1)
        for k in range(1, 26):
            first = add_months(date(day.year, day.month, 1), k - 1)
            if first.month in self.dates["months"]:
                candidate = date(first.year, first.month, min(self.dates["day"], calendar.monthrange(first.year, first.month)[1]))
                if candidate > day:
                    return candidate
        return None

    def due(self, dated):
        """The day the value dated `dated` comes out."""
        if self.published is None:
            return dated
        month = add_months(date(dated.year, dated.month, 1), self.published["monthsAfter"])
        return date(month.year, month.month, min(self.published["day"], calendar.monthrange(month.year, month.month)[1]))


def end(oracle, folder, version, today, ident, series, text):
    """[point date, value, reason, due] for the day `text`, or None (a 400)."""
    day = date.fromisoformat(text)
    if day > today:
        return None
    p = covering(oracle, ident, series, text)
    if p is not None:
        return [p[0], float(p[2]), None, None]
    with open(os.path.join(folder, ident, "indicator.json"), encoding="utf-8") as f:
        meta = json.load(f)
    levels = oracle.indicator(ident).by_series[series]
    dates = [d.date() for d in levels["start"]]
    before = [k for k, d in enumerate(dates) if d <= day]
    if not before or before[-1] != len(dates) - 1:
        return None  # before the first value, or a gap between two
    last = dates[-1]
    value = float(levels["value"].iloc[-1])
    schedule = Schedule(meta)
    dated = schedule.next_dated(last)
    due = None if dated is None else schedule.due(dated)
    if meta["stepwise"] and day > version.date():
        months = RHYTHM_MONTHS.get(meta["rhythm"])
        by_rhythm = add_months(last, months) if months is not None else None
        ends = [d for d in (due, by_rhythm) if d is not None]
        if not ends or day < min(ends):
            return [last.isoformat(), value, None, None]
    reason = "overdue" if due is not None and due <= today else "pending"
    return [last.isoformat(), value, reason, None if due is None else due.isoformat()]


def main():
    folder, version, today = sys.argv[1], pd.Timestamp(sys.argv[2]), date.fromisoformat(sys.argv[3])
    oracle = Oracle(folder, version)
    out = []
    for q in json.load(sys.stdin):
        ident, series = q["by"].split(":")
        a = end(oracle, folder, version, today, ident, series, q["from"])
        b = end(oracle, folder, version, today, ident, series, q["to"])
        if a is None or b is None:
            out.append({"error": 400})
            continue
        ratio = b[1] / a[1]
        out.append({
            "from_point": a[0], "from_value": a[1], "from_reason": a[2], "from_due": a[3],
            "to_point": b[0], "to_value": b[1], "to_reason": b[2], "to_due": b[3],
            "factor": ratio, "adjusted": q["amount"] * ratio,
        })
    json.dump(out, sys.stdout)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
