import Foundation
import TestSupport
import Testing

@testable import MetricKitAnalysis

/// The public payloads in ../shared/fixtures/public decode with the values the files hold.
@Suite("Public fixtures")
struct PublicFixtureTests {
  private func read(_ name: String) throws -> [ReadEvent]? {
    guard let dir = TestDirectories.publicFixtures() else { return nil }
    var events: [ReadEvent] = []
    PayloadReader().read(paths: [dir.appendingPathComponent(name).path]) { events.append($0) }
    return events
  }

  private func onlyPayload(_ name: String) throws -> MetricPayload? {
    guard let events = try read(name) else { return nil }
    try #require(events.count == 1)
    guard case .payload(let payload, _) = events[0] else {
      throw TestFailure("\(name): expected a metric payload, got \(events[0])")
    }
    return payload
  }

  @Test func nsHipsterIOS13SimulatedPayload() throws {
    guard let p = try onlyPayload("NSHipster__articles__metrickit-2019-ios13-simulated-metric.json") else { return }
    #expect(p.latestApplicationVersion == "1.0.0")
    #expect(!p.includesMultipleApplicationVersions)
    #expect(p.timeStampBegin == Date(timeIntervalSince1970: 1_571_641_200))  // 2019-10-21 07:00:00 +0000
    #expect(!p.timeZoneAssumed)
    #expect(p.metaData?.deviceType == "iPhone9,2")
    #expect(p.metaData?.osVersion == "iPhone OS 13.1.3 (17A878)")
    #expect(p.metaData?.platformArchitecture == nil)
    let ttfd = try #require(p.applicationLaunchMetrics?.histogrammedTimeToFirstDraw)
    #expect(
      ttfd.buckets == [
        HistogramBucket(start: 1000, end: 1010, count: 50), HistogramBucket(start: 2000, end: 2010, count: 60),
        HistogramBucket(start: 3000, end: 3010, count: 30),
      ])
    #expect(ttfd.sampleCount == 140)
    let resume = try #require(p.applicationLaunchMetrics?.histogrammedApplicationResumeTime)
    #expect(resume.buckets.map(\.count) == [60, 70, 80])
    #expect(
      p.applicationResponsivenessMetrics?.histogrammedApplicationHangTime?.buckets.last
        == HistogramBucket(start: 400, end: 700, count: 30))
    let bars = try #require(p.cellularConditionMetrics?.histogrammedCellularConditionTime)
    #expect(
      bars.buckets == [
        HistogramBucket(start: 1, end: 1, count: 20), HistogramBucket(start: 2, end: 2, count: 30),
        HistogramBucket(start: 3, end: 3, count: 50),
      ])
    #expect(p.memoryMetrics?.peakMemoryUsage?.value == 200)  // "200,000 kB" in MB
    #expect(p.memoryMetrics?.averageSuspendedMemory?.averageMeasurement.value == 100)
    #expect(p.memoryMetrics?.averageSuspendedMemory?.sampleCount == 500)
    #expect(p.diskIOMetrics?.cumulativeLogicalWrites?.value == 1.3)
    #expect(p.cpuMetrics?.cumulativeCPUTime?.value == 100)
    #expect(p.gpuMetrics?.cumulativeGPUTime?.value == 20)
    #expect(p.applicationTimeMetrics?.cumulativeForegroundTime?.value == 700)
    #expect(p.locationActivityMetrics?.cumulativeBestAccuracyForNavigationTime?.value == 20)
    #expect(p.networkTransferMetrics?.cumulativeCellularDownload?.value == 80)
    #expect(p.displayMetrics?.averagePixelLuminance?.averageMeasurement.value == 50)
    #expect(p.signpostMetrics.count == 2)
    let signpost = p.signpostMetrics[1]
    #expect(signpost.identifier == MetricID.signpost(category: "TestSignpostCategory2", name: "TestSignpostName2"))
    #expect(signpost.totalCount == 40)
    #expect(
      signpost.signpostIntervalData?.histogrammedSignpostDuration?.buckets[1]
        == HistogramBucket(start: 201, end: 300, count: 70))
    #expect(signpost.signpostIntervalData?.cumulativeCPUTime?.value == 50)  // "50,000 ms" in s
    #expect(signpost.signpostIntervalData?.averageMemory?.value == 60)
    #expect(p.applicationExitMetrics == nil)
  }

  @Test func knowledgeBaseIOS16SimulatedPayload() throws {
    guard let p = try onlyPayload("unresolved__kb-doc__ios16-xcode-simulated-metric.json") else { return }
    #expect(p.latestApplicationVersion == "1.0")
    #expect(p.timeZoneAssumed)  // "2022-11-14 00:00:00", no zone
    #expect(p.timeStampBegin == Date(timeIntervalSince1970: 1_668_384_000))
    #expect(p.metaData?.bundleIdentifier == "com.raywenderlich.ShoppingTrolley27")
    #expect(p.metaData?.platformArchitecture == "arm64e")
    #expect(p.cpuMetrics?.cumulativeCPUInstructions?.value == 100_000)  // "100 kiloinstructions"
    #expect(p.animationMetrics?.scrollHitchTimeRatio?.value == 1000)
    #expect(p.applicationLaunchMetrics?.histogrammedExtendedLaunch?.sampleCount == 140)
    #expect(p.applicationLaunchMetrics?.histogrammedOptimizedTimeToFirstDraw?.buckets.first?.start == 1000)
    #expect(p.signpostMetrics[0].signpostIntervalData?.cumulativeHitchTimeRatio?.value == 50)
    let exits = try #require(p.applicationExitMetrics)
    #expect(exits.foregroundExitData.cumulativeAbnormalExitCount == 1)
    #expect(exits.foregroundExitData.counters.count == 7)
    #expect(exits.backgroundExitData.counters.count == 12)
    #expect(exits.backgroundExitData.cumulativeMemoryPressureExitCount == 1)
    #expect(exits.backgroundExitData.cumulativeSuspendedWithLockedFileExitCount == 1)
  }

  @Test func diagnosticsAndCallStackTreesAreRecognizedNotRejected() throws {
    guard let dir = TestDirectories.publicFixtures() else { return }
    var kinds: [String: DocumentKind] = [:]
    var rejected: [Rejection] = []
    PayloadReader().read(paths: [dir.path]) { event in
      switch event {
      case .otherDocument(let kind, let location), .diagnostics(_, let kind, let location):
        kinds[URL(fileURLWithPath: location.path).lastPathComponent] = kind
      case .rejected(let r): rejected.append(r)
      case .payload: break
      }
    }
    #expect(kinds["ChimeHQ__Meter__real_report.json"] == .diagnosticPayload)
    #expect(kinds["ChimeHQ__Meter__xcode_simulated_macOS_13.json"] == .diagnosticPayload)
    #expect(kinds["embrace-io__embrace-apple-sdk__crash_with_term_reason.json"] == .diagnostic)
    #expect(kinds["getsentry__sentry-cocoa__callstacktree-tree-real.json"] == .callStackTree)
    #expect(kinds.count == 16)
    // Nothing is rejected; the fragments (".json.txt", not JSON by their provenance notes) and
    // SOURCES.md are passed over for their names, and read (and rejected) when named explicitly.
    #expect(rejected.isEmpty, "\(rejected)")
    let discovery = InputDiscovery().discover([dir.path])
    #expect(discovery.ignored.filter { $0.hasSuffix(".json.txt") }.count == 2)
    let fragment = dir.appendingPathComponent(
      "fragments/unresolved__es-blog__ios14-zh-CN-real-metric.TRUNCATED.json.txt")
    let named = PayloadReader().readAll(paths: [fragment.path])
    #expect(named.rejected.count == 1)
    #expect(named.rejected.first?.reason.contains("invalid JSON") == true)
  }

  /// Every measurement string in the real zh-CN fragments (not valid JSON as a whole) parses.
  @Test func everyMeasurementInTheRealLocalizedFragmentsParses() throws {
    guard let dir = TestDirectories.publicFixtures() else { return }
    let files = try FileManager.default.contentsOfDirectory(atPath: dir.appendingPathComponent("fragments").path)
    var parsed = 0
    for file in files {
      let text = try String(contentsOf: dir.appendingPathComponent("fragments/\(file)"), encoding: .utf8)
      let regex = try Regex(#""(bucketStart|bucketEnd|cumulative\w+|peakMemoryUsage|averageValue)" : "([^"]*)""#)
      for match in text.matches(of: regex) {
        guard let value = match.output[2].substring else { continue }
        _ = try MeasurementParser.parse(String(value))
        parsed += 1
      }
    }
    #expect(parsed > 40)
    #expect(try MeasurementParser.parse("1,106,818千字节").value == 1_106_818_000)
  }
}
