#!/usr/bin/env bash
# Builds the library's DocC catalog with the toolchain's docc, warnings as errors: every symbol link
# resolves, every public symbol's page is made.
#
#   Scripts/docc.sh [OUT]      (OUT: .build/docc by default)
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-.build/docc}
graphs=.build/docc-symbol-graphs
# The package built first: the symbol graph command then only extracts (it builds too, but stops on
# anything that goes wrong while building without saying what).
swift build >&2
rm -rf "$graphs" && mkdir -p "$graphs" && touch "$graphs/.started"
# The C shims' modules have no symbol graph to give (swift-symbolgraph-extract cannot load them, and
# the command then exits 1): the library's graphs are checked to be this run's instead.
swift package dump-symbol-graph --minimum-access-level public --emit-extension-block-symbols \
  >"$graphs/.extract.log" 2>&1 || true
for graph in "$(swift build --show-bin-path)"/../symbolgraph/MetricKitAnalysis{,@Swift}.symbols.json; do
  if [[ ! "$graph" -nt "$graphs/.started" ]]; then
    cat "$graphs/.extract.log" >&2
    echo "no symbol graph of MetricKitAnalysis was written: $graph" >&2
    exit 1
  fi
  cp "$graph" "$graphs/"
done
docc convert Sources/MetricKitAnalysis/MetricKitAnalysis.docc --additional-symbol-graph-dir "$graphs" \
  --output-dir "$out" --fallback-display-name MetricKitAnalysis \
  --fallback-bundle-identifier metrics-report.MetricKitAnalysis --warnings-as-errors
echo "$out"
