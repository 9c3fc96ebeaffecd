#!/usr/bin/env bash
# Times what --symbols adds to `diagnostics` (Docs/performance.md):
#   Scripts/bench-symbols.sh [--runs R]
# Builds an arm64 iOS binary of 2,500 generated C functions with its dSYM (as Scripts/symbol-fixtures.sh
# does: clang, lld-19, dsymutil), and a dump of 1,000 crash diagnostics of 100 frames each pointing
# into it: 10,000 distinct addresses, each in 10 diagnostics. Runs `diagnostics --format json` on it
# without and with --symbols, alternately, R times each, and prints both medians and their difference.
set -euo pipefail
cd "$(dirname "$0")/.."
runs=5
while (( $# )); do
  case "$1" in
    --runs) runs=$2; shift 2 ;;
    *) echo "usage: $0 [--runs R]" >&2; exit 64 ;;
  esac
done
tool() { for t in "$@"; do if command -v "$t" >/dev/null; then command -v "$t"; return; fi; done; return 1; }
swiftbin="$(dirname "$(readlink -f "$(command -v swift)")")"
ld=$(tool ld64.lld-19 /usr/lib/llvm-19/bin/ld64.lld) || { echo "no ld64.lld-19: Scripts/bootstrap.sh --symbols" >&2; exit 3; }
dsymutil=$(tool dsymutil-19 dsymutil) || { echo "no dsymutil: Scripts/bootstrap.sh --symbols" >&2; exit 3; }
swift build -c release --product metrics-report >&2
bin=$(swift build -c release --show-bin-path)/metrics-report
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

python3 - "$work/big.c" <<'PY'
import sys
with open(sys.argv[1], "w") as f:
    f.write("volatile int sink;\n")
    for i in range(2500):
        f.write(f"__attribute__((noinline)) int f{i}(int x) {{\n  sink += x * {i + 3};\n  sink ^= x + {i};\n"
                f"  sink += sink >> 3;\n  return sink + {i};\n}}\n")
    f.write("int main(void) { int s = 0;\n")
    for i in range(2500):
        f.write(f"  s += f{i}(s);\n")
    f.write("  return s; }\n")
PY
"$swiftbin/clang" -target arm64-apple-ios16.0 -g -O1 -c "$work/big.c" -o "$work/big.o"
"$ld" -arch arm64 -platform_version ios 16.0 16.0 -e _main -o "$work/Big" "$work/big.o"
mkdir -p "$work/symbols" "$work/dump"
"$dsymutil" "$work/Big" -o "$work/symbols/Big.dSYM"
"$swiftbin/llvm-nm" --defined-only "$work/Big" > "$work/nm.txt"
llvm_uuid=$("$swiftbin/llvm-objdump" --macho --private-headers "$work/Big" | awk '/uuid/ {print $2}')

python3 - "$work" "$llvm_uuid" <<'PY'
import json, sys
work, uuid = sys.argv[1], sys.argv[2]
functions = sorted(int(a, 16) for a, kind, name in (l.split() for l in open(f"{work}/nm.txt"))
                   if name.startswith("_f") and name[2:].isdigit())
addresses = [f + 4 * k for f in functions for k in range(4)][:10000]
assert len(set(addresses)) == 10000, len(addresses)
load, text = 0x1_0234_0000, 0x1_0000_0000
def frame(address, children):
    f = {"binaryUUID": uuid, "binaryName": "Big", "offsetIntoBinaryTextSegment": address - text,
         "address": load + address - text, "sampleCount": 1}
    if children: f["subFrames"] = children
    return f
with open(f"{work}/dump/crashes.ndjson", "w") as out:
    for payload in range(100):
        crashes = []
        for c in range(10):
            i = payload * 10 + c
            chain = [addresses[(i * 10 + j) % 10000] for j in range(100)]
            tree = []
            for address in reversed(chain):  # innermost frame at the root
                tree = [frame(address, tree)]
            crashes.append({"callStackTree": {"callStackPerThread": True, "callStacks": [
                {"threadAttributed": True, "callStackRootFrames": tree}]},
                "diagnosticMetaData": {"appVersion": "1.0", "appBuildVersion": "1", "exceptionType": 1,
                                       "signal": 11, "osVersion": "iPhone OS 17.5 (21F79)"}})
        out.write(json.dumps({"timeStampBegin": "2024-05-01 00:00:00", "timeStampEnd": "2024-05-01 23:59:00",
                              "crashDiagnostics": crashes}) + "\n")
PY

python3 - "$bin" "$work" "$runs" <<'PY'
import statistics, subprocess, sys, time
bin, work, runs = sys.argv[1], sys.argv[2], int(sys.argv[3])
plain = [bin, "diagnostics", f"{work}/dump", "--format", "json"]
symbolicated = plain + ["--symbols", f"{work}/symbols"]
check = subprocess.run(symbolicated, capture_output=True, text=True, check=True)
assert "symbolicated 100000 frames" in check.stderr, check.stderr
times = {"without": [], "with": []}
for _ in range(runs):
    for name, command in (("without", plain), ("with", symbolicated)):
        start = time.perf_counter()
        subprocess.run(command, capture_output=True, check=True)
        times[name].append(time.perf_counter() - start)
a, b = statistics.median(times["without"]), statistics.median(times["with"])
print(f"diagnostics, 1,000 crashes x 100 frames (10,000 distinct addresses), {runs} runs each:")
print(f"  without --symbols: median {a:.3f} s   with: median {b:.3f} s   added: {b - a:.3f} s")
PY
