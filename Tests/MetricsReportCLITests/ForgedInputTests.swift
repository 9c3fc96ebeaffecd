import Foundation
import PayloadSynthesis
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// Payloads forged to make a command trap or lie, run against the built binary: each is a rejection
/// naming its key, every command still writes its output from the rest, and no real group or
/// signpost takes the place of another.
@Suite("Forged input")
struct ForgedInputTests {
  /// A good payload of 3.9.0 on `device`, with the members of `replacing` given new values (JSON text).
  static func payload(device: String = "iPhone14,2", seed: UInt64 = 3, replacing: [String: String] = [:]) -> String {
    var line = HostileInputTests.payloadLine(version: "3.9.0", seed: seed, day: Int(seed % 5))
    for (key, value) in replacing.merging(["deviceType": "\"\(device)\""], uniquingKeysWith: { a, _ in a }) {
      let member = try! NSRegularExpression(pattern: "\"\(key)\"\\s*:\\s*\"[^\"]*\"")
      let range = NSRange(line.startIndex..., in: line)
      #expect(member.firstMatch(in: line, range: range) != nil, "no \(key) in the payload")
      line = member.stringByReplacingMatches(
        in: line, range: range, withTemplate: NSRegularExpression.escapedTemplate(for: "\"\(key)\": \(value)"))
    }
    return line
  }

