import Foundation

/// The helpers every section decoder uses: typed reads that throw errors naming the offending text,
/// and the key-path bookkeeping that makes those errors point at the right place.
struct DecodingContext {
  let timestamps: TimestampParser
  let limits: InputLimits
  /// This thread's parsed measurement strings; nil parses every string, and reads every histogram
  /// with the general reader below, not ``BucketTapeReader`` (which the tests compare it with).
  var measurements: MeasurementCache? = nil
  /// Set when a zone-less timestamp was read.
  var zoneAssumed = false
  /// Members no table has a row for, counted by name (`cpuMetrics.newCounter`): what a user sends
  /// when MetricKit writes something this reader does not know. At most ``unknownKeyNamesKept``
  /// distinct names per document; the others are counted under ``moreUnknownKeys``.
  var unknownKeys: [String: Int] = [:]

  /// The most distinct unknown names kept per document (a hostile document may hold millions).
  static let unknownKeyNamesKept = 64
  /// The name the unknown keys past the kept ones are counted under.
  static let moreUnknownKeys = "(other unknown keys)"

  /// Counts an unknown member of an object read with `table`.
  mutating func noteUnknown<Root>(_ member: JSONValue, in table: FieldTable<Root>) {
    noteUnknown(table.unknownKeyName(member))
  }

  /// Counts an unknown name `n` times.
  mutating func noteUnknown(_ name: String, _ n: Int = 1) {
    unknownKeys.count(name, n, keeping: Self.unknownKeyNamesKept)
  }

  /// Counts unknown names.
  mutating func noteUnknown(_ counts: [String: Int]) {
    for (name, n) in counts { noteUnknown(name, n) }
  }

