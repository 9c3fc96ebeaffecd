import Foundation

// The values of MetricKit 27's own Codable form (`MetricReport`, `DiagnosticReport`): a measurement
// is an object `{"value": 420, "unit": "ms"}` whose unit is a symbol, a histogram holds an array of
// `{lowerBound, upperBound, count}` buckets, an average is `{average, count, standardDeviation?}`,
// and a date is a number (seconds since 2001 by default) or an ISO 8601 string.
extension DecodingContext {
  private static let measurementKeys = KeySet(["value", "unit"])

  /// A measurement object of `kind`, in the kind's base unit divided by `divisor` (as
  /// ``measurement(_:_:divisor:)`` reads the strings of the legacy JSON, with the same arithmetic, so
  /// both forms of one value decode to the same number).
  func measurementObject(
    _ value: JSONValue, _ kind: MeasurementUnit.Kind, divisor: Double = 1
  ) throws(PayloadDecodingError) -> Double {
    guard value.kind == .object else {
      throw failure("expected a measurement such as {\"value\": 420, \"unit\": \"ms\"}, found \(value.kindName)")
    }
    var number: Double? = nil
    var symbol: UnsafeBufferPointer<UInt8>? = nil
    for member in value.children {
      switch Self.measurementKeys.index(of: member) {
      case 0:
        guard let n = member.double else { throw failure("value: expected a number, found \(member.kindName)") }
        number = n
      case 1:
        guard let s = member.stringBytes else { throw failure("unit: expected a string, found \(member.kindName)") }
        symbol = s
      default: break
      }
    }
    guard let number else { throw failure("measurement has no value") }
    guard let symbol else { throw failure("measurement has no unit") }
    let text = { "\(JSONWriter.number(number)) \(String(decoding: symbol, as: UTF8.self))" }
    guard let unit = MeasurementUnit.lookup(symbol) else {
      throw failure("unknown unit \"\(String(decoding: symbol, as: UTF8.self))\"")
    }
    return try checked(try MeasurementParser.measured(number, in: unit, text: text), kind, divisor: divisor, text: text)
  }

  /// A duration measurement object, in seconds.
  func secondsObject(_ value: JSONValue) throws(PayloadDecodingError) -> Measurement<UnitDuration> {
    Measurement(value: try measurementObject(value, .duration, divisor: 1000), unit: MetricUnit.secondsUnit)
  }

  /// An amount of data as a measurement object, in megabytes.
  func megabytesObject(_ value: JSONValue) throws(PayloadDecodingError) -> Measurement<UnitInformationStorage> {
    Measurement(value: try measurementObject(value, .storage, divisor: 1_000_000), unit: MetricUnit.megabytesUnit)
  }

  private static let histogramObjectKeys = KeySet(["buckets"])
  private static let bucketObjectKeys = KeySet(["lowerBound", "upperBound", "count"])

  /// A `Histogram<D>`: `{"buckets": [{"lowerBound": m, "upperBound": m, "count": n}, …]}`, edges of
  /// `kind` stored in `unit` (the kind's base unit divided by `divisor`).
  func histogramObject<U: Dimension>(
    _ value: JSONValue, kind: MeasurementUnit.Kind, unit: U, divisor: Double = 1
  ) throws(PayloadDecodingError) -> Histogram<U> {
    var buckets: [HistogramBucket] = []
    var sawBuckets = false
    for member in try object(value).children where Self.histogramObjectKeys.index(of: member) == 0 {
      sawBuckets = true
      try within("buckets") { () throws(PayloadDecodingError) in
        guard member.kind == .array else { throw failure("expected an array of buckets, found \(member.kindName)") }
        guard member.count <= limits.maximumBucketsPerHistogram else {
          throw failure("\(member.count) buckets, over the limit of \(limits.maximumBucketsPerHistogram) per histogram")
        }
        buckets.reserveCapacity(member.count)
        for (i, entry) in member.children.enumerated() {
          try within(String(i)) { () throws(PayloadDecodingError) in
            var lower: Double? = nil
            var upper: Double? = nil
            var count: Int? = nil
            for m in try object(entry).children where m.kind != .null {
              switch Self.bucketObjectKeys.index(of: m) {
              case 0:
                lower = try within("lowerBound") { () throws(PayloadDecodingError) in
                  try measurementObject(m, kind, divisor: divisor)
                }
              case 1:
                upper = try within("upperBound") { () throws(PayloadDecodingError) in
                  try measurementObject(m, kind, divisor: divisor)
                }
              case 2: count = try within("count") { () throws(PayloadDecodingError) in try self.count(m) }
              default: break
              }
            }
            guard let lower else { throw failure("bucket has no lowerBound") }
            guard let upper else { throw failure("bucket has no upperBound") }
            guard let count else { throw failure("bucket has no count") }
            guard lower <= upper else { throw failure("lowerBound \(lower) is above upperBound \(upper)") }
            buckets.append(HistogramBucket(start: lower, end: upper, count: count))
          }
        }
      }
    }
    guard sawBuckets else { throw failure("histogram has no buckets") }
    guard let histogram = Histogram(unit: unit, buckets: buckets) else { throw failure("invalid bucket edges") }
    return histogram
  }

