# Sourced by the benchmarks of the nightly job (cache-bench.sh, watch-bench.sh) from the package root.
# Builds metrics-report and generate-corpus as Docs/nightly.md recommends for a nightly job (Swift's
# runtime and Foundation linked in, and without the `collect` command, the package's Collector trait,
# which the job does not run), and sets `bin` (their folder) and `work` (a scratch folder, removed on
# exit). `median FILE` prints the median of a file of numbers, one a line.
build=(swift build -c release --static-swift-stdlib --disable-default-traits)
"${build[@]}" --product metrics-report >&2
"${build[@]}" --product generate-corpus >&2
bin=$("${build[@]}" --show-bin-path)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
median() {
  sort -n "$1" | awk '{ a[NR] = $1 } END { print (NR % 2 ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2) }'
}
