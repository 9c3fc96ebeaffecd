import Foundation
import PayloadSynthesis
import Testing

/// Dumps of MetricKit 27 reports (both encodings), legacy payloads, and a mix of the three: the same
/// device-days give the same bytes in every command and format.
@Suite("MetricKit 27 dumps")
struct MetricKit27DumpTests {
  /// Two versions, two devices, 120 days each; 4.1.0's launches in the `checkout` state are slower.
  static func days() -> [DeviceDayTwin] {
    var rng = SplitMix64(seed: 27)
    var days: [DeviceDayTwin] = []
    for (v, version) in ["4.0.0", "4.1.0"].enumerated() {
      for day in 0..<120 {
        for device in 0..<2 {
          days.append(
            DeviceDayTwin.make(
              version: version, device: device, day: day + 30 * v, rng: &rng, slowState: v == 1 ? "checkout" : nil,
              slower: 1.3))
        }
      }
    }
    return days
  }

  /// The dumps, written once per test run.
  static let dumps: [String: URL] = {
    let root = FileManager.default.temporaryDirectory.appendingPathComponent("mr-27-\(UUID().uuidString)")
    let days = Self.days()
    let mixes: [(String, DeviceDayTwin.Mix)] = [
      ("legacy", .legacy), ("default", .metricKit27(.standard)),
      ("byDomain", .metricKit27(.byStateReportingDomain)), ("mixed", .mixed),
    ]
    var out: [String: URL] = [:]
    for (name, mix) in mixes {
      let dir = root.appendingPathComponent(name)
      try? DeviceDayTwin.write(days, mix: mix, to: dir)
      out[name] = dir
    }
    return out
  }()

  static let commands: [[String]] = [
    ["summary"], ["summary", "--format", "json"], ["summary", "--by", "deviceType", "--format", "markdown"],
    ["compare", "--baseline", "4.0.0", "--candidate", "4.1.0"],
    ["compare", "--baseline", "4.0.0", "--candidate", "4.1.0", "--format", "json"],
    [
      "trend", "--metric", "applicationLaunchMetrics.histogrammedTimeToFirstDraw", "--metric", "hangRate",
      "--metric", "signpost:Network/loadFeed", "--interval", "week", "--format", "csv",
    ],
    ["export", "--to", "openmetrics"], ["export", "--to", "otlp-json", "--interval", "day"],
    ["diagnostics"], ["diagnostics", "--format", "json"],
  ]

  @Test(arguments: commands)
  func everyEncodingGivesTheLegacyDumpsBytes(command: [String]) throws {
    let dumps = Self.dumps
    let legacy = try CLIRunner.run([command[0], dumps["legacy"]!.path] + command.dropFirst())
    #expect(legacy.status == 0 || legacy.status == 1, "\(legacy.stderr)")
    #expect(legacy.stdout.count > 200)
    for name in ["default", "byDomain", "mixed"] {
      let other = try CLIRunner.run([command[0], dumps[name]!.path] + command.dropFirst())
      #expect(other.status == legacy.status, "\(name): \(other.stderr)")
      #expect(other.stdout == legacy.stdout, "\(name) differs from legacy in \(command)")
    }
  }

  @Test func theNumbersAreTheDaysAndNothingIsUnknown() throws {
    let r = try CLIRunner.run(["summary", Self.dumps["mixed"]!.path, "--format", "json"])
    let json = try r.json()
    let inputs = try #require(json["inputs"] as? [String: Any])
    #expect(inputs["unknownKeys"] as? [String: Int] == [:])
    // Payloads counted: days not spanning an update.
    let days = Self.days()
    #expect(inputs["payloads"] as? Int == days.count)
    #expect(inputs["counted"] as? Int == days.filter { !$0.multipleVersions }.count)
    // The launch count of 4.0.0: every bucket of its full-day entries, none of the shorter entries'.
    let versions = try #require(json["versions"] as? [[String: Any]])
    let v400 = try #require(versions.first { $0["version"] as? String == "4.0.0" })
    let metrics = try #require(v400["metrics"] as? [[String: Any]])
    let launch = try #require(
      metrics.first { $0["metric"] as? String == "applicationLaunchMetrics.histogrammedTimeToFirstDraw" })
    let expected = days.filter { $0.version == "4.0.0" && !$0.multipleVersions }.flatMap(\.launches).reduce(0) {
      $0 + $1.count
    }
    #expect(launch["count"] as? Int == expected)
    // Memory-exception diagnostics are a kind of their own.
    let diagnostics = try CLIRunner.run(["diagnostics", Self.dumps["default"]!.path, "--format", "json"]).json()
    let text = String(describing: diagnostics)
    #expect(text.contains("memoryException"))
  }

  @Test func unknownKeysAreCountedAndListed() throws {
    let dir = try CLIRunner.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    var rng = SplitMix64(seed: 1)
    var report = DeviceDayTwin.make(version: "1.0", device: 0, day: 0, rng: &rng).report(.standard)
    var entries = report["intervalEntries"] as! [[String: Any]]
    var values = entries[1]["values"] as! [[String: Any]]
    values.append(["metalFrameRateMetric": ["framesPerSecond": ["value": 60, "unit": "Hz"], "frameCount": 600]])
    values.append(["cpuTimeMetric": ["value": ["value": 3, "unit": "s"], "newMember": 1]])
    entries[1]["values"] = values
    report["intervalEntries"] = entries
    report["futureTopLevel"] = ["x": 1]
    for i in 0..<2 {
      try JSONSerialization.data(withJSONObject: report).write(to: dir.appendingPathComponent("r\(i).json"))
    }
    let r = try CLIRunner.run(["summary", dir.path, "--format", "json"])
    #expect(r.status == 0, "\(r.stderr)")
    let inputs = try #require(try r.json()["inputs"] as? [String: Any])
    #expect(
      inputs["unknownKeys"] as? [String: Int] == [
        "MetricReport.futureTopLevel": 2, "MetricResult.metalFrameRateMetric": 2,
        "MetricResult.cpuTimeMetric.newMember": 2,
      ])
    let text = try CLIRunner.run(["summary", dir.path])
    #expect(text.stdout.contains("Unknown keys (read past, not used): "), "\(text.stdout)")
    #expect(text.stdout.contains("MetricResult.metalFrameRateMetric ×2"))
  }
}
