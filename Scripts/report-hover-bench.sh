#!/usr/bin/env bash
# What a crosshair move costs on the report page (Docs/report-page.md): headless Chromium opens a page
# of 30 versions × 4 device groups (120 series a chart, 12 charts) and of Samples/dump with
# `#bench=hover`, the page times 300 moves across the range (every chart's crosshair and readout, and the
# layout they cause), and this prints the median, p90 and worst per move, over R page loads.
#   Scripts/report-hover-bench.sh [--runs R]
set -euo pipefail
cd "$(dirname "$0")/.."
runs=5
while (( $# )); do
  case "$1" in
    --runs) runs=$2; shift 2 ;;
    *) echo "usage: $0 [--runs R]" >&2; exit 64 ;;
  esac
done
browser=${CHROMIUM:-$(command -v chromium || command -v chromium-browser || command -v google-chrome || true)}
if [[ -z "$browser" ]]; then echo "chromium not found: Scripts/bootstrap.sh --browser" >&2; exit 2; fi
swift build -c release --product metrics-report >&2
swift build -c release --product generate-corpus >&2
bin=$(swift build -c release --show-bin-path)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$bin/generate-corpus" "$work/history" --history 30 730 400 >&2
twelve=(
  applicationLaunchMetrics.histogrammedTimeToFirstDraw@p50 applicationLaunchMetrics.histogrammedTimeToFirstDraw@p90
  applicationLaunchMetrics.histogrammedTimeToFirstDraw@p99 applicationLaunchMetrics.histogrammedApplicationResumeTime@p90
  hangRate applicationResponsivenessMetrics.histogrammedApplicationHangTime@p90 memoryMetrics.peakMemoryUsage@p90
  scrollHitchRate applicationExitMetrics.foregroundExitData.cumulativeAbnormalExitCount cpuMetrics.cumulativeCPUTime@p90
  applicationTimeMetrics.cumulativeForegroundTime@mean 'signpost:Feed/LoadFeed@p90'
)
metric_args=()
for m in "${twelve[@]}"; do metric_args+=(--metric "$m"); done
"$bin/metrics-report" report "$work/history" --interval week --by deviceType --top 3 "${metric_args[@]}" \
  -o "$work/groups.html" 2>/dev/null
"$bin/metrics-report" report Samples/dump --baseline 3.8.0 --candidate 3.9.0 -o "$work/samples.html" 2>/dev/null
charts=$(grep -o '"kind":"' "$work/groups.html" | wc -l)
series=$(( $(grep -o '"label":' "$work/groups.html" | wc -l) / charts ))
printf '%-58s %s\n' "page" "per move: median, p90, worst (ms), over $runs loads × 300 moves"
for page in groups samples; do
  all=()
  for ((i = 0; i < runs; i++)); do
    dom=$(timeout 120 "$browser" --headless --no-sandbox --disable-gpu --window-size=1400,1000 --dump-dom \
      "file://$work/$page.html#bench=hover" 2>/dev/null)
    errors=$(grep -o 'data-report-errors="[^"]*"' <<<"$dom" | head -1)
    if [[ "$errors" != 'data-report-errors=""' ]]; then echo "$page: script errors: $errors" >&2; exit 1; fi
    all+=($(grep -o 'data-report-hover-ms="[^"]*"' <<<"$dom" | sed 's/.*="//; s/"//'))
  done
  case $page in
    groups) label="30 versions × 4 groups, 12 charts ($series series a chart)" ;;
    samples) label="Samples/dump (3 versions, 8 charts)" ;;
  esac
  printf '%s\n' "${all[@]}" | sort -g | awk -v label="$label" '{a[NR]=$1} END {
    printf "%-58s %.2f, %.2f, %.2f\n", label, a[int((NR+1)/2)], a[int(NR*0.9)], a[NR] }'
done
