import Foundation
import PayloadSynthesis
import TestSupport
import Testing

@testable import MetricKitAnalysis

/// The report page's stability section and the bands it judges by.
@Suite("Stability section and bands")
struct StabilitySectionTests {
  @Test func bandsParseAndJudgeByTheMetricsPolarity() throws {
    let crashFree = try StabilityBand(argument: "crashFreeDeviceDays=99.5:98.91")
    #expect(crashFree.metric == .crashFreeDeviceDays && crashFree.warning == 99.5 && crashFree.bad == 98.91)
    #expect(crashFree.standing(99.6) == .good && crashFree.standing(99.5) == .good)
    #expect(crashFree.standing(99.2) == .warning && crashFree.standing(98.91) == .warning)
    #expect(crashFree.standing(98.9) == .bad)
    let terminations = try StabilityBand(argument: "terminationRate=20:40")
    #expect(terminations.standing(19) == .good && terminations.standing(25) == .warning)
    #expect(terminations.standing(40.5) == .bad)
    #expect(StabilityBand.defaults == [crashFree])
  }

  @Test func badBandsAreRefusedNamingWhatIsWrong() {
    #expect(throws: StabilityBandError.malformed("crashFreeDeviceDays=99.5")) {
      try StabilityBand(argument: "crashFreeDeviceDays=99.5")
    }
    #expect(throws: StabilityBandError.malformed("crashFreeDeviceDays=a:b")) {
      try StabilityBand(argument: "crashFreeDeviceDays=a:b")
    }
    #expect(throws: StabilityBandError.notAStabilityRate("hangRate")) { try StabilityBand(argument: "hangRate=1:2") }
    #expect(throws: StabilityBandError.notAStabilityRate("nope")) { try StabilityBand(argument: "nope=1:2") }
    // Bad on the better side of warning: above it for a share, below it for a rate.
    #expect(throws: StabilityBandError.misordered(metric: "crashFreeDeviceDays", warning: 98, bad: 99)) {
      try StabilityBand(argument: "crashFreeDeviceDays=98:99")
    }
    #expect(throws: StabilityBandError.misordered(metric: "terminationRate", warning: 40, bad: 20)) {
      try StabilityBand(argument: "terminationRate=40:20")
    }
    #expect(throws: StabilityBandError.notANumber("terminationRate")) {
      try StabilityBand(argument: "terminationRate=1:inf")
    }
  }

  @Test func theSectionShowsEachVersionsRatesAsTheSummaryCountsThemWithTheirStanding() throws {
    try withTemporaryDirectory { folder in
      try StabilityScenario(.regression).write(to: folder, seed: 7013)
      var aggregation = AggregationOptions()
      aggregation.interval = .day
      let aggregate = DumpAggregate(paths: [folder.path], options: aggregation, threads: 2)
      let summary = SummaryReport(aggregate: aggregate)
      // Bands around the candidate's own values: its crash-free share needs attention, its rate is bad.
      let candidate = try #require(aggregate.versions[StabilityScenario.candidate])
      let free = try #require(try RateEstimate(.crashFreeDeviceDays, of: candidate))
      let rate = try #require(try RateEstimate(.terminationRate, of: candidate))
      var options = ReportOptions()
      options.stabilityBands += [
        try StabilityBand(metric: .crashFreeDeviceDays, warning: free.value + 0.5, bad: free.value - 0.5),
        try StabilityBand(metric: .terminationRate, warning: rate.value / 3, bad: rate.value / 2),
      ]
      let page = ReportPage(aggregate: aggregate, options: options)
      #expect(page.stability.map(\.version) == [StabilityScenario.baseline, StabilityScenario.candidate])
      #expect(page.stabilityBands.count == 2, "a band replaces the default of its metric")
      for row in page.stability {
        let entry = try #require(summary.versions.first { $0.version == row.version })
        for case .rate(let r) in entry.metrics
        where [.crashFreeDeviceDays, .terminationRate, .backgroundTerminationRate].contains(r.metric) {
          #expect(row.estimate(r.metric) == r.estimate, "\(row.version) \(r.metric)")
        }
        // The kinds, most events first, each the summary's.
        #expect(row.kinds.map(\.estimate.events) == row.kinds.map(\.estimate.events).sorted(by: >))
        #expect(!row.kinds.isEmpty && row.kinds.allSatisfy { $0.estimate.events > 0 })
      }
      let html = HTMLReportRenderer.render(page)
      let section = try #require(html.range(of: "<section id=\"stability\">"))
      #expect(html.range(of: "<section id=\"versions\">").map { $0.lowerBound > section.lowerBound } == true)
      let row = try #require(
        html.range(of: "<tr data-version=\"\(StabilityScenario.candidate)\">").map { html[$0.lowerBound...] })
      let cells = row.prefix { $0 != "\n" }
      #expect(
        cells.contains("<td class=\"rate warning\" title=\"warning\"><b>\(String(format: "%.2f%%", free.value))</b>"))
      #expect(cells.contains("<td class=\"rate bad\" title=\"bad\"><b>\(NumberFormatting.text(rate.value))</b>"))
      #expect(html.contains("termination rate needs attention above"))
    }
  }
}
