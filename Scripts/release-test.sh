#!/usr/bin/env bash
# The release tarball where Swift is not: its checksums, then its binaries in a minimal Debian root
# (debootstrap --variant=minbase: no Swift, no GSL, no development packages), run with chroot.
#
#   Scripts/release-test.sh TARBALL [ROOT]     (ROOT: a minbase root to reuse; made anew otherwise)
#   Scripts/release-test.sh --make-root ROOT   only makes the root (CI makes it while the release builds)
#
# summary, compare (the gate's exit status too) and report on Samples/dump, there, must print the same
# bytes as the build's own binaries here; the collector started there through `metrics-report collect`
# takes a day of the samples posted from here, and the store it wrote summarizes there as it does here.
# Needs root (chroot), debootstrap and curl (Scripts/bootstrap.sh --release).
set -euo pipefail
cd "$(dirname "$0")/.."
# A minimal Debian root of this machine's release, from Debian's mirror.
make_root() {
  local suite
  suite=$(. /etc/os-release && echo "${VERSION_CODENAME:-bookworm}")
  debootstrap --variant=minbase "$suite" "$1" http://deb.debian.org/debian
}
if [[ "${1:-}" == --make-root ]]; then
  make_root "${2:?usage: Scripts/release-test.sh --make-root ROOT}"
  exit
