import Foundation
import Testing

@testable import MetricKitAnalysis

/// Values no device writes are refused where they are read, naming the key and the text: negative
/// quantities (a hostile candidate would look faster), values too small to be measurements (they reach
/// the report's scales as subnormals), and timestamps outside the years MetricKit has existed.
@Suite("Implausible values")
struct ImplausibleValueTests {
  static func payload(_ members: String, stamp: String = "2024-05-01 00:00:00") -> String {
    """
    {"appVersion": "1.0", "timeStampBegin": "\(stamp)", "timeStampEnd": "\(stamp)", \(members)}
    """
  }

  @Test(arguments: [
    (#""cpuMetrics": {"cumulativeCPUTime": "-10 sec"}"#, "cpuMetrics.cumulativeCPUTime", "negative value"),
    (
      #""applicationTimeMetrics": {"cumulativeForegroundTime": "-100 sec"}"#,
      "applicationTimeMetrics.cumulativeForegroundTime", "negative value"
    ),
    (
      #""animationMetrics": {"scrollHitchTimeRatio": "-7 ms per s"}"#, "animationMetrics.scrollHitchTimeRatio",
      "negative"
    ),
    (
      #""applicationLaunchMetrics": {"histogrammedTimeToFirstDrawKey": {"histogramNumBuckets": 1, "histogramValue": {"0": {"bucketStart": "-500 ms", "bucketEnd": "100 ms", "bucketCount": 3}}}}"#,
      "applicationLaunchMetrics.histogrammedTimeToFirstDrawKey", "negative value"
    ),
    (
      "\"memoryMetrics\": {\"peakMemoryUsage\": \"0.\(String(repeating: "0", count: 312))1 kB\"}",
      "memoryMetrics.peakMemoryUsage", "number too small"
    ),
    (
      "\"applicationLaunchMetrics\": {\"histogrammedTimeToFirstDrawKey\": {\"histogramValue\": {\"0\": {\"bucketStart\": \"0 ms\", \"bucketEnd\": \"0.\(String(repeating: "0", count: 320))1 ms\", \"bucketCount\": 3}}}}",
      "applicationLaunchMetrics.histogrammedTimeToFirstDrawKey", "number too small"
    ),
  ])
  func aNegativeOrVanishingQuantityRejectsItsPayload(members: String, key: String, reason: String) throws {
    let error = try Support.decodingError(Self.payload(members))
    #expect(error.keyPath.joined(separator: ".").hasPrefix(key), "\(error)")
    #expect(error.reason.contains(reason), "\(error)")
  }

  @Test func aCountBeyondAnyMetricKitWritesRejectsItsPayload() throws {
    let error = try Support.decodingError(
      Self.payload(
        #""applicationResponsivenessMetrics": {"histogrammedAppHangTime": {"histogramValue": {"#
          + #""0": {"bucketStart": "0 ms", "bucketEnd": "1 ms", "bucketCount": 9223372036854775807},"#
          + #""1": {"bucketStart": "1 ms", "bucketEnd": "2 ms", "bucketCount": 9223372036854775807}}}}"#))
    #expect(error.reason.contains("larger than any MetricKit writes"), "\(error)")
  }

  @Test func zeroAndTheSmallestMeasurementAreKept() throws {
    let p = try Support.metricPayload(
      Self.payload(
        #""cpuMetrics": {"cumulativeCPUTime": "0 sec"}, "memoryMetrics": {"peakMemoryUsage": "0.000000000001 kB"}"#))
    #expect(p.cpuMetrics?.cumulativeCPUTime?.value == 0)
    #expect(p.memoryMetrics?.peakMemoryUsage?.value == 1e-15)
    #expect(throws: PayloadDecodingError.self) { try MeasurementParser.parse("0.0000000000001 ms") }
  }

  @Test(arguments: ["0000-01-01 00:00:00", "0999-12-31 23:59:59 +0000", "2018-12-31 23:59:59", "9999-01-01 00:00:00"])
  func aTimestampOutsideMetricKitsYearsRejectsItsPayload(stamp: String) throws {
    let error = try Support.decodingError(Self.payload(#""metaData": {}"#, stamp: stamp))
    #expect(error.keyPath == ["timeStampBegin"], "\(error)")
    #expect(error.reason.contains("not a stamp MetricKit writes"), "\(error)")
  }

  @Test func theYearsAcceptedRunFrom2019ToNextYear() throws {
    let parser = TimestampParser()
    #expect(parser.plausibleYears.lowerBound == 2019)
    #expect(parser.plausibleYears.upperBound == TimestampParser.currentYear + 1)
    #expect(throws: Never.self) { try parser.parse("2019-01-01 00:00:00 +0000") }
    #expect(throws: Never.self) { try parser.parse("\(TimestampParser.currentYear + 1)-12-31 23:59:59") }
    #expect(throws: PayloadDecodingError.self) { try parser.parse("\(TimestampParser.currentYear + 2)-01-01 00:00:00") }
  }

  @Test func daysAreWrittenWithFourDigitYears() {
    let day = CalendarDay(daysSinceEpoch: TimestampParser.daysFromCivil(year: 5, month: 3, day: 7))
    #expect(day.description == "0005-03-07")
    #expect(CalendarDay(parsing: day.description) == day)
    #expect(
      CalendarDay(daysSinceEpoch: TimestampParser.daysFromCivil(year: -1, month: 12, day: 27)).description
        == "-0001-12-27")
    #expect(CalendarDay(daysSinceEpoch: 0).description == "1970-01-01")
  }
}
