#!/usr/bin/env bash
# Where summary's time goes: records `perf` (Debian's linux-perf) on one thread of
# `summary` over the benchmark corpus and prints the top frames by self time, and by library.
#   Scripts/profile.sh [--corpus DIR] [--top N] [-- extra summary arguments]
# Needs perf (apt-get install linux-perf) and a corpus (Scripts/bench.sh writes it); the kernel must
# allow user-space sampling (perf_event_paranoid ≤ 2, the Debian default).
set -euo pipefail
cd "$(dirname "$0")/.."
corpus=/tmp/metrics-report-corpus
top=25
while (( $# )); do
  case "$1" in
    --corpus) corpus=$2; shift 2 ;;
    --top) top=$2; shift 2 ;;
    --) shift; break ;;
    *) echo "usage: $0 [--corpus DIR] [--top N] [-- summary arguments]" >&2; exit 64 ;;
  esac
done
if ! command -v perf >/dev/null; then
  echo "perf is missing: apt-get install linux-perf" >&2
  exit 2
fi
if [[ ! -d "$corpus/files" ]]; then
  echo "no corpus in $corpus: run Scripts/bench.sh first (it writes one)" >&2
  exit 2
fi
swift build -c release --product metrics-report >&2
bin=$(swift build -c release --show-bin-path)/metrics-report
data=$(mktemp)
trap 'rm -f "$data"' EXIT
perf record -q -F 2000 -g -o "$data" -- "$bin" summary "$corpus/files" --threads 1 --format json -o /dev/null "$@" \
  2> >(grep -v -E '^\[ perf record|^Warning|^$' >&2)
echo "Top $top frames by self time (summary --threads 1 on $corpus/files):"
perf report -q -i "$data" --no-children -F overhead,sym --percent-limit 0.5 --stdio 2>/dev/null \
  | grep -E '^ +[0-9.]+%' | head -n "$top" | sed -E 's/ +\[[.k]\] / /; s/^ +//; s/ +$//' \
  | swift demangle --simplified | cut -c1-160
echo
echo "By library (self time):"
perf report -q -i "$data" --no-children -F overhead,dso --stdio 2>/dev/null | grep -E '^ +[0-9.]+%' | head -n 8 \
  | sed -E 's/^ +//; s/ +$//'
