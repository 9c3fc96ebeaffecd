import Foundation
import TestSupport
import Testing

@testable import MetricKitAnalysis

/// The report page's gate with `--by`: the first screen's numbers are the worst group's and name it,
/// only the groups that regressed are said to carry a regression, and the table names a worst group
/// only where one is worse.
@Suite("Report page: a gate by group")
struct ReportPageGroupedGateTests {
  typealias Population = MatchedCoverageTests.Population

  @Test func theBannerLeadsWithTheWorstGroupAndNamesIt() throws {
    // Launch slower on two devices, 2.6 times as much on the smaller one; the third unchanged.
    let os = "iPhone OS 17.5.1 (21F90)"
    let populations =
      ["1.0.0", "2.0.0"].flatMap { version in
        [
          Population(
            version: version, device: "iPhone14,2", os: os, count: 300, slowness: version == "2.0.0" ? 1.15 : 1),
          Population(
            version: version, device: "iPhone15,3", os: os, count: 200, slowness: version == "2.0.0" ? 1.39 : 1),
          Population(version: version, device: "iPhone12,1", os: os, count: 150),
        ]
      }
    let html = try withTemporaryDirectory { folder in
      try MatchedCoverageTests.write(populations, to: folder, seed: 5)
      let evaluator = RegressionEvaluator()
      var options = evaluator.aggregationOptions
      options.grouping = .deviceType
      options.interval = .day
      let aggregate = DumpAggregate(paths: [folder.path], options: options, threads: 2)
      var reportOptions = ReportOptions()
      reportOptions.interval = .day
      let page = ReportPage(
        aggregate: aggregate, options: reportOptions,
        gate: ReportPage.Gate(evaluator: evaluator, baseline: "1.0.0", candidate: "2.0.0"))
      let launch = try #require(
        page.comparison?.results.filter {
          $0.rule.metric == .histogrammedTimeToFirstDraw && $0.rule.statistic == .percentile(Percentile(50)!)
        })
      let worst = try #require(launch.first { $0.by?.value == "iPhone15,3" })
      #expect(worst.verdict == .regression && (worst.change ?? 0) > 0.3, "\(worst.verdict) \(worst.change ?? 0)")
      return (HTMLReportRenderer.render(page), worst)
    }
    let (text, worst) = html
    let banner = try #require(text.range(of: "<ul class=\"findings\">")).upperBound
    let first = String(text[banner...].prefix { $0 != "\n" }.dropFirst())
    let item = String(
      text[banner...].split(separator: "\n").first { $0.contains("Launch time (first draw) p50") } ?? "")
    #expect(item.contains(" in deviceType <b>iPhone15,3</b>: "), "\(item) \(first)")
    let candidate = TextEscaping.html(ComparisonRenderer.value(worst.candidate, worst.rule.unit))
    #expect(item.contains(": \(candidate) against "), "\(item)")
    #expect(item.contains("Regressed in deviceType <b>iPhone15,3</b>, <b>iPhone14,2</b> of 3"), "\(item)")
    #expect(!item.contains("iPhone12,1"), "\(item)")
    // The table: an unchanged rule's overall row names no worst group.
    let memory = try #require(text.range(of: "Peak memory p90</a></th><td colspan=\"5\">"))
    let row = String(text[memory.upperBound...].prefix { $0 != "\n" })
    #expect(!row.contains("worst:"), "\(row)")
  }
}
