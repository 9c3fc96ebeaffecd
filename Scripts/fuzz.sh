#!/usr/bin/env bash
# Runs one libFuzzer harness for a while:  Scripts/fuzz.sh TARGET SECONDS [libFuzzer options…]
#   TARGET: payload-decoder | measurement-parser | rule-file | snapshot | report | mach-o | organizer | cache-entry | symbolizer-answer | alert-state | collector | app-store-connect-key
# Seeds: ../shared/fixtures/public (when present), Samples/, and Fuzz/Seeds/TARGET. New corpus inputs go to
# .fuzz/TARGET/corpus; crashes to .fuzz/TARGET/ (turn each into a regression test).
set -euo pipefail
cd "$(dirname "$0")/.."
target=${1:?usage: Scripts/fuzz.sh payload-decoder|measurement-parser|rule-file|snapshot|report|mach-o|organizer|cache-entry|symbolizer-answer|alert-state|collector|app-store-connect-key SECONDS}
seconds=${2:?usage: Scripts/fuzz.sh TARGET SECONDS}
shift 2
case "$target" in
  payload-decoder) product=FuzzPayloadDecoder ;;
  measurement-parser) product=FuzzMeasurementParser ;;
  rule-file) product=FuzzRuleFile ;;
  snapshot) product=FuzzSnapshot ;;
  report) product=FuzzReport ;;
  mach-o) product=FuzzMachO ;;
  organizer) product=FuzzOrganizer ;;
  cache-entry) product=FuzzCacheEntry ;;
  symbolizer-answer) product=FuzzSymbolizerAnswer ;;
  alert-state) product=FuzzAlertState ;;
  collector) product=FuzzCollector ;;
  app-store-connect-key) product=FuzzAppStoreConnectKey ;;
  *) echo "unknown target $target" >&2; exit 64 ;;
