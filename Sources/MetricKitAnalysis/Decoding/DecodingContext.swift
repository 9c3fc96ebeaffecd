import Foundation

/// The helpers every section decoder uses: typed reads that throw errors naming the offending text,
/// and the key-path bookkeeping that makes those errors point at the right place.
struct DecodingContext {
  let timestamps: TimestampParser
  let limits: InputLimits
  /// Set when a zone-less timestamp was read.
  var zoneAssumed = false

  /// Runs `body`, prefixing `key` to the key path of any error it throws.
  @inline(__always)
  func within<T>(
    _ key: @autoclosure () -> String, _ body: () throws(PayloadDecodingError) -> T
  ) throws(PayloadDecodingError) -> T {
    do { return try body() } catch { throw error.nested(under: key()) }
  }

  /// The same for mutating bodies.
  @inline(__always)
  mutating func withinMutating<T>(
    _ key: @autoclosure () -> String, _ body: (inout DecodingContext) throws(PayloadDecodingError) -> T
  ) throws(PayloadDecodingError) -> T {
    do { return try body(&self) } catch { throw error.nested(under: key()) }
  }

  /// An error at the current value.
  func failure(_ reason: String) -> PayloadDecodingError { PayloadDecodingError(keyPath: [], reason: reason) }

  /// Requires an object.
  func object(_ value: JSONValue) throws(PayloadDecodingError) -> JSONValue {
    guard value.kind == .object else { throw failure("expected an object, found \(value.kindName)") }
    return value
  }

  /// A string member value.
  func string(_ value: JSONValue) throws(PayloadDecodingError) -> String {
    guard let s = value.string else { throw failure("expected a string, found \(value.kindName)") }
    return s
  }

