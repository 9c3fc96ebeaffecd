import Foundation
import PayloadSynthesis
import TestSupport
import Testing

#if canImport(FoundationXML)
  import FoundationXML
#endif

/// Hostile and broken inputs, each run against the built binary as a shell would run it: a dump
/// directory filled by an upload endpoint, output read by CI systems. Nothing crashes or hangs,
/// nothing is lost, nothing injects into reports.
@Suite("Hostile input")
struct HostileInputTests {
  static let payload = "Samples/dump/v3.9.0/payload-0.json"

  static let dump = "Samples/dump"

  /// A payload of `version` with its own launch histogram, as one line.
  static func payloadLine(version: String = "3.9.0", seed: UInt64 = 11, day: Int = 0) -> String {
    var rng = SplitMix64(seed: seed)
    let profile = VersionProfile.standard.first { $0.version == version } ?? VersionProfile.standard[1]
    var json = SyntheticPayload.make(profile: profile, day: day, device: day, multipleVersions: false, rng: &rng).json
    if profile.version != version {
      json = json.replacingOccurrences(of: "\"\(profile.version)\"", with: "\"\(version)\"")
    }
    return SampleDump.compact(json)
  }

  static func withDirectory(_ body: (URL) throws -> Void) throws {
    try withTemporaryDirectory { dir in
      try body(dir)
    }
  }

  static func goodPayloads(_ n: Int, seed: UInt64 = 4) -> [String] {
    var rng = SplitMix64(seed: seed)
    return (0..<n).map {
      SyntheticPayload.make(
        profile: VersionProfile.standard[0], day: $0, device: $0, multipleVersions: false, rng: &rng
      ).json
    }
  }

  @Test func aFIFONeitherBlocksNorIsLost() throws {
    try Self.withDirectory { dir in
      let r = try CLIRunner.shell(
        """
        cd '\(dir.path)' && mkdir f && cp "$OLDPWD/\(Self.payload)" f/ && mkfifo f/x.json && mkfifo named.json
        timeout 20 "$B" summary f --format json > dir.json 2> dir.err; echo "dir $?"
        timeout 20 "$B" summary named.json "$OLDPWD/\(Self.payload)" > named.txt 2> named.err; echo "named $?"
        timeout 20 "$B" summary <(cat "$OLDPWD/\(Self.payload)") > substituted.txt 2>&1; echo "substituted $?"
        mkfifo lines.ndjson; (tr -d '\\n' < "$OLDPWD/\(Self.payload)"; echo) > lines.ndjson &
        timeout 20 "$B" summary lines.ndjson > lines.txt 2>&1; echo "lines $?"
        """)
      #expect(r.stdout.contains("dir 0"), "\(r.stdout)")
      #expect(r.stdout.contains("named 0"), "\(r.stdout)")
      #expect(r.stdout.contains("substituted 0"), "\(r.stdout)")
      let json = try String(contentsOf: dir.appendingPathComponent("dir.json"), encoding: .utf8)
      #expect(json.contains("not a regular file (a FIFO); not read"))
      #expect(json.contains("\"counted\": 1"))
      // A FIFO nobody writes, named on the command line, reads as empty; a pipe with a writer is read.
      let named = try String(contentsOf: dir.appendingPathComponent("named.err"), encoding: .utf8)
      #expect(named.contains("named.json: empty file"))
      let substituted = try String(contentsOf: dir.appendingPathComponent("substituted.txt"), encoding: .utf8)
      #expect(substituted.contains("1 read = 1 counted"), "\(substituted)")
      // A FIFO named as NDJSON is streamed like standard input.
      #expect(r.stdout.contains("lines 0"), "\(r.stdout)")
      let streamed = try String(contentsOf: dir.appendingPathComponent("lines.txt"), encoding: .utf8)
      #expect(streamed.contains("1 read = 1 counted"), "\(streamed)")
    }
  }

  @Test func aFailedWriteToStandardOutputExits2InEveryCommand() throws {
    try Self.withDirectory { dir in
      let commands = [
        "summary \(Self.dump)", "compare \(Self.dump) --baseline 3.8.0 --candidate 3.9.0",
        "snapshot \(Self.dump) --app-version 3.9.0", "diagnostics \(Self.dump)",
        "rules --print-defaults", "merge '\(dir.path)/s.json'",
      ]
      _ = try CLIRunner.shell("\"$B\" snapshot \(Self.dump) --app-version 3.9.0 -o '\(dir.path)/s.json' 2>/dev/null")
      for command in commands {
        for redirect in [">/dev/full", ">&-"] {
          let status = try CLIRunner.shell("\"$B\" \(command) \(redirect) 2>/dev/null").status
          #expect(status == 2, "\(command) \(redirect): exit \(status)")
        }
        let message = try CLIRunner.shell("\"$B\" \(command) >/dev/full")
        #expect(message.stderr.contains("cannot write standard output: No space left on device"), "\(command)")
      }
      // A reader that stops early (`| head`): exit 2 and the reason, not a silent end by SIGPIPE.
      for command in [
        "export \(Self.dump) --to openmetrics", "report \(Self.dump) --baseline 3.8.0 --candidate 3.9.0 -o /dev/stdout",
      ] {
        let closed = try CLIRunner.shell("set -o pipefail; \"$B\" \(command) | head -c 10 >/dev/null")
        #expect(closed.status == 2, "\(command) | head: exit \(closed.status)")
        #expect(closed.stderr.contains(": Broken pipe"), "\(command): \(closed.stderr)")
      }
    }
  }

