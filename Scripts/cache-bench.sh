#!/usr/bin/env bash
# The cache over dumps kept by day (Docs/nightly.md), a folder a day, read by `trend --metric '*'
# --interval day` and `compare`. Each round, for both commands in turn:
#   without      the run without --cache (the reference every ratio is taken against);
#   first        the first run with a new, empty cache;
# (the days of the dump are dated two days back, as a real dump's past days are: a folder in which
# nothing was modified for an hour is kept as listed, and not listed again while it is unchanged);
# then a day is added to the dump, and, with that round's cache:
#   one new day  the run (the nightly job);
#   nothing new  the run again, nothing changed;
#   other output once more, in another format (trend: every point from the cache, the output written
#                anew; compare: the gate computed anew from the entries).
# Rounds are interleaved so that a slower moment of a shared machine hits every kind of run alike.
# Prints medians (seconds), the median ratios to the run without the cache of the same round, and
# peak resident memory.
#   Scripts/cache-bench.sh [--layout ndjson|files] [--days D] [--per-day N] [--rounds R]
# ndjson: one NDJSON file a day (365 days × 200 payloads by default); files: one JSON file a payload,
# every tenth in a late.ndjson (90 days × 1,500 payloads, about 1,350 files a day).
set -euo pipefail
cd "$(dirname "$0")/.."
layout=ndjson
rounds=3
days="" per_day=""
while (( $# )); do
  case "$1" in
    --layout) layout=$2; shift 2 ;;
    --days) days=$2; shift 2 ;;
    --per-day) per_day=$2; shift 2 ;;
    --rounds) rounds=$2; shift 2 ;;
    *) echo "usage: $0 [--layout ndjson|files] [--days D] [--per-day N] [--rounds R]" >&2; exit 64 ;;
  esac
done
case "$layout" in
  ndjson) days=${days:-365} per_day=${per_day:-200} files_flag=() ;;
  files) days=${days:-90} per_day=${per_day:-1500} files_flag=(--files) ;;
  *) echo "--layout is ndjson or files" >&2; exit 64 ;;
esac
source Scripts/nightly-binary.sh
"$bin/generate-corpus" "$work/dumps" --daily 0 "$days" "$per_day" "${files_flag[@]}" >&2
# The days already in the dump were written days ago, as a real dump's are: their files and folders
# are dated two days back (once, before any run: a file's change time moves when it is dated, and
# entries are keyed by it). Days added later are today's.
find "$work/dumps" -mindepth 1 -exec touch -d '2 days ago' {} +
echo "commit $(git rev-parse --short HEAD), $(nproc) cores, $layout: $days days × $per_day payloads" \
  "($(find "$work/dumps" -type f | wc -l) files), $rounds rounds"

peak() { sort -n -k3 "$1" | tail -1 | awk '{ print $3 }'; }
# The median over the rounds of a run's time over the run without the cache in the same round: paired,
# a ratio moves less than a ratio of two medians when the machine's speed drifts between rounds.
ratio() {
  paste -d ' ' "$1" "$2" | awk '{ print 100 * $1 / $4 }' > "$work/ratios"
  printf "%.1f%%" "$(median "$work/ratios")"
}

# A version ships every 30 days: compare the latest with ten days of payloads or more and the one before.
candidate=$(( (days - 10) / 30 ))
declare -A commands=(
  [trend]="trend $work/dumps --metric * --interval day --format json"
  [compare]="compare $work/dumps --baseline 5.$((candidate - 1)).0 --candidate 5.$candidate.0 --format json"
)
declare -A others=([trend]=csv [compare]=junit)
names=(trend compare)
day=$days
set -f
for round in $(seq "$rounds"); do
  for name in "${names[@]}"; do
    read -r -a argv <<< "${commands[$name]}"
    measure "$work/$name.without" "$bin/metrics-report" "${argv[@]}" || true
    measure "$work/$name.first" "$bin/metrics-report" "${argv[@]}" --cache "$work/cache-$name-$round" || true
  done
  "$bin/generate-corpus" "$work/dumps" --daily "$day" 1 "$per_day" "${files_flag[@]}" >/dev/null
  day=$((day + 1))
  for name in "${names[@]}"; do
    read -r -a argv <<< "${commands[$name]}"
    measure "$work/$name.day" "$bin/metrics-report" "${argv[@]}" --cache "$work/cache-$name-$round" || true
    measure "$work/$name.none" "$bin/metrics-report" "${argv[@]}" --cache "$work/cache-$name-$round" || true
    argv[${#argv[@]}-1]=${others[$name]}
    measure "$work/$name.other" "$bin/metrics-report" "${argv[@]}" --cache "$work/cache-$name-$round" || true
  done
done
set +f
echo
echo "| command | without cache | first run | one new day | nothing new | other output | first / without | new day / without | nothing new / without | other / without | peak MB (without, first, new day) |"
echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
for name in "${names[@]}"; do
  without=$(median "$work/$name.without") first=$(median "$work/$name.first") new=$(median "$work/$name.day")
  none=$(median "$work/$name.none") other=$(median "$work/$name.other")
  echo "| \`$name\` | $without s | $first s | $new s | $none s | $other s | $(ratio "$work/$name."{first,without}) |" \
    "$(ratio "$work/$name."{day,without}) | $(ratio "$work/$name."{none,without}) | $(ratio "$work/$name."{other,without}) |" \
    "$(peak "$work/$name.without"), $(peak "$work/$name.first"), $(peak "$work/$name.day") |"
done
# The runs' own word on what they took from the cache.
grep '^cache: ' "$work/stderr" | sort | uniq -c | sort -rn | head -12 >&2
