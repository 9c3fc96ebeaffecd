#!/usr/bin/env bash
# Builds the symbolication fixtures from Tests/Fixtures/Symbolication into OUT: an iOS arm64 app in
# two builds of the same code (the second shifted by one function), each with its dSYM in OUT/symbols,
# and a universal (arm64 + x86_64) framework with a universal dSYM. Writes OUT/manifest.json: each
# build's UUID, __TEXT address, the addresses of known functions and call sites (from the symbol table
# and the disassembly), and the lines the sources mark (`// @name`), which the tests expect
# symbolication to give; and OUT/dump, diagnostics of two app versions whose frames point there.
#
#   Scripts/symbol-fixtures.sh OUT
#
# Needs the Swift toolchain's clang (and swiftc for the Embedded Swift part, left out when it cannot
# build), Debian's lld-19 (ld64.lld) and a dsymutil (llvm-19's, else llvm-14's): Scripts/bootstrap.sh
# --test installs them. Exits 3 when one is missing. The same sources give the same bytes and UUIDs.
set -euo pipefail
given=${1:?usage: Scripts/symbol-fixtures.sh OUT}
mkdir -p "$given" && out="$(cd "$given" && pwd)"
here="$(cd "$(dirname "$0")/.." && pwd)"
src="$here/Tests/Fixtures/Symbolication"

tool() { for t in "$@"; do if command -v "$t" >/dev/null; then command -v "$t"; return; fi; done; return 1; }
swiftbin="$(dirname "$(readlink -f "$(command -v swiftc || command -v swift)")")"
clang=$(tool "$swiftbin/clang" clang) || { echo "no clang" >&2; exit 3; }
ld=$(tool ld64.lld-19 /usr/lib/llvm-19/bin/ld64.lld) || { echo "no ld64.lld-19 (Debian's lld-19)" >&2; exit 3; }
dsymutil=$(tool dsymutil-19 dsymutil) || { echo "no dsymutil" >&2; exit 3; }
lipo=$(tool llvm-lipo-19 /usr/lib/llvm-19/bin/llvm-lipo llvm-lipo) || { echo "no llvm-lipo" >&2; exit 3; }
nm=$(tool "$swiftbin/llvm-nm" llvm-nm-19 llvm-nm) || { echo "no llvm-nm" >&2; exit 3; }
objdump=$(tool "$swiftbin/llvm-objdump" llvm-objdump-19 llvm-objdump) || { echo "no llvm-objdump" >&2; exit 3; }
dwarfdump=$(tool llvm-dwarfdump-19 llvm-dwarfdump) || { echo "no llvm-dwarfdump" >&2; exit 3; }

mkdir -p "$out/obj" "$out/symbols" "$out/dump"
# Every product is built from a copy of the sources in OUT/obj, compiled by relative path from there
# and mapped to /build/FeedApp (as a build machine's paths would read), and linked with the objects'
# paths relative to it: no path of this machine, the clone's or OUT's, reaches the binaries, their
# debug maps or their DWARF, so the bytes and UUIDs are the same wherever the clone and OUT are.
work="$out/obj"
rel=Tests/Fixtures/Symbolication
mkdir -p "$work/$rel"
cp "$src"/Feed.c "$src"/FeedKit.c "$src"/main.c "$src"/FeedViewController.swift "$work/$rel/"
cd "$work"
map=(-ffile-prefix-map="$work"=/build/FeedApp)
ios=(-target arm64-apple-ios16.0 -g -O1 "${map[@]}")
swift_ok=0
# Embedded Swift.
if "$swiftbin/swiftc" -target arm64-apple-ios18.0 -enable-experimental-feature Embedded -wmo -g -dwarf-version=4 -O \
  -parse-as-library -module-name Feed -file-prefix-map "$work"=/build/FeedApp -Xfrontend -no-clang-module-breadcrumbs \
  -c "$rel/FeedViewController.swift" \
  -o feed-swift.o 2>swiftc.log; then swift_ok=1; fi
