#!/usr/bin/env bash
# Writes what every command prints, in every format, into one folder: run it with two builds and
# compare the folders (`diff -r`) to show a change left every output as it was.
#   Scripts/capture-outputs.sh BINARY OUTDIR [CORPUS]
# Inputs: Samples/dump, ../shared/fixtures/public when present, and CORPUS (a generate-corpus folder's
# files/, versions 3.8.0 and 3.9.0) when given. Each command's stdout, stderr and exit status land in
# OUTDIR/NAME.out, .err and .rc; a snapshot's path inside compare-snap.out names OUTDIR.
set -uo pipefail
B=$(realpath "${1:?usage: $0 BINARY OUTDIR [CORPUS]}"); O=$(realpath -m "${2:?usage: $0 BINARY OUTDIR [CORPUS]}")
C=${3:+$(realpath "$3")}
cd "$(dirname "$0")/.."
rm -rf "$O"; mkdir -p "$O"
S=Samples/dump; P=../shared/fixtures/public
run() { local name=$1; shift; "$B" "$@" > "$O/$name.out" 2> "$O/$name.err"; echo $? > "$O/$name.rc"; }
for f in text json markdown csv; do
  run summary-$f summary $S --format $f
  run summary-by-$f summary $S --by deviceType --format $f
  run trend-$f trend $S --metric 'applicationLaunchMetrics.*' --metric hangRate --metric memoryMetrics.peakMemoryUsage --metric 'signpost:*' --metric applicationExitMetrics.foregroundExitData.cumulativeAbnormalExitCount --format $f
  run trend-payloads-$f trend $S --metric payloads --format $f
  run trend-by-$f trend $S --metric hangRate --metric applicationLaunchMetrics.histogrammedTimeToFirstDraw --by deviceType --interval week --format $f
done
run summary-pp summary $S --pooling per-payload --format json
run summary-be summary $S --estimator bucket-end --format json
run summary-metric summary $S --metric 'applicationLaunchMetrics.*' --metric hangRate --metric 'signpost:*'
run trend-stat trend $S --statistic p95 --statistic mean --metric memoryMetrics.peakMemoryUsage --metric 'signpost:*' --format json
for f in text json markdown junit github; do
  run compare-$f compare $S --baseline 3.8.0 --candidate 3.9.0 --format $f
  run compare-by-$f compare $S --baseline 3.8.0 --candidate 3.9.0 --by deviceType --allow-insufficient --format $f
  run compare-conf-$f compare $S --baseline 3.9.0 --candidate 3.10.0 --decision confident --format $f
done
run report report $S -o $O/report.html
run report-gate report $S --baseline 3.8.0 --candidate 3.9.0 --metric memoryMetrics.peakMemoryUsage@p50 --metric 'signpost:*' -o $O/report-gate.html
run report-by report $S --by deviceType --interval week -o $O/report-by.html
for t in openmetrics datadog otlp-json; do
  run export-$t export $S --to $t
  run export-day-$t export $S --to $t --interval day
  run export-by-$t export $S --to $t --by deviceType
done
run rules rules --print-defaults
if [[ -d $P ]]; then
  run summary-pub summary $P --format json
  for f in text json markdown folded; do run diag-$f diagnostics $P --format $f; done
fi
run snap8 snapshot $S --app-version 3.8.0 -o $O/snap8.json
run snap9 snapshot $S --app-version 3.9.0 --interval day --by deviceType -o $O/snap9.json
run compare-snap compare --baseline-file $O/snap8.json --candidate-file $O/snap9.json --format json
if [[ -n "$C" && -d "$C" ]]; then
  run corpus-summary summary $C --format json
  run corpus-compare compare $C --baseline 3.8.0 --candidate 3.9.0 --format json
  run corpus-trend trend $C --metric 'applicationLaunchMetrics.*' --metric scrollHitchRate --format json
  run corpus-export export $C --to openmetrics
  run corpus-report report $C -o $O/corpus-report.html
fi
