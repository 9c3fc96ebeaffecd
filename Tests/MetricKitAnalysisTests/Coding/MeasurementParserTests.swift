import Testing

@testable import MetricKitAnalysis

@Suite("Measurement strings")
struct MeasurementParserTests {
  /// Every measurement format MetricKit writes, with the value in the kind's base unit (ms, bytes, bars, apl,
  /// instructions, ms per s).
  @Test(
    arguments: [
      ("420 ms", 420.0, "duration"),
      ("20 sec", 20_000, "duration"),
      ("200000 kB", 200_000_000, "storage"),
      ("2000 byte", 2000, "storage"),
      ("100 kiloinstructions", 100_000, "instructions"),
      ("1000 ms per s", 1000, "hitchRatio"),
      ("3 bars", 3, "signalBars"),
      ("50 apl", 50, "pixelLuminance"),
      ("1,000 ms", 1000, "duration"),
      ("20 secs.", 20_000, "duration"),
      ("2,000 byte", 2000, "storage"),
      ("820毫秒", 820, "duration"),
      ("2,717秒", 2_717_000, "duration"),
      ("1,106,818千字节", 1_106_818_000, "storage"),
      ("79 041 кБ", 79_041_000, "storage"),
      ("79\u{00A0}041 кБ", 79_041_000, "storage"),
      ("79\u{202F}041\u{00A0}кБ", 79_041_000, "storage"),
      ("1.000 ms", 1000, "duration"),
      ("1,5 ms", 1.5, "duration"),
      ("1,234.5 ms", 1234.5, "duration"),
      ("1.234,5 ms", 1234.5, "duration"),
      ("3,990,413,161 kiloinstructions", 3_990_413_161_000, "instructions"),
      ("0 bars", 0, "signalBars"),
      ("  7 MB ", 7_000_000, "storage"),
      ("1 min", 60_000, "duration"),
      ("500 µs", 0.5, "duration"),
    ] as [(String, Double, String)])
  func parsesValidMeasurement(text: String, value: Double, kind: String) throws {
    let parsed = try MeasurementParser.parse(text)
    #expect(parsed.value == value)
    #expect(parsed.kind == kind)
  }

  @Test(
    arguments: [
      ("12 fortnights", "unknown unit \"fortnights\""),
      ("ms", "no number"),
      ("", "no number"),
      ("42", "no unit"),
      ("1234567890123456789 ms", "number too large"),
      ("1,2,3 ms", "unparseable number"),
      ("1,000.000,5 ms", "unparseable number"),
      ("abc ms", "no number"),
    ])
  func rejectsBadMeasurement(text: String, expected: String) {
    do {
      _ = try MeasurementParser.parse(text)
      Issue.record("\"\(text)\" parsed, but should have been rejected")
    } catch {
      #expect(error.reason.contains(expected), "\(error.reason)")
      #expect(error.reason.contains("\"\(text)\""), "the reason quotes the offending text: \(error.reason)")
    }
  }
}

@Suite("Timestamps")
struct TimestampParserTests {
  @Test func zonedStamp() throws {
    let stamp = try TimestampParser().parse("2020-10-10 19:35:24 +0000")
    #expect(stamp.date.timeIntervalSince1970 == 1_602_358_524)
    #expect(!stamp.zoneAssumed)
  }

  @Test func offsetStamp() throws {
    let stamp = try TimestampParser().parse("2020-10-10 21:35:24 +0200")
    #expect(stamp.date.timeIntervalSince1970 == 1_602_358_524)
  }

  @Test func zonelessStampIsUTCUnlessToldOtherwise() throws {
    let utc = try TimestampParser().parse("2022-03-07 07:30:54")
    #expect(utc.date.timeIntervalSince1970 == 1_646_638_254)
    #expect(utc.zoneAssumed)
    let shifted = try TimestampParser(assumedUTCOffset: 3600).parse("2022-03-07 07:30:54")
    #expect(shifted.date.timeIntervalSince1970 == 1_646_638_254 - 3600)
  }

  @Test(arguments: ["2022-13-07 07:30:54", "yesterday", "2022-03-07 07:30", "2022-03-07 07:30:54 +2x00"])
  func rejectsBadStamp(text: String) {
    #expect(throws: PayloadDecodingError.self) { try TimestampParser().parse(text) }
  }
}
