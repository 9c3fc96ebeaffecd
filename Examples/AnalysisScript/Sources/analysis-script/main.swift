// An analysis script over a dump: swift run --package-path Examples/AnalysisScript analysis-script Samples/dump
import Foundation
import MetricKitAnalysis

let read = PayloadReader().readAll(paths: [CommandLine.arguments[1]])
let payloads: [MetricPayload] = read.metricPayloads
print(read.diagnosticPayloads.count, read.rejected.count, read.accounting.read)
let recipe: Measurement<UnitDuration>? = payloads.average(
  for: \.applicationLaunchMetrics, applicationVersion: "3.9.0", estimator: .bucketEnd, pooling: .perPayload)
let p90 = payloads.percentile(90, for: \.applicationLaunchMetrics, applicationVersion: "3.9.0")
print(recipe!.converted(to: .seconds), p90!.value.converted(to: .seconds), p90!.lowerBound, p90!.upperBound)
do {
  _ = try RegressionRule(metric: MetricID("applicationLaunchMetrics.timeToFirstDraw"))
  fatalError("a misspelled metric was accepted")
} catch { print("rejected:", error) }
let again = try MetricPayload(jsonData: payloads[0].jsonRepresentation())
precondition(again == payloads[0])

// The questions that follow: per device, hang rate, memory, a gate of one's own.
let version = "3.9.0"
for (device, group) in payloads.grouped(by: \.metaData?.deviceType).sorted(by: { ($0.key ?? "") < ($1.key ?? "") }) {
  let p50 = group.percentile(50, for: \.applicationLaunchMetrics, applicationVersion: version)
  print(device ?? "unknown", group.filter(applicationVersion: version).count, p50.map(\.description) ?? "–")
}
if let rate = payloads.hangRate(applicationVersion: version),
  let memory = payloads.percentile(90, of: \.memoryMetrics?.peakMemoryUsage, applicationVersion: version)
{
  print("hang rate", MeasurementText.string(rate), "peak memory p90", MeasurementText.string(memory))
}
let rules = try RuleSet(rules: [
  try RegressionRule(metric: .histogrammedTimeToFirstDraw, statistic: .percentile(Percentile(90)!), maxIncrease: 0.05)
    .budget(Measurement(value: 0.8, unit: UnitDuration.seconds)),
  try RegressionRule(metric: .hangRate, maxIncrease: 0.10),
])
let versions = payloads.groupedByApplicationVersion()
let options = RegressionEvaluator(ruleSet: rules).aggregationOptions
func aggregate(_ version: String) -> VersionAggregate {
  var aggregate = VersionAggregate(version: version)
  for payload in versions[version] ?? [] { aggregate.add(payload, options: options) }
  return aggregate
}
for result in RegressionEvaluator(ruleSet: rules).evaluate(baseline: aggregate("3.8.0"), candidate: aggregate("3.9.0"))
{
  let values = [result.baselineMeasurement, result.candidateMeasurement].map { $0.map(MeasurementText.string) ?? "–" }
  print(result.rule.metric, result.rule.statistic, values.joined(separator: " → "), result.verdict.rawValue)
}
