#!/usr/bin/env python3
"""Runs the benchmark matrix for Scripts/bench.sh and prints a Markdown table.

Each configuration runs --runs times, interleaved round-robin with the others (so that a slower
moment of a shared machine hits every configuration alike); the table reports the median with the
min–max, payloads/s and MB/s from the median, and the largest peak RSS (from /usr/bin/time or
getrusage of the child)."""
import argparse
import os
import resource
import statistics
import subprocess
import time


def run(cmd):
    start = time.perf_counter()
    before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    proc = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    elapsed = time.perf_counter() - start
    # ru_maxrss of children is the largest of any child so far: measure each configuration in a
    # fresh `time`-like wrapper instead when it matters.
    if proc.returncode not in (0, 1):
        raise SystemExit(f"{' '.join(cmd)} exited {proc.returncode}")
    return elapsed


def peak_rss(cmd):
    """Peak RSS in MB of one run, via /usr/bin/time -f %M."""
    proc = subprocess.run(["/usr/bin/time", "-f", "%M"] + cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    return int(proc.stderr.strip().splitlines()[-1]) / 1024


def size_of(paths):
    total = 0
    for p in paths:
        if os.path.isdir(p):
            for root, _, names in os.walk(p):
                total += sum(os.path.getsize(os.path.join(root, n)) for n in names if not n.startswith("."))
        else:
            total += os.path.getsize(p)
    return total


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", required=True)
    ap.add_argument("--corpus", required=True)
    ap.add_argument("--payloads", type=int, required=True)
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--python", type=int, default=1)
    ap.add_argument("--floor", help="the floor program (Benchmarks/Floor/floor.cpp), built by Scripts/bench.sh")
    ap.add_argument("--cpp-peer", help="the C++ peer (Benchmarks/Peer/summary_peer.cpp), built by Scripts/bench.sh")
    a = ap.parse_args()
    cores = os.cpu_count() or 1
    files, ndjson, gz, ndjson_gz = (os.path.join(a.corpus, x) for x in ("files", "all.ndjson", "gz", "all.ndjson.gz"))
    configs = []
    if a.floor:
        # The floor: reading the files, and reading + parsing each with simdjson's DOM parser.
        configs.append(("floor: read only, files", 1, [a.floor, files], files))
        configs.append(("floor: read + simdjson DOM, files", 1, [a.floor, "--parse", files], files))
        configs.append(("floor: read only, gzip files", 1, [a.floor, gz], gz))
        # What reading every value costs on top (summary reads nearly all of them): after a DOM parse,
        # and through On-Demand, which builds no tape.
        configs.append(("floor: read + DOM, every value visited, files", 1, [a.floor, "--walk", files], files))
        configs.append(("floor: read + On-Demand, every value visited, files", 1, [a.floor, "--on-demand", files], files))
    for label, path in (("files", files), ("NDJSON", ndjson), ("gzip NDJSON", ndjson_gz), ("gzip files", gz)):
        for threads in sorted({1, cores}):
            configs.append((f"summary, {label}", threads, [a.bin, "summary", path, "--format", "json", "-o", "/dev/null", "--threads", str(threads)], path))
    configs.append(("compare, files", cores, [a.bin, "compare", files, "--baseline", "3.8.0", "--candidate", "3.9.0", "--format", "json", "-o", "/dev/null", "--threads", str(cores)], files))
    # A trend of five metrics per day and device type (a target: at most 1.3x summary's time).
    trend_metrics = []
    for m in ("applicationLaunchMetrics.histogrammedTimeToFirstDraw", "applicationLaunchMetrics.histogrammedApplicationResumeTime",
              "applicationResponsivenessMetrics.histogrammedApplicationHangTime", "memoryMetrics.peakMemoryUsage", "hangRate"):
        trend_metrics += ["--metric", m]
    for threads in sorted({1, cores}):
        configs.append(("trend, files", threads, [a.bin, "trend", files, *trend_metrics, "--interval", "day", "--by", "deviceType", "--format", "json", "-o", "/dev/null", "--threads", str(threads)], files))
    if a.cpp_peer:
        configs.append(("C++ peer: the Python peer's work over simdjson DOM, files", 1, [a.cpp_peer, files], files))
    if a.python:
        configs.append(("Python + orjson, files", 1, ["python3", os.path.join(os.path.dirname(__file__), "orjson_summary.py"), files], files))
    times = {i: [] for i in range(len(configs))}
    for _ in range(a.runs):
        for i, (_, _, cmd, _) in enumerate(configs):
            times[i].append(run(cmd))
    print(f"Corpus: {a.payloads} payloads ({size_of([files]) / a.payloads / 1024:.1f} KB each pretty-printed), {a.runs} runs each, {cores} cores\n")
    print("| run | threads | median s (min–max) | payloads/s | MB/s | peak RSS MB | × parse floor |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    # The median of each run, by label and thread count: every ratio below reads these.
    results = {(label, threads): statistics.median(times[i]) for i, (label, threads, _, _) in enumerate(configs)}
    floor = results.get(("floor: read + simdjson DOM, files", 1))
    for i, (label, threads, cmd, path) in enumerate(configs):
        t = times[i]
        med = results[(label, threads)]
        mb = size_of([path]) / 1e6
        rss = peak_rss(cmd)
        ratio = f"{med / floor:.2f}" if floor else "–"
        print(f"| {label} | {threads} | {med:.2f} ({min(t):.2f}–{max(t):.2f}) | {a.payloads / med:,.0f} | {mb / med:,.0f} | {rss:.0f} | {ratio} |")
    one = results.get(("summary, files", 1))
    many = results.get(("summary, files", cores))
    print()
    if one and many and cores > 1:
        print(f"- {cores} threads vs 1 on files: {one / many:.2f}×")
    if many and ("compare, files", cores) in results:
        print(f"- compare vs summary on files ({cores} threads): {results[('compare, files', cores)] / many:.2f}× the time")
    for threads in sorted({1, cores}):
        summary, trend = results.get(("summary, files", threads)), results.get(("trend, files", threads))
        if summary and trend:
            print(f"- trend (5 metrics, per day and device type) vs summary on files ({threads} threads): {trend / summary:.2f}× the time")
    if floor and one:
        print(f"- summary on files, 1 thread, vs the read + parse floor: {one / floor:.2f}× (target ≤ 1.3×)")
        walk = results[("floor: read + DOM, every value visited, files", 1)]
        on_demand = results[("floor: read + On-Demand, every value visited, files", 1)]
        print(f"- visiting every value, vs the read + parse floor: after the DOM parse {walk / floor:.2f}×, through On-Demand {on_demand / floor:.2f}×")
        print(f"- summary on files, 1 thread, vs the read + DOM + every value floor: {one / walk:.2f}×")
        gz_one = results.get(("summary, gzip files", 1))
        if gz_one:
            print(f"- gzip files vs plain files, summary on 1 thread: {one / gz_one:.2f}× the speed (target ≥ 0.8×)")
    plain_stream, gz_stream = results.get(("summary, NDJSON", 1)), results.get(("summary, gzip NDJSON", 1))
    if plain_stream and gz_stream:
        print(f"- gzip NDJSON vs plain NDJSON, summary on 1 thread: {plain_stream / gz_stream:.2f}× the speed")
    if a.cpp_peer and one:
        cpp = results[("C++ peer: the Python peer's work over simdjson DOM, files", 1)]
        print(f"- metrics-report vs the C++ peer, both on 1 thread: {one / cpp:.2f}× the time")
        if floor:
            print(f"- the C++ peer vs the read + parse floor: {cpp / floor:.2f}×")
    if a.python and one:
        py = results[("Python + orjson, files", 1)]
        print(f"- Python + orjson vs metrics-report, both on 1 thread: {py / one:.1f}× slower")
    # Memory: a 10× larger input must not need more memory.
    small = sorted(os.path.join(files, d, f) for d in sorted(os.listdir(files)) for f in sorted(os.listdir(os.path.join(files, d))))
    small = small[: max(1, len(small) // 10)]
    rss_small = peak_rss([a.bin, "summary", *small, "--format", "json", "-o", "/dev/null"]) if len(small) < 20000 else None
    # The files and the NDJSON copy: every payload twice (a file named twice is read once).
    rss_large = peak_rss([a.bin, "summary", files, ndjson, "--format", "json", "-o", "/dev/null"])
    if rss_small:
        print(f"- Peak RSS: {rss_small:.0f} MB on {size_of(small) / 1e6:.0f} MB of input, {rss_large:.0f} MB on {size_of([files, ndjson]) / 1e6:.0f} MB (the files and the NDJSON)")


if __name__ == "__main__":
    main()