fi
tarball=$(realpath "${1:?usage: Scripts/release-test.sh TARBALL [ROOT]}")
name=$(basename "$tarball" .tar.gz)
version=$(echo "$name" | sed 's/^metrics-report-\(.*\)-linux-.*$/\1/')
bin=$(swift build -c release --static-swift-stdlib --show-bin-path)
work=$(mktemp -d /tmp/release-test.XXXXXX)
collector=
server=
proc=
cleanup() {
  [[ -n "$collector" ]] && kill -KILL "$collector" 2> /dev/null || true
  [[ -n "$server" ]] && kill "$server" 2> /dev/null || true
  [[ -n "$proc" ]] && umount "$proc" 2> /dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT
fail() {
  echo "release-test: $*" >&2
  exit 1
}

echo "-- checksums"
(cd "$(dirname "$tarball")" && sha256sum -c SHA256SUMS)

root=${2:-$work/root}
if [[ ! -x "$root/bin/sh" ]]; then
  echo "-- a minimal Debian root"
  make_root "$root" > "$work/debootstrap.log" 2>&1 \
    || { tail -20 "$work/debootstrap.log" >&2; fail "debootstrap failed"; }
fi
# A system has /proc: the dynamic loader finds $ORIGIN through /proc/self/exe.
if ! mountpoint -q "$root/proc"; then
  mount -t proc proc "$root/proc" || fail "cannot mount /proc in the root (chroot and mount need root)"
  proc=$root/proc
fi
chroot "$root" sh -c 'command -v swift' > /dev/null && fail "the root has Swift"
ls "$root"/usr/lib/*/libgsl* > /dev/null 2>&1 && fail "the root has GSL"
ls "$root"/usr/lib/*/libsimdjson* > /dev/null 2>&1 && fail "the root has simdjson"

# The same folder layout there and here: the samples at /work/samples, each command run from there.
rm -rf "$root/opt/$name" "$root/work"
tar -xzf "$tarball" -C "$root/opt"
mkdir -p "$root/work/samples" "$work/here/samples"
for copy in "$root/work/samples" "$work/here/samples"; do
  cp -r Samples/dump Samples/rules Samples/collector "$copy/"
done
echo "-- the tarball's own checksums, there"
chroot "$root" sh -c "cd /opt/$name && sha256sum --quiet -c SHA256SUMS"

there() { chroot "$root" /usr/bin/env -i PATH=/usr/local/bin:/usr/bin:/bin HOME=/root LANG=C.UTF-8 sh -c "cd /work/samples && $*"; }
here() { (cd "$work/here/samples" && env -i PATH=/usr/bin:/bin HOME=/root LANG=C.UTF-8 sh -c "$*"); }
# Runs one command there with the tarball's binary and here with the build's; both must print the
# same bytes and exit with the same status.
same() {
  local status_there=0 status_here=0
  there "/opt/$name/metrics-report $* > /work/out 2> /work/err" || status_there=$?
  here "'$bin/metrics-report' $* > '$work/out' 2> '$work/err'" || status_here=$?
  if [[ $status_there != "$status_here" ]] || ! cmp -s "$root/work/out" "$work/out"; then
    cat "$root/work/err" >&2
    diff "$work/out" "$root/work/out" | head -20 >&2 || true
    fail "metrics-report $* printed otherwise there (exit $status_there) than here (exit $status_here)"
  fi
  echo "same bytes, exit $status_here: metrics-report $*"
}

echo "-- the commands"
same summary dump
same compare dump --baseline 3.8.0 --candidate 3.9.0
same compare dump --baseline 3.8.0 --candidate 3.9.0 --format json
same --version
same report dump --baseline 3.8.0 --candidate 3.9.0 -o report.html
cmp -s "$root/work/samples/report.html" "$work/here/samples/report.html" || fail "the report pages differ"
echo "same bytes: report.html ($(wc -c < "$work/here/samples/report.html") bytes)"

echo "-- the collector there, posted to from here"
: > "$root/work/collect.log"
chroot "$root" /usr/bin/env -i PATH=/usr/bin:/bin LANG=C.UTF-8 \
  "/opt/$name/metrics-report" collect /work/store --tokens /work/samples/collector/tokens.txt --port 0 \
  > "$root/work/collect.log" 2> "$root/work/collect.err" &
collector=$!
for _ in $(seq 100); do grep -q '^listening' "$root/work/collect.log" && break; sleep 0.1; done
url=$(sed -n 's/^listening on \(http[^,]*\),.*/\1/p' "$root/work/collect.log")
[[ -n "$url" ]] || { cat "$root/work/collect.err" >&2; fail "the collector did not start there"; }
posted=0
for f in Samples/dump/v3.9.0/*.json; do
  code=$(curl -s -o /dev/null -w '%{http_code}' -H 'Authorization: Bearer mrt_demo_shop' --data-binary @"$f" \
    "$url/v1/payloads")
  [[ $code == 202 || $code == 400 ]] || fail "the collector answered $code to $f"
  [[ $code == 202 ]] && posted=$((posted + 1))
done
kill -TERM "$collector"
wait "$collector" || fail "the collector exited $? on SIGTERM"
collector=
echo "posted $posted payloads; the collector stopped with exit 0"
cp -r "$root/work/store" "$work/here/store"
# The store's own files, read here and there with relative paths.
there "/opt/$name/metrics-report summary ../store > /work/out 2> /work/err"
here "'$bin/metrics-report' summary ../store > '$work/out' 2> '$work/err'"
cmp -s "$root/work/out" "$work/out" || fail "the collected store summarizes otherwise there than here"
grep -q "payloads" "$work/out" || fail "the collected store summarized to nothing"
head -3 "$work/out"
echo "-- Docs/install.md's tarball block, as written, from a local server (curl installed there for it)"
chroot "$root" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin DEBIAN_FRONTEND=noninteractive \
  sh -c 'apt-get update -qq && apt-get install -y -qq --no-install-recommends curl > /dev/null 2>&1' \
  || fail "could not install curl in the root"
mkdir -p "$work/releases/v$version"
cp "$tarball" "$work/releases/v$version/"
(cd "$work/releases/v$version" && sha256sum "$name.tar.gz" > SHA256SUMS)
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
python3 -m http.server "$port" --bind 127.0.0.1 --directory "$work/releases" > /dev/null 2>&1 &
server=$!
for _ in $(seq 50); do curl -s -o /dev/null "http://127.0.0.1:$port/" && break; sleep 0.1; done
rm -rf "$root/opt/$name"
python3 - Docs/install.md "http://127.0.0.1:$port" > "$root/work/install.sh" <<'PY'
import re, sys
page, base = open(sys.argv[1]).read(), sys.argv[2]
block = re.search(r"## The release tarball\n.*?```sh\n(.*?)```", page, re.S).group(1)
assert block.count("\nbase=") == 1, "the block sets base= once"
print(re.sub(r"\nbase=https://\S+/download/", "\nbase=" + base + "/", block), end="")
PY
grep -q "^version=$version\$" "$root/work/install.sh" || fail "Docs/install.md installs another version than $version"
there "sh -e /work/install.sh > /work/out 2> /work/err" || { cat "$root/work/err" >&2; fail "the install block failed"; }
[[ "$(tail -1 "$root/work/out")" == "$version" ]] || fail "the installed metrics-report --version: $(cat "$root/work/out")"
there "metrics-report summary dump > /work/out 2> /dev/null"
here "'$bin/metrics-report' summary dump > '$work/out' 2> /dev/null"
cmp -s "$root/work/out" "$work/out" || fail "the installed metrics-report summarizes otherwise"
# Through its link, metrics-report finds the collector beside its own file.
there "metrics-report collect --help > /work/out 2>&1" || { cat "$root/work/out" >&2; fail "collect --help through the link"; }
grep -q "^USAGE: metrics-report-collect" "$root/work/out" || fail "collect through the link: $(head -3 "$root/work/out")"
echo "the install block fetched, checked and linked $name; metrics-report on PATH summarizes the samples"
echo "release-test: $name runs without Swift"
