#!/usr/bin/env bash
# The library's and the collector's tests under ThreadSanitizer, in their own build folder
# (.build-tsan): the code that runs on many threads (the readers' workers and their result slots, the
# store's writer thread and the requests waiting on it, the service's shared budgets and counters).
# Run it beside Scripts/sanitize.sh, before a release and after a change to concurrent code.
#
#   Scripts/sanitize-thread.sh [swift test options; default: --filter 'MetricKitAnalysisTests|MetricKitCollectorTests']
#
# halt_on_error: the first race fails the run, with both stacks.
set -euo pipefail
cd "$(dirname "$0")/.."
Scripts/bootstrap.sh --test
export TSAN_OPTIONS=halt_on_error=1:second_deadlock_stack=1
if (( $# == 0 )); then set -- --filter 'MetricKitAnalysisTests|MetricKitCollectorTests'; fi
exec swift test --sanitize=thread --scratch-path .build-tsan "$@"
