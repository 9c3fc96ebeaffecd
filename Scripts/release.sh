#!/usr/bin/env bash
# Builds the release tarball of this checkout, for Linux on this machine's architecture:
#
#   Scripts/release.sh [OUT]          (OUT: dist by default)
#
# OUT/metrics-report-<version>-linux-<arch>.tar.gz holds one folder of that name with
#   metrics-report, metrics-report-collect   release builds, Swift's runtime and Foundation linked in,
#                                            without debug information
#   lib/                                     the C libraries they load that a Debian system does not
#                                            always have (GNU GSL, simdjson, ISA-L, libdeflate), found
#                                            through the binaries' run path $ORIGIN/lib
#   LICENSE, licenses/                       the GPL-3.0, and each shipped library's copyright file
#   SHA256SUMS                               of every other file in the folder
# and OUT/SHA256SUMS holds the tarball's checksum. What the binaries still need from the system is the
# C library, libgcc, libstdc++ and zlib: a minimal Debian root (debootstrap --variant=minbase) has them
# all (Scripts/release-test.sh runs the tarball there). The tarball is the same bytes for the same
# build: names sorted, owner root, every time the last commit's.
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-dist}

for tool in patchelf strip dpkg-query; do
  command -v "$tool" > /dev/null || { echo "release.sh: $tool is missing (Scripts/bootstrap.sh --release)" >&2; exit 2; }
done

build=(swift build -c release --static-swift-stdlib)
"${build[@]}" --product metrics-report >&2
"${build[@]}" --product metrics-report-collect >&2
bin=$("${build[@]}" --show-bin-path)

version=$("$bin/metrics-report" --version)
name=metrics-report-$version-linux-$(uname -m)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
folder=$work/$name
mkdir -p "$folder/lib" "$folder/licenses"
cp "$bin/metrics-report" "$bin/metrics-report-collect" "$folder/"
# Without their debug information (three fifths of their size); the symbols stay, for backtraces.
strip --strip-debug "$folder/metrics-report" "$folder/metrics-report-collect"
cp LICENSE "$folder/LICENSE"

# The libraries every Debian system has (Priority: required, or what apt itself needs) stay the
# system's; any other library the binaries load is shipped.
system_library() {
  case "$1" in
    libc.so.* | libm.so.* | libdl.so.* | libpthread.so.* | librt.so.* | libresolv.so.* | libutil.so.* \
      | ld-linux*.so.* | libgcc_s.so.* | libstdc++.so.* | libz.so.* | linux-vdso.so.*) return 0 ;;
    *) return 1 ;;
  esac
}
for binary in "$folder/metrics-report" "$folder/metrics-report-collect"; do
  # `ldd` lists the whole closure, each library once, with the path it resolved to.
  while read -r soname path; do
    system_library "$soname" && continue
    [[ -f "$path" ]] || { echo "release.sh: $binary needs $soname, which is not installed" >&2; exit 2; }
    [[ -e "$folder/lib/$soname" ]] && continue
    cp -L "$path" "$folder/lib/$soname"
    # A shipped library finds the others beside it (GSL's CBLAS, say).
    patchelf --set-rpath '$ORIGIN' "$folder/lib/$soname"
    package=$(dpkg-query -S "$(readlink -f "$path")" 2> /dev/null | head -1 | cut -d: -f1)
    if [[ -n "$package" && -f "/usr/share/doc/$package/copyright" ]]; then
      cp "/usr/share/doc/$package/copyright" "$folder/licenses/$package.copyright"
    fi
  done < <(ldd "$binary" | awk '$2 == "=>" && $3 ~ /^\// { print $1, $3 }')
  patchelf --set-rpath '$ORIGIN/lib' "$binary"
done

(cd "$folder" && find . -type f ! -name SHA256SUMS -printf '%P\n' | LC_ALL=C sort | xargs sha256sum > SHA256SUMS)

mkdir -p "$out"
epoch=$(git log -1 --format=%ct 2> /dev/null || date +%s)
tar --sort=name --owner=0 --group=0 --numeric-owner --mtime="@$epoch" -C "$work" -cf - "$name" \
  | gzip -n -9 > "$out/$name.tar.gz"
(cd "$out" && sha256sum "$name.tar.gz" > SHA256SUMS)
echo "$out/$name.tar.gz"
