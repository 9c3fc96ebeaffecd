#!/usr/bin/env bash
# watch's calibration behind Docs/calibration.md's change-point table: for seeds 1…RUNS, a generated
# 150-day store with known changes (PayloadSynthesis' WatchScenario `all`: a whole-app slowdown, a
# version's adoption and the next one's, one device's leak, an improvement) and a flat one (weekly cycle
# and releases, nothing moving). watch reads each (with --by deviceType) and writes its daily series;
# Apache Otava (apache-otava from PyPI, in a virtual environment under .build) runs on the same series
# with its defaults (window 50, p 0.001). Both are scored by Scripts/watch-score.py: a known change is
# found when a change of its metric starts within 5 days of it; any other change is a false alarm.
# Release builds; prints a Markdown table.
#   Scripts/calibrate-watch.sh [RUNS] [PAYLOADS_PER_DAY]   (default 20 and 80; ~10 min on 2 cores)
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-20}
per_day=${2:-80}
swift build -c release --product metrics-report >/dev/null
swift build -c release --product generate-samples >/dev/null
bin=$(swift build -c release --show-bin-path)
venv=.build/otava-venv
if [ ! -x "$venv/bin/python" ]; then
  python3 -m venv "$venv"
  "$venv/bin/pip" install --quiet apache-otava
fi
# KEEP=DIR keeps each store's truth, changes and series there for a closer look.
if [ -n "${KEEP:-}" ]; then
  work=$KEEP
  mkdir -p "$work"
else
  work=$(mktemp -d)
  trap 'rm -rf "$work"' EXIT
fi

one() {
  local situation=$1 seed=$2 dir="$work/$1-$2"
  mkdir -p "$dir"
  "$bin/generate-samples" --watch "$situation" "$dir/store" --seed "$seed" --payloads-per-day "$per_day" \
    --truth "$dir/truth.json" >/dev/null
  "$bin/metrics-report" watch "$dir/store" --by deviceType --format json -o "$dir/watch.json" --series "$dir/series.csv"
  rm -rf "$dir/store"
}
export -f one
export bin work per_day
for situation in all flat; do
  for seed in $(seq 1 "$runs"); do echo "$situation $seed"; done
done | xargs -P 2 -n 2 bash -c 'one "$0" "$1"'

"$venv/bin/python" Scripts/watch-score.py "$work"
