import Foundation

/// Parses MetricKit's timestamps: `"2020-10-10 19:35:24 +0000"` (older systems) and
/// `"2022-03-07 07:30:54"` (newer, no zone: device-local time).
public struct TimestampParser: Sendable, Hashable {
  /// The offset from UTC, in seconds, assumed for stamps written without a zone.
  public var assumedUTCOffset: Int

  /// The years a stamp may be written in: MetricKit delivered its first payloads in 2019, and no
  /// device writes a stamp beyond next year. A stamp outside them rejects its payload.
  public var plausibleYears: ClosedRange<Int>

  /// Creates a parser that takes zone-less stamps as `assumedUTCOffset` seconds east of UTC (UTC by
  /// default), accepting stamps from 2019 to the end of next year unless `plausibleYears` says
  /// otherwise.
  public init(assumedUTCOffset: Int = 0, plausibleYears: ClosedRange<Int>? = nil) {
    self.assumedUTCOffset = assumedUTCOffset
    self.plausibleYears = plausibleYears ?? Self.firstMetricKitYear...(Self.currentYear + 1)
  }

  /// The year MetricKit delivered its first payloads (iOS 13).
  public static let firstMetricKitYear = 2019

  /// This year, in UTC.
  static var currentYear: Int {
    civil(fromDays: Int((Date().timeIntervalSince1970 / 86_400).rounded(.down))).year
  }

  /// A parsed stamp and whether its zone was assumed.
  public struct Timestamp: Sendable, Hashable {
    /// The instant.
    public var date: Date
    /// True when the text had no zone and `assumedUTCOffset` was applied.
    public var zoneAssumed: Bool
  }

  /// Parses a stamp.
  public func parse(_ text: String) throws(PayloadDecodingError) -> Timestamp {
    var copy = text
    return try copy.withUTF8 { bytes in Result { () throws(PayloadDecodingError) in try parse(bytes) } }.get()
  }

  func parse(_ b: UnsafeBufferPointer<UInt8>) throws(PayloadDecodingError) -> Timestamp {
    func fail() -> PayloadDecodingError {
      PayloadDecodingError(
        keyPath: [],
        reason: "unparseable timestamp \"\(String(decoding: b, as: UTF8.self))\" "
          + "(expected \"yyyy-MM-dd HH:mm:ss\" with an optional \"+hhmm\")")
    }
    func number(_ from: Int, _ count: Int) -> Int? {
      guard from + count <= b.count else { return nil }
      var n = 0
      for i in from..<(from + count) {
        let d = b[i] &- 0x30
        guard d < 10 else { return nil }
        n = n * 10 + Int(d)
      }
      return n
    }
    guard b.count >= 19, b[4] == 0x2D, b[7] == 0x2D, b[10] == 0x20 || b[10] == 0x54, b[13] == 0x3A,
      b[16] == 0x3A, let year = number(0, 4), let month = number(5, 2), let day = number(8, 2),
      let hour = number(11, 2), let minute = number(14, 2), let second = number(17, 2),
      (1...12).contains(month), day >= 1, day <= Self.daysInMonth(year: year, month: month), hour < 24,
      minute < 60, second < 61
    else { throw fail() }
    guard plausibleYears.contains(year) else {
      throw PayloadDecodingError(
        keyPath: [],
        reason: "timestamp \"\(String(decoding: b, as: UTF8.self))\" is outside \(plausibleYears.lowerBound)–"
          + "\(plausibleYears.upperBound): not a stamp MetricKit writes")
    }
    var i = 19
    // Fractional seconds are tolerated (collectors re-serialize) and ignored.
    if i < b.count, b[i] == 0x2E {
      i += 1
      while i < b.count, b[i] &- 0x30 < 10 { i += 1 }
    }
    while i < b.count, b[i] == 0x20 { i += 1 }
    var offset = assumedUTCOffset
    var zoneAssumed = true
    if i < b.count {
      if b[i] == 0x5A, i + 1 == b.count {  // "Z"
        offset = 0
      } else {
        guard b[i] == 0x2B || b[i] == 0x2D else { throw fail() }
        let sign = b[i] == 0x2D ? -1 : 1
        var j = i + 1
        guard let hh = number(j, 2) else { throw fail() }
        j += 2
        if j < b.count, b[j] == 0x3A { j += 1 }
        guard let mm = number(j, 2), j + 2 == b.count, hh < 24, mm < 60 else { throw fail() }
        offset = sign * (hh * 3600 + mm * 60)
      }
      zoneAssumed = false
    }
    let days = Self.daysFromCivil(year: year, month: month, day: day)
    let seconds = days * 86_400 + hour * 3600 + minute * 60 + second - offset
    return Timestamp(date: Date(timeIntervalSince1970: TimeInterval(seconds)), zoneAssumed: zoneAssumed)
  }

  /// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's algorithm).
  /// The days of a month of the proleptic Gregorian calendar (February 29 in leap years).
  static func daysInMonth(year: Int, month: Int) -> Int {
    switch month {
    case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
    case 4, 6, 9, 11: 30
    default: 31
    }
  }

  /// The calendar date of a day counted from 1970-01-01 (the inverse of `daysFromCivil`).
  static func civil(fromDays days: Int) -> (year: Int, month: Int, day: Int) {
    let z = days + 719_468
    let era = (z >= 0 ? z : z - 146_096) / 146_097
    let doe = z - era * 146_097
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
    let mp = (5 * doy + 2) / 153
    let day = doy - (153 * mp + 2) / 5 + 1
    let month = mp < 10 ? mp + 3 : mp - 9
    return (yoe + era * 400 + (month <= 2 ? 1 : 0), month, day)
  }

  static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
    let y = month <= 2 ? year - 1 : year
    let era = (y >= 0 ? y : y - 399) / 400
    let yoe = y - era * 400
    let mp = (month + 9) % 12
    let doy = (153 * mp + 2) / 5 + day - 1
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
    return era * 146_097 + doe - 719_468
  }
}
