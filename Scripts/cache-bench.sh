#!/usr/bin/env bash
# The cache over a year of dumps kept by day (Docs/nightly.md): a folder a day, 365 of them, read by
# `trend --interval day` and `compare`, each with its own --cache:
#   cold        the first run, the cache empty (and the same run without --cache, for reference);
#   one new day a day added, then the run (the nightly job): R times, a new day each time;
#   nothing new the run again with nothing changed: R times (its output is the one the cache stored);
#   other output once, with nothing new, the run in another format (trend: every point from the
#               cache, the output written anew; compare: the gate computed anew from the entries).
# Prints medians (seconds), their ratios to the cold run, and peak resident memory.
#   Scripts/cache-bench.sh [--runs R] [--per-day N]
set -euo pipefail
cd "$(dirname "$0")/.."
runs=5
per_day=200
while (( $# )); do
  case "$1" in
    --runs) runs=$2; shift 2 ;;
    --per-day) per_day=$2; shift 2 ;;
    *) echo "usage: $0 [--runs R] [--per-day N]" >&2; exit 64 ;;
  esac
done
swift build -c release --product metrics-report >&2
swift build -c release --product generate-corpus >&2
bin=$(swift build -c release --show-bin-path)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$bin/generate-corpus" "$work/dumps" --daily 0 365 "$per_day" >&2
echo "commit $(git rev-parse --short HEAD), $(nproc) cores, 365 days × $per_day payloads, $runs runs"

# Seconds and peak memory (MB) of one run, appended to a file as "seconds MB".
measure() {
  local out=$1
  shift
  /usr/bin/time -f "%e %M" -o "$work/time" "$@" >/dev/null 2>>"$work/stderr"
  awk '{ printf "%s %.0f\n", $1, $2 / 1024 }' "$work/time" >> "$out"
}
median() { sort -n "$1" | awk '{ a[NR] = $1 } END { print (NR % 2 ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2) }'; }
peak() { sort -n -k2 "$1" | tail -1 | awk '{ print $2 }'; }

declare -A commands=(
  [trend]="trend $work/dumps --metric * --interval day --format json"
  [compare]="compare $work/dumps --baseline 5.10.0 --candidate 5.11.0 --format json"
)
declare -A others=([trend]=csv [compare]=junit)
day=365
echo
echo "| command | without cache | cold | one new day | nothing new | other output | new day / cold | nothing new / cold | other output / cold | peak MB (cold, new day, nothing new) |"
echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
for name in trend compare; do
  read -r -a argv <<< "${commands[$name]}"
  set -f
  rm -f "$work"/{plain,cold,day,none,other}
  measure "$work/plain" "$bin/metrics-report" "${argv[@]}" || true
  measure "$work/cold" "$bin/metrics-report" "${argv[@]}" --cache "$work/cache-$name" || true
  for _ in $(seq "$runs"); do
    "$bin/generate-corpus" "$work/dumps" --daily "$day" 1 "$per_day" >/dev/null
    day=$((day + 1))
    measure "$work/day" "$bin/metrics-report" "${argv[@]}" --cache "$work/cache-$name" || true
  done
  for _ in $(seq "$runs"); do
    measure "$work/none" "$bin/metrics-report" "${argv[@]}" --cache "$work/cache-$name" || true
  done
  argv[${#argv[@]}-1]=${others[$name]}
  measure "$work/other" "$bin/metrics-report" "${argv[@]}" --cache "$work/cache-$name" || true
  set +f
  plain=$(median "$work/plain"); cold=$(median "$work/cold"); new=$(median "$work/day"); none=$(median "$work/none")
  other=$(median "$work/other")
  ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f%%", 100 * a / b }'; }
  echo "| \`$name\` | $plain s | $cold s | $new s | $none s | $other s | $(ratio "$new" "$cold") | $(ratio "$none" "$cold") | $(ratio "$other" "$cold") | $(peak "$work/cold"), $(peak "$work/day"), $(peak "$work/none") |"
done
# The runs' own word on what they took from the cache.
grep '^cache: ' "$work/stderr" | sort | uniq -c | sort -rn | head -12 >&2
