#!/usr/bin/env bash
# Bounded snapshots at any scale (Docs/scale.md, "Bounded at any size"), in two tables:
#  1. size, peak memory and time of `snapshot --stdin` and `summary --stdin` over 1M and 10M payloads of
#     one version (a 20,000-payload NDJSON stream replayed: the tool reads every line as a new payload),
#     and of a snapshot that keeps every value (--exact-values above the count) for contrast;
#  2. the sketch against exact values where both fit: compare's statistics and p-values for 3.9.0
#     against 3.8.0 (400 payloads each), from exact snapshots and from sketches (--exact-values 0).
#   Scripts/sketch-bench.sh [--millions "1 10"]
set -euo pipefail
cd "$(dirname "$0")/.."
millions="1 10"
[[ "${1:-}" == "--millions" ]] && millions=$2
swift build -c release --product metrics-report >&2
swift build -c release --product generate-corpus >&2
bin=$(swift build -c release --show-bin-path)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$bin/generate-corpus" --stream 20000 > "$work/20k.ndjson"

# Runs a command over the replayed stream; prints seconds and peak resident memory (MB) of the tool.
measure() {
  local times=$1
  shift
  /usr/bin/time -f "%e %M" -o "$work/time" bash -c \
    "for i in \$(seq $times); do cat '$work/20k.ndjson'; done | $*" >/dev/null
  awk '{ printf "%.0f s | %.0f MB", $1, $2 / 1024 }' "$work/time"
}
size() { numfmt --to=iec --suffix=B "$(stat -c %s "$1")"; }

echo "| payloads | command | output | time | peak memory |"
echo "|---:|---|---:|---:|---:|"
for m in $millions; do
  times=$((m * 50))
  line=$(measure "$times" "$bin/metrics-report" snapshot --stdin --compact -o "$work/s.json")
  echo "| ${m}M | \`snapshot --stdin --compact\` | $(size "$work/s.json") | $line |"
  line=$(measure "$times" "$bin/metrics-report" summary --stdin --format json -o "$work/summary.json")
  echo "| ${m}M | \`summary --stdin\` | $(size "$work/summary.json") | $line |"
done
if [[ " $millions " == *" 1 "* ]]; then
  line=$(measure 50 "$bin/metrics-report" snapshot --stdin --compact --exact-values 2000000 -o "$work/exact.json")
  echo "| 1M | \`snapshot --stdin --compact --exact-values 2000000\` (every value) | $(size "$work/exact.json") | $line |"
fi

# 2. Sketch against exact, 400 payloads a version.
"$bin/generate-corpus" --stream 400 --profile 0 --seed 1 > "$work/base.ndjson"
"$bin/generate-corpus" --stream 400 --profile 1 --seed 2 > "$work/cand.ndjson"
for form in exact sketch; do
  limit=$([[ $form == exact ]] && echo 100000 || echo 0)
  "$bin/metrics-report" snapshot --stdin --exact-values "$limit" -o "$work/base-$form.json" < "$work/base.ndjson"
  "$bin/metrics-report" snapshot --stdin --exact-values "$limit" -o "$work/cand-$form.json" < "$work/cand.ndjson"
  "$bin/metrics-report" compare --baseline-file "$work/base-$form.json" --candidate-file "$work/cand-$form.json" \
    --format json -o "$work/compare-$form.json" || true
done
python3 - "$work/compare-exact.json" "$work/compare-sketch.json" <<'PY'
import json, sys
exact, sketch = (json.load(open(p))["results"] for p in sys.argv[1:3])
print()
print("| rule | baseline exact → sketch | candidate exact → sketch | p exact | p sketch |")
print("|---|---:|---:|---:|---:|")
def err(a, b):
    return f"{(b - a) / a * 100:+.2f}%" if a else "–"
for e, s in zip(exact, sketch):
    if e.get("pValue") is None or "diagnostics" in e["metric"]:
        continue
    name = e["metric"].split(".")[-1] + " " + e["statistic"]
    print(f"| {name} | {err(e['baseline'], s['baseline'])} | {err(e['candidate'], s['candidate'])} "
          f"| {e['pValue']:.3g} | {s['pValue']:.3g} |")
PY
