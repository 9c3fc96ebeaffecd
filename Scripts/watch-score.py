#!/usr/bin/env python3
"""Scores watch's change points, and Apache Otava's on the same daily series, against known changes.

Usage: watch-score.py DIR, where DIR holds one folder per store with truth.json (generate-samples
--truth), watch.json (watch --format json) and series.csv (watch --series). A known change is found
when a reported change of its metric, in any scope, starts within 5 days of it; every other reported
change is a false alarm. A version's or group's change within 14 days of a whole-app change of the same
metric, statistic and direction is part of that event (as watch marks it), for both detectors. Prints a Markdown table; `--json` prints the numbers instead.
"""
import csv
import datetime
import glob
import json
import os
import statistics
import sys
from collections import defaultdict

TOLERANCE = 5


def day(text):
    return datetime.date.fromisoformat(text)


def metric_name(identifier):
    return identifier.split(".")[-1]


def events(changes):
    """The changes that are events of their own, [(metric, date)] of changes [(metric, statistic, scope, date,
    rising)]: a version's or group's change within 14 days of a whole-app change of the same metric, statistic
    and direction is part of that one (as watch marks it), for both detectors alike."""
    app = [c for c in changes if c[2] == "app"]
    out = []
    for metric, statistic, scope, date, rising in changes:
        if scope != "app" and any(
            a[0] == metric and a[1] == statistic and a[4] == rising and abs((a[3] - date).days) <= 14 for a in app
        ):
            continue
        out.append((metric, date))
    return out


def score(truth, changes):
    """(found, delays, false alarms) of changes [(metric, date)] against truth [(metric, date)]."""
    found, delays = 0, []
    for metric, date in truth:
        near = [abs((d - date).days) for m, d in changes if m == metric and abs((d - date).days) <= TOLERANCE]
        if near:
            found += 1
            delays.append(min(near))
    false = sum(
        1
        for m, d in changes
        if not any(m == metric and abs((d - date).days) <= TOLERANCE for metric, date in truth)
    )
    return found, delays, false


def otava_changes(series_csv):
    from otava.analysis import compute_change_points

    by_series = defaultdict(list)
    with open(series_csv, newline="") as f:
        for row in csv.DictReader(f):
            key = (row["scope"], row["version"], row["by"], row["group"], row["metric"], row["statistic"])
            by_series[key].append((day(row["date"]), float(row["value"])))
    out = []
    for key, points in by_series.items():
        points.sort()
        values = [v for _, v in points]
        if len(values) < 14:
            continue
        found, _ = compute_change_points(values, window_len=50, max_pvalue=0.001)
        for cp in found:
            rising = cp.stats.mean_2 > cp.stats.mean_1
            out.append((metric_name(key[4]), key[5], key[0], points[cp.index][0], rising))
    return events(out)


def main():
    directory = sys.argv[1]
    as_json = "--json" in sys.argv
    rows = defaultdict(lambda: {"stores": 0, "known": 0, "found": 0, "delays": [], "false": [], "seconds": 0})
    for store in sorted(glob.glob(os.path.join(directory, "*"))):
        truth_path = os.path.join(store, "truth.json")
        if not os.path.exists(truth_path):
            continue
        kind = os.path.basename(store).rsplit("-", 1)[0]
        truth = [(t["metric"], day(t["date"])) for t in json.load(open(truth_path))]
        report = json.load(open(os.path.join(store, "watch.json")))
        ours = events([
            (metric_name(c["metric"]), c["statistic"], c["scope"], day(c["date"]), c["change"] > 0)
            for c in report["changes"]
        ])
        theirs = otava_changes(os.path.join(store, "series.csv"))
        for name, changes in (("watch", ours), ("Otava", theirs)):
            found, delays, false = score(truth, changes)
            row = rows[(kind, name)]
            row["stores"] += 1
            row["known"] += len(truth)
            row["found"] += found
            row["delays"] += delays
            row["false"].append(false)
    if as_json:
        print(json.dumps({f"{k}/{n}": v for (k, n), v in rows.items()}, default=str))
        return
    print("| stores | detector | known changes found | days off (median, max) | false alarms per store (mean, max) |")
    print("| --- | --- | --- | --- | --- |")
    for (kind, name), r in sorted(rows.items()):
        delays = r["delays"]
        off = f"{statistics.median(delays):g}, {max(delays)}" if delays else "–"
        falses = r["false"]
        print(
            f"| {kind} ×{r['stores']} | {name} | {r['found']} of {r['known']} | {off} | "
            f"{statistics.mean(falses):.2f}, {max(falses)} |"
        )


if __name__ == "__main__":
    main()
