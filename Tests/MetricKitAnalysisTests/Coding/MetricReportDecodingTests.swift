import Foundation
import Testing

@testable import MetricKitAnalysis

/// MetricKit 27's `MetricReport` and `DiagnosticReport` JSON: the shapes Apple's own decoder accepts,
/// both encodings, the date forms, and errors that name the key.
@Suite("MetricKit 27 report decoding")
struct MetricReportDecodingTests {
  /// A report shaped as a public test fixture that round-trips through Apple's encoder (a state
  /// entry, a full-day entry with CPU time and a hang histogram), with a 2026 time range.
  static let report = """
    {
      "timeRange": {"begin": 786240000, "end": 786326400},
      "stateEntries": [
        {"state": {"domain": "com.example.feature", "label": "premium", "duration": {"value": 120.0, "unit": "s"},
                   "stableMetadata": {"tier": "gold", "seats": 3}},
         "values": [{"cpuTimeMetric": {"value": {"value": 5.0, "unit": "s"}}}]}
      ],
      "intervalEntries": [
        {"states": [], "duration": {"value": 3600.0, "unit": "s"},
         "values": [{"cpuTimeMetric": {"value": {"value": 7.0, "unit": "s"}}}]},
        {"states": [], "duration": {"value": 86400.0, "unit": "s"},
         "values": [
           {"cpuTimeMetric": {"value": {"value": 42.0, "unit": "s"}}},
           {"gpuTimeMetric": {"value": {"value": 750, "unit": "ms"}}},
           {"logicalDiskWritesMetric": {"value": {"value": 4096, "unit": "B"}}},
           {"timeToFirstDrawMetric": {"histogram": {"buckets": [
             {"lowerBound": {"value": 10, "unit": "ms"}, "upperBound": {"value": 20, "unit": "ms"}, "count": 2}]}}},
           {"hangTimeMetric": {"histogram": {"buckets": [
             {"lowerBound": {"value": 0.0, "unit": "s"}, "upperBound": {"value": 1.0, "unit": "s"}, "count": 5}]}}}
         ]}
      ],
      "environment": {"latestApplicationVersion": "2.0", "applicationBuildVersion": "12", "deviceType": "iPhone18,1",
        "osVersion": {"platform": "iPhone OS", "number": "27.0", "buildNumber": "24A5"}, "isTestFlightApp": false}
    }
    """

  @Test func theFullDayEntryIsThePayloadAndTheOthersAreKeptBeside() throws {
    let payload = try Support.metricPayload(Self.report)
    #expect(payload.latestApplicationVersion == "2.0")
    #expect(payload.metaData?.applicationBuildVersion == "12")
    #expect(payload.metaData?.osVersion == "iPhone OS 27.0 (24A5)")
    #expect(payload.cpuMetrics?.cumulativeCPUTime?.value == 42)
    #expect(payload.gpuMetrics?.cumulativeGPUTime?.value == 0.75)
    #expect(payload.diskIOMetrics?.cumulativeLogicalWrites?.value == 0.004096)
    let launch = try #require(payload.applicationLaunchMetrics?.histogrammedTimeToFirstDraw)
    #expect(launch.buckets == [HistogramBucket(start: 10, end: 20, count: 2)])
    let hang = try #require(payload.applicationResponsivenessMetrics?.histogrammedApplicationHangTime)
    #expect(hang.buckets == [HistogramBucket(start: 0, end: 1000, count: 5)])
    // 786240000 s after 2001-01-01 is 2025-12-01 00:00 UTC.
    #expect(payload.timeStampBegin == Date(timeIntervalSince1970: 1_764_547_200))
    #expect(payload.timeStampEnd == Date(timeIntervalSince1970: 1_764_633_600))
    #expect(payload.subIntervalEntries.count == 1)
    #expect(payload.subIntervalEntries[0].values.cpuMetrics?.cumulativeCPUTime?.value == 7)
    #expect(payload.subIntervalEntries[0].duration?.value == 3600)
    let state = try #require(payload.stateEntries.first)
    #expect(state.state.domain == "com.example.feature" && state.state.label == "premium")
    #expect(state.state.stableMetadata == ["tier": "gold", "seats": "3"])
    #expect(state.values.cpuMetrics?.cumulativeCPUTime?.value == 5)
    #expect(payload.unknownKeys.isEmpty)
  }