  private static let averageObjectKeys = KeySet(["average", "count", "standardDeviation"])

  /// An `AverageStatistics<D>`: `{"average": m, "count": n, "standardDeviation": m?}`, the average
  /// and deviation divided by `divisor`.
  func averageObject<U: Dimension>(
    _ value: JSONValue, kind: MeasurementUnit.Kind, unit: U, divisor: Double
  ) throws(PayloadDecodingError) -> AverageMeasurement<U> {
    var mean: Double? = nil
    var deviation: Double? = nil
    var samples = 0
    for m in try object(value).children where m.kind != .null {
      switch Self.averageObjectKeys.index(of: m) {
      case 0:
        mean = try within("average") { () throws(PayloadDecodingError) in
          try measurementObject(m, kind, divisor: divisor)
        }
      case 1: samples = try within("count") { () throws(PayloadDecodingError) in try count(m) }
      case 2:
        deviation = try within("standardDeviation") { () throws(PayloadDecodingError) in
          // A deviation is a measurement in the average's unit, or a bare number in it.
          if let d = m.double {
            guard d.isFinite else { throw failure("expected a finite number") }
            return d < 0 ? nil : d
          }
          return try measurementObject(m, kind, divisor: divisor)
        }
      default: break
      }
    }
    guard let mean else { throw failure("average has no average") }
    return AverageMeasurement(
      averageMeasurement: Measurement(value: mean, unit: unit), standardDeviation: deviation, sampleCount: samples)
  }

  /// A `Codable` enum case's value, read with `table`: the case's struct itself, or, in Swift's
  /// synthesized form for a case with an unnamed value, its one member `_0` (errors then name it).
  mutating func decode<Root>(
    enumCase value: JSONValue, with table: FieldTable<Root>, into root: inout Root
  ) throws(PayloadDecodingError) {
    guard value.kind == .object, value.count == 1, let inner = value.member("_0") else {
      return try decode(value, with: table, into: &root)
    }
    do throws(PayloadDecodingError) {
      try decode(inner, with: table, into: &root)
    } catch {
      throw error.nested(under: "_0")
    }
  }

  /// The same, into a new value.
  mutating func decode<Root>(enumCase value: JSONValue, with table: FieldTable<Root>) throws(PayloadDecodingError)
    -> Root
  {
    var root = table.empty
    try decode(enumCase: value, with: table, into: &root)
    return root
  }

  /// A date as `JSONEncoder` writes one: a number of seconds since 2001-01-01 (its default), since
  /// 1970 (`.secondsSince1970`), or milliseconds since 1970 (`.millisecondsSince1970`), told apart by
  /// range (the years MetricKit can have written fall in disjoint ranges of the three); or an ISO
  /// 8601 string, with or without fractional seconds.
  mutating func date(_ value: JSONValue) throws(PayloadDecodingError) -> Date {
    if value.kind == .string { return try timestamp(value) }
    guard let n = value.double, n.isFinite else {
      throw failure("expected a date (a number or an ISO 8601 string), found \(value.kindName)")
    }
    let years = timestamps.plausibleYears
    // Beyond ±10¹³ s no candidate is a date of any plausible year (and the day count must fit Int).
    for candidate in [n + Date.timeIntervalBetween1970AndReferenceDate, n, n / 1000] where abs(candidate) < 1e13 {
      let days = Int((candidate / 86_400).rounded(.down))
      if years.contains(TimestampParser.civil(fromDays: days).year) {
        return Date(timeIntervalSince1970: candidate)
      }
    }
    throw failure(
      "\(JSONWriter.number(n)) is no date of \(years.lowerBound)–\(years.upperBound) in seconds since 2001, "
        + "seconds since 1970 or milliseconds since 1970")
  }
}