  @Test func deeplyNestedRuleFilesAreRejectedWithTheirLine() throws {
    try Self.withDirectory { dir in
      let files = [
        (
          "flow.yml",
          "defaults:\n  alpha: 0.05\nrules:\n  - metric: hangRate\n    statistic: "
            + String(repeating: "[", count: 5000) + String(repeating: "]", count: 5000) + "\n", 5
        ),
        ("block.yml", "rules:\n  - " + String(repeating: "- ", count: 5000) + "x\n", 2),
        (
          "deep.json", "{\"rules\": " + String(repeating: "[", count: 5000) + String(repeating: "]", count: 5000) + "}",
          1
        ),
        ("indented.yml", (0..<500).map { String(repeating: " ", count: $0) + "k\($0):\n" }.joined(), 32),
      ]
      for (name, text, line) in files {
        let path = dir.appendingPathComponent(name).path
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        let check = try CLIRunner.run(["rules", "--check", path])
        #expect(check.status == 2, "\(name)")
        #expect(check.stderr.contains("\(path):\(line): nested deeper than 64 levels"), "\(name): \(check.stderr)")
        let compare = try CLIRunner.run([
          "compare", Self.dump, "--baseline", "3.8.0", "--candidate", "3.9.0", "--rules", path,
        ])
        #expect(compare.status == 2, "\(name)")
      }
      // The shipped rules, and a file with brackets inside quotes and comments, still pass.
      let defaults = dir.appendingPathComponent("defaults.yml").path
      #expect(try CLIRunner.run(["rules", "--print-defaults", "-o", defaults]).status == 0)
      #expect(try CLIRunner.run(["rules", "--check", defaults]).status == 0)
    }
  }

  @Test func aTenThousandFrameHangInsideAFullPayloadPassesAndAHundredThousandLevelsDoNot() throws {
    try Self.withDirectory { dir in
      var frames = ""
      let depth = 10_000
      for i in 0..<depth {
        frames +=
          #"{"binaryName":"App","binaryUUID":"U","offsetIntoBinaryTextSegment":\#(i),"address":\#(i),"sampleCount":1"#
        frames += i + 1 < depth ? #","subFrames":["# : "}"
      }
      frames += String(repeating: "]}", count: depth - 1)
      let payload = """
        {"timeStampBegin":"2023-01-01 00:00:00","timeStampEnd":"2023-01-02 00:00:00","hangDiagnostics":[{"version":"1.0.0",
        "diagnosticMetaData":{"appVersion":"3.9.0","appBuildVersion":"1","osVersion":"iPhone OS 17.0 (21A1)",
        "deviceType":"iPhone15,2","regionFormat":"US","platformArchitecture":"arm64e","hangDuration":"2 sec"},
        "hangType":"Main Runloop Hang","callStackTree":{"callStackPerThread":true,"callStacks":[{"threadAttributed":true,
        "callStackRootFrames":[\(frames)]}]}}]}
        """
      try Data(payload.utf8).write(to: dir.appendingPathComponent("hang.json"))
      let deep =
        "{\"appVersion\": \"1\", \"x\": " + String(repeating: "[", count: 100_000)
        + String(repeating: "]", count: 100_000) + "}"
      try Data(deep.utf8).write(to: dir.appendingPathComponent("deep.json"))
      let r = try CLIRunner.run(["diagnostics", dir.path, "--format", "json"])
      #expect(r.status == 0, "\(r.stderr)")
      #expect(r.stdout.contains("\"hang\": 1"))
      #expect(r.stderr.contains("deep.json: invalid JSON: The JSON document was too deep"))
      #expect(!r.stderr.contains("hang.json"))
    }
  }

  @Test func aLongSignpostNameIsCutInTextAndKeptWholeInJSONAndCSV() throws {
    try Self.withDirectory { dir in
      let long = String(repeating: "N", count: 1 << 20)
      let signposts = ([long] + (0..<2000).map { "S\($0)" }).map { name in
        #"{"signpostName":"\#(name)","signpostCategory":"C","totalSignpostCount":1,"signpostIntervalData":{"histogrammedSignpostDurations":{"histogramNumBuckets":1,"histogramValue":{"0":{"bucketStart":"0 ms","bucketEnd":"10 ms","bucketCount":1}}}}}"#
      }
      let payload = #"{"appVersion":"1.0","signpostMetrics":[\#(signposts.joined(separator: ","))]}"#
      let path = dir.appendingPathComponent("long.json").path
      try Data(payload.utf8).write(to: URL(fileURLWithPath: path))
      let text = try CLIRunner.run(["summary", path])
      #expect(text.status == 0)
      #expect(text.stdout.utf8.count < 1_000_000, "\(text.stdout.utf8.count) bytes of text")
      #expect(text.stdout.split(separator: "\n").allSatisfy { $0.count < 300 })
      #expect(text.stdout.contains("signpost:C/NNNN") && text.stdout.contains("…"))
      let csv = try CLIRunner.run(["summary", path, "--format", "csv"])
      #expect(csv.stdout.contains("signpost:C/" + long))
    }
  }

