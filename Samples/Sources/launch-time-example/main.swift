// The classic on-device recipe, unchanged, then the better numbers beside it.
//
//   swift run launch-time-example [PATH…]     (defaults to Samples/dump)
import Foundation
import MetricKitAnalysis

let paths = CommandLine.arguments.count > 1 ? Array(CommandLine.arguments.dropFirst()) : ["Samples/dump"]
let (payloads, rejected) = PayloadReader().readAll(paths: paths)
print("Read \(payloads.count) payloads (\(rejected.count) inputs rejected).\n")

let versions = payloads.groupedByApplicationVersion().keys.sorted(by: VersionOrder.precedes)
/// "412.3 ms" (MeasurementFormatter is not available on Linux).
func milliseconds(_ m: Measurement<UnitDuration>) -> String {
  String(format: "%.1f ms", m.converted(to: .milliseconds).value)
}

print("The classic recipe: Σ count × bucketEnd ÷ Σ count, skipping multi-version payloads")
for version in versions {
  if let launch = payloads.average(for: \.applicationLaunchMetrics, applicationVersion: version, estimator: .bucketEnd),
    let hang = payloads.average(
      for: \.applicationResponsivenessMetrics, applicationVersion: version, estimator: .bucketEnd)
  {
    print("  \(version): launch \(milliseconds(launch)), hang \(milliseconds(hang))")
  }
}

print("\nBetter: the mixture's mean (midpoints) and percentiles with guaranteed brackets")
let percentiles = [50.0, 90, 99].compactMap(Percentile.init)
for version in versions {
  guard let mean = payloads.average(for: \.applicationLaunchMetrics, applicationVersion: version) else { continue }
  let estimates = payloads.percentiles(for: \.applicationLaunchMetrics, applicationVersion: version, percentiles)
  let text = estimates.map { e in
    String(format: "%@ %.0f ms [%.0f–%.0f]", e.percentile.label, e.value, e.lowerBound, e.upperBound)
  }
  print("  \(version): launch mean \(milliseconds(mean)); " + text.joined(separator: ", "))
}