  /// Runs `body`, prefixing `key` to the key path of any error it throws.
  @inline(__always)
  func within<T>(
    _ key: @autoclosure () -> String, _ body: () throws(PayloadDecodingError) -> T
  ) throws(PayloadDecodingError) -> T {
    do { return try body() } catch { throw error.nested(under: key()) }
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
      if let s = value.string, let n = Int64(s), n >= 0, n <= Self.largestCount { return Int(n) }
      throw failure("expected a count, found \(value.string.map { "\"\($0)\"" } ?? value.kindName)")
    }
    guard n >= 0 else { throw failure("negative count \(n)") }
    guard n <= Self.largestCount else { throw failure("count \(n) is larger than any MetricKit writes") }
    return Int(n)
  }

  /// The largest count read (2⁴⁴, 17 trillion: no day of one device comes near it), so that sums of
  /// counts over a payload's buckets or a call stack's frames stay far inside `Int`.
  static let largestCount: Int64 = 1 << 44

  /// A whole number written as a JSON number (exception codes can be large and unsigned).
  func wholeNumber(_ value: JSONValue) throws(PayloadDecodingError) -> Int {
    if let n = value.int64 { return Int(n) }
    if let u = value.uint64 { return Int(truncatingIfNeeded: u) }  // a 64-bit code, kept as its bit pattern
    if let s = value.string, let n = Int(s) { return n }
    throw failure("expected a whole number, found \(value.kindName)")
  }

  /// A string, or a number written where a string is usual (`version`).
  func text(_ value: JSONValue) throws(PayloadDecodingError) -> String {
    if let s = value.string { return s }
    if let d = value.double { return JSONWriter.number(d) }
    throw failure("expected a string, found \(value.kindName)")
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
    let parsed: MeasurementParser.Parsed
    if let measurements {
      parsed = try measurements.parse(documentString: bytes)
    } else {
      parsed = try MeasurementParser.parse(bytes)
    }
    return try checked(parsed, kind, divisor: divisor) { String(decoding: bytes, as: UTF8.self) }
  }

  /// A parsed measurement (a string's, or an object's) checked to be of `kind`, in the kind's base unit
  /// divided by `divisor`; `text` shows it in errors.
  func checked(
    _ parsed: MeasurementParser.Parsed, _ kind: MeasurementUnit.Kind, divisor: Double, text: () -> String
  ) throws(PayloadDecodingError) -> Double {
    guard parsed.kind == kind else {
      throw failure("expected \(kind.noun), found \(parsed.kind.noun) in \"\(text())\"")
    }
    // Written in the wanted unit itself ("12.5 MB" for megabytes): the number as written, exactly.
    return parsed.scale == divisor ? parsed.number : parsed.value / divisor
  }

  /// A duration in seconds.
  func seconds(_ value: JSONValue) throws(PayloadDecodingError) -> Measurement<UnitDuration> {
    Measurement(value: try measurement(value, .duration, divisor: 1000), unit: MetricUnit.secondsUnit)
  }

  /// An amount of data in megabytes (10⁶ bytes).
  func megabytes(_ value: JSONValue) throws(PayloadDecodingError) -> Measurement<UnitInformationStorage> {
    Measurement(value: try measurement(value, .storage, divisor: 1_000_000), unit: MetricUnit.megabytesUnit)
  }

  /// A timestamp, noting whether its zone was assumed.
  mutating func timestamp(_ value: JSONValue) throws(PayloadDecodingError) -> Date {
    guard let bytes = value.stringBytes else { throw failure("expected a timestamp string, found \(value.kindName)") }
    let stamp = try timestamps.parse(bytes)
    if stamp.zoneAssumed { zoneAssumed = true }
    return stamp.date
  }

  /// Decodes an object's members with a table of rows: the one loop every section goes through.
  /// Each member's name is prefixed to the key path of any error its row throws.
  mutating func decode<Root>(_ value: JSONValue, with table: FieldTable<Root>) throws(PayloadDecodingError) -> Root {
    var root = table.empty
    try decode(value, with: table, into: &root)
    return root
  }

  /// The same, into an existing value (`diagnosticMetaData`, whose members are the diagnostic's own).
  mutating func decode<Root>(
    _ value: JSONValue, with table: FieldTable<Root>, into root: inout Root
  ) throws(PayloadDecodingError) {
    guard value.kind == .object else { throw failure("expected an object, found \(value.kindName)") }
    for member in value.children where member.kind != .null {
      guard let row = table.row(for: member) else {
        noteUnknown(member, in: table)
        continue
      }
      do { try table.read(member, row: row, &self, into: &root) } catch { throw error.nested(under: member.key) }
    }
  }

  /// The keys of an average (`averageSuspendedMemory`, `averagePixelLuminance`).
  private static let averageKeys = KeySet(["averageValue", "standardDeviation", "sampleCount"])

  /// An average with its standard deviation and sample count, its value and deviation divided by
  /// `divisor` (bytes to megabytes).
  func average<U: Dimension>(
    _ value: JSONValue, kind: MeasurementUnit.Kind, unit: U, divisor: Double
  ) throws(PayloadDecodingError) -> AverageMeasurement<U> {
    var mean: Double? = nil
    var deviation: Double? = nil
    var samples = 0
    for m in try object(value).children where m.kind != .null {
      do throws(PayloadDecodingError) {
        switch Self.averageKeys.index(of: m) {
        case 0: mean = try measurement(m, kind, divisor: divisor)
        case 1:
          guard let d = m.double, d.isFinite else { throw failure("expected a number, found \(m.kindName)") }
          deviation = d < 0 ? nil : d / divisor
        case 2: samples = try count(m)
        default: break
        }
      } catch {
        throw error.nested(under: m.key)
      }
    }
    guard let mean else { throw failure("average has no averageValue") }
    return AverageMeasurement(
      averageMeasurement: Measurement(value: mean, unit: unit), standardDeviation: deviation, sampleCount: samples)
  }

  /// The keys of a histogram object, and of one of its buckets.
  private static let histogramKeys = KeySet(["histogramNumBuckets", "histogramValue"])
  private static let bucketKeys = KeySet(["bucketStart", "bucketEnd", "bucketCount"])

  /// A histogram whose edges are measurements of `kind`, stored divided by `divisor`.
  func histogram<U: Dimension>(
    _ value: JSONValue, kind: MeasurementUnit.Kind, unit: U, divisor: Double = 1
  ) throws(PayloadDecodingError) -> Histogram<U> {
    let object = try object(value)
    var declared: Int? = nil
    var buckets: [HistogramBucket] = []
    for member in object.children {
      switch Self.histogramKeys.index(of: member) {
      case 0:
        declared = try within("histogramNumBuckets") { () throws(PayloadDecodingError) in try count(member) }
      case 1:
        try within("histogramValue") { () throws(PayloadDecodingError) in
          buckets = try self.buckets(member, kind: kind, divisor: divisor)
        }
      default: break
      }
    }
    // Moved in: passed as it was, the array was retained for the histogram and released after.
    guard let histogram = Histogram(unit: unit, buckets: consume buckets, declaredBucketCount: declared) else {
      throw failure("invalid bucket edges")
    }
    return histogram
  }

  /// The buckets of `histogramValue`, an object keyed by index or an array, in index order.
  private func buckets(
    _ value: JSONValue, kind: MeasurementUnit.Kind, divisor: Double
  ) throws(PayloadDecodingError) -> [HistogramBucket] {
    let isObject = value.kind == .object
    guard isObject || value.kind == .array else {
      throw failure("expected an object of buckets, found \(value.kindName)")
    }
    let count = value.count
    guard count <= limits.maximumBucketsPerHistogram else {
      throw failure("\(count) buckets, over the limit of \(limits.maximumBucketsPerHistogram) per histogram")
    }
    // MetricKit's usual layout, read in one flat pass; anything else, or anything wrong, below.
    if isObject, let measurements,
      let usual = BucketTapeReader(measurements: measurements, kind: kind, divisor: divisor).read(value)
    {
      return usual
    }
    var buckets: [HistogramBucket] = []
    buckets.reserveCapacity(count)
    // MetricKit writes bucket keys in any order ("10" before "2"): each bucket's index is kept beside
    // it (on the stack) to order them at the end.
    return try withUnsafeTemporaryAllocation(of: Int.self, capacity: count) {
      (indices) throws(PayloadDecodingError) -> [HistogramBucket] in
      var ascending = true
      for (position, entry) in value.children.enumerated() {
        do throws(PayloadDecodingError) {
          guard let index = isObject ? entry.keyIndexValue : position else {
            throw failure("bucket key \"\(entry.key)\" is not an index")
          }
          guard let bucket = try bucket(entry, kind: kind, divisor: divisor) else { continue }
          if let last = buckets.indices.last, index < indices[last] { ascending = false }
          indices[buckets.count] = index
          buckets.append(bucket)
        } catch {
          throw error.nested(under: isObject ? entry.key : String(position))
        }
      }
      if !ascending { Self.sort(&buckets, by: UnsafeMutableBufferPointer(rebasing: indices[..<buckets.count])) }
      return buckets
    }
  }

  /// Orders `buckets` by `indices` (one per bucket), stably. MetricKit's indices are distinct and
  /// dense (0..<n in any order), so each bucket is placed in the slot of its index in one pass;
  /// repeated or sparse indices go through a stable sort.
  private static func sort(_ buckets: inout [HistogramBucket], by indices: UnsafeMutableBufferPointer<Int>) {
    let highest = indices.max() ?? 0
    if highest < 4 * buckets.count + 64 {
      let placed = withUnsafeTemporaryAllocation(of: Int.self, capacity: highest + 1) { slots -> Bool in
        slots.initialize(repeating: -1)
        for (position, index) in indices.enumerated() {
          guard slots[index] < 0 else { return false }  // a repeated index
          slots[index] = position
        }
        var ordered: [HistogramBucket] = []
        ordered.reserveCapacity(buckets.count)
        for position in slots where position >= 0 { ordered.append(buckets[position]) }
        buckets = ordered
        return true
      }
      if placed { return }
    }
    buckets = zip(indices, buckets).sorted { $0.0 < $1.0 }.map(\.1)
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
      switch Self.bucketKeys.index(of: member) {
      case 0:
        start = try within("bucketStart") { () throws(PayloadDecodingError) in
          try measurement(member, kind, divisor: divisor)
        }
      case 1:
        end = try within("bucketEnd") { () throws(PayloadDecodingError) in
          try measurement(member, kind, divisor: divisor)
        }
      case 2:
        bucketCount = try within("bucketCount") { () throws(PayloadDecodingError) in try count(member) }
      default: break
      }
    }
    guard let start else { throw failure("bucket has no bucketStart") }
    guard let end else { throw failure("bucket has no bucketEnd") }
    guard let bucketCount else { throw failure("bucket has no bucketCount") }
    guard start <= end else { throw failure("bucketStart \(start) is above bucketEnd \(end)") }
    return HistogramBucket(start: start, end: end, count: bucketCount)
  }
}

extension [String: Int] {
  /// Counts `name` `n` times, keeping at most `limit` names: past them, a new name is counted under
  /// ``DecodingContext/moreUnknownKeys`` (a hostile document may hold millions of names).
  mutating func count(_ name: String, _ n: Int, keeping limit: Int) {
    if self[name] != nil || count < limit {
      self[name, default: 0] += n
    } else {
      self[DecodingContext.moreUnknownKeys, default: 0] += n
    }
  }
}
