import Foundation
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
    #expect(try CLIRunner.run(["trend", "Samples/dump"]).status == 64)
    #expect(try CLIRunner.run(["trend", "Samples/dump", "--metric", "launchTime"]).status == 64)
    #expect(try CLIRunner.run(["trend", "Samples/dump", "--metric", Self.launch, "--last", "7x"]).status == 64)
    #expect(
      try CLIRunner.run(["trend", "Samples/dump", "--metric", Self.launch, "--statistic", "median"]).status == 64)
  }
}
