import Foundation
import Testing

@testable import MetricKitAnalysis

/// `--by`: versions broken down by a metadata field.
@Suite("Breakdowns")
struct BreakdownTests {
  static let samples = LibraryAPITests.samples

  @Test func groupsAreTheLibrarysGroupsAndAddUpToTheirVersion() throws {
    var options = AggregationOptions()
    options.grouping = .deviceType
    let aggregate = DumpAggregate(paths: [Self.samples], options: options, threads: 1)
    let report = SummaryReport(aggregate: aggregate, options: SummaryOptions())
    let payloads = PayloadReader().readAll(paths: [Self.samples]).metricPayloads
    for version in ["3.8.0", "3.9.0", "3.10.0"] {
      let entries = report.versions.filter { $0.version == version }
      let groups = payloads.filter(applicationVersion: version).grouped(by: \.metaData?.deviceType)
      #expect(entries.count == groups.count, "\(version)")
      #expect(entries.reduce(0) { $0 + $1.payloads } == aggregate.versions[version]?.payloadCount)
      // Most payloads first, then by name.
      #expect(entries.map(\.payloads) == entries.map(\.payloads).sorted(by: >))
      for entry in entries {
        let device = try #require(entry.by?.value)
        let group = try #require(groups[device])
        #expect(entry.by?.key == "deviceType" && entry.payloads == group.count)
        // The CLI's numbers are the library's, group by group.
        guard case .histogram(let launch) = entry.metrics.first else { throw TestFailure("no launch") }
        let p50 = try #require(group.percentile(50, for: \.applicationLaunchMetrics, applicationVersion: version))
        #expect(launch.percentiles.first?.value == p50.value.value)
      }
    }
    // The same bytes for any number of threads.
    let one = SummaryJSONRenderer.render(report)
    let three = SummaryJSONRenderer.render(
      SummaryReport(aggregate: DumpAggregate(paths: [Self.samples], options: options, threads: 3), threads: 3))
    #expect(one == three)
  }

  @Test func theGroupsBeyondTheTopAreMergedIntoOther() throws {
    var options = AggregationOptions()
    options.grouping = .deviceType
    let aggregate = DumpAggregate(paths: [Self.samples], options: options)
    var summary = SummaryOptions()
    summary.top = 1
    let report = SummaryReport(aggregate: aggregate, options: summary)
    for version in ["3.8.0", "3.9.0", "3.10.0"] {
      let entries = report.versions.filter { $0.version == version }
      #expect(entries.count == 2)
      #expect(entries.last?.by?.value == GroupingKey.other)
      #expect(entries.reduce(0) { $0 + $1.payloads } == aggregate.versions[version]?.payloadCount)
      // (other) is the exact merge of the other groups: its observations add up.
      let all = try #require(
        aggregate.versions[version]?.histogram(.histogrammedTimeToFirstDraw))
      let counts = entries.compactMap { e -> Int128? in
        guard case .histogram(let h) = e.metrics.first else { return nil }
        return Int128(h.count)
      }
      #expect(counts.reduce(0, +) == all.sampleCount)
    }
  }

  @Test func keysParseAndMajorOSVersionsGroup() {
    #expect(GroupingKey.names.allSatisfy { GroupingKey(parsing: $0)?.description == $0 })
    #expect(GroupingKey(parsing: "device") == nil)
    #expect(GroupingKey.major("iPhone OS 17.5.1 (21F90)") == "iPhone OS 17")
    #expect(GroupingKey.major("macOS 12.2 (21D49)") == "macOS 12")
    #expect(GroupingKey.major("visionOS") == "visionOS")
    #expect(GroupingKey.deviceType.value(of: MetricPayload(latestApplicationVersion: "1")) == GroupingKey.unknown)
  }
}