defines=(); (( swift_ok )) || defines=(-DNO_SWIFT)
"$clang" "${ios[@]}" -c "$rel/Feed.c" -o feed.o
for build in 1 2; do
  extra=(); [[ $build == 2 ]] && extra=(-DSHIFTED)
  "$clang" "${ios[@]}" "${defines[@]}" "${extra[@]}" -c "$rel/main.c" -o main$build.o
  objects=(main$build.o feed.o); (( swift_ok )) && objects+=(feed-swift.o)
  # No SDK: the Swift runtime's few C calls stay undefined (never run). The debug map names the
  # objects relative to this folder, where dsymutil (run from here) finds them.
  "$ld" -arch arm64 -platform_version ios 16.0 16.0 -e _main -undefined dynamic_lookup -oso_prefix "$work/" \
    -o FeedApp$build "${objects[@]}" 2>/dev/null
  mkdir -p "$out/build$build"
  cp FeedApp$build "$out/build$build/FeedApp"
  "$dsymutil" --oso-prepend-path="$work" "$out/build$build/FeedApp" -o "$out/symbols/FeedApp-build$build.dSYM"
done
for arch in arm64 x86_64; do
  target=arm64-apple-ios16.0; [[ $arch == x86_64 ]] && target=x86_64-apple-ios16.0-simulator
  "$clang" -target $target -g -O1 "${map[@]}" -c "$rel/FeedKit.c" -o feedkit-$arch.o
  platform=ios; [[ $arch == x86_64 ]] && platform=ios-simulator
  "$ld" -arch $arch -platform_version $platform 16.0 16.0 -dylib -install_name @rpath/FeedKit.framework/FeedKit \
    -oso_prefix "$work/" -o FeedKit-$arch feedkit-$arch.o
done
"$lipo" -create FeedKit-arm64 FeedKit-x86_64 -output FeedKit
# dsymutil joins the slices' DWARF with a `lipo` it finds on PATH: LLVM's stands in for Apple's.
mkdir -p lipo-bin && ln -sf "$lipo" lipo-bin/lipo
PATH="$PWD/lipo-bin:$PATH" "$dsymutil" --oso-prepend-path="$work" FeedKit -o "$out/symbols/FeedKit.framework.dSYM"

python3 - "$out" "$src" "$nm" "$objdump" "$dwarfdump" "$swift_ok" <<'PY'
import json, re, subprocess, sys
out, src, nm, objdump, dwarfdump, swift_ok = sys.argv[1:]
def run(*args): return subprocess.run(args, check=True, capture_output=True, text=True).stdout
def uuids(path):
    return {m[1]: m[0] for m in re.findall(r"UUID: ([0-9A-F-]+) \((\w+)\)", run(dwarfdump, "--uuid", path))}
def symbols(path, arch="arm64"):
    table = {}
    for line in run(nm, "--arch=" + arch, "--defined-only", path).splitlines():
        address, _, name = line.split(maxsplit=2)
        table[name] = int(address, 16)
    return table
markers = {}
for name in ("Feed.c", "FeedKit.c", "FeedViewController.swift"):
    for number, text in enumerate(open(f"{src}/{name}"), 1):
        for marker in re.findall(r"@([\w.]+)", text):
            markers[marker] = {"file": f"/build/FeedApp/Tests/Fixtures/Symbolication/{name}", "line": number}
builds = {}
for build in (1, 2):
    binary = f"{out}/build{build}/FeedApp"
    table = symbols(binary)
    # The call in render_row: its return address is the instruction after the `bl`.
    disassembly = run(objdump, "-d", "--no-show-raw-insn", f"--disassemble-symbols=_render_row", binary)
    calls = [int(m, 16) for m in re.findall(r"^\s*([0-9a-f]+):\s+bl\s", disassembly, re.M)]
    builds[build] = {
        "uuid": uuids(binary)["arm64"], "textVMAddress": table["__mh_execute_header"],
        "functions": {n.lstrip("_"): a for n, a in table.items() if not n.startswith("__")},
        "renderRowReturnAddress": calls[0] + 4,
    }
