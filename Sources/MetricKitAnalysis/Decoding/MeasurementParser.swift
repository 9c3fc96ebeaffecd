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
  }

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

  /// Parses UTF-8 bytes.
  static func parse(_ bytes: UnsafeBufferPointer<UInt8>) throws(PayloadDecodingError) -> Parsed {
    var i = skipSpaces(bytes, from: 0)
    var negative = false
    if i < bytes.count, bytes[i] == UInt8(ascii: "-") || bytes[i] == UInt8(ascii: "+") {
      negative = bytes[i] == UInt8(ascii: "-")
      i += 1
    }
    // Digit groups and the separators between them.
    var groups: [(start: Int, end: Int)] = []
    var separators: [UInt32] = []
    var groupStart = i
    while true {
      while i < bytes.count, isDigit(bytes[i]) { i += 1 }
      if i == groupStart { break }
      groups.append((groupStart, i))
      guard let (separator, width) = separator(bytes, at: i), i + width < bytes.count,
        isDigit(bytes[i + width])
      else { break }
      separators.append(separator)
      i += width
      groupStart = i
    }
    guard !groups.isEmpty else { throw failure(bytes, "no number") }

    // Which digits are the integer part and which the fraction.
    var integerGroups = groups[...]
    var fraction: (start: Int, end: Int)? = nil
    if let last = separators.last,
      !isGrouping(groups[...], separators[...])
    {
      // Not a valid grouping: the last mark must be a decimal mark (`.` or `,`) different from
      // the grouping marks before it, which must themselves group correctly.
      let earlier = separators.dropLast()
      guard last == 0x2E || last == 0x2C, !earlier.contains(last),
        isGrouping(groups.dropLast(), earlier)
      else { throw failure(bytes, "unparseable number") }
      fraction = groups[groups.count - 1]
      integerGroups = groups.dropLast()
    }
    var integer: UInt64 = 0
    var digits = 0
    for group in integerGroups {
      for k in group.start..<group.end {
        if digits > 0 || bytes[k] != UInt8(ascii: "0") { digits += 1 }
        guard digits <= maximumIntegerDigits else { throw failure(bytes, "number too large") }
        integer = integer * 10 + UInt64(bytes[k] &- 0x30)
      }
    }
    var value = Double(integer)
    if let fraction {
      var scale = 1.0
      var numerator = 0.0
      for k in fraction.start..<min(fraction.end, fraction.start + 17) {
        numerator = numerator * 10 + Double(bytes[k] &- 0x30)
        scale *= 10
      }
      value += numerator / scale
    }
    if negative { value = -value }

    // The unit: the rest, with surrounding spaces removed.
    let unitStart = skipSpaces(bytes, from: i)
    var unitEnd = bytes.count
    while unitEnd > unitStart, let width = trailingSpaceWidth(bytes, end: unitEnd, start: unitStart) {
      unitEnd -= width
    }
    guard unitEnd > unitStart else { throw failure(bytes, "no unit") }
    let unitText = String(decoding: UnsafeBufferPointer(rebasing: bytes[unitStart..<unitEnd]), as: UTF8.self)
    guard let unit = MeasurementUnit.table[unitText] else {
      throw failure(bytes, "unknown unit \"\(unitText)\"")
    }
    let result = value * unit.multiplier / unit.divisor
    guard result.isFinite else { throw failure(bytes, "number too large") }
    return Parsed(value: result, kind: unit.kind)
  }

  /// Whether digit groups joined by `separators` form a valid thousands grouping: one mark used
  /// throughout, a first group of one to three digits, then groups of exactly three.
  private static func isGrouping(
    _ groups: ArraySlice<(start: Int, end: Int)>, _ separators: ArraySlice<UInt32>
  ) -> Bool {
    guard let first = groups.first else { return false }
    if separators.isEmpty { return true }
    guard separators.allSatisfy({ $0 == separators.first }), first.end - first.start <= 3 else {
      return false
    }
    return groups.dropFirst().allSatisfy { $0.end - $0.start == 3 }
  }

  @inline(__always) private static func isDigit(_ b: UInt8) -> Bool { b &- 0x30 < 10 }

  /// A grouping or decimal mark at `i`: its scalar and its width in bytes.
  private static func separator(_ b: UnsafeBufferPointer<UInt8>, at i: Int) -> (UInt32, Int)? {
    guard i < b.count else { return nil }
    switch b[i] {
    case 0x2C, 0x2E, 0x20, 0x27: return (UInt32(b[i]), 1)  // , . space '
    case 0xC2 where i + 1 < b.count && b[i + 1] == 0xA0: return (0xA0, 2)  // no-break space
    case 0xE2 where i + 2 < b.count && b[i + 1] == 0x80 && b[i + 2] == 0xAF: return (0x202F, 3)
    default: return nil
    }
  }

  /// Skips ASCII white space and no-break spaces.
  private static func skipSpaces(_ b: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
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

  private static func trailingSpaceWidth(_ b: UnsafeBufferPointer<UInt8>, end: Int, start: Int) -> Int? {
    if b[end - 1] == 0x20 || b[end - 1] == 0x09 { return 1 }
    if end - start >= 2, b[end - 2] == 0xC2, b[end - 1] == 0xA0 { return 2 }
    if end - start >= 3, b[end - 3] == 0xE2, b[end - 2] == 0x80, b[end - 1] == 0xAF { return 3 }
    return nil
  }

  private static func failure(_ bytes: UnsafeBufferPointer<UInt8>, _ what: String) -> PayloadDecodingError {
    PayloadDecodingError(keyPath: [], reason: "\(what) in \"\(String(decoding: bytes, as: UTF8.self))\"")
  }
}