  @Test func rejectionsAreCountedByReasonBeyondTheListedOnes() throws {
    try Self.withDirectory { dir in
      // 200,000 bad lines in one gzip file and 30 bad files: the run lists a bounded number.
      let lines = Data(String(repeating: "{}\n", count: 200_000).utf8)
      try SampleDump.gzip(lines).write(to: dir.appendingPathComponent("a-empty-objects.ndjson.gz"))
      for i in 0..<30 { try Data("{\"hello\": \(i)}".utf8).write(to: dir.appendingPathComponent("bad-\(i).json")) }
      try Data((Self.payloadLine() + "\n").utf8).write(to: dir.appendingPathComponent("good.ndjson"))
      var outputs: [String] = []
      for threads in ["1", "2", "3"] {
        let r = try CLIRunner.run([
          "summary", dir.path, "--format", "json", "--threads", threads, "--max-rejections-listed", "20",
          "--max-rejections-per-file", "5",
        ])
        #expect(r.status == 0, "\(r.stderr)")
        outputs.append(r.stdout)
        let inputs = try #require(try r.json()["inputs"] as? [String: Any])
        #expect(inputs["rejectedCount"] as? Int == 200_030)
        let listed = try #require(inputs["rejected"] as? [[String: Any]])
        #expect(listed.count == 20)
        // The canonically first: 5 lines of the gzip file (its per-file limit), then 15 bad-N.json files.
        #expect(listed.filter { ($0["path"] as? String)?.hasSuffix("ndjson.gz") == true }.count == 5)
        let byReason = try #require(inputs["rejectedByReason"] as? [[String: Any]])
        #expect(byReason.first?["count"] as? Int == 200_000)
        let accounting = try #require(inputs["accounting"] as? [String: Int])
        #expect(accounting["read"] == 200_031 && accounting["rejected"] == 200_030)
        #expect(r.stderr.contains("200010 more, not listed, by reason"), "\(r.stderr.suffix(500))")
      }
      #expect(outputs[1] == outputs[0] && outputs[2] == outputs[0], "the same bytes for any thread count")
    }
  }

  @Test func aLongLineOnStandardInputIsReadInLinearTimeAndBounded() throws {
    // 40 MB in one line, piped (64 KiB a read): before, every read searched the whole line again.
    let padding = String(repeating: "x", count: 40 << 20)
    let line = Self.payloadLine().dropLast() + ",\"padding\":\"\(padding)\"}\n"
    let r = try CLIRunner.run(["summary", "--stdin", "--format", "json"], input: Data(line.utf8))
    #expect(r.status == 0, "\(r.stderr)")
    #expect(r.stdout.contains("\"counted\": 1"))
    let limited = try CLIRunner.run(["summary", "--stdin", "--max-line-bytes", "1000000"], input: Data(line.utf8))
    #expect(limited.status == 2)
    #expect(limited.stderr.contains("<stdin>: line 1 is longer than 1000000 bytes"))
  }

  @Test func foldedStacksOfADeepCPUTreeAreBoundedAndKeepEverySample() throws {
    try Self.withDirectory { dir in
      let n = 9_000
      var frames = ""
      for i in 0..<n {
        frames += #"{"binaryName":"App","offsetIntoBinaryTextSegment":\#(i),"sampleCount":\#(n - i)"#
        frames += i + 1 < n ? #","subFrames":["# : "}"
      }
      frames += String(repeating: "]}", count: n - 1)
      let payload = """
        {"timeStampBegin":"2023-01-01 00:00:00","timeStampEnd":"2023-01-02 00:00:00","cpuExceptionDiagnostics":[
        {"version":"1.0.0","diagnosticMetaData":{"appVersion":"3.9.0","totalCPUTime":"20 sec"},"callStackTree":
        {"callStackPerThread":false,"callStacks":[{"callStackRootFrames":[\(frames)]}]}}]}
        """
      let path = dir.appendingPathComponent("cpu.json").path
      try Data(payload.utf8).write(to: URL(fileURLWithPath: path))
      for (depth, lineCount) in [(nil as Int?, 2_049), (100, 101)] {
        let output = dir.appendingPathComponent("folded-\(depth ?? 0).txt").path
        var arguments = ["diagnostics", path, "--format", "folded", "-o", output]
        if let depth { arguments += ["--max-folded-depth", String(depth)] }
        let r = try CLIRunner.run(arguments)
        #expect(r.status == 0, "\(r.stderr)")
        let lines = try String(contentsOfFile: output, encoding: .utf8).split(separator: "\n")
        #expect(lines.count == lineCount)
        // Every sample once: each frame has one sample of its own, n in all.
        #expect(lines.map { Int($0.split(separator: " ").last ?? "") ?? 0 }.reduce(0, +) == n)
        let last = try #require(lines.last)
        #expect(last.hasSuffix(";[deeper frames elided] \(n - (depth ?? 2_048))"), "\(last.suffix(60))")
        #expect(last.hasPrefix("3.9.0;cpuException;App+0x0;App+0x1;"))
      }
    }
  }

