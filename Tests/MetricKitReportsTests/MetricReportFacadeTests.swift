import Foundation
import MetricKitReports
import PayloadSynthesis
import Testing

/// MetricKit 27's report types over the library: code written against the iOS 27 SDK reads dumps,
/// in either encoding, and sees the generator's numbers.
@Suite("MetricKit 27 report types")
struct MetricReportFacadeTests {
  static func day(_ seed: UInt64 = 5) -> DeviceDayTwin {
    var rng = SplitMix64(seed: seed)
    var day = DeviceDayTwin.make(version: "4.1.0", device: 1, day: 3, rng: &rng)
    day.multipleVersions = false
    return day
  }

  static func json(_ object: Any) throws -> Data { try JSONSerialization.data(withJSONObject: object) }

  /// The launch bucket counts and CPU seconds of a report's full day, as on-device code reads them.
  static func launchAndCPU(_ report: MetricReport) -> (counts: [Int], lower: [Double], cpu: Double?) {
    var counts: [Int] = []
    var lower: [Double] = []
    var cpu: Double?
    for result in report.intervalEntries.fullDayEntry.values {
      switch result {
      case .timeToFirstDraw(let metric):
        counts = metric.histogram.buckets.map(\.count)
        lower = metric.histogram.buckets.map { $0.lowerBound.converted(to: .milliseconds).value }
      case .cpuTime(let metric):
        cpu = metric.value.converted(to: .seconds).value
      default:
        break
      }
    }
    return (counts, lower, cpu)
  }

  @Test func jsonDecoderReadsAReportInEitherEncoding() throws {
    let day = Self.day()
    for encoding in [DeviceDayTwin.Encoding.standard, .byStateReportingDomain] {
      let report = try JSONDecoder().decode(MetricReport.self, from: try Self.json(day.report(encoding)))
      #expect(report.environment?.latestApplicationVersion == "4.1.0")
      #expect(report.environment?.osVersion == "iPhone OS 27.0 (24A5331)")
      let read = Self.launchAndCPU(report)
      #expect(read.counts == day.launches.map(\.count))
      #expect(read.lower == day.launches.map { Double($0.lower) })
      #expect(read.cpu == Double(day.cpuSeconds))
      #expect(report.intervalEntries.count == 2)
      #expect(report.stateEntries.map(\.state.label) == [day.state])
      #expect(report.intervalEntries.fullDayEntry.states.map(\.label) == [day.state])
      #expect(report.timeRange.start == Date(timeIntervalSince1970: TimeInterval(day.begin)))
      let groups = Set(report.intervalEntries.fullDayEntry.values.map(\.metricGroup))
      #expect(groups.isSuperset(of: [.appLaunch, .cpu, .memory, .signpost, .appTermination]))
    }
  }

  @Test func aLegacyPayloadReadsAsTheSameDay() throws {
    let day = Self.day()
    let legacy = try MetricReport(jsonData: try Self.json(day.legacyPayload))
    let report = try MetricReport(jsonData: try Self.json(day.report(.standard)))
    #expect(Self.launchAndCPU(legacy) == Self.launchAndCPU(report))
    #expect(legacy.intervalEntries.fullDayEntry.values == report.intervalEntries.fullDayEntry.values)
  }

  @Test func aDiagnosticReportHasItsResult() throws {
    var day = Self.day()
    day.events = [.init(kind: "memoryException", frames: [("App", "U-1", 0x40)], hangMilliseconds: 0)]
    let report = try JSONDecoder().decode(DiagnosticReport.self, from: try Self.json(day.diagnosticReports[0]))
    guard case .memoryException(let diagnostic) = report.result else {
      Issue.record("not a memory exception: \(report.result)")
      return
    }
    #expect(diagnostic.callStackTree.frames.map(\.label) == ["App+0x40"])
    #expect(report.environment?.applicationVersion == "4.1.0")
    #expect(report.environment?.states.first?.label == day.state)
  }

  @Test func aBadReportIsADecodingErrorNamingTheKey() throws {
    let bad = Data(#"{"intervalEntries": [{"values": [{"cpuTimeMetric": {"value": {"value": 1}}}]}]}"#.utf8)
    #expect {
      try JSONDecoder().decode(MetricReport.self, from: bad)
    } throws: { error in
      guard case DecodingError.dataCorrupted(let context) = error else { return false }
      return context.debugDescription.contains("intervalEntries.0.values.0.cpuTimeMetric.value")
    }
  }
}
