"""
An independent oracle of the API's questions about time (at, frequency, aggregation,
per, real, units, base), written from the specification alone with pandas: it reads
only data/<indicator>/*.csv and indicator.json, never the project's code.

Usage: python3 time_oracle.py <data-folder> <V: YYYY-MM-DD> [--max-points N]
stdin: a JSON list of queries {"indicator": ..., "params": {name: value, ...}}
       (params as the URL carries them, strings);
stdout: a JSON list of answers, each {"points": [[date, series, value], ...], "total": n}
        (date descending, then series ascending; after limit/offset), or {"error": 400}
        ({"error": 400, "why": "points"} for docs/time.md's cap on a derived answer's points, with --max-points).

Values are not rounded: the caller allows the API's rounding to 8 significant digits.

How it computes (by days and pandas operations, not segment arithmetic, so that it shares
no route with an implementation that works segment by segment):
- level coverage: each point's end is the earliest of the next point (groupby/shift),
  the date its next point was due (pd.DateOffset(months=k), which clamps the day to
  the month's length; for irregular rhythms the next publication, by searchsorted),
  and the day after max(V, the indicator's newest point);
- frequency: the segments expanded to one row per covered day (reindex with forward
  fill, masked by each segment's end), grouped by period; a period is kept when its
  count of covered days equals its length, and the day-weighted mean is the plain mean
  over its days;
- per: both series expanded to days, joined on the day, grouped by the pair of segments
  (each pair's days are one intersection);
- real: a CPI lookup by month; with frequency the mean of the period's months;
- units: shift for the previous segment, searchsorted for the segment covering a day.
"""

import glob
import json
import os
import re
import sys
import warnings

import numpy as np
import pandas as pd

# Series ± DateOffset(months=…) is applied element-wise, with a PerformanceWarning: expected here.
warnings.simplefilter("ignore", pd.errors.PerformanceWarning)

DAY = pd.Timedelta(days=1)
RHYTHM_MONTHS = {"monthly": 1, "quarterly": 3, "semiannual": 6, "annual": 12}
RHYTHM_DAYS = {"daily": 1, "weekly": 7}
FREQUENCY_MONTHS = {"month": 1, "quarter": 3, "semester": 6, "year": 12}
AGGREGATIONS = {"mean", "end", "min", "max"}
UNITS = {"level", "change", "percent_change", "change_a_year_ago", "percent_change_a_year_ago", "index"}
KNOWN = {"from", "to", "series", "limit", "offset", "format", "at", "frequency", "aggregation", "per", "real", "units", "base"}
CPI = "consumer-price-index"
# Not in the specification: the API's docs/time.md adds that a derived answer (frequency, per, real or
# units other than level) holding more than N points after limit/offset is a 400 naming `limit`.
# Given `--max-points N`, the oracle answers such a query {"error": 400, "why": "points"}; without
# it, the specification alone. (docs/time.md's other budget, on the values a question computes, is an
# estimate of the API's own work: not modelled.)


class BadRequest(Exception):
    pass


# ---------------------------------------------------------------- dates


def is_calendar(y, m, d):
    try:
        pd.Timestamp(year=y, month=m, day=d)
        return True
    except ValueError:
        return False


def resolve_date(text, edge):
    """YYYY-MM-DD | YYYY-MM | YYYY → a Timestamp (first or last day), or BadRequest."""
    if text is None:
        return None
    m = re.fullmatch(r"(\d{4})-(\d{2})-(\d{2})", text)
    if m:
        y, mo, d = map(int, m.groups())
        if not (1 <= mo <= 12) or not is_calendar(y, mo, d):
            raise BadRequest(text)
        return pd.Timestamp(year=y, month=mo, day=d)
    m = re.fullmatch(r"(\d{4})-(\d{2})", text)
    if m:
        y, mo = map(int, m.groups())
        if not 1 <= mo <= 12:
            raise BadRequest(text)
        first = pd.Timestamp(year=y, month=mo, day=1)
        return first if edge == "start" else first + pd.offsets.MonthEnd(0)
    m = re.fullmatch(r"(\d{4})", text)
    if m:
        y = int(text)
        return pd.Timestamp(year=y, month=1, day=1) if edge == "start" else pd.Timestamp(year=y, month=12, day=31)
    raise BadRequest(text)