  @Test func aParserThatCannotBeMadeStillAccountsForEveryFile() throws {
    for threads in ["1", "2"] {
      let r = try CLIRunner.run([
        "summary", Self.dump, "--max-depth", "4294967295", "--threads", threads, "--format", "json",
      ])
      #expect(r.status == 2)
      let inputs = try #require(try r.json()["inputs"] as? [String: Any])
      #expect(inputs["files"] as? Int == 112)
      #expect(inputs["rejectedCount"] as? Int == 112, "threads \(threads)")
      #expect(r.stderr.contains("out of memory for the JSON parser"))
    }
  }

  @Test func fileNamesThatAreNotUTF8AreReadAndPrintedEscaped() throws {
    try Self.withDirectory { dir in
      let r = try CLIRunner.shell(
        """
        cd '\(dir.path)' && mkdir d && cp "$OLDPWD/\(Self.payload)" "d/$(printf 'caf\\xe9.json')" && printf '{' > "d/$(printf 'bad\\xff.json')"
        "$B" summary d; "$B" summary "d/$(printf 'caf\\xe9.json')" --format json
        """)
      #expect(r.stdout.contains("2 read = 1 counted + 0 excluded + 1 rejected"), "\(r.stdout)\(r.stderr)")
      #expect(r.stderr.contains("d/bad\\xFF.json: invalid JSON"), "\(r.stderr)")
      #expect(r.stdout.contains("\"counted\": 1"))
    }
  }

  @Test func aFileNamedTwiceIsReadOnce() throws {
    let twice = try CLIRunner.run(["summary", Self.payload, Self.payload, "--format", "json"])
    #expect(twice.stdout.contains("\"counted\": 1"))
    #expect(twice.stdout.contains("\"duplicateFiles\": [\n      \"\(Self.payload)\""))
    let nested = try CLIRunner.run(["summary", Self.dump, Self.payload, "--format", "json"])
    let accounting = try #require((try nested.json()["inputs"] as? [String: Any])?["accounting"] as? [String: Int])
    #expect(accounting["read"] == 184)
    #expect(nested.stderr.contains("read once: \(Self.payload) is a file already named"))
  }