esac
work=.fuzz/$target
mkdir -p "$work/corpus" "$work/seeds"
case "$target" in
  payload-decoder | report)
    find Samples/dump -type f ! -name '*.gz' -exec cp {} "$work/seeds/" \; 2>/dev/null || true
    if [[ -d ../shared/fixtures/public ]]; then find ../shared/fixtures/public -type f -name '*.json' -exec cp {} "$work/seeds/" \;; fi ;;
  measurement-parser)
    for s in "420 ms" "20 secs." "1,000 ms" "820毫秒" "2,717秒" "1,106,818千字节" "79 041 кБ" "1.234,5 ms" "3 bars" \
      "1000 ms per s" "2022-03-07 07:30:54" "2020-10-10 19:35:24 +0000"; do
      printf '%s' "$s" > "$work/seeds/$(printf '%s' "$s" | md5sum | cut -c1-12)"
    done ;;
  rule-file)
    swift run -c release metrics-report rules --print-defaults > "$work/seeds/defaults.yml" 2>/dev/null || true
    printf '{"rules": [{"metric": "hangRate", "statistic": "rate", "budget": "2 s/h"}]}' > "$work/seeds/rules.json" ;;
  snapshot)
    swift run -c release metrics-report snapshot Samples/dump --interval week --by deviceType \
      > "$work/seeds/samples-weekly.json" 2>/dev/null || true
    swift run -c release metrics-report snapshot Samples/dump --compact > "$work/seeds/samples.ndjson" 2>/dev/null || true ;;
  mach-o)
    # The test app's binaries and dSYMs, thin and universal, built from source.
    if Scripts/symbol-fixtures.sh "$work/fixtures" >/dev/null 2>&1; then
      find "$work/fixtures/build1" "$work/fixtures/symbols" -type f -path '*DWARF*' -o -type f -name FeedApp \
        | while read -r f; do cp "$f" "$work/seeds/$(echo "$f" | md5sum | cut -c1-12)"; done
      cp "$work/fixtures/obj/FeedKit" "$work/seeds/feedkit-universal"
    fi ;;
  organizer)
    # Apple's documented examples and the samples' responses.
    cp Tests/Fixtures/Organizer/*.json Samples/organizer/*.json "$work/seeds/" ;;
  cache-entry)
    # The samples' entries: compare's (per-payload statistics, groups) and trend's (daily series); and
    # the trend's stored points.
    rm -rf "$work/cache"
    swift run -c release metrics-report compare Samples/dump --baseline 3.8.0 --candidate 3.9.0 --by deviceType \
      --cache "$work/cache" >/dev/null 2>&1 || true
    swift run -c release metrics-report trend Samples/dump --metric '*' --interval day --by deviceType \
      --cache "$work/cache" >/dev/null 2>&1 || true
    # The samples' folders kept as listed (dated back, as folders that stopped changing).
    rm -rf "$work/aged" && cp -r Samples/dump "$work/aged" && find "$work/aged" -mindepth 1 -exec touch -d '2 days ago' {} +
    swift run -c release metrics-report summary "$work/aged" --cache "$work/cache" >/dev/null 2>&1 || true
    # Each entry, kept merge, folder listing and summary whole, and their sections alone, split by 0x1E
    # bytes (a kept merge's after a 0x1D byte, a listing's after a 0x1C byte, a summary's after a 0x1B
    # byte; the harness gives them a correct header); each result's points alone.
    find "$work/cache/entries" "$work/cache/results" "$work/cache/folders" -type f | while read -r f; do
      cp "$f" "$work/seeds/"
      python3 - "$f" "$work/seeds/$(basename "$f")" <<'PY'
import sys
data = open(sys.argv[1], "rb").read()
end = data.index(b"\n")
header = data[:end].split(b" ")
lengths = [int(n) for n in header[3::2]]
sections, at = [], end + 1
for n in lengths:
    sections.append(data[at:at + n])
    at += n
if header[1] == b"folder":
    open(sys.argv[2] + ".listing", "wb").write(b"\x1c" + sections[0])
elif header[1] == b"summary":
    open(sys.argv[2] + ".summary", "wb").write(b"\x1b" + sections[0])
elif len(sections) == 3:
    prefix = b"\x1d" if header[1] == b"result" else b""
    open(sys.argv[2] + ".sections", "wb").write(prefix + b"\x1e".join(sections))
else:
    open(sys.argv[2] + ".points", "wb").write(sections[0].split(b"\n", 1)[1])
PY
    done ;;
  collector)
    # Request bodies (a 0 byte first): the samples' files as devices send them.
    find Samples/dump -type f ! -name '*.gz' | while read -r f; do
      { printf '\000'; cat "$f"; } > "$work/seeds/body-$(echo "$f" | md5sum | cut -c1-12)"
    done ;;
  app-store-connect-key)
    # Keys as App Store Connect writes them (PKCS #8) and as OpenSSL does (SEC 1), and another curve's.
    for curve in prime256v1 secp384r1; do
      openssl ecparam -name "$curve" -genkey -noout > "$work/seeds/sec1-$curve.pem" 2>/dev/null || true
      openssl pkcs8 -topk8 -nocrypt -in "$work/seeds/sec1-$curve.pem" > "$work/seeds/pkcs8-$curve.p8" 2>/dev/null || true
    done ;;
  symbolizer-answer)
    # The real symbolizer's answers about the test app: inlined frames, Swift names, unknown addresses.
    if Scripts/symbol-fixtures.sh "$work/fixtures" >/dev/null 2>&1; then
      dwarf="$work/fixtures/symbols/FeedApp-build1.dSYM/Contents/Resources/DWARF/FeedApp"
      python3 -c 'import json,sys; [print("\"%s:arm64\" 0x%x" % (sys.argv[1], a)) for a in json.load(open(sys.argv[2]))["builds"]["1"]["functions"].values()]' \
        "$dwarf" "$work/fixtures/manifest.json" | llvm-symbolizer --output-style=JSON --inlining \
        | split -l 1 - "$work/seeds/answer-"
    fi ;;
esac
# Hand-made seeds: the hostile cases found so far, one file each.
if [[ -d Fuzz/Seeds/$target ]]; then cp Fuzz/Seeds/"$target"/* "$work/seeds/"; fi
# SwiftPM caches the file list of a path dependency: drop the build description so that sources added
# to the main package since the last fuzz build are seen.
rm -f Fuzz/.build/debug.yaml Fuzz/.build/*/debug/description.json
swift build --package-path Fuzz -c debug --product "$product" \
  -Xswiftc -sanitize=fuzzer,address -Xswiftc -parse-as-library >&2
bin=$(swift build --package-path Fuzz -c debug --show-bin-path)/$product
"$bin" "$work/corpus" "$work/seeds" -max_total_time="$seconds" -artifact_prefix="$work/" -print_final_stats=1 "$@"
