#!/usr/bin/env python3
"""An independent oracle for `as_of` and `/changes` (docs/api.md), written from the
specification alone: it reads git itself (the first-parent log of the data folder,
`git ls-tree` and `git show` of each CSV file) and the CSV files with pandas, and
nothing of src/.

The rules it models:
- a commit is published on the UTC day of its committer time (never before its
  parent's: a running maximum); the version in force at the end of a day is the
  last commit published on or before it; an indicator has no version on a day
  before the first commit holding its folder (the API answers 400 for `as_of` then);
- `as_of=D` answers the points of that version: every (date, series, value) of its
  CSV files, date descending then series ascending;
- `changes?since=D` lists the points whose value text or presence differs between
  the version of D and the newest one: added (value, no previous), revised (value
  and previous) or removed (previous, no value), each with the last day on which
  the point's value text or presence changed, newest day first, then date
  descending and series ascending. On a day before the indicator's first version
  nothing was published: every point published since is listed (the newest
  version's points added, each on the day it last changed).

Input on stdin (JSON): {"repo": dir, "data": the data folder relative to repo,
"indicators": [...], "days": [...]}. Output on stdout (JSON):
{"as_of": {indicator: {day: [[date, series, value], ...] or null}},
 "changes": {indicator: {day: [[date, series, change, value, previous, changed], ...] or null}}}.
"""
import io
import json
import subprocess
import sys
from datetime import datetime, timezone

import pandas as pd


def git(repo, *args):
    return subprocess.run(["git", "-C", repo, *args], check=True, capture_output=True).stdout


def main():
    request = json.load(sys.stdin)
    repo, data = request["repo"], request["data"].rstrip("/")
    log = git(repo, "log", "--first-parent", "--format=%H %ct", "HEAD", "--", data).decode().split("\n")
    commits = []
    running = 0
    for line in reversed([l for l in log if l.strip()]):
        sha, seconds = line.split(" ")
        running = max(running, int(seconds))
        commits.append((sha, datetime.fromtimestamp(running, timezone.utc).strftime("%Y-%m-%d")))

    cache = {}

    def points(sha, indicator):
        """The points of an indicator at a commit: {(series, date): value text}, or None without its folder."""
        key = (sha, indicator)
        if key in cache:
            return cache[key]
        folder = f"{data}/{indicator}/"
        names = git(repo, "ls-tree", "--name-only", sha, "--", folder).decode().split("\n")
        names = [n for n in names if n]
        if f"{folder}indicator.json" not in names:
            cache[key] = None
            return None
        rows = {}
        for name in sorted(n for n in names if n.endswith(".csv")):
            frame = pd.read_csv(io.BytesIO(git(repo, "show", f"{sha}:{name}")), dtype=str, keep_default_na=False)
            for series, date, value in zip(frame["series"], frame["date"], frame["value"]):
                rows[(series, date)] = value
        cache[key] = rows
        return rows

    def version_on(day):
        found = None
        for sha, published in commits:
            if published <= day:
                found = sha
        return found

    # The last commit of each day: the versions a day can see.
    daily = []
    for sha, published in commits:
        if daily and daily[-1][1] == published:
            daily[-1] = (sha, published)
        else:
            daily.append((sha, published))

    as_of, changes = {}, {}
    for indicator in request["indicators"]:
        as_of[indicator], changes[indicator] = {}, {}
        newest = points(commits[-1][0], indicator) or {}
        for day in request["days"]:
            sha = version_on(day)
            base = None if sha is None else points(sha, indicator)
            if base is None:
                as_of[indicator][day] = None
                base = {}
            else:
                ordered = sorted(base.items(), key=lambda item: item[0][0])
                ordered = sorted(ordered, key=lambda item: item[0][1], reverse=True)
                as_of[indicator][day] = [[date, series, value] for (series, date), value in ordered]
            # The last day each point's value text or presence changed, walking the days after `day`.
            changed_on = {}
            before = base
            for later_sha, later_day in daily:
                if later_day <= day:
                    continue
                state = points(later_sha, indicator) or {}
                for key in set(before) | set(state):
                    if before.get(key) != state.get(key):
                        changed_on[key] = later_day
                before = state
            listed = []
            for key in set(base) | set(newest):
                old, new = base.get(key), newest.get(key)
                if old == new:
                    continue
                kind = "added" if old is None else "removed" if new is None else "revised"
                series, date = key
                listed.append([date, series, kind, new, old, changed_on[key]])
            listed.sort(key=lambda c: c[1])
            listed.sort(key=lambda c: c[0], reverse=True)
            listed.sort(key=lambda c: c[5], reverse=True)
            changes[indicator][day] = listed
    json.dump({"as_of": as_of, "changes": changes}, sys.stdout)


if __name__ == "__main__":
    main()
