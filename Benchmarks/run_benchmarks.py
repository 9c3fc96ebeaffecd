#!/usr/bin/env python3
"""Runs the benchmark matrix for Scripts/bench.sh and prints a Markdown table.

Each configuration runs --runs times, interleaved round-robin with the others (so that a slower
moment of a shared machine hits every configuration alike); the table reports the median with the
min–max, payloads/s and MB/s from the median, and the largest peak RSS (from /usr/bin/time or
getrusage of the child).

With --check BASELINE (Scripts/bench.sh --check), only the guarded configurations run, each on one
thread. Each round runs the read + parse floor, then every configuration; a configuration's ratio is
the median over the rounds of its CPU time (user + system) over the floor's CPU time of the same round,
so that the machine's speed, and a slower moment of a shared machine, cancel out. A ratio past the
baseline's by more than its tolerance is measured once more, and fails the run (exit 1) when it is past
it again. With --counted, each configuration's instructions are also counted once by Valgrind, on a
smaller corpus; a count past the baseline's by more than 10% fails the run. --record BASELINE writes
the ratios and counts of a run as the new baseline."""
import argparse
import json
import os
import re
import shlex
import shutil
import statistics
import subprocess
import time


def run(cmd):
    """The wall time of one run, in seconds."""
    return run_timed(cmd)[0]


def run_timed(cmd):
    """The wall time and the CPU time (user + system) of one run of `cmd`, in seconds."""
    start = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(proc.pid, 0)
    elapsed = time.perf_counter() - start
    code = os.waitstatus_to_exitcode(status)
    if code not in (0, 1):
        raise SystemExit(f"{' '.join(cmd)} exited {code}")
    return elapsed, usage.ru_utime + usage.ru_stime


