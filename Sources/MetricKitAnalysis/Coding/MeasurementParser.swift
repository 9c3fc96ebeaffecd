/// Parses MetricKit's measurement strings: a number and a unit in one string, POSIX (`"420 ms"`,
/// `"200000 kB"`, `"1000 ms per s"`) or in the device's locale as iOS 13/14 wrote them (`"1,000 ms"`,
/// `"20 secs."`, `"820毫秒"`, `"1,106,818千字节"`, `"79 041 кБ"`).
///
/// Digits may be grouped by `,` `.` `'` space, no-break space (U+00A0) or narrow no-break space
/// (U+202F). A lone `.` or `,` followed by other than exactly three digits is a decimal mark.
public enum MeasurementParser {
  /// A parsed measurement in its kind's base unit (milliseconds, bytes, bars, apl, instructions,
  /// ms per s).
  struct Parsed {
    var value: Double
    var kind: MeasurementUnit.Kind
    /// The number as written and its unit's scale to the base unit (multiplier ÷ divisor): a caller
    /// wanting the value in a unit of exactly that scale takes `number` as it is (no round trip
    /// through the base unit, so what `jsonRepresentation()` writes decodes to the same value).
    var number: Double
    var scale: Double
  }

  /// The smallest non-zero value accepted, in the kind's base unit.
  static let smallestValue = 1e-9

  /// The largest number of integer digits accepted: beyond 18 a value no longer fits exactly.
  static let maximumIntegerDigits = 18

  /// Parses `text` (for tests and tools; decoders call the byte-level entry).
  /// - Returns: the value in its kind's base unit and the kind's name.
  public static func parse(_ text: String) throws(PayloadDecodingError) -> (value: Double, kind: String) {
    var copy = text
    let parsed = copy.withUTF8 { bytes in Result { () throws(PayloadDecodingError) in try parse(bytes) } }
    let value = try parsed.get()
    return (value.value, value.kind.rawValue)
  }

  /// Parses UTF-8 bytes in one pass, without allocating.
  static func parse(_ bytes: UnsafeBufferPointer<UInt8>) throws(PayloadDecodingError) -> Parsed {
    var i = skipSpaces(bytes, from: 0)
    var negative = false
    if i < bytes.count, bytes[i] == UInt8(ascii: "-") || bytes[i] == UInt8(ascii: "+") {
      negative = bytes[i] == UInt8(ascii: "-")
      i += 1
    }
    // Digit groups and the marks between them, summarized as they go by: enough to decide between a
    // thousands grouping and a decimal mark without storing the groups.
    var groups = 0
    var firstGroupLength = 0
    var lastGroupLength = 0
    var middleGroupsAreThree = true  // every group but the first and the last has three digits
    var firstMark: UInt32 = 0
    var lastMark: UInt32 = 0
    var earlierMarksAgree = true  // every mark but the last equals the first
    var digits = 0  // significant digits of the whole number so far
    var whole: UInt64 = 0  // all digits read
    var beforeLastGroup: UInt64 = 0  // digits before the last group
    var lastGroup: UInt64 = 0
    while true {
      let start = i
      var group: UInt64 = 0
      while i < bytes.count, isDigit(bytes[i]) {
        let d = UInt64(bytes[i] &- 0x30)
        if digits > 0 || d != 0 { digits += 1 }
        guard digits <= maximumIntegerDigits else { throw failure(bytes, "number too large") }
        whole = whole &* 10 &+ d
        group = group &* 10 &+ d
        i += 1
      }
      let length = i - start
      if length == 0 { break }
      if groups >= 2 && lastGroupLength != 3 { middleGroupsAreThree = false }
      if groups == 0 { firstGroupLength = length }
      groups += 1
      beforeLastGroup = groups == 1 ? 0 : (whole - group) / pow10(length)
      lastGroup = group
      lastGroupLength = length
      guard let (mark, width) = separator(bytes, at: i), i + width < bytes.count, isDigit(bytes[i + width]) else {
        break
      }
      if firstMark == 0 { firstMark = mark } else if lastMark != firstMark { earlierMarksAgree = false }
      lastMark = mark
      i += width
    }
    guard groups > 0 else { throw failure(bytes, "no number") }
    let marks = groups - 1
    var value: Double
    if marks == 0 {
      value = Double(whole)
    } else if earlierMarksAgree && lastMark == firstMark && firstGroupLength <= 3 && middleGroupsAreThree
      && lastGroupLength == 3
    {
      value = Double(whole)  // a thousands grouping: "1,106,818", "79 041", "1.000"
    } else {
      // The last mark must be a decimal mark (`.` or `,`), different from the grouping marks before
      // it, which must themselves group correctly: "1,5", "1,234.5", "1.234,5".
      let earlierGroupingValid = marks == 1 || (earlierMarksAgree && firstGroupLength <= 3 && middleGroupsAreThree)
      guard lastMark == 0x2E || lastMark == 0x2C, marks == 1 || firstMark != lastMark, earlierGroupingValid else {
        throw failure(bytes, "unparseable number")
      }
      // Correctly rounded (as strtod): the digits written back by `jsonRepresentation()` read as the
      // same double.
      let fraction = String(lastGroup)
      let text = "\(beforeLastGroup)." + String(repeating: "0", count: lastGroupLength - fraction.count) + fraction
      value = Double(text) ?? Double(beforeLastGroup) + Double(lastGroup) / Double(pow10(lastGroupLength))
    }
    if negative { value = -value }

    // The unit: the rest, with surrounding spaces removed.
    let unitStart = skipSpaces(bytes, from: i)
    var unitEnd = bytes.count
    while unitEnd > unitStart, let width = trailingSpaceWidth(bytes, end: unitEnd, start: unitStart) {
      unitEnd -= width
    }
    guard unitEnd > unitStart else { throw failure(bytes, "no unit") }
    let unitBytes = UnsafeBufferPointer(rebasing: bytes[unitStart..<unitEnd])
    guard let unit = MeasurementUnit.lookup(unitBytes) else {
      throw failure(bytes, "unknown unit \"\(String(decoding: unitBytes, as: UTF8.self))\"")
    }
    return try measured(value, in: unit) { String(decoding: bytes, as: UTF8.self) }
  }

