import Foundation
import TestSupport
import Testing

/// `--symbols` on `diagnostics`, `compare`, `report` and `snapshot`, over Mach-O fixtures built from
/// source (`Scripts/symbol-fixtures.sh`) and payloads whose frames point at their known functions. The
/// expected functions and lines come from the sources' markers, not from the symbolizer.
@Suite("metrics-report --symbols", .serialized)
struct SymbolicationCommandTests {
  static let rules =
    "rules:\n  - metric: diagnostics.crash\n    statistic: newSignature\n    minCount: 3\n    minPayloads: 2\n"

  /// The JSON of `diagnostics --format json` over `dump` with the fixtures' symbols.
  static func diagnosticsJSON(_ fx: SymbolFixtures, _ dump: URL, _ extra: [String] = []) throws -> [String: Any] {
    let result = try CLIRunner.run(
      ["diagnostics", dump.path, "--symbols", fx.symbols.path, "--format", "json"] + extra)
    #expect(result.status == 0, "\(result.stderr)")
    return try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as! [String: Any]
  }

  static func groups(_ json: [String: Any], version: String) -> [[String: Any]] {
    let versions = json["versions"] as! [[String: Any]]
    return versions.first { $0["version"] as? String == version }?["groups"] as? [[String: Any]] ?? []
  }

  static func line(_ frame: [String: Any]) -> SymbolFixtures.Line? {
    guard let file = frame["file"] as? String, let line = frame["line"] as? Int else { return nil }
    return SymbolFixtures.Line(file: file, line: line)
  }

