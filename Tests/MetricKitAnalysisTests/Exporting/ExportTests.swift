import Foundation
import TestSupport
import Testing

@testable import MetricKitAnalysis

/// The exporters' naming, scaling, escaping and bucket arithmetic, against hand-computed values (the
/// real consumers are in MetricsReportCLITests/ExportCommandTests).
@Suite("Export formats")
struct ExportTests {
  /// Two payloads of one version on one day: launch buckets 0–10 ms ×3 and 10–20 ms ×5, then 10–20 ms
  /// ×2 and 20–30 ms ×2 (disjoint: the cumulative counts are exact); peak memory 100 and 300 MB.
  static func export(interval: TrendInterval?) throws -> MetricExport {
    return try withTemporaryDirectory { dir in
      let payloads = [
        (Support.histogramJSON([(0, 10, 3), (10, 20, 5)]), "100 MB"),
        (Support.histogramJSON([(10, 20, 2), (20, 30, 2)]), "300 MB"),
      ].map { histogram, memory in
        #"{"appVersion": "1.0", "timeStampBegin": "2024-05-01 00:00:00 +0000", "timeStampEnd": "2024-05-01 23:59:00 +0000", "#
          + #""metaData": {"appBuildVersion": "1", "bundleIdentifier": "com.example.app"}, "#
          + #""applicationLaunchMetrics": {"histogrammedTimeToFirstDraw": \#(histogram)}, "#
          + #""memoryMetrics": {"peakMemoryUsage": "\#(memory)"}}"#
      }
      let file = dir.appendingPathComponent("dump.ndjson")
      try Data(payloads.joined(separator: "\n").utf8).write(to: file)
      var options = AggregationOptions()
      options.interval = interval
      // Uniform buckets: the numbers below are worked by hand.
      return MetricExport(
        aggregate: DumpAggregate(paths: [file.path], options: options), interval: interval, interpolation: .uniform)
    }
  }

