#!/usr/bin/env python3
"""The peer a team would otherwise write: a Python script with orjson doing the same aggregation as
`metrics-report summary` — every payload decoded, multi-version payloads excluded, measurement strings
parsed (POSIX and localized), histograms merged per version and metric, scalar metrics collected, means
and percentiles computed at the end.

Usage: orjson_summary.py PATH...   (directories walked; .json, .ndjson, .gz)
"""
import gzip
import os
import re
import sys

import orjson

NUMBER = re.compile(r"^\s*([0-9][0-9,.\u00a0\u202f ]*)\s*(.*?)\s*$")
UNITS = {
    "ms": ("duration", 1), "毫秒": ("duration", 1), "мс": ("duration", 1),
    "sec": ("duration", 1000), "secs.": ("duration", 1000), "s": ("duration", 1000), "秒": ("duration", 1000), "с": ("duration", 1000),
    "kB": ("storage", 1e3), "千字节": ("storage", 1e3), "кБ": ("storage", 1e3), "MB": ("storage", 1e6), "byte": ("storage", 1),
    "bars": ("bars", 1), "apl": ("apl", 1), "ms per s": ("ratio", 1), "kiloinstructions": ("instructions", 1e3),
}


def measurement(text):
    m = NUMBER.match(text)
    if not m:
        raise ValueError(f"no number in {text!r}")
    digits = re.sub(r"[,.\u00a0\u202f ]", "", m.group(1))
    kind, scale = UNITS[m.group(2)]
    return float(digits) * scale


def histogram(h):
    out = []
    for key, b in h.get("histogramValue", {}).items():
        if b:
            out.append((measurement(b["bucketStart"]), measurement(b["bucketEnd"]), b["bucketCount"]))
    return out


HISTOGRAMS = [
    ("applicationLaunchMetrics", "histogrammedTimeToFirstDrawKey"),
    ("applicationLaunchMetrics", "histogrammedResumeTime"),
    ("applicationLaunchMetrics", "histogrammedOptimizedTimeToFirstDrawKey"),
    ("applicationLaunchMetrics", "histogrammedExtendedLaunch"),
    ("applicationResponsivenessMetrics", "histogrammedAppHangTime"),
    ("cellularConditionMetrics", "cellConditionTime"),
]
SCALARS = [
    ("memoryMetrics", "peakMemoryUsage"), ("diskIOMetrics", "cumulativeLogicalWrites"), ("cpuMetrics", "cumulativeCPUTime"),
    ("gpuMetrics", "cumulativeGPUTime"), ("applicationTimeMetrics", "cumulativeForegroundTime"),
    ("applicationTimeMetrics", "cumulativeBackgroundTime"), ("animationMetrics", "scrollHitchTimeRatio"),
    ("networkTransferMetrics", "cumulativeWifiDownload"), ("networkTransferMetrics", "cumulativeWifiUpload"),
    ("networkTransferMetrics", "cumulativeCellularDownload"), ("networkTransferMetrics", "cumulativeCellularUpload"),
    ("locationActivityMetrics", "cumulativeBestAccuracyTime"),
]


def payloads(path):
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rb") as f:
        data = f.read()
    if path.endswith((".ndjson", ".jsonl", ".ndjson.gz")):
        for line in data.splitlines():
            if line.strip():
                yield orjson.loads(line)
        return
    doc = orjson.loads(data)
    yield from (doc if isinstance(doc, list) else [doc])


def files(paths):
    for p in paths:
        if os.path.isdir(p):
            for root, dirs, names in os.walk(p):
                dirs.sort()
                for n in sorted(names):
                    if n.endswith((".json", ".ndjson", ".jsonl", ".gz")):
                        yield os.path.join(root, n)
        else:
            yield p


def main(paths):
    versions = {}
    count = 0
    for path in files(paths):
        for p in payloads(path):
            count += 1
            if p.get("multipleAppVersions") == "1":
                continue
            v = versions.setdefault(p.get("appVersion", ""), {"histograms": {}, "scalars": {}, "hang": [0.0, 0.0]})
            for section, key in HISTOGRAMS:
                h = p.get(section, {}).get(key)
                if h:
                    merged = v["histograms"].setdefault(key, {})
                    for start, end, c in histogram(h):
                        merged[(start, end)] = merged.get((start, end), 0) + c
            for s in p.get("signpostMetrics", []):
                h = s.get("signpostIntervalData", {}).get("histogrammedSignpostDurations")
                if h:
                    merged = v["histograms"].setdefault("signpost:" + s.get("signpostCategory", "") + "/" + s["signpostName"], {})
                    for start, end, c in histogram(h):
                        merged[(start, end)] = merged.get((start, end), 0) + c
            for section, key in SCALARS:
                value = p.get(section, {}).get(key)
                if value is not None:
                    v["scalars"].setdefault(key, []).append(measurement(value))
            fg = p.get("applicationTimeMetrics", {}).get("cumulativeForegroundTime")
            if fg:
                hang = p.get("applicationResponsivenessMetrics", {}).get("histogrammedAppHangTime")
                v["hang"][0] += sum((a + b) / 2 * c for a, b, c in histogram(hang)) if hang else 0
                v["hang"][1] += measurement(fg)
    # Statistics: means and percentiles by linear interpolation of the merged CDF, type-7 for scalars.
    import numpy as np
    for version, v in sorted(versions.items()):
        for key, merged in v["histograms"].items():
            buckets = sorted(merged.items())
            total = sum(c for _, c in buckets)
            mean = sum((a + b) / 2 * c for (a, b), c in buckets) / total
            cumulative = np.cumsum([c for _, c in buckets]) / total
            percentiles = [float(np.interp(q, cumulative, [b for (a, b), _ in buckets])) for q in (0.5, 0.9, 0.95, 0.99)]
        for key, values in v["scalars"].items():
            np.percentile(values, [50, 90, 95, 99])
    print(f"{count} payloads, {len(versions)} versions")


if __name__ == "__main__":
    main(sys.argv[1:])