  /// A non-negative integer (counts).
  func count(_ value: JSONValue) throws(PayloadDecodingError) -> Int {
    guard let n = value.int64 else {
      if let d = value.double {
        throw failure("expected a whole count, found \(d)")
      }
      if let s = value.string, let n = Int64(s), n >= 0 { return Int(n) }
      throw failure("expected a count, found \(value.string.map { "\"\($0)\"" } ?? value.kindName)")
    }
    guard n >= 0 else { throw failure("negative count \(n)") }
    return Int(n)
  }

  /// A boolean, also accepting the strings and numbers collectors write ("1", 0, "true").
  func flag(_ value: JSONValue) throws(PayloadDecodingError) -> Bool {
    if let b = value.bool { return b }
    if let n = value.int64, n == 0 || n == 1 { return n == 1 }
    if let s = value.string {
      switch s.lowercased() {
      case "1", "true", "yes": return true
      case "0", "false", "no", "": return false
      default: break
      }
    }
    throw failure("expected a boolean, found \(value.string.map { "\"\($0)\"" } ?? value.kindName)")
  }

  /// A measurement string of the given kind, in that kind's base unit, scaled by `1 / divisor`.
  func measurement(
    _ value: JSONValue, _ kind: MeasurementUnit.Kind, divisor: Double = 1
  ) throws(PayloadDecodingError) -> Double {
    guard let bytes = value.stringBytes else {
      throw failure("expected a measurement string such as \"420 ms\", found \(value.kindName)")
    }
    let parsed = try MeasurementParser.parse(bytes)
    guard parsed.kind == kind else {
      throw failure(
        "expected \(kind.noun), found \(parsed.kind.noun) in \"\(String(decoding: bytes, as: UTF8.self))\"")
    }
    // Written in the wanted unit itself ("12.5 MB" for megabytes): the number as written, exactly.
    return parsed.scale == divisor ? parsed.number : parsed.value / divisor
  }

  /// A duration in seconds.
  func seconds(_ value: JSONValue) throws(PayloadDecodingError) -> Measurement<UnitDuration> {
    Measurement(value: try measurement(value, .duration, divisor: 1000), unit: CanonicalUnit.seconds)
  }

  /// An amount of data in megabytes (10⁶ bytes).
  func megabytes(_ value: JSONValue) throws(PayloadDecodingError) -> Measurement<UnitInformationStorage> {
    Measurement(value: try measurement(value, .storage, divisor: 1_000_000), unit: CanonicalUnit.megabytes)
  }

  /// A timestamp, noting whether its zone was assumed.
  mutating func timestamp(_ value: JSONValue) throws(PayloadDecodingError) -> Date {
    guard let bytes = value.stringBytes else { throw failure("expected a timestamp string, found \(value.kindName)") }
    let stamp = try timestamps.parse(bytes)
    if stamp.zoneAssumed { zoneAssumed = true }
    return stamp.date
  }

  /// Reads one member of a `metaData` (or `diagnosticMetaData`) object into `m`; false when the key
  /// is not one of the shared metadata fields.
  func metaDataField(_ member: JSONValue, into m: inout MetaData) throws(PayloadDecodingError) -> Bool {
    try within(member.key) { () throws(PayloadDecodingError) in
      if member.keyEquals("appBuildVersion") {
        m.applicationBuildVersion = try string(member)
      } else if member.keyEquals("osVersion") {
        m.osVersion = try string(member)
      } else if member.keyEquals("regionFormat") {
        m.regionFormat = try string(member)
      } else if member.keyEquals("deviceType") {
        m.deviceType = try string(member)
      } else if member.keyEquals("platformArchitecture") {
        m.platformArchitecture = try string(member)
      } else if member.keyEquals("bundleIdentifier") {
        m.bundleIdentifier = try string(member)
      } else if member.keyEquals("lowPowerModeEnabled") {
        m.lowPowerModeEnabled = try flag(member)
      } else if member.keyEquals("isTestFlightApp") {
        m.isTestFlightApp = try flag(member)
      } else if member.keyEquals("pid") {
        m.pid = try count(member)
      } else {
        return false
      }
      return true
    }
  }

  /// A histogram whose edges are measurements of `kind`, stored divided by `divisor`.
  func histogram<U: Dimension>(
    _ value: JSONValue, kind: MeasurementUnit.Kind, unit: U, divisor: Double = 1
  ) throws(PayloadDecodingError) -> Histogram<U> {
    let object = try object(value)
    var declared: Int? = nil
    var entries: [(index: Int, bucket: HistogramBucket)] = []
    for member in object.children {
      if member.keyEquals("histogramNumBuckets") {
        declared = try within("histogramNumBuckets") { () throws(PayloadDecodingError) in try count(member) }
      } else if member.keyEquals("histogramValue") {
        try within("histogramValue") { () throws(PayloadDecodingError) in
          guard member.kind == .object || member.kind == .array else {
            throw failure("expected an object of buckets, found \(member.kindName)")
          }
          guard member.count <= limits.maximumBucketsPerHistogram else {
            throw failure(
              "\(member.count) buckets, over the limit of \(limits.maximumBucketsPerHistogram) per histogram")
          }
          entries.reserveCapacity(member.count)
          for (position, entry) in member.children.enumerated() {
            let isObject = member.kind == .object
            try within(isObject ? entry.key : String(position)) { () throws(PayloadDecodingError) in
              guard let index = isObject ? entry.keyIndexValue : position else {
                throw failure("bucket key \"\(entry.key)\" is not an index")
              }
              if let bucket = try self.bucket(entry, kind: kind, divisor: divisor) {
                entries.append((index, bucket))
              }
            }
          }
        }
      }
    }
    // Keys come in any order ("10" before "2"): sort numerically.
    if !entries.isEmpty && !zip(entries, entries.dropFirst()).allSatisfy({ $0.index < $1.index }) {
      entries.sort { $0.index < $1.index }
    }
    guard let histogram = Histogram(unit: unit, buckets: entries.map(\.bucket), declaredBucketCount: declared) else {
      throw failure("invalid bucket edges")
    }
    return histogram
  }

  /// One bucket; nil for the empty `{}` entries MetricKit sometimes writes.
  private func bucket(
    _ value: JSONValue, kind: MeasurementUnit.Kind, divisor: Double
  ) throws(PayloadDecodingError) -> HistogramBucket? {
    let object = try object(value)
    if object.count == 0 { return nil }
    var start: Double? = nil
    var end: Double? = nil
    var bucketCount: Int? = nil
    for member in object.children {
      if member.keyEquals("bucketStart") {
        start = try within("bucketStart") { () throws(PayloadDecodingError) in
          try measurement(member, kind, divisor: divisor)
        }
      } else if member.keyEquals("bucketEnd") {
        end = try within("bucketEnd") { () throws(PayloadDecodingError) in
          try measurement(member, kind, divisor: divisor)
        }
      } else if member.keyEquals("bucketCount") {
        bucketCount = try within("bucketCount") { () throws(PayloadDecodingError) in try count(member) }
      }
    }
    guard let start else { throw failure("bucket has no bucketStart") }
    guard let end else { throw failure("bucket has no bucketEnd") }
    guard let bucketCount else { throw failure("bucket has no bucketCount") }
    guard start <= end else { throw failure("bucketStart \(start) is above bucketEnd \(end)") }
    return HistogramBucket(start: start, end: end, count: bucketCount)
  }
}
