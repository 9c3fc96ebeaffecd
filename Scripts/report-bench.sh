#!/usr/bin/env bash
# Measures the report page (Docs/report-page.md): its size and how soon headless Chromium
# has it interactive (every chart drawn, the script done: the page's data-report-ready-ms, from
# navigation start), on Samples/dump and on a generated two-year history of 30 versions with 12 charts;
# then what a crosshair move costs (Docs/performance.md): with `#bench=hover` the page times 300 moves
# across the range (every chart's crosshair, the readouts in view, the layout they cause), on the
# history split by device type (4 groups a version) and on Samples/dump; then, with a real mouse
# (Scripts/report-frames.py), what a whole frame after a move costs on the same two pages: its
# script, style, layout and paint.
#   Scripts/report-bench.sh [--runs R]
set -euo pipefail
cd "$(dirname "$0")/.."
runs=7
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
history=/tmp/metrics-report-history
if [[ ! -f "$history/.complete" ]]; then
  "$bin/generate-corpus" "$history" --history 30 730 400 >&2
  touch "$history/.complete"
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
twelve=(
  applicationLaunchMetrics.histogrammedTimeToFirstDraw@p50 applicationLaunchMetrics.histogrammedTimeToFirstDraw@p90
  applicationLaunchMetrics.histogrammedTimeToFirstDraw@p99 applicationLaunchMetrics.histogrammedApplicationResumeTime@p90
  hangRate applicationResponsivenessMetrics.histogrammedApplicationHangTime@p90 memoryMetrics.peakMemoryUsage@p90
  scrollHitchRate applicationExitMetrics.foregroundExitData.cumulativeAbnormalExitCount cpuMetrics.cumulativeCPUTime@p90
  applicationTimeMetrics.cumulativeForegroundTime@mean 'signpost:Feed/LoadFeed@p90'
)
metric_args=()
for m in "${twelve[@]}"; do metric_args+=(--metric "$m"); done
"$bin/metrics-report" report Samples/dump --baseline 3.8.0 --candidate 3.9.0 -o "$work/samples.html" 2>/dev/null
"$bin/metrics-report" report "$history" --interval day "${metric_args[@]}" -o "$work/history-day.html"
"$bin/metrics-report" report "$history" "${metric_args[@]}" -o "$work/history-auto.html"
"$bin/metrics-report" report "$history" --interval week --by deviceType --top 3 "${metric_args[@]}" \
  -o "$work/history-groups.html" 2>/dev/null

median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)] " ms (min " a[1] ", max " a[NR] ")"}'; }
printf '%-52s %10s  %s\n' "page" "bytes" "interactive in headless Chromium, median of $runs"
for page in samples history-day history-auto; do
  times=()
  for ((i = 0; i < runs; i++)); do
    dom=$(timeout 60 "$browser" --headless --no-sandbox --disable-gpu --dump-dom "file://$work/$page.html" 2>/dev/null)
    errors=$(grep -o 'data-report-errors="[^"]*"' <<<"$dom" | head -1)
    if [[ "$errors" != 'data-report-errors=""' ]]; then echo "$page: script errors: $errors" >&2; exit 1; fi
    times+=("$(grep -o 'data-report-ready-ms="[0-9]*"' <<<"$dom" | grep -o '[0-9]*')")
  done
  case $page in
    samples) label="Samples/dump (3 versions, 8 charts + gate)" ;;
    history-day) label="2 years, 30 versions, 12 charts, per day" ;;
    history-auto) label="2 years, 30 versions, 12 charts, --interval auto" ;;
  esac
  printf '%-52s %10s  %s\n' "$label" "$(stat -c %s "$work/$page.html")" "$(printf '%s\n' "${times[@]}" | median)"
done

charts=$(grep -o '"kind":"' "$work/history-groups.html" | wc -l)
series=$(( $(grep -o '"label":' "$work/history-groups.html" | wc -l) / charts ))
echo
printf '%-58s %s\n' "page" "a crosshair move: median, p90, worst (ms), $runs loads × 300 moves"
for page in history-groups samples; do
  all=()
  for ((i = 0; i < runs; i++)); do
    dom=$(timeout 120 "$browser" --headless --no-sandbox --disable-gpu --window-size=1400,1000 --dump-dom \
      "file://$work/$page.html#bench=hover" 2>/dev/null)
    errors=$(grep -o 'data-report-errors="[^"]*"' <<<"$dom" | head -1)
    if [[ "$errors" != 'data-report-errors=""' ]]; then echo "$page: script errors: $errors" >&2; exit 1; fi
    all+=($(grep -o 'data-report-hover-ms="[^"]*"' <<<"$dom" | sed 's/.*="//; s/"//'))
  done
  case $page in
    history-groups) label="30 versions × 4 groups, 12 charts ($series series a chart)" ;;
    samples) label="Samples/dump (3 versions, 8 charts + gate)" ;;
  esac
  printf '%s\n' "${all[@]}" | sort -g | awk -v label="$label" '{a[NR]=$1} END {
    printf "%-58s %.2f, %.2f, %.2f\n", label, a[int((NR+1)/2)], a[int(NR*0.9)], a[NR] }'
done

echo
echo "a frame after a real mouse move ($runs loads × 300 moves each; the goal: a median under 16 ms)"
for page in history-groups samples; do
  python3 Scripts/report-frames.py "$work/$page.html" --moves 300 --loads "$runs"
done
