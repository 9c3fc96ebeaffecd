import Foundation
import TestSupport
import Testing

/// `metrics-report trend`: options, formats and the JSON contract.
@Suite("metrics-report trend")
struct TrendCommandTests {
  static let launch = "applicationLaunchMetrics.histogrammedTimeToFirstDraw"

  @Test func jsonFollowsTheContract() throws {
    let r = try CLIRunner.run([
      "trend", "Samples/dump", "--metric", Self.launch, "--metric", "hangRate", "--metric", "payloads", "--interval",
      "week", "--format", "json",
    ])
    #expect(r.status == 0, "\(r.stderr)")
    let json = try r.json()
    #expect(json["schemaVersion"] as? Int == 1 && json["interval"] as? String == "week")
    let series = try #require(json["series"] as? [[String: Any]])
    let launch = try #require(
      series.first { $0["metric"] as? String == Self.launch && $0["version"] as? String == "3.9.0" })
    #expect(launch["unit"] as? String == "ms")
    let points = try #require(launch["points"] as? [[String: Any]])
    #expect(points.reduce(0) { $0 + ($1["payloads"] as? Int ?? 0) } == 56)
    let first = try #require(points.first)
    #expect(first["start"] as? String == "2023-12-04")
    #expect((first["bounds"] as? [String: [Double]])?["p90"]?.count == 2)
    #expect(first["sparse"] as? Bool == false && first["p50"] is Double && first["mean"] is Double)
    #expect(
      series.contains {
        $0["metric"] as? String == "hangRate" && (($0["points"] as? [[String: Any]])?.first?["value"] is Double)
      })
    let adoption = series.filter { $0["metric"] as? String == "payloads" }
    #expect(adoption.count == 3)
    #expect(adoption.allSatisfy { (($0["points"] as? [[String: Any]])?.first?["share"] as? Double) != nil })
  }

  @Test func aMetricTakesItsStatisticAsReportDoes() throws {
    // `id@p90` is the metric with --statistic p90, as report's --metric reads it.
    let named = try CLIRunner.run(["trend", "Samples/dump", "--metric", "\(Self.launch)@p90", "--format", "csv"])
    let explicit = try CLIRunner.run([
      "trend", "Samples/dump", "--metric", Self.launch, "--statistic", "p90", "--format", "csv",
    ])
    #expect(named.status == 0 && explicit.status == 0, "\(named.stderr)")
    #expect(named.stdout == explicit.stdout && named.stdout.contains(",p90"))
    // Two statistics named on two metrics: both are computed; --statistic still adds its own.
    let both = try CLIRunner.run([
      "trend", "Samples/dump", "--metric", "\(Self.launch)@p50", "--metric", "memoryMetrics.peakMemoryUsage@mean",
      "--statistic", "p99", "--format", "json",
    ])
    let series = try #require(try both.json()["series"] as? [[String: Any]])
    let point = try #require((series.first?["points"] as? [[String: Any]])?.first)
    #expect(point["p99"] is Double && point["p50"] is Double && point["mean"] is Double && point["p90"] == nil)
  }

  @Test func textGroupsAndErrors() throws {
    let text = try CLIRunner.run([
      "trend", "Samples/dump", "--metric", Self.launch, "--app-version", "3.9.0", "--by", "deviceType", "--last", "7d",
    ])
    #expect(text.status == 0, "\(text.stderr)")
    #expect(text.stdout.contains("— 3.9.0 — deviceType iPhone15,3"))
    #expect(text.stdout.contains("*: fewer than 5 payloads"))
    let csv = try CLIRunner.run([
      "trend", "Samples/dump", "--metric", Self.launch, "--format", "csv", "--interval", "month",
    ])
    #expect(csv.stdout.hasPrefix("metric,unit,version,by,start,payloads,count,sparse,share,p50,p90,mean,p50_lower"))
    let adoption = try CLIRunner.run(["trend", "Samples/dump", "--metric", "adoption", "--interval", "month"])
    #expect(adoption.status == 0 && adoption.stdout.contains("payloads (payloads) — 3.10.0"))
    #expect(try CLIRunner.run(["trend", "Samples/dump"]).status == 64)
    #expect(try CLIRunner.run(["trend", "Samples/dump", "--metric", "launchTime"]).status == 64)
    #expect(try CLIRunner.run(["trend", "Samples/dump", "--metric", Self.launch, "--last", "7x"]).status == 64)
    // A window too long for any calendar is a usage error, in trend and report alike, never a trap.
    for command in [
      ["trend", "Samples/dump", "--metric", Self.launch], ["report", "Samples/dump", "-o", "/dev/null"],
    ] {
      for last in ["--last=1317624576693539402w", "--last=36501d", "--last=9223372036854775807d"] {
        let result = try CLIRunner.run(command + [last])
        #expect(
          result.status == 64 && result.stderr.contains("--last takes at most 36500 days"), "\(last): \(result.stderr)")
      }
    }
    #expect(try CLIRunner.run(["trend", "Samples/dump", "--metric", Self.launch, "--last=5214w"]).status == 0)
    #expect(
      try CLIRunner.run(["trend", "Samples/dump", "--metric", Self.launch, "--statistic", "median"]).status == 64)
  }

  @Test func shardsSnapshottedAndMergedGiveTheSameTrend() throws {
    try withTemporaryDirectory { dir in
      let a = dir.appendingPathComponent("a")
      let b = dir.appendingPathComponent("b")
      for d in [a, b] { try FileManager.default.createDirectory(at: d, withIntermediateDirectories: true) }
      let source = TestDirectories.packageRoot.appendingPathComponent("Samples/dump/v3.9.0")
      for name in try FileManager.default.contentsOfDirectory(atPath: source.path) {
        let target = (name.hasPrefix("payload-") ? a : b).appendingPathComponent(name)
        try FileManager.default.copyItem(at: source.appendingPathComponent(name), to: target)
      }
      let metrics = [
        "--metric", Self.launch, "--metric", "hangRate", "--metric", "payloads", "--interval", "week", "--by",
        "deviceType",
      ]
      for shard in ["a", "b"] {
        let r = try CLIRunner.run([
          "snapshot", dir.appendingPathComponent(shard).path, "--app-version", "3.9.0", "--interval", "week", "--by",
          "deviceType", "-o", dir.appendingPathComponent("\(shard).snap").path,
        ])
        #expect(r.status == 0, "\(r.stderr)")
      }
      let merged = dir.appendingPathComponent("m.snap").path
      #expect(
        try CLIRunner.run([
          "merge", dir.appendingPathComponent("a.snap").path, dir.appendingPathComponent("b.snap").path, "-o", merged,
        ]).status == 0)
      let fromSnapshot = try CLIRunner.run(["trend", "--snapshot", merged, "--format", "json"] + metrics)
      let direct = try CLIRunner.run(["trend", a.path, b.path, "--format", "json"] + metrics)
      #expect(fromSnapshot.status == 0, "\(fromSnapshot.stderr)")
      let series = try #require(try fromSnapshot.json()["series"] as? [[String: Any]])
      #expect(series.count > 3)
      #expect(NSArray(array: series).isEqual(to: try #require(try direct.json()["series"] as? [Any])))
      // A snapshot of another time axis is refused.
      let daily = try CLIRunner.run(["trend", "--snapshot", merged, "--metric", Self.launch, "--interval", "day"])
      #expect(daily.status == 2 && daily.stderr.contains("was taken with --interval week"))
    }
  }
}