  @Test func everyAppFrameResolvesToTheMarkedFunctionFileAndLine() throws {
    guard let fx = SymbolFixtures.built else { return }
    let dump = try fx.dump()
    defer { try? FileManager.default.removeItem(at: dump) }
    let json = try Self.diagnosticsJSON(fx, dump)
    let m = fx.markers
    for version in ["3.8.0", "3.9.0"] {
      let groups = Self.groups(json, version: version)
      // The feed crash: reload_feed's first instruction is `scaled`, inlined; the caller frame's return
      // address is on the line after the call, looked up one byte earlier: the call's line.
      let feed = try #require(groups.first { ($0["text"] as? String)?.contains("FeedApp reload_feed") == true })
      let frames = feed["frames"] as! [[String: Any]]
      #expect(frames.map { $0["function"] as? String } == ["scaled", "reload_feed", "render_row", nil])
      #expect(frames[0]["inlinedInto"] as? String == "reload_feed")
      #expect(frames.prefix(3).map(Self.line) == [m["scaled"], m["reload_feed.inlined"], m["render_row.call"]])
      #expect(frames[3]["symbolicated"] as? Bool == false)
      #expect(frames[3]["binary"] as? String == "libdyld.dylib")
      #expect(frames[3]["offset"] as? Int == 0x1d8c)
      // 3.8.0's iOS 15 report, whose offset field is the load address, is the same crash.
      #expect(feed["count"] as? Int == 20)
      let culprit = try #require(feed["culprit"] as? [String: Any])
      #expect(culprit["function"] as? String == "scaled" && Self.line(culprit) == m["scaled"])
      #expect(feed["culpritFrame"] as? String == "scaled (Feed.c:\(m["scaled"]!.line))")
      // The framework, universal, __TEXT at 0.
      let kit = try #require(groups.first { ($0["text"] as? String)?.contains("FeedKit decode_item") == true })
      let kitFrame = (kit["frames"] as! [[String: Any]])[0]
      #expect(kitFrame["function"] as? String == "decode_item" && Self.line(kitFrame) == m["decode_item.body"])
      if fx.swift {
        let hang = try #require(groups.first { $0["kind"] as? String == "hang" })
        let swiftFrame = (hang["frames"] as! [[String: Any]])[0]
        #expect(swiftFrame["function"] as? String == "Feed.FeedViewController.reload() -> Swift.Int")
        #expect(swiftFrame["shortFunction"] as? String == "FeedViewController.reload()")
        #expect(Self.line(swiftFrame) == m["reload.body"])
        #expect((hang["text"] as? String)?.contains("FeedApp FeedViewController.reload()") == true)
      } else {
        print("skipped: Embedded Swift does not build here; the Swift frame is not checked")
      }
    }
    // A frame at a function's first instruction (3.9.0's new crash).
    let first = try #require(
      Self.groups(json, version: "3.9.0").first {
        ($0["text"] as? String)?.hasSuffix("| FeedApp render_row < libdyld.dylib+0x1d8c") == true
      })
    #expect(Self.line((first["frames"] as! [[String: Any]])[0]) == m["render_row.start"])
    let report = try #require(json["symbolication"] as? [String: Any])
    #expect((report["missingAppBinaries"] as? [Any])?.isEmpty == true)
    #expect((report["unusedSymbols"] as? [Any])?.isEmpty == true)
    #expect(report["unresolvedFrames"] as? Int == 0)
  }

  @Test func aRebuildKeepsItsSignaturesAndANewCrashIsFlaggedByItsFunction() throws {
    guard let fx = SymbolFixtures.built else { return }
    let dump = try fx.dump()
    defer { try? FileManager.default.removeItem(at: dump) }
    let rules = dump.appendingPathComponent("gate.yml")
    try Data(Self.rules.utf8).write(to: rules)
    let compare = ["compare", dump.path, "--baseline", "3.8.0", "--candidate", "3.9.0", "--rules", rules.path]
    let result = try CLIRunner.run(compare + ["--symbols", fx.symbols.path, "--format", "json"])
    #expect(result.status == 1, "\(result.stderr)")
    let json = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as! [String: Any]
    let rule = (json["results"] as! [[String: Any]])[0]
    let listed = rule["newSignatures"] as! [[String: Any]]
    // Only the crash at render_row's start is new; the feed and framework crashes moved, unchanged.
    #expect(listed.count == 1)
    #expect((listed.first?["text"] as? String)?.hasSuffix("| FeedApp render_row < libdyld.dylib+0x1d8c") == true)
    #expect((listed.first?["culprit"] as? [String: Any])?["function"] as? String == "render_row")

    // A baseline snapshot taken with the same symbols keeps the frames: the same verdict from it.
    let snapshot = dump.appendingPathComponent("baseline.json")
    let taken = try CLIRunner.run([
      "snapshot", dump.path, "--app-version", "3.8.0", "--symbols", fx.symbols.path, "-o", snapshot.path,
    ])
    #expect(taken.status == 0, "\(taken.stderr)")
    let fromSnapshot = try CLIRunner.run([
      "compare", dump.path, "--baseline-file", snapshot.path, "--baseline", "3.8.0", "--candidate", "3.9.0",
      "--rules", rules.path, "--symbols", fx.symbols.path, "--format", "json",
    ])
    let snapshotJSON = try JSONSerialization.jsonObject(with: Data(fromSnapshot.stdout.utf8)) as! [String: Any]
    let snapshotListed = (snapshotJSON["results"] as! [[String: Any]])[0]["newSignatures"] as! [[String: Any]]
    #expect(snapshotListed.map { $0["signature"] as? String } == listed.map { $0["signature"] as? String })
    let written = try String(contentsOf: snapshot, encoding: .utf8)
    #expect(written.contains(#""shortFunction": "scaled""#) || written.contains(#""shortFunction":"scaled""#))

    // Without symbols, the app's frames are signed by the binary's name: the rebuild flags nothing
    // old either, and the new crash is still new (its stack differs).
    let plain = try CLIRunner.run(compare + ["--format", "json"])
    let plainJSON = try JSONSerialization.jsonObject(with: Data(plain.stdout.utf8)) as! [String: Any]
    let plainListed = ((plainJSON["results"] as! [[String: Any]])[0]["newSignatures"] as! [[String: Any]])
    #expect(
      plainListed.map { $0["text"] as? String } == [
        "crash EXC_BAD_ACCESS SIGSEGV code 0 | FeedApp < libdyld.dylib+0x1d8c"
      ])

    // GitHub: the new signature lands on its culprit's line, the file relative to the repository.
    let github = try CLIRunner.run(
      compare + ["--symbols", fx.symbols.path, "--format", "github", "--source-root", TestDirectories.packageRoot.path])
    let start = fx.markers["render_row.start"]!.line
    #expect(
      github.stdout.contains(
        "::error file=Tests/Fixtures/Symbolication/Feed.c,line=\(start),title=New crash signature in 3.9.0%3A render_row::"
      ),
      "\(github.stdout)")
  }

  @Test func foldedStacksAndTheReportPageCarryFunctionsAndLines() throws {
    guard let fx = SymbolFixtures.built else { return }
    let dump = try fx.dump()
    defer { try? FileManager.default.removeItem(at: dump) }
    let folded = try CLIRunner.run(["diagnostics", dump.path, "--symbols", fx.symbols.path, "--format", "folded"])
    #expect(folded.status == 0)
    // Outermost first; an inlined function is the frame below the one it is in.
    #expect(
      folded.stdout.contains("3.8.0;crash;libdyld.dylib+0x1d8c;render_row;reload_feed;scaled 20\n"), "\(folded.stdout)")
    let page = dump.appendingPathComponent("report.html")
    let report = try CLIRunner.run(["report", dump.path, "--symbols", fx.symbols.path, "-o", page.path])
    #expect(report.status == 0, "\(report.stderr)")
    let html = try String(contentsOf: page, encoding: .utf8)
    #expect(html.contains("scaled (Feed.c:\(fx.markers["scaled"]!.line))"))
  }

  @Test func missingCorruptAndUnusedSymbolsAreSaidAndLoseNothingElse() throws {
    guard let fx = SymbolFixtures.built else { return }
    let dump = try fx.dump()
    defer { try? FileManager.default.removeItem(at: dump) }
    let plain = try CLIRunner.run(["diagnostics", dump.path, "--format", "json"])
    // Only build 1's dSYM, a corrupt copy of build 2's, and the framework's: build 2's frames have no
    // symbols, and are named.
    let symbols = dump.appendingPathComponent("symbols")
    try FileManager.default.createDirectory(at: symbols, withIntermediateDirectories: true)
    try FileManager.default.copyItem(
      at: fx.symbols.appendingPathComponent("FeedApp-build1.dSYM"),
      to: symbols.appendingPathComponent("FeedApp-build1.dSYM"))
    let corrupt = symbols.appendingPathComponent("Broken.dSYM/Contents/Resources/DWARF")
    try FileManager.default.createDirectory(at: corrupt, withIntermediateDirectories: true)
    let dwarf = try Data(
      contentsOf: fx.symbols.appendingPathComponent("FeedApp-build2.dSYM/Contents/Resources/DWARF/FeedApp"))
    try dwarf.prefix(40).write(to: corrupt.appendingPathComponent("FeedApp"))
    let result = try CLIRunner.run(["diagnostics", dump.path, "--symbols", symbols.path, "--format", "json"])
    #expect(result.status == 0)
    #expect(result.stderr.contains("symbols not read: \(corrupt.path)/FeedApp: at byte 16: "), "\(result.stderr)")
    #expect(result.stderr.contains("FeedApp \(fx.uuids[2]!): no symbols, "), "\(result.stderr)")
    let json = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as! [String: Any]
    let built2 = Self.groups(json, version: "3.9.0")
    #expect(
      built2.allSatisfy {
        (($0["frames"] as? [[String: Any]]) ?? []).allSatisfy { $0["symbolicated"] as? Bool == false }
      })
    #expect(
      Self.groups(json, version: "3.8.0").contains { ($0["text"] as? String)?.contains("FeedApp scaled") == true })

    // A dSYM no frame needs is listed as unused.
    let unused = try CLIRunner.run([
      "diagnostics", dump.path, "--app-version", "3.9.0", "--symbols",
      fx.symbols.appendingPathComponent("FeedApp-build1.dSYM").path,
    ])
    #expect(unused.stderr.contains("unused symbols: "), "\(unused.stderr)")
    #expect(unused.stderr.contains("(\(fx.uuids[1]!), arm64): no frame has this UUID"))

    // Without llvm-symbolizer: said once, and the output is the unsymbolicated one.
    let bare = try CLIRunner.shell(
      "PATH=/nonexistent \"$B\" diagnostics '\(dump.path)' --symbols '\(fx.symbols.path)' --format json")
    #expect(bare.status == 0)
    #expect(bare.stderr.components(separatedBy: "llvm-symbolizer was not found").count == 2, "\(bare.stderr)")
    let withoutSymbolication = try JSONSerialization.jsonObject(with: Data(bare.stdout.utf8)) as! [String: Any]
    let plainJSON = try JSONSerialization.jsonObject(with: Data(plain.stdout.utf8)) as! [String: Any]
    #expect((withoutSymbolication["versions"] as! NSArray) == (plainJSON["versions"] as! NSArray))
  }

  @Test func aDumpOfDiagnosticsAloneGatesOnNewSignaturesAsTheReadmeShows() throws {
    guard let fx = SymbolFixtures.built else { return }
    // The script's dump holds diagnostics only: the new crash fails the gate; rates, which need
    // metric payloads as their exposure, say so.
    let dump = fx.directory.appendingPathComponent("dump").path
    let compare = ["compare", dump, "--baseline", "3.8.0", "--candidate", "3.9.0", "--symbols", fx.symbols.path]
    let text = try CLIRunner.run(compare)
    #expect(text.status == 1, "\(text.stderr)")
    #expect(text.stdout.contains("Gate: FAIL — diagnostics.crash newSignature"), "\(text.stdout)")
    let json =
      try JSONSerialization.jsonObject(with: Data((try CLIRunner.run(compare + ["--format", "json"])).stdout.utf8))
      as! [String: Any]
    let results = json["results"] as! [[String: Any]]
    let signatures = try #require(results.first { $0["statistic"] as? String == "newSignature" })
    #expect((signatures["newSignatures"] as? [[String: Any]])?.count == 1)
    let rate = try #require(
      results.first { $0["metric"] as? String == "diagnostics.crash" && $0["statistic"] as? String == "rate" })
    #expect(rate["verdict"] as? String == "insufficient-data")
    #expect((rate["reason"] as? String)?.contains("no metric payloads for the baseline") == true, "\(rate)")
    let github = try CLIRunner.run(compare + ["--format", "github", "--source-root", TestDirectories.packageRoot.path])
    let start = fx.markers["render_row.start"]!.line
    #expect(
      github.stdout.contains("::error file=Tests/Fixtures/Symbolication/Feed.c,line=\(start),"), "\(github.stdout)")
    #expect(github.stdout.components(separatedBy: "file=").count == 2, "\(github.stdout)")
  }

  @Test func symbolsAtAPathWithALineBreakAndAQuoteResolveAsAnywhereElse() throws {
    guard let fx = SymbolFixtures.built else { return }
    let dump = try fx.dump()
    defer { try? FileManager.default.removeItem(at: dump) }
    let odd = dump.appendingPathComponent("sym\nbols \"quoted\"")
    try FileManager.default.copyItem(at: fx.symbols, to: odd)
    let plain = try CLIRunner.run(["diagnostics", dump.path, "--symbols", fx.symbols.path, "--format", "json"])
    let moved = try CLIRunner.run(["diagnostics", dump.path, "--symbols", odd.path, "--format", "json"])
    #expect(moved.status == 0 && !moved.stderr.contains("symbolication stopped"), "\(moved.stderr)")
    let a = try JSONSerialization.jsonObject(with: Data(plain.stdout.utf8)) as! [String: Any]
    let b = try JSONSerialization.jsonObject(with: Data(moved.stdout.utf8)) as! [String: Any]
    #expect((a["versions"] as! NSArray) == (b["versions"] as! NSArray))
  }

  /// A stand-in for `llvm-symbolizer` in a folder of its own, put first on PATH: `body` is its shell.
  static func standIn(_ body: String, in dir: URL) throws -> String {
    let bin = dir.appendingPathComponent("bin")
    try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
    let path = bin.appendingPathComponent("llvm-symbolizer").path
    try Data("#!/bin/sh\n\(body)\n".utf8).write(to: URL(fileURLWithPath: path))
    _ = try CLIRunner.shell("chmod +x '\(path)'")
    return bin.path
  }

  @Test func aSymbolizerThatMisbehavesNamesNoFrameWrongly() throws {
    guard let fx = SymbolFixtures.built else { return }
    let dump = try fx.dump()
    defer { try? FileManager.default.removeItem(at: dump) }
    let real = try #require(
      (try CLIRunner.shell(
        "command -v llvm-symbolizer || echo \"$(dirname \"$(readlink -f \"$(command -v swift)\")\")/llvm-symbolizer\""))
        .stdout.split(separator: "\n").first.map(String.init))
    let unsymbolicated = try CLIRunner.shell(
      "PATH=/nonexistent \"$B\" diagnostics '\(dump.path)' --symbols '\(fx.symbols.path)' --format json")
    let expected = try JSONSerialization.jsonObject(with: Data(unsymbolicated.stdout.utf8)) as! [String: Any]
    // One line more than asked, first: every later answer would belong to the frame before.
    let shifted = try Self.standIn(
      "echo '{\"Address\":\"0x0\",\"ModuleName\":\"x\",\"Symbol\":[{\"FunctionName\":\"decode_item\"}]}'; exec '\(real)' \"$@\"",
      in: dump.appendingPathComponent("shifted"))
    let run = "\"$B\" diagnostics '\(dump.path)' --symbols '\(fx.symbols.path)' --format json"
    let wrong = try CLIRunner.shell("PATH='\(shifted)' \(run)")
    #expect(wrong.status == 0)
    #expect(wrong.stderr.contains("answered for 0x0 in x where "), "\(wrong.stderr)")
    let got = try JSONSerialization.jsonObject(with: Data(wrong.stdout.utf8)) as! [String: Any]
    #expect((got["versions"] as! NSArray) == (expected["versions"] as! NSArray))
    // One that dies: said with its status; the symbol files frames point to are not called unused.
    let dies = try Self.standIn("exit 3", in: dump.appendingPathComponent("dies"))
    let died = try CLIRunner.shell("PATH='\(dies)' \(run)")
    #expect(
      died.stderr.contains("exited with status 3") && !died.stderr.contains("NSCocoaErrorDomain"), "\(died.stderr)")
    #expect(!died.stderr.contains("unused symbols"), "\(died.stderr)")
    // One that stalls: stopped after --symbolizer-timeout, and gone once the run is.
    let marker = "\(UInt32.random(in: 100_000...999_999))"
    let stalls = try Self.standIn("exec /bin/sleep \(marker)", in: dump.appendingPathComponent("stalls"))
    let stalled = try CLIRunner.shell("PATH='\(stalls)' \(run) --symbolizer-timeout 1")
    #expect(stalled.status == 0 && stalled.stderr.contains("stalled: no progress"), "\(stalled.stderr)")
    #expect((try CLIRunner.shell("pgrep -f '[s]leep \(marker)' || true")).stdout.isEmpty)
    // A run killed while it waits takes the symbolizer with it (waits are polled: a loaded machine,
    // or AddressSanitizer, starts the run slowly).
    let killed = try CLIRunner.shell(
      "PATH='\(stalls)' \(run) >/dev/null 2>&1 & run=$!; "
        + "for _ in $(seq 150); do pgrep -f '[s]leep \(marker)' >/dev/null && { echo started; break; }; sleep 0.2; done; "
        + "kill -9 $run; alive() { pgrep -f '[s]leep \(marker)' | while read p; do grep -q ') Z ' /proc/$p/stat || echo $p; done; }; "
        + "for _ in $(seq 50); do [ -z \"$(alive)\" ] && break; sleep 0.2; done; for p in $(alive); do echo left $p; done"
    )
    #expect(killed.stdout == "started\n", "\(killed.stdout)")
  }

  @Test(arguments: [false, true])
  func anOffsetPastTheAddressSpaceOrTheTextSegmentNamesNoFunction(aggregated: Bool) throws {
    guard let fx = SymbolFixtures.built else { return }
    try withTemporaryDirectory { dir in
      // Per thread, an offset that overflows the address space; aggregated, 2^64 − 1 at address 0
      // with a callee (a return address): neither lies in the binary.
      var frame: [String: Any] = [
        "binaryName": "FeedApp", "binaryUUID": fx.uuids[1]!,
        "offsetIntoBinaryTextSegment": aggregated ? UInt64.max : UInt64.max - 7, "address": aggregated ? 0 : 1,
        "sampleCount": 1,
      ]
      if aggregated {
        // Its callee in a library no symbol file covers: nothing of the stack can be named.
        frame["subFrames"] = [
          ["binaryName": "libsystem_kernel.dylib", "offsetIntoBinaryTextSegment": 16, "sampleCount": 1]
        ]
      }
      let crash: [String: Any] = [
        "version": "1.0.0",
        "callStackTree": [
          "callStackPerThread": !aggregated,
          "callStacks": [["threadAttributed": true, "callStackRootFrames": [frame]]],
        ],
        "diagnosticMetaData": [
          "appVersion": "3.8.0", "appBuildVersion": "1", "osVersion": "iPhone OS 17.5 (21F79)",
          "deviceType": "iPhone15,3", "exceptionType": 1, "signal": 11,
        ],
      ]
      let payload: [String: Any] = [
        "timeStampBegin": "2024-05-01 00:00:00", "timeStampEnd": "2024-05-01 23:59:00", "crashDiagnostics": [crash],
      ]
      try JSONSerialization.data(withJSONObject: payload).write(to: dir.appendingPathComponent("overflow.json"))
      let result = try CLIRunner.run(["diagnostics", dir.path, "--symbols", fx.symbols.path, "--format", "json"])
      #expect(result.status == 0, "\(result.stderr)")
      #expect(!result.stdout.contains("mh_execute_header"), "\(result.stdout)")
      let json = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as! [String: Any]
      let group = try #require(Self.groups(json, version: "3.8.0").first)
      let frames = try #require(group["frames"] as? [[String: Any]])
      #expect(!frames.isEmpty && frames.allSatisfy { $0["symbolicated"] as? Bool == false }, "\(frames)")
    }
  }
}