def peak_rss(cmd):
    """Peak RSS in MB of one run, via /usr/bin/time -f %M."""
    proc = subprocess.run(["/usr/bin/time", "-f", "%M"] + cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    return int(proc.stderr.strip().splitlines()[-1]) / 1024


def file_shares(files, n):
    """`n` folders beside `files`, each with the same version folders holding symbolic links to every
    `n`th file of them, made once (kept with the corpus, which is generated once)."""
    root = f"{files}-shares-{n}"
    if not os.path.isdir(root):
        building = root + ".partial"
        shutil.rmtree(building, ignore_errors=True)
        for version in sorted(os.listdir(files)):
            names = sorted(os.listdir(os.path.join(files, version)))
            for k in range(n):
                os.makedirs(os.path.join(building, str(k), version))
            for i, name in enumerate(names):
                os.symlink(os.path.join(files, version, name), os.path.join(building, str(i % n), version, name))
        os.rename(building, root)
    return [os.path.join(root, str(k)) for k in range(n)]


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
    ap.add_argument("--check", help="compare the guarded ratios with this baseline file; exit 1 on a slowdown")
    ap.add_argument("--record", help="write the guarded ratios of this run to this baseline file")
    ap.add_argument("--tolerance", type=float, help="with --record: the relative slowdown a check tolerates")
    ap.add_argument("--commit", default="", help="with --record: the commit measured")
    ap.add_argument("--counted", help="with --check or --record: metrics-report without debug information, "
                    "whose instructions Valgrind counts (none: instruction counts are skipped)")
    ap.add_argument("--count-corpus", help="with --counted: the corpus whose instructions are counted")
    ap.add_argument("--count-payloads", type=int, help="with --counted: the payloads of --count-corpus")
    a = ap.parse_args()
    if a.check or a.record:
        return guard(a)
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
    # A trend of five metrics per day and device type (cheap next to summary: it reads the same payloads).
    trend_metrics = []
    for m in ("applicationLaunchMetrics.histogrammedTimeToFirstDraw", "applicationLaunchMetrics.histogrammedApplicationResumeTime",
              "applicationResponsivenessMetrics.histogrammedApplicationHangTime", "memoryMetrics.peakMemoryUsage", "hangRate"):
        trend_metrics += ["--metric", m]
    for threads in sorted({1, cores}):
        configs.append(("trend, files", threads, [a.bin, "trend", files, *trend_metrics, "--interval", "day", "--by", "deviceType", "--format", "json", "-o", "/dev/null", "--threads", str(threads)], files))
    if a.cpp_peer:
        configs.append(("C++ peer: the Python peer's work over simdjson DOM, files", 1, [a.cpp_peer, files], files))
    if cores > 1:
        # What a second core gives on this machine with no thread shared: one process of one thread per
        # core, side by side, each over its share of the files (the same wall time as one process with
        # a thread per core means the threads cost each other nothing beyond what processes do).
        shares = file_shares(files, cores)
        side_by_side = lambda cmd: ["sh", "-c", " ".join(f"{shlex.join(cmd(d))} &" for d in shares) + " wait"]
        configs.append(("summary, files, a process per core side by side", cores,
                        side_by_side(lambda d: [a.bin, "summary", d, "--format", "json", "-o", "/dev/null", "--threads", "1"]), files))
        if a.cpp_peer:
            configs.append(("C++ peer, files, a process per core side by side", cores, side_by_side(lambda d: [a.cpp_peer, d]), files))
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
        apart = results[("summary, files, a process per core side by side", cores)]
        print(f"- {cores} processes side by side, each over its share, vs 1 over all, on files: {one / apart:.2f}×")
        if a.cpp_peer:
            cpp_one = results[("C++ peer: the Python peer's work over simdjson DOM, files", 1)]
            cpp_apart = results[("C++ peer, files, a process per core side by side", cores)]
            print(f"- the C++ peer the same way: {cpp_one / cpp_apart:.2f}×")
    if many and ("compare, files", cores) in results:
        print(f"- compare vs summary on files ({cores} threads): {results[('compare, files', cores)] / many:.2f}× the time")
    for threads in sorted({1, cores}):
        summary, trend = results.get(("summary, files", threads)), results.get(("trend, files", threads))
        if summary and trend:
            print(f"- trend (5 metrics, per day and device type) vs summary on files ({threads} thread{'s' if threads > 1 else ''}): {trend / summary:.2f}× the time")
    if floor and one:
        print(f"- summary on files, 1 thread, vs the read + parse floor: {one / floor:.2f}×")
        walk = results[("floor: read + DOM, every value visited, files", 1)]
        on_demand = results[("floor: read + On-Demand, every value visited, files", 1)]
        print(f"- visiting every value, vs the read + parse floor: after the DOM parse {walk / floor:.2f}×, through On-Demand {on_demand / floor:.2f}×")
        print(f"- summary on files, 1 thread, vs the read + DOM + every value floor: {one / walk:.2f}×")
        gz_one = results.get(("summary, gzip files", 1))
        if gz_one:
            print(f"- gzip files vs plain files, summary on 1 thread: {one / gz_one:.2f}× the speed")
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


# The configurations the check guards: one thread each (a second thread adds the machine's contention
# to the noise), every ratio against the read + parse floor of the same run.
def guarded(a, binary=None, corpus=None):
    binary, corpus = binary or a.bin, corpus or a.corpus
    files, ndjson, gz = (os.path.join(corpus, x) for x in ("files", "all.ndjson", "gz"))
    out = ["--format", "json", "-o", "/dev/null", "--threads", "1"]
    trend = ["--metric", "applicationLaunchMetrics.histogrammedTimeToFirstDraw", "--metric", "hangRate",
             "--metric", "memoryMetrics.peakMemoryUsage", "--interval", "day", "--by", "deviceType"]
    return [
        ("floor", [a.floor, "--parse", files]),
        ("summary, files", [binary, "summary", files, *out]),
        ("summary, NDJSON", [binary, "summary", ndjson, *out]),
        ("summary, gzip files", [binary, "summary", gz, *out]),
        ("compare, files", [binary, "compare", files, "--baseline", "3.8.0", "--candidate", "3.9.0", *out]),
        ("trend, files", [binary, "trend", files, *trend, *out]),
    ]


def measure(configs, runs):
    """The floor's median CPU time, and each configuration's median over `runs` rounds of its CPU time
    over the floor's in the same round. Paired within a round, a ratio moves less than a ratio of two
    medians when the machine's speed drifts between rounds; CPU time leaves out the time the process
    waited for a processor."""
    floor_times = []
    ratios = {label: [] for label, _ in configs if label != "floor"}
    for _ in range(runs):
        floor = None
        for label, cmd in configs:
            cpu = run_timed(cmd)[1]
            if label == "floor":
                floor = cpu
                floor_times.append(cpu)
            else:
                ratios[label].append(cpu / floor)
    return statistics.median(floor_times), {label: round(statistics.median(r), 3) for label, r in ratios.items()}


# The slowdown in instructions a check tolerates. Counted by Valgrind, a run's instructions repeat to
# within 0.1% (its threads aside, the work is the same), where its time on a shared machine moves by a
# tenth or more from one check to the next: 10% more instructions is a slower build, not a busy moment.
INSTRUCTION_TOLERANCE = 0.10


def instructions(cmd):
    """The instructions one run of `cmd` executes, counted by Valgrind's cachegrind without its cache
    simulation."""
    proc = subprocess.run(["valgrind", "--tool=cachegrind", "--cache-sim=no", "--cachegrind-out-file=/dev/null", *cmd],
                          stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    found = re.search(r"^==\d+== I\s+refs:\s+([\d,]+)", proc.stderr, re.MULTILINE)
    if proc.returncode not in (0, 1) or not found:
        raise SystemExit(f"valgrind {' '.join(cmd)} exited {proc.returncode}:\n{proc.stderr[-2000:]}")
    return int(found.group(1).replace(",", ""))


def count(a):
    """Each guarded configuration's instructions on the count corpus; None without --counted."""
    if not a.counted:
        return None
    return {label: instructions(cmd) for label, cmd in guarded(a, a.counted, a.count_corpus) if label != "floor"}


def check_counts(a, baseline, counts):
    """Prints the instruction counts against the baseline's; the configurations past their limit."""
    recorded = baseline.get("instructions")
    if counts is None:
        print("\nInstructions not counted: Valgrind was not found (Scripts/bootstrap.sh --test installs it).")
        return []
    if not recorded:
        print(f"\nInstructions not in {a.check}: " + ", ".join(f"{k} {v / 1e6:,.0f} M" for k, v in counts.items()))
        return []
    tolerance = recorded["tolerance"]
    print(f"\nInstructions, counted by Valgrind on {recorded['payloads']} payloads, tolerance +{tolerance:.0%}:\n")
    print("| run | millions, baseline | millions, now | limit | |")
    print("|---|---:|---:|---:|---|")
    failed = []
    for label, n in counts.items():
        if label not in recorded["counts"]:
            print(f"| {label} | – | {n / 1e6:,.0f} | – | not in the baseline |")
            continue
        limit = recorded["counts"][label] * (1 + tolerance)
        verdict = "SLOWER" if n > limit else "ok"
        if n > limit:
            failed.append(label)
        print(f"| {label} | {recorded['counts'][label] / 1e6:,.0f} | {n / 1e6:,.0f} | {limit / 1e6:,.0f} | {verdict} |")
    return failed


def guard(a):
    configs = guarded(a)
    floor, ratios = measure(configs, a.runs)
    counts = count(a)
    if a.record:
        baseline = {
            "description": "Scripts/bench.sh --check's configurations: medians of their CPU time over the read + parse floor's in the same round, and their instructions",
            "commit": a.commit, "payloads": a.payloads, "runs": a.runs,
            "tolerance": a.tolerance if a.tolerance is not None else 0.3, "ratios": ratios,
        }
        if counts is not None:
            baseline["instructions"] = {"payloads": a.count_payloads, "tolerance": INSTRUCTION_TOLERANCE, "counts": counts}
        with open(a.record, "w") as f:
            json.dump(baseline, f, indent=2)
            f.write("\n")
        print(f"Recorded {a.record}: floor {floor:.3f} s of CPU; " + ", ".join(f"{k} {v:.2f}×" for k, v in ratios.items()))
        if counts is not None:
            print("Instructions: " + ", ".join(f"{k} {v / 1e6:,.0f} M" for k, v in counts.items()))
        return 0
    with open(a.check) as f:
        baseline = json.load(f)
    tolerance = a.tolerance if a.tolerance is not None else baseline["tolerance"]
    limits = {label: ratio * (1 + tolerance) for label, ratio in baseline["ratios"].items()}
    missing = sorted(set(limits) - set(ratios))
    if missing:
        print(f"Not measured: {', '.join(missing)}")
        return 2
    # A slowdown is measured a second time, floor included, before it fails the check: one busy
    # moment of a shared machine passes, a slower build is slower twice.
    slower = [label for label, ratio in ratios.items() if label in limits and ratio > limits[label]]
    confirmed = {}
    if slower:
        _, confirmed = measure([c for c in configs if c[0] == "floor" or c[0] in slower], a.runs)
    print(f"Check against {a.check} (commit {baseline.get('commit') or '?'}), {a.runs} runs, "
          f"{a.payloads} payloads, tolerance +{tolerance:.0%}; floor {floor:.3f} s of CPU\n")
    print("| run | × floor, baseline | × floor, now | limit | |")
    print("|---|---:|---:|---:|---|")
    failed = []
    for label, ratio in ratios.items():
        if label not in limits:
            print(f"| {label} | – | {ratio:.2f} | – | not in the baseline |")
            continue
        now, verdict = f"{ratio:.2f}", "ok"
        if label in confirmed:
            now += f", then {confirmed[label]:.2f}"
            verdict = "SLOWER" if confirmed[label] > limits[label] else "ok the second time"
            if verdict == "SLOWER":
                failed.append(label)
        print(f"| {label} | {baseline['ratios'][label]:.2f} | {now} | {limits[label]:.2f} | {verdict} |")
    more = check_counts(a, baseline, counts)
    if failed or more:
        if failed:
            print(f"\nSlower than the baseline allows, twice: {', '.join(failed)}")
        if more:
            print(f"\nMore instructions than the baseline allows: {', '.join(more)}")
        return 1
    print("\nWithin the baseline.")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
