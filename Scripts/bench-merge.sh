#!/usr/bin/env bash
# Times exact histogram merges where ranges do not repeat (Docs/performance.md):
#   Scripts/bench-merge.sh [--ranges N] [--runs R]
# 1. `merge` of two snapshot shards whose one histogram holds N/2 distinct bucket ranges each, written in
#    descending order and interleaved with the other shard's (N distinct in the result);
# 2. `summary` and `report` of 80 payloads of 2,000 buckets each whose layouts all differ and overlap
#    (160,000 distinct ranges), buckets ascending and descending, and of 160 such payloads (twice the
#    input: the time should about double).
# Prints the median and range of R runs of each.
set -euo pipefail
cd "$(dirname "$0")/.."
ranges=1000000
runs=3
while (( $# )); do
  case "$1" in
    --ranges) ranges=$2; shift 2 ;;
    --runs) runs=$2; shift 2 ;;
    *) echo "usage: $0 [--ranges N] [--runs R]" >&2; exit 64 ;;
  esac
done
swift build -c release --product metrics-report >&2
bin=$(swift build -c release --show-bin-path)/metrics-report
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$bin" snapshot Samples/dump --app-version 3.9.0 > "$work/base.json"
python3 - "$work" "$ranges" <<'PY'
import json, sys
work, n = sys.argv[1], int(sys.argv[2])
base = json.load(open(f"{work}/base.json"))
metric = "applicationLaunchMetrics.histogrammedTimeToFirstDraw"
for shard in (0, 1):
    s = json.loads(json.dumps(base))
    s["shards"] = [f"{shard + 1:032x}"]  # a shard of its own
    # Shard 0 holds the even ranges, shard 1 the odd ones; each written from the largest down.
    buckets = [[k * 0.5, k * 0.5 + 0.25, 1] for k in range(n - 2 + shard, -1, -2)]
    s["histograms"][metric] = {"unit": "ms", "payloads": len(buckets), "buckets": buckets}
    s["payloads"] = len(buckets)
    json.dump(s, open(f"{work}/shard{shard}.json", "w"))
for order, count in (("ascending", 80), ("descending", 80), ("ascending", 160)):
    with open(f"{work}/payloads-{count}-{order}.ndjson", "w") as f:
        for p in range(count):
            edges = [p * 0.0005 + k for k in range(2000)]
            if order == "descending": edges.reverse()
            value = {str(i): {"bucketStart": f"{e:.4f} ms", "bucketEnd": f"{e + 0.5:.4f} ms", "bucketCount": 1}
                     for i, e in enumerate(edges)}
            f.write(json.dumps({"appVersion": "1.0", "timeStampBegin": "2024-05-01 00:00:00",
                "timeStampEnd": "2024-05-01 23:00:00",
                "applicationLaunchMetrics": {"histogrammedTimeToFirstDrawKey": {"histogramValue": value}}}) + "\n")
PY
time_runs() {
  local label=$1; shift
  local times=()
  for ((r = 0; r < runs; r++)); do
    local start end
    start=$(date +%s%N)
    "$@" > /dev/null
    end=$(date +%s%N)
    times+=("$(( (end - start) / 1000000 ))")
  done
  printf '%s\n' "${times[@]}" | sort -n | awk -v label="$label" '{ t[NR] = $1 } END {
    printf "| %s | %.3f s | %.3f–%.3f s |\n", label, t[int((NR + 1) / 2)] / 1000, t[1] / 1000, t[NR] / 1000 }'
}
echo "| run | median | range |"
echo "|---|---:|---:|"
time_runs "merge, $ranges distinct ranges" "$bin" merge "$work/shard0.json" "$work/shard1.json"
for input in 80-ascending 80-descending 160-ascending; do
  count=${input%%-*} order=${input#*-}
  time_runs "summary, $count × 2,000 buckets, $order" "$bin" summary "$work/payloads-$input.ndjson"
  time_runs "report, $count × 2,000 buckets, $order" "$bin" report "$work/payloads-$input.ndjson" -o "$work/r.html"
done
