// The well-known on-device recipe, as published, with only `import MetricKit` replaced: it compiles
// over the library's MetricKit-shaped types, runs over MXMetricPayload objects made from each payload
// file, and must print what `average(…, estimator: .bucketEnd, pooling: .perPayload)` prints.
//
//   swift run --package-path Examples/AnalysisScript device-recipe Samples/dump
import Foundation

#if canImport(MetricKit)
  // Where MetricKit exists its own types are used, and they cannot be made from files.
  print("device-recipe runs where MetricKit does not exist (Linux); here, use MetricPayload(_: MXMetricPayload)")
#else
  import MetricKitAnalysis  // was: import MetricKit

  protocol HistogrammedTimeMetric {
    var histogram: MXHistogram<UnitDuration> { get }
    var average: Measurement<UnitDuration> { get }
  }

  extension HistogrammedTimeMetric {
    var average: Measurement<UnitDuration> {
      let buckets = histogram.bucketEnumerator.compactMap { $0 as? MXHistogramBucket }
      let totalBucketsCount = buckets.reduce(0) { totalCount, bucket in
        var totalCount = totalCount
        totalCount += bucket.bucketCount
        return totalCount
      }
      let totalDurations: Double = buckets.reduce(0) { totalDuration, bucket in
        var totalDuration = totalDuration
        totalDuration += Double(bucket.bucketCount) * bucket.bucketEnd.value
        return totalDuration
      }
      let average = totalDurations / Double(totalBucketsCount)
      return Measurement(value: average, unit: UnitDuration.milliseconds)
    }
  }

  extension MXAppLaunchMetric: HistogrammedTimeMetric {
    var histogram: MXHistogram<UnitDuration> { histogrammedTimeToFirstDraw }
  }

  extension MXAppResponsivenessMetric: HistogrammedTimeMetric {
    var histogram: MXHistogram<UnitDuration> { histogrammedApplicationHangTime }
  }

  extension Array where Element == MXMetricPayload {
    func average<Value: HistogrammedTimeMetric>(
      for keyPath: KeyPath<MXMetricPayload, Value?>, applicationVersion: String
    )
      -> Measurement<UnitDuration>?
    {
      let averages = filter(applicationVersion: applicationVersion)
        .compactMap { $0[keyPath: keyPath]?.average.value }
      guard !averages.isEmpty else { return nil }
      let average = averages.reduce(0, +) / Double(averages.count)
      return Measurement(value: average, unit: UnitDuration.milliseconds)
    }

    func filter(applicationVersion: String) -> [MXMetricPayload] {
      filter { payload in
        !payload.includesMultipleApplicationVersions && payload.latestApplicationVersion == applicationVersion
      }
    }
  }

  // Every single-payload file of the dump, as MetricKit hands payloads to an app.
  let root = URL(fileURLWithPath: CommandLine.arguments[1])
  let files = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil)!.compactMap { $0 as? URL }
    .filter { $0.pathExtension == "json" }.sorted { $0.path < $1.path }
  let payloads: [MXMetricPayload] = files.compactMap { try? MXMetricPayload(jsonData: Data(contentsOf: $0)) }
  print("\(payloads.count) payloads from \(files.count) .json files")

  var mismatches = 0
  for version in ["3.8.0", "3.9.0", "3.10.0"] {
    for (name, recipe, library) in [
      (
        "launch", payloads.average(for: \.applicationLaunchMetrics, applicationVersion: version),
        payloads.map(\.payload).average(
          for: \.applicationLaunchMetrics, applicationVersion: version, estimator: .bucketEnd, pooling: .perPayload)
      ),
      (
        "hang", payloads.average(for: \.applicationResponsivenessMetrics, applicationVersion: version),
        payloads.map(\.payload).average(
          for: \.applicationResponsivenessMetrics, applicationVersion: version, estimator: .bucketEnd,
          pooling: .perPayload)
      ),
    ] {
      let same = recipe?.value == library?.value
      if !same { mismatches += 1 }
      print(
        version, name, "recipe", recipe?.value ?? .nan, "library", library?.value ?? .nan, same ? "same" : "DIFFERENT")
    }
  }
  if mismatches > 0 {
    print("\(mismatches) numbers differ")
    exit(1)
  }
#endif
