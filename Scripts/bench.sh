#!/usr/bin/env bash
# Benchmarks metrics-report on a generated corpus (Docs/performance.md).
#   Scripts/bench.sh [--payloads N] [--runs R] [--corpus DIR] [--skip-python]
#   Scripts/bench.sh --check [--baseline FILE] [--tolerance T]   guard: exit 1 on a slowdown past the baseline,
#                                                                 in time or in instructions (Valgrind)
#   Scripts/bench.sh --record [--baseline FILE] [--tolerance T]  write the baseline from this run
# Builds in release mode, writes the corpus once (deterministic: seed 7), then times `summary` on the
# pretty-printed files, one NDJSON file (plain and gzipped) and .json.gz files, on 1 thread and on every core, and
# `compare` on the files; reports medians with min–max, payloads/s, MB/s and peak RSS, and every row as
# a ratio to the parse floor (Benchmarks/Floor: read the files, parse each with simdjson's DOM), beside
# two floors that also visit every value (DOM, and simdjson's On-Demand), and beside a C++ peer doing
# the Python peer's work over simdjson's DOM (Benchmarks/Peer). With
# Python's orjson installed it times the same aggregation in Python on the same files, for the ratio.
set -euo pipefail
cd "$(dirname "$0")/.."
payloads=""
runs=""
corpus=""
python=1
mode=""
baseline=Benchmarks/baseline.json
tolerance=()
usage="usage: $0 [--payloads N] [--runs R] [--corpus DIR] [--skip-python] | (--check | --record) [--baseline FILE] [--tolerance T] [--payloads N] [--runs R]"
while (( $# )); do
  case "$1" in
    --payloads) payloads=$2; shift 2 ;;
    --runs) runs=$2; shift 2 ;;
    --corpus) corpus=$2; shift 2 ;;
    --skip-python) python=0; shift ;;
    --check) mode=check; shift ;;
    --record) mode=record; shift ;;
    --baseline) baseline=$2; shift 2 ;;
    --tolerance) tolerance=(--tolerance "$2"); shift 2 ;;
    *) echo "$usage" >&2; exit 64 ;;
  esac
done
# The guard runs a small corpus, one thread per run, several runs: seconds, not minutes.
if [[ -n "$mode" ]]; then
  payloads=${payloads:-10000} runs=${runs:-7} corpus=${corpus:-/tmp/metrics-report-corpus-check}
else
  payloads=${payloads:-20000} runs=${runs:-5} corpus=${corpus:-/tmp/metrics-report-corpus}
fi
# Built as the release tarball and the nightly job build it (Swift's runtime and Foundation linked in),
# so that CI's release stage takes this build as it is.
build=(swift build -c release --static-swift-stdlib)
"${build[@]}" --product metrics-report >&2
"${build[@]}" --product generate-corpus >&2
bin=$("${build[@]}" --show-bin-path)
# The parse floor (Benchmarks/Floor/floor.cpp): read only, read + simdjson's DOM parse, and every value
# visited after a DOM parse or through On-Demand. -march=native: On-Demand is compiled for one
# instruction set (without it, simdjson's scalar fallback); the DOM parser chooses its own at run time.
# The C++ peer (Benchmarks/Peer/summary_peer.cpp): the Python peer's work over simdjson's DOM.
floor=$bin/metrics-report-floor
peer=$bin/metrics-report-cpp-peer
for pair in "Benchmarks/Floor/floor.cpp:$floor" "Benchmarks/Peer/summary_peer.cpp:$peer"; do
  source=${pair%%:*} program=${pair#*:}
  if [[ ! -x "$program" || "$source" -nt "$program" || Benchmarks/Common/input.h -nt "$program" || Scripts/bench.sh -nt "$program" ]]; then
    c++ -O2 -march=native -std=c++17 "$source" -lsimdjson -o "$program"
  fi
done
# The corpus's format: raised when the generator writes other payloads, so that an older corpus is
# written again rather than measured.
corpus_format=2
# Writes the corpus of N payloads in DIR unless it is there, complete, in this format.
write_corpus() {
  local dir=$1 n=$2
  if [[ ! -f "$dir/.complete-$n-$corpus_format" ]]; then
    # This script's own files first (earlier stamps, the gzipped NDJSON, the files' shares that
    # run_benchmarks.py links): the generator replaces a folder only when it holds nothing but what
    # the generator writes.
    rm -f "$dir"/.complete-* "$dir/all.ndjson.gz"
    rm -rf "$dir"/files-shares-*
    "$bin/generate-corpus" "$dir" "$n" >&2
    touch "$dir/.complete-$n-$corpus_format"
  fi
}
write_corpus "$corpus" "$payloads"
# The NDJSON gzipped as `gzip file` writes it (a file name in the header): the streamed gzip row.
if [[ ! -f "$corpus/all.ndjson.gz" || "$corpus/all.ndjson" -nt "$corpus/all.ndjson.gz" ]]; then
  (cd "$corpus" && gzip -k -f -6 all.ndjson)
fi
if [[ -n "$mode" ]]; then
  # The guard also counts each configuration's instructions with Valgrind, on a corpus of its own
  # (2,000 payloads: Valgrind runs a program some fifty times slower), in a copy of metrics-report
  # without its debug information (Valgrind 3.19 cannot read the toolchain's).
  counting=()
  if command -v valgrind >/dev/null && command -v strip >/dev/null; then
    count_payloads=2000 count_corpus=$corpus-count
    write_corpus "$count_corpus" "$count_payloads"
    if [[ ! -x "$bin/metrics-report-counted" || "$bin/metrics-report" -nt "$bin/metrics-report-counted" ]]; then
      strip --strip-debug -o "$bin/metrics-report-counted" "$bin/metrics-report"
    fi
    counting=(--counted "$bin/metrics-report-counted" --count-corpus "$count_corpus" --count-payloads "$count_payloads")
  else
    echo "note: valgrind not found; the guard's instruction counts are skipped (Scripts/bootstrap.sh --test installs it)" >&2
  fi
  exec python3 Benchmarks/run_benchmarks.py --bin "$bin/metrics-report" --corpus "$corpus" --payloads "$payloads" \
    --runs "$runs" --floor "$floor" "--$mode" "$baseline" "${tolerance[@]}" "${counting[@]}" \
    --commit "$(git rev-parse --short HEAD 2>/dev/null || true)"
fi
if (( python )) && ! python3 -c "import orjson, numpy" 2>/dev/null; then
  echo "note: python3 with orjson and numpy not found; skipping the Python peer (pip install orjson numpy)" >&2
  python=0
fi
exec python3 Benchmarks/run_benchmarks.py --bin "$bin/metrics-report" --corpus "$corpus" --payloads "$payloads" \
  --runs "$runs" --python "$python" --floor "$floor" --cpp-peer "$peer"