def integer(text, lo, hi, default):
    if text is None:
        return default
    if not re.fullmatch(r"[0-9]{1,16}", text):
        raise BadRequest(text)
    n = int(text)
    if not lo <= n <= hi:
        raise BadRequest(text)
    return n


def month_floor(days, months):
    """The first day of the calendar period of `months` months (1, 3, 6, 12) holding each day."""
    m = days.values.astype("datetime64[M]").astype(np.int64)  # months since 1970-01 (January = multiple of 12)
    start = (m // months) * months
    return start.astype("datetime64[M]"), (start + months).astype("datetime64[M]")


# ---------------------------------------------------------------- data


class Indicator:
    def __init__(self, folder, ident, version):
        with open(os.path.join(folder, ident, "indicator.json"), encoding="utf-8") as f:
            meta = json.load(f)
        self.id = ident
        self.unit = meta["unit"]
        self.rhythm = meta["rhythm"]
        self.stepwise = bool(meta["stepwise"])
        # The units this indicator deflates (the CPI declares {"unit": "UYU", "series": "general"}).
        self.deflates = {d["unit"] for d in meta.get("deflates", [])}
        frames = [
            pd.read_csv(path, usecols=["date", "series", "value"], dtype=str, keep_default_na=False)
            for path in sorted(glob.glob(os.path.join(folder, ident, "*.csv")))
        ]
        points = pd.concat(frames, ignore_index=True)
        points["date"] = pd.to_datetime(points["date"], format="%Y-%m-%d")
        points["value"] = points["value"].map(float)  # Python's float(): correctly rounded, like JS Number()
        points = points.sort_values(["series", "date"], kind="mergesort").reset_index(drop=True)
        self.ids = sorted(points["series"].unique())
        self.levels = self._coverage(points, version)
        self.by_series = {s: g.reset_index(drop=True) for s, g in self.levels.groupby("series", sort=False)}
        self.cache = {}

    def _coverage(self, points, version):
        """The rule of coverage: each point's [start, end)."""
        bound = max(version, points["date"].max()) + DAY
        nxt = points.groupby("series")["date"].shift(-1)
        if self.rhythm in RHYTHM_MONTHS:
            due = points["date"] + pd.DateOffset(months=RHYTHM_MONTHS[self.rhythm])
        elif self.rhythm in RHYTHM_DAYS:
            due = points["date"] + pd.Timedelta(days=RHYTHM_DAYS[self.rhythm])
        else:  # irregular: the next date on which any sub-series has a point
            published = np.sort(points["date"].unique())
            k = np.searchsorted(published, points["date"].values, side="right")
            due = pd.Series(
                [published[i] if i < len(published) else pd.NaT for i in k], index=points.index, dtype="datetime64[ns]"
            )
        ends = pd.concat([nxt, due, pd.Series(bound, index=points.index)], axis=1).min(axis=1)  # NaT skipped
        return pd.DataFrame(
            {"series": points["series"], "start": points["date"], "end": ends, "value": points["value"]}
        )

    def select(self, items):
        """The sub-series ids the `series` items name (sorted), or BadRequest."""
        if items is None:
            return list(self.ids)
        chosen = set()
        for item in items:
            if "*" in item:
                rx = re.compile("^" + ".*".join(re.escape(part) for part in item.split("*")) + "$")
                found = [s for s in self.ids if rx.match(s)]
            else:
                found = [item] if item in self.ids else []
            if not found:
                raise BadRequest(item)
            chosen.update(found)
        return sorted(chosen)

    def segments(self, series, frequency, aggregation):
        """Steps 1–2 for one sub-series: a DataFrame start, end, value (oldest first), cached."""
        key = (series, frequency, aggregation)
        if key not in self.cache:
            level = self.by_series.get(series)
            if level is None:
                out = empty()
            elif frequency is None:
                out = level[["start", "end", "value"]].copy()
            else:
                out = self._aggregate(level, FREQUENCY_MONTHS[frequency], aggregation)
            self.cache[key] = out
        return self.cache[key]

    def days(self, series, frequency, aggregation):
        """The segments of steps 1–2 expanded to one row per covered day, cached."""
        key = ("days", series, frequency, aggregation)
        if key not in self.cache:
            self.cache[key] = daily(self.segments(series, frequency, aggregation))
        return self.cache[key]

    def _aggregate(self, level, months, aggregation):
        days = daily(level)
        if days.empty:
            return empty()
        start, end = month_floor(days["day"], months)
        days["period"] = start.astype("datetime64[ns]")
        days["period_end"] = end.astype("datetime64[ns]")
        g = days.groupby("period", sort=True)
        periods = pd.DataFrame({"covered": g.size(), "end": g["period_end"].first()})
        periods["length"] = (periods["end"] - periods.index.to_series()).dt.days
        periods = periods[periods["covered"] == periods["length"]]  # every day covered
        if self.stepwise:
            # One row per day: the day-weighted mean is the plain mean of the days' values.
            agg = {"mean": g["value"].mean(), "end": g["value"].last(), "min": g["value"].min(), "max": g["value"].max()}[
                aggregation
            ]
        else:
            # A periodic indicator: the points dated inside the period.
            pts = level[["start", "value"]].copy()
            pstart, _ = month_floor(pts["start"], months)
            pts["period"] = pstart.astype("datetime64[ns]")
            pg = pts.sort_values("start").groupby("period")["value"]
            agg = {"mean": pg.mean(), "end": pg.last(), "min": pg.min(), "max": pg.max()}[aggregation]
        out = periods.join(agg.rename("value"), how="inner")
        return pd.DataFrame({"start": out.index, "end": out["end"].values, "value": out["value"].values}).reset_index(
            drop=True
        )


def empty():
    return pd.DataFrame(
        {"start": pd.Series(dtype="datetime64[ns]"), "end": pd.Series(dtype="datetime64[ns]"), "value": pd.Series(dtype=float)}
    )


def daily(segs):
    """One row per covered day: day, seg (the row of `segs`), value. Forward fill within coverage."""
    if segs.empty:
        return pd.DataFrame({"day": pd.Series(dtype="datetime64[ns]"), "seg": pd.Series(dtype=int), "value": pd.Series(dtype=float)})
    frame = segs.reset_index(drop=True).assign(seg=lambda f: f.index).set_index("start")
    days = pd.date_range(frame.index.min(), frame["end"].max() - DAY, freq="D")
    filled = frame[["end", "value", "seg"]].reindex(days, method="ffill")
    filled = filled[filled["end"] > filled.index]  # past a segment's end: not covered
    return pd.DataFrame({"day": filled.index, "seg": filled["seg"].astype(int).values, "value": filled["value"].values})


def covering(segs, day):
    """The row of `segs` whose [start, end) holds `day`, or None."""
    if segs.empty:
        return None
    k = np.searchsorted(segs["start"].values, np.datetime64(day), side="right") - 1
    if k < 0 or not (np.datetime64(day) < segs["end"].values[k]):
        return None
    return int(k)


# ---------------------------------------------------------------- the pipeline


class Oracle:
    def __init__(self, folder, version, max_points=None):
        self.folder = folder
        self.version = version
        self.max_points = max_points
        self.known = sorted(
            d for d in os.listdir(folder) if os.path.isfile(os.path.join(folder, d, "indicator.json"))
        )
        self.loaded = {}
        self._cpi = None

    def indicator(self, ident):
        if ident not in self.loaded:
            self.loaded[ident] = Indicator(self.folder, ident, self.version)
        return self.loaded[ident]

    def cpi(self):
        """CPI by month (datetime64[M] → value): the `general` points, as dated (the 1st)."""
        if self._cpi is None:
            pts = self.indicator(CPI).by_series["general"]
            months = pts["start"].values.astype("datetime64[M]")
            firsts = months.astype("datetime64[ns]") == pts["start"].values
            self._cpi = pd.Series(pts["value"].values[firsts], index=months[firsts])
        return self._cpi

    def answer(self, ident, params):
        try:
            return self._answer(ident, params)
        except BadRequest:
            return {"error": 400}

    def _answer(self, ident, params):
        for name in params:
            if name not in KNOWN:
                raise BadRequest(name)
        p = params.get
        ind = self.indicator(ident)
        start = resolve_date(p("from"), "start")
        stop = resolve_date(p("to"), "end")
        if start is not None and stop is not None and start > stop:
            raise BadRequest("from > to")
        items = None
        if p("series") is not None:
            items = p("series").split(",")
            if any(not re.fullmatch(r"[a-z0-9.*-]+", i) for i in items) or len(set(items)) > 100:
                raise BadRequest("series")
        limit = integer(p("limit"), 1, 5000, 500)
        offset = integer(p("offset"), 0, 999_999_999_999_999, 0)
        if p("format") is not None and p("format") not in ("json", "csv"):
            raise BadRequest("format")
        at = resolve_date(p("at"), "start")
        frequency = p("frequency")
        if frequency is not None and frequency not in FREQUENCY_MONTHS:
            raise BadRequest("frequency")
        aggregation = p("aggregation")
        if aggregation is not None and aggregation not in AGGREGATIONS:
            raise BadRequest("aggregation")
        units = p("units") or "level"
        if units not in UNITS:
            raise BadRequest("units")
        base = resolve_date(p("base"), "start")
        real = p("real")
        per = p("per")
        if at is not None and (p("from") is not None or p("to") is not None or frequency is not None):
            raise BadRequest("at with from/to/frequency")
        if aggregation is not None and frequency is None:
            raise BadRequest("aggregation without frequency")
        if (base is not None) != (units == "index"):
            raise BadRequest("base and units=index")
        if per is not None and real is not None:
            raise BadRequest("per with real")
        if frequency is not None:
            aggregation = aggregation or "mean"
        real_month = None
        if real is not None:
            m = re.fullmatch(r"(\d{4})-(\d{2})", real)
            if not m or not 1 <= int(m.group(2)) <= 12:
                raise BadRequest("real")
            if ind.unit not in self.indicator(CPI).deflates:  # not deflated by a price index (the CPI itself)
                raise BadRequest("real: a unit the CPI does not deflate")
            real_month = np.datetime64(real, "M")
            if real_month not in self.cpi().index:
                raise BadRequest("real: no CPI")
        divisor = None
        if per is not None:
            m = re.fullmatch(r"([^:]+):(.+)", per)
            if not m or m.group(1) not in self.known:
                raise BadRequest("per indicator")
            other = self.indicator(m.group(1))
            if m.group(2) not in other.ids:
                raise BadRequest("per sub-series")
            divisor = (other, m.group(2))
        if frequency is not None:
            # A periodic indicator's points are its periods: no frequency shorter than its rhythm.
            for periodic in [ind] + ([divisor[0]] if divisor else []):
                if not periodic.stepwise and FREQUENCY_MONTHS[frequency] < RHYTHM_MONTHS.get(periodic.rhythm, 0):
                    raise BadRequest("frequency shorter than the rhythm")
        selected = ind.select(items)

        # Steps 1–4 for every selected sub-series.
        series = {}
        for s in selected:
            segs = ind.segments(s, frequency, aggregation)
            if divisor is not None:
                segs = ratio(ind.days(s, frequency, aggregation), divisor[0].days(divisor[1], frequency, aggregation))
            if real_month is not None:
                segs = self.deflate(segs, real_month, frequency)
            series[s] = segs
        # Step 5.
        if units == "index":
            if all(covering(segs, base) is None for segs in series.values()):
                raise BadRequest("base covered by no sub-series")
        for s in selected:
            series[s] = derive(series[s], units, base)
        # Steps 6–7.
        rows = []
        total = 0
        for s in selected:
            segs = series[s]
            if at is not None:
                k = covering(segs, at)
                window = segs.iloc[[k]] if k is not None else segs.iloc[0:0]
            else:
                keep = pd.Series(True, index=segs.index)
                if start is not None:
                    keep &= segs["start"] >= start
                if stop is not None:
                    keep &= segs["start"] <= stop
                window = segs[keep]
            total += len(window)
            page = window.sort_values("start", ascending=False).iloc[offset : offset + limit]
            rows += [(d.strftime("%Y-%m-%d"), s, float(v)) for d, v in zip(page["start"], page["value"])]
        rows.sort(key=lambda r: r[1])
        rows.sort(key=lambda r: r[0], reverse=True)  # stable: date descending, then series ascending
        derived = frequency is not None or per is not None or real is not None or units != "level"
        if derived and self.max_points is not None and len(rows) > self.max_points:
            return {"error": 400, "why": "points"}
        return {"points": [list(r) for r in rows], "total": total}

    def deflate(self, segs, real_month, frequency):
        cpi = self.cpi()
        target = cpi[real_month]
        out = []
        for start, end, value in zip(segs["start"], segs["end"], segs["value"]):
            if frequency is None:
                months = [np.datetime64(start, "M")]
            else:
                months = np.arange(np.datetime64(start, "M"), np.datetime64(end, "M"))
            found = cpi.reindex(months)
            if found.isna().any():
                continue  # a month without CPI: no point
            out.append((start, end, value * target / found.mean()))
        return pd.DataFrame(out, columns=["start", "end", "value"]) if out else empty()


def ratio(a, b):
    """Step 3: one point per non-empty intersection of a numerator and a divisor segment (given as days)."""
    joined = a.merge(b, on="day", suffixes=("_n", "_d"))
    if joined.empty:
        return empty()
    g = joined.groupby(["seg_n", "seg_d"], sort=False)
    out = pd.DataFrame(
        {"start": g["day"].min(), "end": g["day"].max() + DAY, "n": g["value_n"].first(), "d": g["value_d"].first()}
    )
    out = out[out["d"] != 0]
    out = out.assign(value=out["n"] / out["d"]).sort_values("start")
    return out[["start", "end", "value"]].reset_index(drop=True)


def derive(segs, units, base):
    """Step 5: the units, against the series after steps 1–4."""
    if units == "level" or segs.empty:
        return segs
    v = segs["value"]
    if units in ("change", "percent_change"):
        prev = segs.shift(1)
        joined = prev["end"] == segs["start"]  # no gap (the first has no previous)
        if units == "change":
            value = v - prev["value"]
        else:
            joined &= prev["value"] != 0
            value = 100 * (v - prev["value"]) / prev["value"]
        keep = joined
    elif units in ("change_a_year_ago", "percent_change_a_year_ago"):
        ago = segs["start"] - pd.DateOffset(months=12)  # the day clamped: 2024-02-29 → 2023-02-28
        k = np.searchsorted(segs["start"].values, ago.values, side="right") - 1
        ok = k >= 0
        kk = np.where(ok, k, 0)
        ok &= ago.values < segs["end"].values[kk]
        w = pd.Series(np.where(ok, segs["value"].values[kk], np.nan), index=segs.index)
        if units == "change_a_year_ago":
            value = v - w
        else:
            ok &= (w != 0).values
            value = 100 * (v - w) / w
        keep = pd.Series(ok, index=segs.index)
    else:  # index
        k = covering(segs, base)
        if k is None:
            return empty()  # the sub-series is absent
        b = segs["value"].iloc[k]
        if b == 0:
            return empty()
        value = 100 * v / b
        keep = pd.Series(True, index=segs.index)
    out = segs.assign(value=value)[keep.values]
    return out.reset_index(drop=True)


def main():
    folder, version = sys.argv[1], pd.Timestamp(sys.argv[2])
    max_points = int(sys.argv[4]) if len(sys.argv) == 5 and sys.argv[3] == "--max-points" else None
    if len(sys.argv) not in (3, 5) or (len(sys.argv) == 5 and max_points is None):
        sys.exit("usage: time_oracle.py <data-folder> <V: YYYY-MM-DD> [--max-points N]")
    queries = json.load(sys.stdin)
    oracle = Oracle(folder, version, max_points)
    answers = [oracle.answer(q["indicator"], {k: str(v) for k, v in q.get("params", {}).items()}) for q in queries]
    json.dump(answers, sys.stdout)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
