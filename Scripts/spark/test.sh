#!/usr/bin/env bash
# Runs the shipped Spark job in local[2] on a generated dump and checks that each version's merged
# snapshot is the single-machine snapshot (CI runs it; see Docs/scale.md, "Running on Spark").
#   Scripts/spark/test.sh [BINARY]     (default: .build/debug/metrics-report, built if missing)
# Needs Scripts/bootstrap.sh --spark (PySpark in .build/venv, a Java runtime).
set -euo pipefail
cd "$(dirname "$0")/../.."
python=.build/venv/bin/python
if ! "$python" -c "import pyspark" 2>/dev/null || ! command -v java >/dev/null; then
  echo "skipped: PySpark or Java missing (Scripts/bootstrap.sh --spark installs them)" >&2
  exit 0
fi
binary=${1:-.build/debug/metrics-report}
[[ -x "$binary" ]] || swift build --product metrics-report >&2
swift build --product generate-corpus >&2
corpus=$(swift build --show-bin-path)/generate-corpus
export SPARK_LOCAL_IP=127.0.0.1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# Three versions, 7,000 payloads each, one NDJSON file per version: partitions follow the files, so
# most partitions hold no payload of two of the versions.
"$corpus" "$work/dump" --history 3 90 7000 >&2
versions=(2.0.0 2.1.0 2.2.0)
started=$(date +%s)
"$python" Scripts/spark/metrickit_snapshots.py --binary "$binary" --input "$work/dump" --versions "${versions[@]}" \
  --output "$work/spark" --master 'local[2]' --partitions 8 2> >(grep -v -E ' WARN |^Setting default log level|^To adjust logging|^Using Spark' >&2)
spark_seconds=$(( $(date +%s) - started ))
started=$(date +%s)
# One pass, every version: the snapshots the shards add up to (each shard accounts for its whole
# partition, as this pass does for the whole dump).
version_args=()
for v in "${versions[@]}"; do version_args+=(--app-version "$v"); done
"$binary" snapshot "$work/dump" "${version_args[@]}" -o "$work/direct.json"
direct_seconds=$(( $(date +%s) - started ))

# Two fields differ by design: inputs.files counts what was read (Spark's partitions, the direct run's
# files), and shards lists the partitions' snapshots merged (one, its own, for the direct run); every
# other byte must be the same.
same_as_direct() {
  "$python" - "$1" "$work/direct.json" "$2" <<'PY'
import re, sys
spark = open(sys.argv[1]).read()
# The direct file holds one pretty document per version; each ends with a line "}" alone.
documents = [d + "\n}\n" for d in open(sys.argv[2]).read().split("\n}\n") if d.strip()]
direct = next(d for d in documents if f'"version": "{sys.argv[3]}",' in d)
files = re.compile(r'^(    "files": )\d+,$', re.M)
shards = re.compile(r'^  "shards": \[[^\]]*\],\n', re.M)
assert len(files.findall(spark)) == 1 and len(files.findall(direct)) == 1
assert len(shards.findall(spark)) == 1 and len(shards.findall(direct)) == 1
def normal(text):
    return shards.sub('', files.sub(r'\1N,', text))
if normal(spark) != normal(direct):
    sys.exit(f"{sys.argv[1]} differs from {sys.argv[2]}")
PY
}
for v in "${versions[@]}"; do
  same_as_direct "$work/spark/$v.json" "$v"
  echo "$v: the Spark snapshot equals the direct one (but for inputs.files and shards)"
done

# rdd.pipe with checkCode=True succeeds on partitions without the versions, and merges the same.
"$python" Scripts/spark/metrickit_snapshots.py --binary "$binary" --input "$work/dump" --versions "${versions[@]}" \
  --output "$work/pipe" --master 'local[2]' --partitions 8 --pipe 2> >(grep -v -E ' WARN |^Setting default log level|^To adjust logging|^Using Spark' >&2)
cmp "$work/pipe/2.1.0.json" "$work/spark/2.1.0.json"
echo "pipe(checkCode=True): the same snapshot"
# Two collectors writing one folder, as behind a load balancer: the same payloads, posted half to
# each, are read by the job from their sealed segments (gzip NDJSON) as one dump.
store=$work/store
collectors=()
urls=()
for instance in a b; do
  "$binary" collect "$store" --tokens Samples/collector/tokens.txt --port 0 --instance "$instance" \
    > "$work/$instance.out" 2> "$work/$instance.err" &
  collectors+=($!)
  for _ in $(seq 100); do grep -q listening "$work/$instance.out" 2>/dev/null && break; sleep 0.1; done
  urls+=("$(grep -o 'http://[0-9.:]*' "$work/$instance.out")")
done
trap 'kill "${collectors[@]}" 2>/dev/null || true; rm -rf "$work"' EXIT
cat "$work"/dump/*.ndjson | split -l 1000 - "$work/chunk."
n=0
for chunk in "$work"/chunk.*; do
  url=${urls[$((n++ % 2))]}
  gzip -c "$chunk" | curl -sf -o /dev/null -H 'Authorization: Bearer mrt_demo_shop' -H 'Content-Encoding: gzip' \
    --data-binary @- "$url/v1/payloads"
done
kill -TERM "${collectors[@]}"
wait "${collectors[@]}"
segments=("$store"/com.example.shop/*/*.ndjson.gz)
printf 'collector segment: %s\n' "${segments[@]#"$store"/}"
[[ ${#segments[@]} -ge 2 ]] && ls "${segments[@]}" | grep -q /a- && ls "${segments[@]}" | grep -q /b-
"$python" Scripts/spark/metrickit_snapshots.py --binary "$binary" --input "$store/*/*/*.ndjson.gz" \
  --versions "${versions[@]}" --output "$work/collected" --master 'local[2]' \
  2> >(grep -v -E ' WARN |^Setting default log level|^To adjust logging|^Using Spark' >&2)
for v in "${versions[@]}"; do
  same_as_direct "$work/collected/$v.json" "$v"
  echo "$v: the Spark snapshot of two collectors' segments equals the direct one of the files"
done
echo "timing: Spark local[2] job ${spark_seconds}s (JVM start included), direct snapshots ${direct_seconds}s"
