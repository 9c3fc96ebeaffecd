# Sourced by the benchmarks of the nightly job (cache-bench.sh, watch-bench.sh) from the package root.
# Builds metrics-report and generate-corpus as Docs/nightly.md recommends for a nightly job (Swift's
# runtime and Foundation linked in), and sets `bin` (their folder) and `work` (a scratch folder, removed on
# exit). `measure FILE COMMAND…` runs a command (its output dropped, its standard error appended to
# $work/stderr) and appends to FILE its wall-clock seconds (bash's clock, to the millisecond: GNU
# time's %e rounds to 10 ms), CPU seconds (user + system) and peak resident memory in MB. `median FILE`
# prints the median of a file's first column.
build=(swift build -c release --static-swift-stdlib)
"${build[@]}" --product metrics-report >&2
"${build[@]}" --product generate-corpus >&2
bin=$("${build[@]}" --show-bin-path)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
median() {
  sort -n "$1" | awk '{ a[NR] = $1 } END { print (NR % 2 ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2) }'
}
measure() {
  local out=$1 start end
  shift
  start=${EPOCHREALTIME/,/.}
  /usr/bin/time -f "%U %S %M" -o "$work/time" "$@" >/dev/null 2>>"$work/stderr"
  end=${EPOCHREALTIME/,/.}
  # The last line: GNU time writes "Command exited with non-zero status N" first when the run fails.
  tail -n 1 "$work/time" | awk -v s="$start" -v e="$end" '{ printf "%.3f %.2f %.0f\n", e - s, $1 + $2, $3 / 1024 }' >> "$out"
}
