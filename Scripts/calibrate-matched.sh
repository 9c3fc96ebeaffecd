#!/usr/bin/env bash
# The matched gate's calibration behind Docs/calibration.md's rollout table: for each situation of
# PayloadSynthesis' RolloutScenario (A/A with a device-mix shift or an OS update mid-rollout, a
# regression masked by a minimum-OS bump, one confined to a device family, plain A/A), RUNS dumps of
# seeds 1…RUNS, each compared pooled (--stratify none), matched over every day (the default) and
# matched over the overlap window. Release builds; prints a Markdown table.
#   Scripts/calibrate-matched.sh [RUNS] [PAYLOADS_PER_VERSION]   (default 200 and 600; ~15 min on 2 cores)
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-200}
per_version=${2:-600}
swift build -c release --product metrics-report >/dev/null
swift build -c release --product generate-samples >/dev/null
bin=$(swift build -c release --show-bin-path)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# One dump: its three gates, as "situation seed pooled all overlap coverage pooledChange matchedChange".
one() {
  local situation=$1 seed=$2 dir="$work/$1-$2"
  "$bin/generate-samples" --rollout "$situation" "$dir" --seed "$seed" --payloads-per-version "$per_version" >/dev/null
  local row="$situation $seed"
  for options in "--stratify none" "" "--window overlap"; do
    # shellcheck disable=SC2086
    "$bin/metrics-report" compare "$dir" --baseline 6.1.0 --candidate 6.2.0 --format json $options \
      >"$dir/out.json" 2>/dev/null || true
    row="$row $(python3 - "$dir/out.json" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
launch = next(r for r in d["results"] if r["metric"].endswith("TimeToFirstDraw") and r["statistic"] == "p50")
m = d.get("matching") or {}
coverage = min(m.get("coverage", {}).get("baseline", 1), m.get("coverage", {}).get("candidate", 1))
interval = launch.get("changeInterval") or [float("nan"), float("nan")]
change = launch["change"] if launch["change"] is not None else float("nan")
print(f'{d["gate"]},{coverage:.3f},{change},{interval[0]},{interval[1]}')
EOF
)"
  done
  rm -rf "$dir"
  echo "$row"
}
export -f one
export bin work per_version

for situation in plain device-mix os-update masked-regression family-regression; do
  seq 1 "$runs" | xargs -P 2 -I{} bash -c "one $situation {}"
done >"$work/rows.txt"

python3 - "$work/rows.txt" "$runs" "$per_version" <<'EOF'
import statistics, sys
rows = [line.split() for line in open(sys.argv[1]) if line.strip()]
runs, per_version = int(sys.argv[2]), int(sys.argv[3])
truth = {"plain": False, "device-mix": False, "os-update": False, "masked-regression": True, "family-regression": True}
# The true change of the standardized launch p50 where every stratum's moves alike (a factor on every
# launch of every device): 0, or +15%; the family's regression moves one stratum only.
true_change = {"plain": 0.0, "device-mix": 0.0, "os-update": 0.0, "masked-regression": 0.15}
print(f"Rollouts, {runs} seeds (1–{runs}) a row, {per_version} payloads a version:\n")
print("| situation | truth | pooled: gate fails | matched, every day (default): gate fails | matched, overlap window: gate fails | coverage, every day (median of the smaller) | launch p50: pooled change | launch p50: matched change | matched p50 interval holds the true change |")
print("|---|---|---:|---:|---:|---:|---:|---:|---:|")
for situation, regression in truth.items():
    mine = [r for r in rows if r[0] == situation]
    cells = [[c.split(",") for c in r[2:5]] for r in mine]
    def failed(k): return sum(1 for c in cells if c[k][0] == "fail")
    def pct(k): return f"{failed(k)} ({100 * failed(k) / len(cells):.1f}%)"
    coverage = statistics.median(float(c[1][1]) for c in cells)
    pooled = statistics.median(float(c[0][2]) for c in cells)
    matched = statistics.median(float(c[1][2]) for c in cells)
    held = "–"
    if situation in true_change:
        t = true_change[situation]
        n = sum(1 for c in cells if float(c[1][3]) <= t <= float(c[1][4]))
        held = f"{n} ({100 * n / len(cells):.1f}%)"
    print(f"| {situation} | {'regression' if regression else 'no change (A/A)'} | {pct(0)} | {pct(1)} | {pct(2)} | {coverage:.0%} | {pooled:+.1%} | {matched:+.1%} | {held} |")
EOF
