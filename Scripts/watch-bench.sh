#!/usr/bin/env bash
# The nightly `watch` over a store kept by day (Docs/watch.md, "Nightly"): what a night costs against
# a run without the cache over the same store. Each round:
#   cold         watch without --cache (the reference);
#   first        the first run with a new, empty cache;
# then a day is added, and with that cache:
#   new day      the run (the nightly job);
#   nothing new  the run again, nothing changed;
# then the oldest day is removed (as the collector's --retain does) and a day added:
#   retained     the run that night.
# Prints, per kind of run, the median wall-clock and CPU seconds (user + system) over the rounds and
# the median ratio of CPU seconds to the cold run of the same round, and what the cached runs took
# from the cache.
#   Scripts/watch-bench.sh [--days D] [--per-day N] [--rounds R]
# One JSON file a payload, every tenth in a late.ndjson (90 days × 1,500 payloads: about 120,000 files).
set -euo pipefail
cd "$(dirname "$0")/.."
days=90 per_day=1500 rounds=1
while (( $# )); do
  case "$1" in
    --days) days=$2; shift 2 ;;
    --per-day) per_day=$2; shift 2 ;;
    --rounds) rounds=$2; shift 2 ;;
    *) echo "usage: $0 [--days D] [--per-day N] [--rounds R]" >&2; exit 64 ;;
  esac
done
source Scripts/nightly-binary.sh
echo "commit $(git rev-parse --short HEAD), $(nproc) cores: $days days × $per_day payloads, $rounds rounds"

column() { awk -v c="$2" '{ print $c }' "$1" > "$work/column"; median "$work/column"; }
# The median over the rounds of a run's CPU over the cold run's in the same round.
ratio() {
  paste -d ' ' "$1" "$2" | awk '{ print 100 * $2 / $5 }' > "$work/ratios"
  printf "%.1f%%" "$(median "$work/ratios")"
}

for round in $(seq "$rounds"); do
  rm -rf "$work/store" "$work/cache"
  "$bin/generate-corpus" "$work/store" --daily 0 "$days" "$per_day" --files >/dev/null
  # Days already in the store were written days ago (Docs/nightly.md: a folder unchanged for an hour
  # is taken as listed); days added later are today's.
  find "$work/store" -mindepth 1 -exec touch -d '2 days ago' {} +
  watch=("$bin/metrics-report" watch "$work/store" --format json)
  measure "$work/cold" "${watch[@]}"
  measure "$work/first" "${watch[@]}" --cache "$work/cache"
  "$bin/generate-corpus" "$work/store" --daily "$days" 1 "$per_day" --files >/dev/null
  measure "$work/day" "${watch[@]}" --cache "$work/cache"
  measure "$work/none" "${watch[@]}" --cache "$work/cache"
  rm -rf "${work:?}/store/$(ls "$work/store" | head -1)"
  "$bin/generate-corpus" "$work/store" --daily "$((days + 1))" 1 "$per_day" --files >/dev/null
  measure "$work/retained" "${watch[@]}" --cache "$work/cache"
done
echo
echo "| run | wall s | CPU s | CPU / cold |"
echo "|---|---:|---:|---:|"
for kind in cold first day none retained; do
  label=$(case $kind in cold) echo "cold (no cache)" ;; first) echo "first, empty cache" ;;
    day) echo "one new day" ;; none) echo "nothing new" ;; retained) echo "oldest day removed, one new" ;; esac)
  echo "| $label | $(column "$work/$kind" 1) | $(column "$work/$kind" 2) | $(ratio "$work/$kind" "$work/cold") |"
done
grep '^cache: ' "$work/stderr" | sort | uniq -c | sort -rn | head -12 >&2