  @Test func namesFollowPrometheusConventionsAndScaleToBaseUnits() throws {
    let launch = try #require(ExportedMetric.of(MetricID.histogrammedTimeToFirstDraw))
    #expect(launch.prometheusName == "metrickit_app_launch_time_to_first_draw_seconds")
    #expect(launch.dottedName == "metrickit.app_launch.time_to_first_draw")
    #expect(launch.scaled(10) == 0.01 && launch.ucum == "s")
    #expect(ExportedMetric.of(MetricID.cumulativeCPUTime)?.prometheusName == "metrickit_cpu_time_seconds")
    #expect(
      ExportedMetric.of(MetricID.peakMemoryUsage)?.prometheusName == "metrickit_memory_peak_memory_usage_bytes")
    #expect(ExportedMetric.of(MetricID.peakMemoryUsage)?.scaled(1.5) == 1_500_000)
    #expect(ExportedMetric.of(MetricID.hangRate)?.prometheusName == "metrickit_app_responsiveness_hang_rate_ratio")
    #expect(ExportedMetric.of(MetricID.hangRate)?.scaled(36) == 0.01)
    #expect(
      ExportedMetric.of(MetricID.backgroundMemoryPressureExitCount)?.prometheusName
        == "metrickit_app_exit_background_memory_pressure_exit_count")
    #expect(
      ExportedMetric.of(MetricID.signpost(category: "Net", name: "fetch \"x\""))?.prometheusName
        == "metrickit_signpost_duration_seconds")
    #expect(ExportedMetric.of(MetricID.diagnostics(.crash)) == nil)
    // Every catalog metric has a distinct, valid Prometheus name.
    let names = MetricCatalog.fixed.compactMap { ExportedMetric.of($0.id)?.prometheusName }
    #expect(names.count == MetricCatalog.fixed.count && Set(names).count == names.count)
    #expect(names.allSatisfy { $0.range(of: "^[a-z_][a-z0-9_]*$", options: .regularExpression) != nil })
  }

  @Test func labelValuesEscapeBackslashQuoteAndNewlineOnly() {
    let cases: [(String, String)] = [
      ("3.9.0", "3.9.0"), (#"a"b"#, #"a\"b"#), (#"a\b"#, #"a\\b"#), ("a\nb", #"a\nb"#), ("}{,=", "}{,="),
      ("é\u{7}", "é\u{7}"),
    ]
    for (raw, escaped) in cases { #expect(TextEscaping.openMetricsLabel(raw) == escaped) }
    #expect(OpenMetricsWriter.labelSet([("app_version", "x\"y")]) == #"{app_version="x\"y"}"#)
  }

  @Test func histogramsBecomeCumulativeBucketsAtTheirEndsAndQuantilesInSeconds() throws {
    let export = try Self.export(interval: nil)
    #expect(export.bundleIdentifier == "com.example.app")
    let point = try #require(export.points.first)
    let launch = MetricID.histogrammedTimeToFirstDraw
    let buckets = try #require(export.buckets(launch, in: point.aggregate))
    // 0–10: 3; 10–20: 5 + 2; 20–30: 2 → cumulative 3, 10, 12 at 0.01, 0.02, 0.03 s.
    #expect(buckets.cumulative.map(\.upperBound) == [0.01, 0.02, 0.03])
    #expect(buckets.cumulative.map(\.count) == [3, 10, 12] && buckets.count == 12)
    // Midpoint sum: 3 × 5 + 7 × 15 + 2 × 25 = 170 ms.
    #expect(abs(buckets.sum - 0.17) < 1e-15)
    // p50: rank 6 of 12 is in 10–20 ms (3 below): 10 + (6 − 3) / 7 × 10 ms.
    let q = try #require(export.quantiles(launch, in: point.aggregate))
    #expect(q.values[0].percentile.label == "p50")
    #expect(abs(q.values[0].value - (10 + 3.0 / 7 * 10) / 1000) < 1e-15)
    // Peak memory across payloads: count 2, sum 400 MB in bytes, p50 (type 7) 200 MB.
    let memory = try #require(export.quantiles(MetricID.peakMemoryUsage, in: point.aggregate))
    #expect(memory.count == 2 && memory.sum == 400_000_000 && memory.values[0].value == 200_000_000)

    let text = OpenMetricsWriter.write(export)
    #expect(
      text.contains(
        #"metrickit_app_launch_time_to_first_draw_distribution_seconds_bucket{app_version="1.0",le="0.02"} 10"#))
    #expect(
      text.contains(
        #"metrickit_app_launch_time_to_first_draw_distribution_seconds_bucket{app_version="1.0",le="+Inf"} 12"#))
    #expect(text.contains(#"metrickit_memory_peak_memory_usage_bytes_sum{app_version="1.0"} 400000000"#))
    #expect(text.hasSuffix("# EOF\n"))
    #expect(!text.contains(" 17145"))  // no timestamps without an interval
  }

  @Test func dailyPointsAreTimestampedAtTheDaysLastSecond() throws {
    let export = try Self.export(interval: .day)
    let point = try #require(export.points.first)
    // 2024-05-01 is day 19844: its last second is 19845 × 86400 − 1.
    #expect(point.timestamp == 19_845 * 86_400 - 1 && point.start == 19_844 * 86_400)
    let text = OpenMetricsWriter.write(export)
    #expect(text.contains(#"metrickit_app_launch_time_to_first_draw_seconds_count{app_version="1.0"} 12 1714607999"#))

    // OTLP: per-bucket counts that add up to the count, bounds at the bucket ends, nanosecond strings.
    let otlp = try #require(
      try JSONSerialization.jsonObject(with: Data(OTLPJSONWriter.write(export).utf8)) as? [String: Any])
    let resource = try #require((otlp["resourceMetrics"] as? [[String: Any]])?.first)
    let metrics = try #require(((resource["scopeMetrics"] as? [[String: Any]])?.first)?["metrics"] as? [[String: Any]])
    let launch = try #require(metrics.first { $0["name"] as? String == "metrickit.app_launch.time_to_first_draw" })
    let dp = try #require(((launch["histogram"] as? [String: Any])?["dataPoints"] as? [[String: Any]])?.first)
    #expect(dp["bucketCounts"] as? [String] == ["3", "7", "2", "0"])
    #expect(dp["explicitBounds"] as? [Double] == [0.01, 0.02, 0.03])
    #expect(dp["count"] as? String == "12" && dp["timeUnixNano"] as? String == "1714607999000000000")
    let attributes = try #require((resource["resource"] as? [String: Any])?["attributes"] as? [[String: Any]])
    #expect(attributes.count == 2)
    #expect((attributes[0]["value"] as? [String: Any])?["stringValue"] as? String == "com.example.app")
  }
}