kit = f"{out}/obj/FeedKit"
manifest = {
    "swift": swift_ok == "1", "markers": markers, "builds": builds,
    "feedKit": {"uuids": uuids(kit), "decodeItem": symbols(kit)["_decode_item"], "textVMAddress": 0},
}
json.dump(manifest, open(f"{out}/manifest.json", "w"), indent=1, sort_keys=True)

# The dump: 3.8.0 runs build 1, 3.9.0 build 2 (the same code, shifted), each on 20 days (as many
# payloads a side as compare's built-in rules ask), at its own slid load
# address. Both crash in reload_feed (scaled inlined), called from render_row (a return address),
# 3.8.0 once written as iOS 15 did (the offset field holding the load address); both crash in the
# universal framework (its __TEXT at 0) and hang in Swift's FeedViewController.reload() (when built);
# 3.9.0 also crashes anew at render_row's first instruction. Apple's frames have no dSYM.
def frame(name, uuid, offset, address):
    return {"binaryName": name, "binaryUUID": uuid, "offsetIntoBinaryTextSegment": offset, "address": address,
            "sampleCount": 1}
def app(build, address, quirk=False):
    b, load = builds[build], 0x1_0238_4000 + build * 0x10_0000
    offset = address - b["textVMAddress"]
    return frame("FeedApp", b["uuid"], load if quirk else offset, load + offset)
def system(name, offset):
    return frame(name, "D76A0846-B888-327A-8491-D509DF34008E", offset, 0x1_9A00_0000 + offset)
def tree(frames):
    node = None
    for f in reversed(frames):  # innermost frame at the root
        if node: f = dict(f, subFrames=[node])
        node = f
    return {"callStackPerThread": True, "callStacks": [{"threadAttributed": True, "callStackRootFrames": [node]}]}
def diagnostic(version, frames, os="iPhone OS 17.5 (21F79)", **meta):
    return {"version": "1.0.0", "callStackTree": tree(frames), "diagnosticMetaData": dict(
        appVersion=version, appBuildVersion="1", osVersion=os, deviceType="iPhone15,3", **meta)}
kit = manifest["feedKit"]
kit_frame = frame("FeedKit", kit["uuids"]["arm64"], kit["decodeItem"], 0x1_0300_0000 + kit["decodeItem"])
with open(f"{out}/dump/diagnostics.ndjson", "w") as dump:
    for version, build in (("3.8.0", 1), ("3.9.0", 2)):
        fns = builds[build]["functions"]
        for day in range(1, 21):
            quirk = build == 1 and day == 1
            feed = [app(build, fns["reload_feed"], quirk), app(build, builds[build]["renderRowReturnAddress"], quirk),
                    system("libdyld.dylib", 0x1d8c)]
            crashes = [
                diagnostic(version, feed, "iPhone OS 15.2 (19C56)" if quirk else "iPhone OS 17.5 (21F79)",
                           exceptionType=1, signal=11, exceptionCode=0),
                diagnostic(version, [kit_frame, system("libsystem_pthread.dylib", 0x77e8)], exceptionType=10,
                           signal=6, exceptionCode=0)]
            if build == 2:
                crashes.append(diagnostic(version, [app(build, fns["render_row"]), system("libdyld.dylib", 0x1d8c)],
                                          exceptionType=1, signal=11, exceptionCode=0))
            hangs = []
            if swift_ok == "1":
                hangs.append(dict(diagnostic(version, [app(build, fns["$e4Feed0A14ViewControllerV6reloadSiyF"]),
                                                       system("UIKitCore", 0x2000)], hangDuration="2 sec"),
                                  hangType="Main Runloop Hang"))
            date = f"2024-05-{day:02d}"
            dump.write(json.dumps({"timeStampBegin": f"{date} 00:00:00", "timeStampEnd": f"{date} 23:59:00",
                                   "crashDiagnostics": crashes, "hangDiagnostics": hangs}) + "\n")
PY
echo "${given%/}/manifest.json"