  @Test func vanishingNegativeAndAncientValuesAreRejectionsAndNoCommandTraps() throws {
    let tiny = "0." + String(repeating: "0", count: 312) + "1 kB"
    let forged = [
      Self.payload(seed: 21, replacing: ["peakMemoryUsage": "\"\(tiny)\""]),
      Self.payload(seed: 22, replacing: ["cumulativeForegroundTime": #""-100 sec""#]),
      Self.payload(seed: 23, replacing: ["timeStampBegin": #""0000-01-01 00:00:00""#]),
    ]
    try HostileInputTests.withDirectory { dir in
      let good = (1...6).map { Self.payload(seed: UInt64($0)) }
      try (good + forged).joined(separator: "\n").write(
        to: dir.appendingPathComponent("dump.ndjson"), atomically: true, encoding: .utf8)
      let r = try CLIRunner.shell(
        """
        cd '\(dir.path)'
        "$B" summary dump.ndjson --format json > summary.json; echo "summary $?"
        "$B" report dump.ndjson --output report.html > /dev/null; echo "report $?"
        "$B" trend dump.ndjson --metric 'memoryMetrics.*' > /dev/null; echo "trend $?"
        "$B" export dump.ndjson --to openmetrics --interval day > /dev/null; echo "export $?"
        "$B" snapshot dump.ndjson --app-version 3.9.0 --interval day > snap.json; echo "snapshot $?"
        "$B" merge snap.json > merged.json; echo "merge $?"
        """)
      for command in ["summary", "report", "trend", "export", "snapshot", "merge"] {
        #expect(r.stdout.contains("\(command) 0"), "\(command): \(r.stdout) \(r.stderr)")
      }
      let summary = try String(contentsOf: dir.appendingPathComponent("summary.json"), encoding: .utf8)
      #expect(summary.contains("number too small"))
      #expect(summary.contains("negative value"))
      #expect(summary.contains("not a stamp MetricKit writes"))
      #expect(summary.contains("\"payloads\": 6"))
    }
  }

  @Test func aDeviceNamedLikeTheFoldedGroupKeepsItsOwnSeries() throws {
    try HostileInputTests.withDirectory { dir in
      let devices = ["A", "A", "A", "B", "B", "(other)", "C", "(unknown)"]
      let lines = devices.enumerated().map { Self.payload(device: $1, seed: UInt64(40 + $0)) }
      try lines.joined(separator: "\n").write(
        to: dir.appendingPathComponent("dump.ndjson"), atomically: true, encoding: .utf8)
      let r = try CLIRunner.shell(
        """
        cd '\(dir.path)'
        "$B" export dump.ndjson --to openmetrics --by deviceType --top 2 > out.prom; echo "export $?"
        "$B" export dump.ndjson --to datadog --by deviceType --top 2 > out.dd.json; echo "datadog $?"
        "$B" summary dump.ndjson --by deviceType --top 2 > summary.txt; echo "summary $?"
        """)
      #expect(r.stdout.contains("export 0") && r.stdout.contains("datadog 0") && r.stdout.contains("summary 0"), "\(r)")
      let prom = try String(contentsOf: dir.appendingPathComponent("out.prom"), encoding: .utf8)
      let series = prom.split(separator: "\n").filter { !$0.hasPrefix("#") }.map {
        $0.split(separator: " ").dropLast().joined(separator: " ")
      }
      #expect(Set(series).count == series.count, "duplicate OpenMetrics series")
      // The folded group gathers the four payloads beyond A and B, the real "(other)" among them.
      let body =
        try JSONSerialization.jsonObject(with: Data(contentsOf: dir.appendingPathComponent("out.dd.json")))
        as? [String: Any]
      let all = (body?["series"] as? [[String: Any]]) ?? []
      let counts = all.filter { ($0["metric"] as? String)?.hasSuffix("time_to_first_draw.count") == true }
      let tags = counts.map { ($0["tags"] as? [String] ?? []).sorted().joined(separator: ",") }
      #expect(Set(tags).count == tags.count, "two Datadog series with the same tags")
    }
  }

  @Test func theSameShardTwiceOrWithinAMergeIsRefusedByMerge() throws {
    try HostileInputTests.withDirectory { dir in
      let r = try CLIRunner.shell(
        """
        cd '\(dir.path)'
        "$B" snapshot "$OLDPWD/Samples/dump" --app-version 3.9.0 > a.json; echo "snapshot $?"
        cp a.json copy.json
        "$B" merge a.json copy.json > m1.json 2> copy.err; echo "copy $?"
        "$B" merge a.json --stdin < a.json > m2.json 2> stdin.err; echo "stdin $?"
        "$B" snapshot "$OLDPWD/Samples/dump" --app-version 3.8.0 > b.json
        "$B" merge a.json b.json > ab.json; echo "ab $?"
        "$B" merge ab.json a.json > m3.json 2> part.err; echo "part $?"
        "$B" merge ab.json --stdin < b.json > m4.json 2> part-stdin.err; echo "part-stdin $?"
        """)
      #expect(r.stdout.contains("snapshot 0"), "\(r)")
      #expect(r.stdout.contains("copy 2"), "\(r)")
      #expect(r.stdout.contains("stdin 2"), "\(r)")
      #expect(r.stdout.contains("ab 0") && r.stdout.contains("part 2") && r.stdout.contains("part-stdin 2"), "\(r)")
      for name in ["copy.err", "stdin.err", "part.err", "part-stdin.err"] {
        let message = try String(contentsOf: dir.appendingPathComponent(name), encoding: .utf8)
        #expect(message.contains("the same shard"), "\(name): \(message)")
      }
    }
  }

  /// Whether this process (and the binary built with it) runs under AddressSanitizer, whose shadow
  /// memory and quarantine make peak memory no measure of the tool's.
  static var addressSanitized: Bool { dlsym(dlopen(nil, RTLD_NOW), "__asan_init") != nil }

  @Test func a100000DistinctDeviceTypesStayUnder150MBInEveryCommand() throws {
    guard !Self.addressSanitized else {
      print("note: built with AddressSanitizer; the --by memory bound is measured in the plain build only")
      return
    }
    try HostileInputTests.withDirectory { dir in
      let r = try CLIRunner.shell(
        """
        cd '\(dir.path)'
        python3 - <<'PY'
        with open("dump.ndjson", "w") as f:
            for i in range(100_000):
                f.write('{"appVersion":"1.0","timeStampBegin":"2024-05-%02d 00:00:00","timeStampEnd":"2024-05-%02d 23:00:00",'
                        '"metaData":{"deviceType":"device-%06d"},"applicationLaunchMetrics":{"histogrammedTimeToFirstDrawKey":'
                        '{"histogramValue":{"0":{"bucketStart":"%d ms","bucketEnd":"%d ms","bucketCount":1}}}}}\\n'
                        % (1 + i % 28, 1 + i % 28, i, i % 1000, i % 1000 + 10))
        PY
        peak() { python3 -c 'import resource, subprocess, sys
        r = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL)
        print(r.returncode, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss // 1024)' "$@"; }
        echo "summary $(peak "$B" summary dump.ndjson --by deviceType --format json -o summary.json)"
        echo "export $(peak "$B" export dump.ndjson --to openmetrics --by deviceType --interval day)"
        echo "snapshot $(peak "$B" snapshot dump.ndjson --by deviceType --interval day -o snap.json)"
        echo "trend $(peak "$B" trend dump.ndjson --by deviceType --interval day --metric "applicationLaunchMetrics.*")"
        """)
      for command in ["summary", "export", "snapshot", "trend"] {
        let line = r.stdout.split(separator: "\n").first { $0.hasPrefix("\(command) ") }.map(String.init) ?? ""
        let fields = line.split(separator: " ")
        #expect(fields.count == 3 && fields[1] == "0", "\(command): \(r.stdout) \(r.stderr)")
        let megabytes = fields.count == 3 ? Int(fields[2]) ?? .max : .max
        #expect(megabytes < 150, "\(command): \(megabytes) MB")
      }
      let summary = try String(contentsOf: dir.appendingPathComponent("summary.json"), encoding: .utf8)
      #expect(summary.contains("1.0: 99000 payloads of deviceType values beyond the byte-wise first 1000"))
    }
  }
}