  @Test func anOutputThatIsAnInputIsRefusedAndReportsAreReplacedWhole() throws {
    try Self.withDirectory { dir in
      let p = dir.appendingPathComponent("p.json").path
      try FileManager.default.copyItem(atPath: Self.payload, toPath: p)
      let original = try Data(contentsOf: URL(fileURLWithPath: p))
      #expect(try CLIRunner.run(["summary", p, "-o", p]).status == 64)
      #expect(try CLIRunner.run(["summary", dir.path, "-o", p]).status == 2)
      #expect(try Data(contentsOf: URL(fileURLWithPath: p)) == original)
      let s = dir.appendingPathComponent("s.json").path
      #expect(try CLIRunner.run(["snapshot", p, "--app-version", "3.9.0", "-o", s]).status == 0)
      let snapshot = try Data(contentsOf: URL(fileURLWithPath: s))
      let selfMerge = try CLIRunner.run(["merge", s, "-o", s])
      #expect(selfMerge.status == 2 && selfMerge.stderr.contains("is one of the inputs"))
      let double = try CLIRunner.run(["merge", s, s])
      #expect(double.status == 2 && double.stderr.contains("merging it twice would double it"))
      #expect(try Data(contentsOf: URL(fileURLWithPath: s)) == snapshot)
      let rules = dir.appendingPathComponent("r.yml").path
      _ = try CLIRunner.run(["rules", "--print-defaults", "-o", rules])
      #expect(try CLIRunner.run(["rules", "--check", rules, "-o", rules]).status == 64)
      #expect(
        try CLIRunner.run([
          "compare", Self.dump, "--baseline", "3.8.0", "--candidate", "3.9.0", "--rules", rules, "-o", rules,
        ]).status == 64)
      // A directory as output, and no temporary file left behind by any run.
      let directory = try CLIRunner.run(["summary", p, "-o", dir.path])
      #expect(directory.status == 2 && directory.stderr.contains("is a directory"))
      let report = dir.appendingPathComponent("report.txt").path
      #expect(try CLIRunner.run(["summary", p, "-o", report]).status == 0)
      // A folder that cannot be made (a file is in its way): exit 2, nothing left.
      #expect(try CLIRunner.run(["summary", p, "-o", report + "/sub/report.txt"]).status == 2)
      let left = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.contains("metrics-report-") }
      #expect(left.isEmpty, "\(left)")
      #expect(try CLIRunner.run(["summary", p, "-o", "/dev/null"]).status == 0)
    }
  }

  @Test func aDocumentWithMetricAndDiagnosticSectionsCountsOnceAndKeepsBoth() throws {
    try Self.withDirectory { dir in
      let metric = Self.payloadLine()
      let crash =
        #""crashDiagnostics":[{"version":"1.0.0","diagnosticMetaData":{"appVersion":"3.9.0","exceptionType":1,"signal":11},"callStackTree":{"callStackPerThread":true,"callStacks":[{"threadAttributed":true,"callStackRootFrames":[{"binaryName":"App","binaryUUID":"U","offsetIntoBinaryTextSegment":1,"address":1,"sampleCount":1}]}]}}]"#
      let both = metric.dropLast() + "," + crash + "}"
      let path = dir.appendingPathComponent("both.json").path
      try Data(both.utf8).write(to: URL(fileURLWithPath: path))
      let summary = try CLIRunner.run(["summary", path, "--format", "json"])
      let inputs = try #require(try summary.json()["inputs"] as? [String: Any])
      #expect(inputs["counted"] as? Int == 1)
      #expect((inputs["accounting"] as? [String: Int])?["read"] == 1)
      let diagnostics = try CLIRunner.run(["diagnostics", path, "--format", "json"])
      #expect(diagnostics.status == 0)
      #expect(diagnostics.stdout.contains("\"crash\": 1"))
    }
  }

  /// Hostile strings in a version, a signpost, a device type, a file name and a bad payload's key:
  /// no raw control, C1 or bidi character reaches any format of any command, no stderr line starts a
  /// workflow command, CSV cells cannot start a formula.
  @Test func hostileStringsAreInertInEveryFormatOfEveryCommand() throws {
    try Self.withDirectory { dir in
      let hostile = "x\n::error::pwned\u{1B}[2J\u{9B}31m\u{202E}evil\u{2028}"
      let escaped = hostile.unicodeScalars.map { s -> String in
        switch s.value {
        case 0x0A: "\\n"
        case 0x22: "\\\""
        case 0x5C: "\\\\"
        case 0..<0x20, 0x7F...0x9F, 0x2028, 0x202E: String(format: "\\u%04x", s.value)
        default: String(s)
        }
      }.joined()
      var lines: [String] = []
      for day in 0..<25 {
        for version in ["3.8.0", "3.9.0"] {
          let line = Self.payloadLine(version: version, seed: UInt64(day * 2 + (version == "3.8.0" ? 0 : 1)), day: day)
            .replacingOccurrences(of: "\"LoadFeed\"", with: "\"\(escaped)\"")
            .replacingOccurrences(of: "\"Feed\"", with: "\"\\t=cmd\"")
          lines.append(line)
        }
      }
      // A version that would start a spreadsheet formula, and a crash whose binary and version are hostile.
      for day in 0..<3 {
        lines.append(
          Self.payloadLine(version: "3.8.0", seed: UInt64(90 + day), day: day)
            .replacingOccurrences(of: "\"3.8.0\"", with: "\"\\t=HYPERLINK()\""))
      }
      lines.append(
        #"{"timeStampBegin":"2023-01-01 00:00:00","timeStampEnd":"2023-01-02 00:00:00","crashDiagnostics":[{"version":"1.0.0","diagnosticMetaData":{"appVersion":"\#(escaped)","exceptionType":1,"signal":11},"callStackTree":{"callStackPerThread":true,"callStacks":[{"threadAttributed":true,"callStackRootFrames":[{"binaryName":"\#(escaped)","binaryUUID":"U","offsetIntoBinaryTextSegment":1,"address":1,"sampleCount":1}]}]}}]}"#
      )
      try Data(lines.joined(separator: "\n").utf8).write(to: dir.appendingPathComponent("dump.ndjson"))
      let bad =
        #"{"appVersion":"1","applicationLaunchMetrics":{"histogrammedTimeToFirstDrawKey":{"histogramValue":{"\#(escaped)":{"bucketStart":"1 ms","bucketEnd":"2 ms","bucketCount":-1}}}}}"#
      try Data(bad.utf8).write(to: dir.appendingPathComponent("bad.json"))
      try Data("{".utf8).write(to: dir.appendingPathComponent("name\n::error::file\u{1B}]8;;x\u{7}.json"))
      let rules = dir.appendingPathComponent("rules.json")
      try JSONSerialization.data(withJSONObject: [
        "rules": [["metric": "signpost:\t=cmd/" + hostile, "statistic": "p90", "minPayloads": 5]]
      ]).write(to: rules)

      var runs: [(String, CLIRunner.Result)] = []
      for format in ["text", "json", "markdown", "csv"] {
        runs.append(("summary \(format)", try CLIRunner.run(["summary", dir.path, "--format", format])))
      }
      for format in ["text", "json", "markdown", "junit", "github"] {
        runs.append(
          (
            "compare \(format)",
            try CLIRunner.run([
              "compare", dir.path, "--baseline", "3.8.0", "--candidate", "3.9.0", "--rules", rules.path, "--format",
              format,
            ])
          ))
      }
      for format in ["text", "json", "markdown", "folded"] {
        runs.append(("diagnostics \(format)", try CLIRunner.run(["diagnostics", dir.path, "--format", format])))
      }
      for (name, r) in runs {
        for (stream, text) in [("stdout", r.stdout), ("stderr", r.stderr)] {
          // CSV keeps line breaks and tabs inside quoted fields; nothing else is raw anywhere.
          let csvData: Set<Unicode.Scalar> = name.hasSuffix("csv") && stream == "stdout" ? ["\r", "\t"] : []
          let unsafe = text.unicodeScalars.filter { s in
            (s.value < 0x20 && s != "\n" && !csvData.contains(s)) || (0x7F...0x9F).contains(s.value)
              || [0x2028, 0x2029, 0x202E].contains(s.value)
          }
          #expect(unsafe.isEmpty, "\(name) \(stream): \(unsafe.map { String($0.value, radix: 16) })")
        }
        let commandLines = r.stderr.split(separator: "\n").filter { $0.hasPrefix("::") }
        #expect(commandLines.isEmpty, "\(name): \(commandLines)")
        if name == "compare github" {
          #expect(r.stdout.split(separator: "\n").allSatisfy { $0.hasPrefix("::") })
        }
      }
      let csv = try #require(runs.first { $0.0 == "summary csv" }?.1.stdout)
      // A leading TAB shows as `\t`, which no spreadsheet reads as a formula; no field breaks a line.
      #expect(csv.contains("\n\\t=HYPERLINK(),"), "\(csv)")
      #expect(!csv.split(separator: "\n").contains { $0.hasPrefix("\t") || $0.hasPrefix("=") || $0.hasPrefix("::") })
      let folded = try #require(runs.first { $0.0 == "diagnostics folded" }?.1.stdout)
      #expect(folded.contains("x\\n::error::pwned\\u{1B}[2J"), "\(folded)")
      let text = try #require(runs.first { $0.0 == "summary text" }?.1)
      #expect(text.stderr.contains("name\\n::error::file\\u{1B}]8;;x\\u{7}.json: invalid JSON"), "\(text.stderr)")
    }
  }

  @Test func aGateWithNothingEvaluatedDoesNotPass() throws {
    try Self.withDirectory { dir in
      let lines = (0..<5).flatMap { day in
        [
          Self.payloadLine(version: "3.8.0", seed: UInt64(day), day: day),
          Self.payloadLine(version: "3.9.0", seed: UInt64(100 + day), day: day),
        ]
      }
      let path = dir.appendingPathComponent("five.ndjson").path
      try Data(lines.joined(separator: "\n").utf8).write(to: URL(fileURLWithPath: path))
      let r = try CLIRunner.run(["compare", path, "--baseline", "3.8.0", "--candidate", "3.9.0"])
      #expect(r.status == 2)
      #expect(r.stdout.contains("Gate: NOT-EVALUATED"))
      #expect(r.stderr.contains("nothing to evaluate"))
      let json = try CLIRunner.run(["compare", path, "--baseline", "3.8.0", "--candidate", "3.9.0", "--format", "json"])
      #expect(try json.json()["gate"] as? String == "not-evaluated")
      #expect(try json.json()["evaluatedErrorRules"] as? Int == 0)
      let allowed = try CLIRunner.run([
        "compare", path, "--baseline", "3.8.0", "--candidate", "3.9.0", "--allow-insufficient",
      ])
      #expect(allowed.status == 0)
      // With enough payloads, rules are evaluated and the gate decides as before.
      #expect(try CLIRunner.run(["compare", Self.dump, "--baseline", "3.8.0", "--candidate", "3.9.0"]).status == 1)
    }
  }

  @Test func smallerItems() throws {
    try Self.withDirectory { dir in
      // Dangling links: ignored without a payload suffix, rejected with one.
      let links = try CLIRunner.shell(
        """
        cd '\(dir.path)' && mkdir d && cp "$OLDPWD/\(Self.payload)" d/ && ln -s /nonexistent d/dangling && ln -s /nonexistent d/dangling.json
        "$B" summary d --format json
        """)
      let inputs = try #require(try links.json()["inputs"] as? [String: Any])
      #expect((inputs["ignoredFiles"] as? [String])?.contains { $0.hasSuffix("d/dangling") } == true)
      #expect(inputs["rejectedCount"] as? Int == 1)
      // /proc files report a size of 0 and are read to their end: not "empty".
      let proc = try CLIRunner.run(["summary", "/proc/self/status"])
      #expect(proc.stderr.contains("/proc/self/status: invalid JSON"), "\(proc.stderr)")
      // A UTF-8 byte order mark is skipped.
      let bom = dir.appendingPathComponent("bom.json")
      try (Data([0xEF, 0xBB, 0xBF]) + Data(Self.payloadLine().utf8)).write(to: bom)
      #expect(try CLIRunner.run(["summary", bom.path, "--format", "json"]).stdout.contains("\"counted\": 1"))
      // Numbers: a 19-digit measurement is rejected, not clamped; whole numbers print in digits.
      let big = dir.appendingPathComponent("big.json")
      try Data(#"{"appVersion":"1","cpuMetrics":{"cumulativeCPUTime":"1234567890123456789 sec"}}"#.utf8).write(to: big)
      #expect(try CLIRunner.run(["summary", big.path]).stderr.contains("number too large"))
      try Data(#"{"appVersion":"1","cpuMetrics":{"cumulativeCPUTime":"999999999999999999 sec"}}"#.utf8).write(to: big)
      let snapshot = try CLIRunner.run(["snapshot", big.path, "--app-version", "1"])
      #expect(snapshot.stdout.contains("[1000000000000000000]"), "\(snapshot.stdout)")
      // Options.
      #expect(try CLIRunner.run(["summary", Self.dump, "--percentiles", "50.1234567"]).status == 64)
      #expect(try CLIRunner.run(["summary", Self.dump, "--percentiles", "50.123456"]).status == 0)
      #expect(try CLIRunner.run(["summary", Self.dump, "--utc-offset", "-12:00"]).status == 0)
      #expect(try CLIRunner.run(["summary", Self.dump, "--since", "2023-02-30"]).status == 64)
      #expect(try CLIRunner.run(["summary", Self.dump, "--since", "2024-02-29"]).status != 64)
      // A bound is not a stamp MetricKit writes: one years away filters, and a bad one says why.
      let everything = try CLIRunner.run(["summary", Self.dump])
      let until = try CLIRunner.run(["summary", Self.dump, "--until", "2030-01-01", "--since", "1999-12-31"])
      #expect(until.status == 0 && until.stdout == everything.stdout, "\(until.stderr)")
      let after = try CLIRunner.run(["summary", Self.dump, "--since", "2100-01-01"])
      #expect(after.status == 2 && after.stderr.contains("no payloads counted"), "\(after.stderr)")
      let month = try CLIRunner.run(["summary", Self.dump, "--until", "2024-13-01"])
      #expect(month.status == 64 && month.stderr.contains("--until takes a date such as 2024-05-01, not '2024-13-01'"))
      // Depth exactly at the limit passes; one more level does not.
      let nested = { (levels: Int) in
        "{\"appVersion\":\"1\",\"x\":" + String(repeating: "[", count: levels - 1)
          + String(repeating: "]", count: levels - 1) + "}"
      }
      try Data(nested(50).utf8).write(to: dir.appendingPathComponent("at.json"))
      try Data(nested(51).utf8).write(to: dir.appendingPathComponent("over.json"))
      let depth = try CLIRunner.run([
        "summary", dir.appendingPathComponent("at.json").path, dir.appendingPathComponent("over.json").path,
        "--max-depth", "50",
      ])
      #expect(depth.stdout.contains("2 read = 1 counted + 0 excluded + 1 rejected"))
      #expect(depth.stderr.contains("over.json: invalid JSON: The JSON document was too deep"))
    }
  }

  @Test func aDirectoryOfBrokenFilesLosesNothingElse() throws {
    try withTemporaryDirectory { dir in
      let good = Self.goodPayloads(6)
      func write(_ name: String, _ data: Data) throws { try data.write(to: dir.appendingPathComponent(name)) }
      for (i, json) in good.prefix(4).enumerated() { try write("good-\(i).json", Data(json.utf8)) }
      try write("good-double.json.gz", try SampleDump.gzip(try SampleDump.gzip(Data(good[4].utf8))))
      try write("good-lines.ndjson", Data((SampleDump.compact(good[5]) + "\n\n").utf8))
      let bad: [(String, Data, String)] = [
        ("truncated.json", Data(good[0].prefix(500).utf8), "invalid JSON"),
        ("empty.json", Data(), "empty file"),
        ("binary.json", Data((0..<2000).map { UInt8(truncatingIfNeeded: $0 &* 7919) }), "invalid JSON"),
        (
          "wrong-type.json", Data(#"{"appVersion": "1", "memoryMetrics": {"peakMemoryUsage": 12}}"#.utf8),
          "measurement string"
        ),
        (
          "unknown-unit.json", Data(#"{"appVersion": "1", "gpuMetrics": {"cumulativeGPUTime": "3 eons"}}"#.utf8),
          "unknown unit"
        ),
        (
          "negative-count.json",
          Data(
            #"{"appVersion": "1", "applicationLaunchMetrics": {"histogrammedTimeToFirstDrawKey": {"histogramValue": {"0": {"bucketStart": "1 ms", "bucketEnd": "2 ms", "bucketCount": -3}}}}}"#
              .utf8), "negative count"
        ),
        (
          "deep.json",
          Data(
            ("{\"appVersion\": \"1\", \"x\": " + String(repeating: "[", count: 100_000)
              + String(repeating: "]", count: 100_000) + "}").utf8),
          "too deep"
        ),
        ("fake.json.gz", Data([0x1f, 0x8b, 0x08, 0x00] + Array("not really gzip".utf8)), "gzip"),
        ("crash.json", Data("Incident Identifier: 7E4A…\nCrashReporter Key: abc\n".utf8), "invalid JSON"),
        (
          "huge-count.json",
          Data(#"{"appVersion": "1", "cpuMetrics": {"cumulativeCPUTime": "99999999999999999999 sec"}}"#.utf8),
          "number too large"
        ),
      ]
      for (name, data, _) in bad { try write(name, data) }

      let result = try CLIRunner.run(["summary", dir.path, "--format", "json"])
      #expect(result.status == 0, "\(result.stderr)")
      let json = try result.json()
      let inputs = try #require(json["inputs"] as? [String: Any])
      #expect(inputs["payloads"] as? Int == 6)
      #expect(inputs["counted"] as? Int == 6)
      let rejected = try #require(inputs["rejected"] as? [[String: Any]])
      #expect(rejected.count == bad.count)
      for (name, _, reason) in bad {
        let entry = rejected.first { ($0["path"] as? String)?.hasSuffix("/" + name) == true }
        #expect((entry?["reason"] as? String)?.contains(reason) == true, "\(name): \(entry?["reason"] ?? "not listed")")
        #expect(result.stderr.contains(name))
      }
      let accounting = try #require(inputs["accounting"] as? [String: Int])
      #expect(accounting["read"] == 6 + bad.count)
      #expect(
        accounting["read"] == accounting["counted"]! + accounting["excluded"]! + accounting["rejected"]! + accounting[
          "otherDocuments"]!)
      #expect(try CLIRunner.run(["summary", dir.path, "--strict"]).status == 2)
      // A tighter limit is a reason, not a crash.
      let limited = try CLIRunner.run(["summary", dir.path, "--format", "json", "--max-file-bytes", "1000"])
      #expect(limited.status == 0)
      #expect(limited.stdout.contains("over the 1000-byte limit"))
    }
  }

  @Test func accountingIdentityHoldsOnEveryTestDump() throws {
    var dumps = ["Samples/dump", "Samples/dump/v3.9.0"]
    let shared = TestDirectories.packageRoot.deletingLastPathComponent().appendingPathComponent(
      "shared/fixtures/public")
    if FileManager.default.fileExists(atPath: shared.path) { dumps.append(shared.path) }
    for dump in dumps {
      let result = try CLIRunner.run(["summary", dump, "--format", "json"])
      let inputs = try #require(try result.json()["inputs"] as? [String: Any])
      let a = try #require(inputs["accounting"] as? [String: Int])
      #expect(a["read"] == a["counted"]! + a["excluded"]! + a["rejected"]! + a["otherDocuments"]!, "\(dump)")
      #expect(a["rejected"] == (inputs["rejected"] as? [Any])?.count)
      #expect(result.stdout.contains("\"counted\": \(a["counted"]!)"))
    }
  }

  /// Strings from payloads and rule files come out inert in every format.
  @Test func hostileSignpostNamesAreEscapedInEveryFormat() throws {
    try withTemporaryDirectory { dir in
      let name = "<script>alert(1)</script>"
      let category = "a|b\n=cmd"
      var lines: [String] = []
      for (i, json) in Self.goodPayloads(25).enumerated() {
        let hostile = json.replacingOccurrences(of: "\"LoadFeed\"", with: "\"\(name)\"")
          .replacingOccurrences(of: "\"Feed\"", with: "\"a|b\\n=cmd\"")
        lines.append(SampleDump.compact(hostile))
        let other = json.replacingOccurrences(of: "\"3.8.0\"", with: "\"3.9.0\"")
        lines.append(
          SampleDump.compact(
            other.replacingOccurrences(of: "\"LoadFeed\"", with: "\"\(name)\"").replacingOccurrences(
              of: "\"Feed\"", with: "\"a|b\\n=cmd\"")))
        _ = i
      }
      let dump = dir.appendingPathComponent("dump.ndjson")
      try Data(lines.joined(separator: "\n").utf8).write(to: dump)
      let metric = "signpost:\(category)/\(name)"

      let markdown = try CLIRunner.run(["summary", dump.path, "--format", "markdown"])
      #expect(markdown.status == 0)
      #expect(!markdown.stdout.contains("<script>"))
      #expect(markdown.stdout.contains("&lt;script&gt;"))
      let header = try #require(markdown.stdout.split(separator: "\n").first { $0.hasPrefix("| Metric") })
      let separators = header.filter { $0 == "|" }.count
      let rows = markdown.stdout.split(separator: "\n").filter { $0.hasPrefix("| signpost") }
      #expect(rows.count == 2)
      for row in rows {
        // Every row has as many unescaped cell separators as the header.
        #expect(row.replacingOccurrences(of: "\\|", with: "").filter { $0 == "|" }.count == separators, "\(row)")
      }

      let csv = try CLIRunner.run(["summary", dump.path, "--format", "csv"])
      // The line break shows as `\n`: the field stays on its row, and no line of the CSV starts with it.
      #expect(csv.stdout.contains("signpost:a|b\\n=cmd/<script>alert(1)</script>,"), "\(csv.stdout)")

      let json = try CLIRunner.run(["summary", dump.path, "--format", "json"])
      #expect(!json.stdout.contains("<script>"))
      let parsed = try json.json()
      let metrics = ((parsed["versions"] as? [[String: Any]])?.first?["metrics"] as? [[String: Any]]) ?? []
      #expect(metrics.contains { $0["metric"] as? String == metric })

      let text = try CLIRunner.run(["summary", dump.path])
      #expect(!text.stdout.contains("a|b\n=cmd"))  // control characters shown as ?

      // Rule files name the metric: JUnit, Markdown and GitHub output stay inert.
      let rules = dir.appendingPathComponent("rules.json")
      let ruleJSON = try JSONSerialization.data(withJSONObject: [
        "rules": [["metric": metric, "statistic": "p90", "minPayloads": 5]]
      ])
      try ruleJSON.write(to: rules)
      for format in ["junit", "markdown", "github"] {
        let result = try CLIRunner.run([
          "compare", dump.path, "--baseline", "3.8.0", "--candidate", "3.9.0", "--rules", rules.path, "--format",
          format,
        ])
        #expect(result.status == 0, "\(format): \(result.stderr)")
        #expect(!result.stdout.contains("<script>"), "\(format)")
        if format == "junit" { _ = try XMLDocument(xmlString: result.stdout) }
        if format == "github" {
          #expect(
            result.stdout.split(separator: "\n").allSatisfy { $0.hasPrefix("::") }, "no line can start a new command")
        }
      }
    }
  }
}
