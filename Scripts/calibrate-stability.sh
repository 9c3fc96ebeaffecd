#!/usr/bin/env bash
# The stability rates' calibration behind Docs/calibration.md's stability tables: for each situation
# of PayloadSynthesis' StabilityScenario (plain A/A, a device-mix shift with equal per-device rates, an
# 80% regression), RUNS dumps of seeds 1…RUNS. For each, the coverage of every version's 95% interval
# (summary) of the true termination rate and crash-free share, computed here from the scenario's
# constants (a second derivation, not the generator's), and the default gate's verdicts (compare).
# Release builds; prints Markdown tables.
#   Scripts/calibrate-stability.sh [RUNS] [DEVICE_DAYS_PER_VERSION] [BASE_RATE] [CRASH_LOOP_PROBABILITY]
#   (default 200, 3000, and the scenario's 15 and 0.0015; ~5 min on 2 cores)
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-200}
per_version=${2:-3000}
base_rate=${3:-15}
loop_probability=${4:-0.0015}
swift build -c release --product metrics-report >/dev/null
swift build -c release --product generate-samples >/dev/null
bin=$(swift build -c release --show-bin-path)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# One dump: "situation seed" then the summary's and the gate's JSON, on one line each, in a file.
one() {
  local situation=$1 seed=$2 dir="$work/$1-$2"
  "$bin/generate-samples" --stability "$situation" "$dir/dump" --seed "$seed" --payloads-per-version "$per_version" \
    --base-rate "$base_rate" --crash-loop-probability "$loop_probability" >/dev/null
  "$bin/metrics-report" summary "$dir/dump" --metric crashFreeDeviceDays --metric terminationRate --format json \
    -o "$dir/summary.json"
  "$bin/metrics-report" compare "$dir/dump" --baseline 7.1.0 --candidate 7.2.0 --format json -o "$dir/compare.json" \
    2>/dev/null || true
  rm -rf "$dir/dump"
}
export -f one
export bin work per_version base_rate loop_probability
for situation in plain device-mix regression; do
  for seed in $(seq 1 "$runs"); do echo "$situation $seed"; done
done | xargs -P 2 -n 2 bash -c 'one "$0" "$1"'

python3 - "$work" "$runs" "$per_version" "$base_rate" "$loop_probability" <<'PY'
import glob, json, math, os, sys
work, runs, per_version = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
base, loop_p = float(sys.argv[4]), float(sys.argv[5])
# The scenario's constants (Samples/Sources/PayloadSynthesis/StabilityScenario.swift).
crashiness = [2.5, 1.6, 1.0, 0.9, 0.7, 0.6]
shape, loop_mean, factor = 0.5, 12.0, 1.8
def mix(situation, candidate):
    w = [4, 3, 1, 1, 1, 1] if candidate and situation == "device-mix" else [1] * 6
    return [x / sum(w) for x in w]
def truth(situation, candidate):
    f = factor if candidate and situation == "regression" else 1.0
    m = mix(situation, candidate)
    # Terminations per 1,000 foreground hours: a device-day runs 1 hour on average.
    rate = sum(w * f * c * (base + 1000 * loop_p * loop_mean) for w, c in zip(m, crashiness))
    # Crash-free: no loop, and no Poisson event at rate base·c·f·frailty·h; the frailty's Laplace
    # transform (1 + s/shape)^-shape, averaged over h uniform on [0.2, 1.8] (midpoint rule, 4,000 steps).
    def free(c):
        steps = 4000
        total = sum((1 + base * c * f * (0.2 + 1.6 * (i + 0.5) / steps) / 1000 / shape) ** -shape for i in range(steps))
        return (1 - loop_p * c * f) * total / steps
    share = 100 * sum(w * free(c) for w, c in zip(m, crashiness))
    return {"terminationRate": rate, "crashFreeDeviceDays": share}
situations = ["plain", "device-mix", "regression"]
covered = {(s, m): [0, 0] for s in situations for m in ("terminationRate", "crashFreeDeviceDays")}
widths = {k: [] for k in covered}
gate = {s: {} for s in situations}
rules = {s: {} for s in situations}
events = {s: [] for s in situations}
for s in situations:
    for seed in range(1, runs + 1):
        d = os.path.join(work, f"{s}-{seed}")
        summary = json.load(open(os.path.join(d, "summary.json")))
        for v in summary["versions"]:
            t = truth(s, v["version"] == "7.2.0")
            for m in v["metrics"]:
                if m["metric"] in t:
                    lo, hi = m["interval"]
                    covered[(s, m["metric"])][0] += lo <= t[m["metric"]] <= hi
                    covered[(s, m["metric"])][1] += 1
                    widths[(s, m["metric"])].append((hi - lo) / m["value"] if m["value"] else float("nan"))
                    if m["metric"] == "terminationRate":
                        events[s].append(m["events"])
        c = json.load(open(os.path.join(d, "compare.json")))
        gate[s][c["gate"]] = gate[s].get(c["gate"], 0) + 1
        for r in c["results"]:
            if r["metric"] in ("terminationRate", "crashFreeDeviceDays"):
                key = r["metric"]
                rules[s].setdefault(key, {})
                rules[s][key][r["verdict"]] = rules[s][key].get(r["verdict"], 0) + 1
print(f"{runs} seeds a situation, {per_version} device-days a version, base rate {base:g} per 1,000 h, "
      f"crash loops {loop_p:g} a device-day (times the device's crashiness)\n")
print("| situation | metric | intervals | covering the true value | median width ÷ value | mean terminations a version |")
print("|---|---|---:|---:|---:|---:|")
for (s, m), (k, n) in covered.items():
    w = sorted(widths[(s, m)])
    print(f"| {s} | {m} | {n} | {100 * k / n:.1f}% | {w[len(w) // 2]:.3f} | {sum(events[s]) / len(events[s]):.0f} |")
print("\n| situation | rule | " + " | ".join(["regression", "unchanged", "inconclusive", "improvement", "insufficient-data"]) + " | gate FAIL |")
print("|---|---|" + "---:|" * 6)
for s in situations:
    for key in ("terminationRate", "crashFreeDeviceDays"):
        counts = rules[s].get(key, {})
        cells = [f"{100 * counts.get(v, 0) / runs:.1f}%" for v in ["regression", "unchanged", "inconclusive", "improvement", "insufficient-data"]]
        print(f"| {s} | {key} | " + " | ".join(cells) + f" | {100 * gate[s].get('fail', 0) / runs:.1f}% |")
PY
