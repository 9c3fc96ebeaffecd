#!/usr/bin/env bash
# The whole suite under AddressSanitizer, in its own build folder (.build-asan): about 25 minutes on
# two cores, beside the plain suite's 5. Run it before a release and after a change to a C shim or to
# code over unsafe pointers; the fuzzers (Scripts/fuzz.sh) run the same sanitizer over hostile bytes.
#
#   Scripts/sanitize.sh [swift test options, e.g. --filter MetricKitCollectorTests]
#
# Leak detection is off: LeakSanitizer reports allocations of the test runner and of Foundation's
# Process (which the command-line tests use), none of this project's. allocator_may_return_null: a
# request for more memory than exists returns NULL, as malloc does without the sanitizer (the tests
# prove that such a failure is reported, not that the sanitizer aborts on it).
set -euo pipefail
cd "$(dirname "$0")/.."
Scripts/bootstrap.sh --test
export ASAN_OPTIONS=detect_leaks=0:allocator_may_return_null=1
swift run --sanitize=address --scratch-path .build-asan metrics-report summary Samples/dump > /dev/null
# The grouped gate's A/A calibration runs 40 of its 100 seeded runs here: the plain suite checks the
# rate, this run the memory its code touches.
GROUPED_AA_RUNS=${GROUPED_AA_RUNS:-40} exec swift test --sanitize=address --scratch-path .build-asan "$@"