  @Test func byStateReportingDomainAndSwiftsEnumFormReadTheSame() throws {
    let grouped = """
      {"timeRange": {"begin": "2025-12-01T00:00:00Z", "end": "2025-12-01T23:59:00.250Z"},
       "stateEntries": {"com.example.feature": [
         {"state": {"label": "premium"}, "values": {"cpu": [{"cpuTime": {"_0": {"value": {"value": 5, "unit": "s"}}}}]}}]},
       "intervalEntries": [{"duration": {"value": 24, "unit": "hr"}, "states": {"com.example.feature": [{"label": "premium"}]},
         "values": {"cpu": [{"cpuTimeMetric": {"value": {"value": 42, "unit": "s"}}}],
                    "hangTimeMetric": {"histogram": {"buckets": []}}}}],
       "environment": {"latestApplicationVersion": "2.0"}}
      """
    let payload = try Support.metricPayload(grouped)
    #expect(payload.cpuMetrics?.cumulativeCPUTime?.value == 42)
    #expect(payload.applicationResponsivenessMetrics?.histogrammedApplicationHangTime?.buckets.isEmpty == true)
    #expect(payload.stateEntries.first?.state.domain == "com.example.feature")
    #expect(payload.stateEntries.first?.values.cpuMetrics?.cumulativeCPUTime?.value == 5)
    #expect(payload.timeStampEnd == Date(timeIntervalSince1970: 1_764_633_540))
    #expect(payload.unknownKeys.isEmpty)
  }

  @Test(arguments: [
    ("786240000", 1_764_547_200.0), ("1764547200", 1_764_547_200), ("1764547200000", 1_764_547_200),
    ("\"2025-12-01T00:00:00Z\"", 1_764_547_200), ("\"2025-12-01 01:00:00 +0100\"", 1_764_547_200),
  ])
  func datesInEveryFormAJSONEncoderWrites(begin: String, seconds: Double) throws {
    let payload = try Support.metricPayload(
      "{\"timeRange\": {\"begin\": \(begin)}, \"intervalEntries\": []}")
    #expect(payload.timeStampBegin == Date(timeIntervalSince1970: seconds))
  }

  @Test(arguments: [
    ("{\"timeRange\": {\"begin\": 0}, \"intervalEntries\": []}", "timeRange.begin", "no date of 2019"),
    ("{\"timeRange\": {\"begin\": 1e300}, \"intervalEntries\": []}", "timeRange.begin", "no date of 2019"),
    (
      "{\"intervalEntries\": [{\"values\": [{\"cpuTimeMetric\": {\"value\": {\"value\": 3}}}]}]}",
      "intervalEntries.0.values.0.cpuTimeMetric.value", "measurement has no unit"
    ),
    (
      "{\"intervalEntries\": [{\"values\": [{\"cpuTimeMetric\": {\"value\": {\"value\": -3, \"unit\": \"s\"}}}]}]}",
      "intervalEntries.0.values.0.cpuTimeMetric.value", "negative value"
    ),
    (
      "{\"intervalEntries\": [{\"values\": [{\"peakMemoryMetric\": {\"value\": {\"value\": 3, \"unit\": \"furlongs\"}}}]}]}",
      "intervalEntries.0.values.0.peakMemoryMetric.value", "unknown unit \"furlongs\""
    ),
    (
      "{\"intervalEntries\": [{\"values\": [{\"peakMemoryMetric\": {\"value\": {\"value\": 3, \"unit\": \"s\"}}}]}]}",
      "intervalEntries.0.values.0.peakMemoryMetric.value", "expected an amount of data, found a duration"
    ),
    ("{\"intervalEntries\": {\"x\": 3}}", "intervalEntries.x", "expected an object"),
  ])
  func aBadValueRejectsItsReportNamingTheKey(json: String, key: String, reason: String) throws {
    let error = try Support.decodingError(json)
    #expect(error.keyPath.joined(separator: ".") == key, "\(error)")
    #expect(error.reason.contains(reason), "\(error)")
  }

