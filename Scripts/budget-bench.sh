#!/usr/bin/env bash
# A snapshot of one large version with many signposts (Docs/scale.md, "Bounded at any size"): PAYLOADS
# payloads (126,000 by default) with a dozen more signposts, each in about 70% of the payloads (so each
# per-payload sample stays under the per-sample limit and, without the budget, exact), written with the
# default --exact-budget and without a budget. Prints size, time and peak memory.
#   Scripts/budget-bench.sh [PAYLOADS]
set -euo pipefail
cd "$(dirname "$0")/.."
payloads=${1:-126000}
swift build -c release --product metrics-report >&2
swift build -c release --product generate-corpus >&2
bin=$(swift build -c release --show-bin-path)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$bin/generate-corpus" --stream "$payloads" --signposts 12 > "$work/stream.ndjson"
echo "commit $(git rev-parse --short HEAD), $payloads payloads of one version, 13 signposts"
echo
echo "| --exact-budget | snapshot | time | peak memory |"
echo "|---:|---:|---:|---:|"
for budget in 200000 1000000000; do
  /usr/bin/time -f "%e %M" -o "$work/time" \
    "$bin/metrics-report" snapshot --stdin --compact --exact-budget "$budget" -o "$work/s.json" < "$work/stream.ndjson"
  size=$(numfmt --to=iec --suffix=B "$(stat -c %s "$work/s.json")")
  label=$([[ $budget == 200000 ]] && echo "200,000 (default)" || echo "none (1,000,000,000)")
  awk -v label="$label" -v size="$size" '{ printf "| %s | %s | %.1f s | %.0f MB |\n", label, size, $1, $2 / 1024 }' "$work/time"
done
