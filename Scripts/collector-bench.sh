#!/usr/bin/env bash
# The collector's speed, on 127.0.0.1 with the release build:
#
#   Scripts/collector-bench.sh [PAYLOADS [RATE]]      (100000 payloads, 2500 payloads/s by default)
#
# 1. throughput: PAYLOADS payloads, 10 a request, from 64 connections, as fast as they are answered;
# 2. latency: PAYLOADS/4 payloads, one a request (as a device sends a day), from 64 connections, sent
#    open loop at RATE payloads/s, each answer's latency counted from the moment its request was due;
# 3. the same payloads written the way a collector without group commit would: one file each, synced.
# Each line is collector-load.py's figures (payloads/s, p50/p99 of the answers, the server's peak
# memory); the last says what one payload cost as a synced file. Docs/collector.md quotes them.
set -euo pipefail
cd "$(dirname "$0")/.."
payloads=${1:-100000}
rate=${2:-2500}
swift build -c release --product metrics-report-collect >&2
binary=$(swift build -c release --show-bin-path)/metrics-report-collect
work=$(mktemp -d /tmp/collector-bench.XXXXXX)
trap 'rm -rf "$work"' EXIT

throughput=$(Scripts/collector-load.py "$binary" "$work/a" --payloads "$payloads" --connections 64 --per-request 10 \
  --kills 0 --malformed 0 --duplicates 0)
echo "throughput: $throughput"
latency=$(Scripts/collector-load.py "$binary" "$work/b" --payloads "$((payloads / 4))" --connections 64 \
  --per-request 1 --rate "$rate" --kills 0 --malformed 0 --duplicates 0)
echo "latency at $rate payloads/s: $latency"
python3 - "$work/files" "$payloads" <<'PY'
import importlib.util, os, random, sys, time
spec = importlib.util.spec_from_file_location("load", "Scripts/collector-load.py")
load = importlib.util.module_from_spec(spec)
spec.loader.exec_module(load)
folder, n = sys.argv[1], int(sys.argv[2])
os.makedirs(folder)
rng = random.Random(1)
texts = [load.payload(i, rng).encode() for i in range(n)]
start = time.perf_counter()
for i, text in enumerate(texts):
    fd = os.open(os.path.join(folder, "%d.json" % i), os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
    os.write(fd, text)
    os.fsync(fd)
    os.close(fd)
dfd = os.open(folder, os.O_RDONLY)
os.fsync(dfd)
os.close(dfd)
elapsed = time.perf_counter() - start
print("files: %d payloads written and synced one file each in %.2f s: %.0f payloads/s, %.3f ms a payload"
      % (n, elapsed, n / elapsed, 1000 * elapsed / n))
PY
