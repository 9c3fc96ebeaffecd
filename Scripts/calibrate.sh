#!/usr/bin/env bash
# The gate's calibration sweeps behind Docs/calibration.md's tables: the two --decision modes on
# launch shifts of 0–12%, the per-payload Mann–Whitney test of hang rates against the pooled-rate test
# the gate uses, and the interpolation error table, with fixed seeds. Prints Markdown tables.
#   Scripts/calibrate.sh [RUNS]      (default 100 runs per row; a few minutes on 2 cores)
set -euo pipefail
cd "$(dirname "$0")/.."
export METRICS_REPORT_CALIBRATE=1 METRICS_REPORT_CALIBRATE_RUNS=${1:-100}
swift test --filter "CalibrationSweep|InterpolationTests" 2>&1 | grep -E '^(\||Decisions|Hang rate|Interpolation|$)' | cat -s
