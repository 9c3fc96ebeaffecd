// The classic on-device recipe, unchanged, then the better numbers beside it.
//
//   swift run launch-time-example [PATH…]     (defaults to Samples/dump)
import Foundation
import MetricKitAnalysis

let paths = CommandLine.arguments.count > 1 ? Array(CommandLine.arguments.dropFirst()) : ["Samples/dump"]
let read = PayloadReader().readAll(paths: paths)
let payloads = read.metricPayloads
print(
  "Read \(payloads.count) metric payloads, \(read.diagnosticPayloads.count) diagnostic payloads "
    + "(\(read.rejected.count) inputs rejected; \(read.accounting.read) read in all).\n")

let versions = payloads.groupedByApplicationVersion().keys.sorted(by: VersionOrder.precedes)

print(
  "The classic recipe: per payload Σ count × bucketEnd ÷ Σ count, then the mean of those, skipping multi-version payloads"
)
for version in versions {
  if let launch = payloads.average(
    for: \.applicationLaunchMetrics, applicationVersion: version, estimator: .bucketEnd, pooling: .perPayload),
    let hang = payloads.average(
      for: \.applicationResponsivenessMetrics, applicationVersion: version, estimator: .bucketEnd, pooling: .perPayload)
  {
    print("  \(version): launch \(MeasurementText.string(launch)), hang \(MeasurementText.string(hang))")
  }
}

print(
  "\nBetter: the merged histogram's mean (monotone inside buckets, pooled) and percentiles with guaranteed brackets")
let percentiles = [50.0, 90, 99].compactMap(Percentile.init)
for version in versions {
  guard let mean = payloads.average(for: \.applicationLaunchMetrics, applicationVersion: version) else { continue }
  let estimates = payloads.percentiles(for: \.applicationLaunchMetrics, applicationVersion: version, percentiles)
  let hangRate = payloads.hangRate(applicationVersion: version).map(MeasurementText.string) ?? "–"
  print(
    "  \(version): launch mean \(MeasurementText.string(mean)); "
      + estimates.map(\.description).joined(separator: ", ") + "; hang rate \(hangRate)")
}