  /// A diagnostic report as a public test fixture has it (a hang beside `timeRange` and
  /// `environment`), with binary names in `binaryInfo`.
  @Test func aDiagnosticReportIsOneDiagnosticWithTheLegacyModel() throws {
    let json = """
      {"hangDiagnostic": {"hangDuration": {"value": 2500, "unit": "ms"},
        "callStackTree": {"callStackPerThread": true, "binaryInfo": [{"uuid": "A-1", "name": "MyApp"}],
          "callStackThreads": [{"threadAttributed": true, "rootFrames": [
            {"binaryUUID": "A-1", "offsetIntoBinaryTextSegment": 4660, "address": 4294971956, "sampleCount": 1,
             "subFrames": [{"binaryUUID": "B-2", "binaryName": "UIKitCore", "offsetIntoBinaryTextSegment": 16, "sampleCount": 1}]}]}]}},
       "timeRange": {"begin": 786240000, "end": 786240002},
       "environment": {"regionFormat": "DE", "osVersion": {"platform": "macOS", "number": "27.0", "buildNumber": "25A1"},
         "deviceType": "Mac16,1", "applicationVersion": "1.0", "applicationBuildVersion": "historical-12",
         "bundleIdentifier": "dev.test", "signpostData": [], "states": [{"domain": "tabs", "label": "feed"}], "pid": 42}}
      """
    let results = Support.decode(json)
    guard case .success(.diagnosticPayload(let payload, let kind)) = try #require(results.first).1 else {
      Issue.record("not a diagnostic payload: \(results)")
      return
    }
    #expect(kind == .diagnosticPayload)
    let hang = try #require(payload.diagnostics.first)
    #expect(payload.diagnostics.count == 1 && hang.kind == .hang)
    #expect(hang.hangDuration?.value == 2.5)
    #expect(
      hang.metaData.applicationVersion == "1.0" && hang.metaData.common.applicationBuildVersion == "historical-12")
    #expect(hang.metaData.common.osVersion == "macOS 27.0 (25A1)" && hang.metaData.common.pid == 42)
    #expect(hang.metaData.states == [ReportedState(domain: "tabs", label: "feed")])
    let tree = try #require(hang.callStackTree)
    #expect(tree.frames.map(\.label) == ["MyApp+0x1234", "UIKitCore+0x10"])
    // MyApp's frame ran below the shared region: the app's, signed by its binary's name.
    #expect(DiagnosticSignature(hang).text == "hang | MyApp < UIKitCore+0x10")
    #expect(payload.unknownKeys.isEmpty)
  }

  @Test func aMemoryExceptionIsADiagnosticKindOfItsOwn() throws {
    let json = """
      {"memoryExceptionDiagnostic": {"callStackTree": {"callStackPerThread": true, "callStackThreads": [
         {"threadAttributed": true, "rootFrames": [{"binaryUUID": "A-1", "binaryName": "MyApp",
          "offsetIntoBinaryTextSegment": 40000, "sampleCount": 1}]}]}},
       "timeRange": {"begin": 786240000, "end": 786240002}, "environment": {"applicationVersion": "1.0"}}
      """
    guard case .success(.diagnosticPayload(let payload, _)) = try #require(Support.decode(json).first).1 else {
      Issue.record("not a diagnostic payload")
      return
    }
    #expect(payload.memoryExceptionDiagnostics.count == 1)
    #expect(DiagnosticSignature(payload.diagnostics[0]).text == "memoryException | MyApp+0x9c40")
    var aggregate = DiagnosticAggregate(version: "1.0")
    aggregate.add(payload.diagnostics[0], begin: nil, end: nil, options: DiagnosticOptions(), countingPayload: true)
    #expect(aggregate.counts[.memoryException] == 1)
  }

  @Test func aDiagnosticReportWithoutAResultIsRejected() throws {
    let error = try Support.decodingError(
      "{\"timeRange\": {\"begin\": 786240000}, \"environment\": {}, \"crashDiagnostic\": {}, \"hangDiagnostic\": {}}")
    #expect(error.reason.contains("a second diagnostic result"), "\(error)")
  }

  @Test func metalLayersGiveFramesOverDrawingTime() throws {
    let payload = try Support.metricPayload(
      """
      {"timeRange": {"begin": 786240000}, "intervalEntries": [{"values": [
        {"metalFrameRateMetric": {"framesPerSecond": {"value": 60, "unit": "Hz"}, "frameCount": 600,
          "activeDrawingDuration": {"value": 10, "unit": "s"}, "layerName": "Board"}},
        {"metalFrameRateMetric": {"framesPerSecond": {"value": 30, "unit": "Hz"}, "frameCount": 300}}]}]}
      """)
    #expect(payload.metalFrameRates.map(\.layerName) == ["Board", nil])
    #expect(payload.metalFrameRates[1].framesPerSecond?.value == 30)
    // 600 frames in 10 s, and 300 frames at 30 fps (10 s): 900 frames in 20 s.
    #expect(payload.metalFramesPerSecond == 45)
    #expect(MetricID.metalFrameRate.metric.polarity == .higherIsBetter)
    #expect(MetricID.metalFrameRate.metric.unit == .framesPerSecond)
  }
}
