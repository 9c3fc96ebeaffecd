#!/usr/bin/env bash
# The gate from snapshots whose budget folded every per-payload sample into a sketch, against exact
# snapshots (Docs/scale.md, "Bounded at any size"): R A/A runs, two independent samples of one version's
# distribution (N payloads each, seeds 2r and 2r+1), each written as a snapshot twice, exact
# (--exact-budget above what it holds) and all sketches (--exact-budget 0), then compared with the
# built-in rules. Prints how often the gate failed in each form.
#   Scripts/calibrate-snapshots.sh [--runs R] [--payloads N]
set -euo pipefail
cd "$(dirname "$0")/.."
runs=100
payloads=400
while (( $# )); do
  case "$1" in
    --runs) runs=$2; shift 2 ;;
    --payloads) payloads=$2; shift 2 ;;
    *) echo "usage: $0 [--runs R] [--payloads N]" >&2; exit 64 ;;
  esac
done
swift build -c release --product metrics-report >&2
swift build -c release --product generate-corpus >&2
bin=$(swift build -c release --show-bin-path)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
declare -A failed=([exact]=0 [sketch]=0)
declare -A budget=([exact]=100000000 [sketch]=0)
for r in $(seq "$runs"); do
  "$bin/generate-corpus" --stream "$payloads" --profile 1 --seed $((2 * r)) > "$work/a.ndjson"
  "$bin/generate-corpus" --stream "$payloads" --profile 1 --seed $((2 * r + 1)) > "$work/b.ndjson"
  for form in exact sketch; do
    "$bin/metrics-report" snapshot --stdin --exact-budget "${budget[$form]}" -o "$work/a.json" < "$work/a.ndjson"
    "$bin/metrics-report" snapshot --stdin --exact-budget "${budget[$form]}" -o "$work/b.json" < "$work/b.ndjson"
    status=0
    "$bin/metrics-report" compare --baseline-file "$work/a.json" --candidate-file "$work/b.json" >/dev/null 2>&1 || status=$?
    if (( status == 1 )); then failed[$form]=$((failed[$form] + 1)); fi
    if (( status > 1 )); then echo "compare could not evaluate (exit $status) in run $r" >&2; exit 2; fi
  done
done
echo "commit $(git rev-parse --short HEAD), $runs A/A runs of $payloads payloads a side"
echo
echo "| snapshots | gate failed | rate |"
echo "|---|---:|---:|"
for form in exact sketch; do
  awk -v f="${failed[$form]}" -v n="$runs" -v form="$form" \
    'BEGIN { printf "| %s | %d of %d | %.1f%% |\n", (form == "exact" ? "exact" : "every sample a sketch (--exact-budget 0)"), f, n, 100 * f / n }'
done