  /// A number written in `unit`, checked and converted to its kind's base unit: the one place every
  /// measurement goes through, whether MetricKit wrote it as a string (`"420 ms"`) or, from iOS 27,
  /// as an object (`{"value": 420, "unit": "ms"}`); `text` shows it in errors.
  static func measured(
    _ value: Double, in unit: MeasurementUnit, text: () -> String
  ) throws(PayloadDecodingError) -> Parsed {
    func failure(_ what: String) -> PayloadDecodingError {
      PayloadDecodingError(keyPath: [], reason: "\(what) in \"\(text())\"")
    }
    let result = value * unit.multiplier / unit.divisor
    guard result.isFinite else { throw failure("number too large") }
    // Every quantity MetricKit measures (durations, data, ratios, luminance, bars, instructions) is
    // non-negative, and none is finer than a billionth of its base unit: a value below that is no
    // measurement (and would reach the report's scales as a subnormal).
    guard value >= 0 else { throw failure("negative value") }
    guard result == 0 || result >= smallestValue else { throw failure("number too small") }
    return Parsed(value: result, kind: unit.kind, number: value, scale: unit.multiplier / unit.divisor)
  }

  /// 10ⁿ for the digit counts a group can have (at most 18).
  @inline(__always) private static func pow10(_ n: Int) -> UInt64 {
    var p: UInt64 = 1
    for _ in 0..<min(n, 19) { p &*= 10 }
    return p
  }

  @inline(__always) private static func isDigit(_ b: UInt8) -> Bool { b &- 0x30 < 10 }

  /// A grouping or decimal mark at `i`: its scalar and its width in bytes.
  @inline(__always) private static func separator(_ b: UnsafeBufferPointer<UInt8>, at i: Int) -> (UInt32, Int)? {
    guard i < b.count else { return nil }
    switch b[i] {
    case 0x2C, 0x2E, 0x20, 0x27: return (UInt32(b[i]), 1)  // , . space '
    case 0xC2 where i + 1 < b.count && b[i + 1] == 0xA0: return (0xA0, 2)  // no-break space
    case 0xE2 where i + 2 < b.count && b[i + 1] == 0x80 && b[i + 2] == 0xAF: return (0x202F, 3)
    default: return nil
    }
  }

  /// Skips ASCII white space and no-break spaces.
  @inline(__always) private static func skipSpaces(_ b: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
    var i = start
    while i < b.count {
      if b[i] == 0x20 || b[i] == 0x09 {
        i += 1
      } else if b[i] == 0xC2, i + 1 < b.count, b[i + 1] == 0xA0 {
        i += 2
      } else if b[i] == 0xE2, i + 2 < b.count, b[i + 1] == 0x80, b[i + 2] == 0xAF {
        i += 3
      } else {
        break
      }
    }
    return i
  }

  @inline(__always) private static func trailingSpaceWidth(_ b: UnsafeBufferPointer<UInt8>, end: Int, start: Int)
    -> Int?
  {
    if b[end - 1] == 0x20 || b[end - 1] == 0x09 { return 1 }
    if end - start >= 2, b[end - 2] == 0xC2, b[end - 1] == 0xA0 { return 2 }
    if end - start >= 3, b[end - 3] == 0xE2, b[end - 2] == 0x80, b[end - 1] == 0xAF { return 3 }
    return nil
  }

  private static func failure(_ bytes: UnsafeBufferPointer<UInt8>, _ what: String) -> PayloadDecodingError {
    PayloadDecodingError(keyPath: [], reason: "\(what) in \"\(String(decoding: bytes, as: UTF8.self))\"")
  }
}
