/// How a snapshot writes per-payload samples: an exact sample as its sorted values, a sample past its
/// exact limit as its sketch (format 2):
/// ```
/// {"relativeAccuracy": 0.01, "count": N, "sum": "0x1b3p-10", "minimum": v, "maximum": v,
///  "zeros": N, "positive": [first index, count, count, …], "negative": [first index, count, …]}
/// ```
/// `positive[0]` is the index i of the first bucket (γⁱ⁻¹, γⁱ] of the counts that follow, one per
/// consecutive bucket, where a negative number −k stands for k empty buckets; `negative` is the same
/// for the magnitudes of negative values; `sum` is an ``ExactSum``. A rate sample past its limit is `{"payloads": N, "numeratorSum": "0x…",
/// "denominatorSum": "0x…", "rates": sketch | null}`.
extension VersionSnapshot {
  static func json(_ sample: ScalarSample) -> JSONWriter.Value {
    var text: PackedNumbers? = nil
    return json(sample, packing: &text)
  }

  /// A sample's JSON, its exact values packed into `packing` when there is one.
  static func json(_ sample: ScalarSample, packing: inout PackedNumbers?) -> JSONWriter.Value {
    if let values = sample.exactValues {
      // Packed as they are held (a sample is the same in any order, and sorting millions costs),
      // unless the packing sorts them (a sample already in order is taken as it is).
      if packing != nil { return packing!.pack(packing!.sortsSamples ? sample.ascendingExact : values) }
      return .array(sample.ascendingExact.map { .number($0) })
    }
    return json(sample.binned)
  }

  static func json(_ sketch: LogBucketSketch) -> JSONWriter.Value {
    func store(_ s: LogBucketSketch.Store) -> JSONWriter.Value {
      guard !s.counts.isEmpty else { return .array([]) }
      var out: [JSONWriter.Value] = [.integer(Int128(s.first))]
      var empty = 0
      for n in s.counts {
        if n == 0 {
          empty += 1
          continue
        }
        if empty > 0 { out.append(.integer(Int128(-empty))) }
        empty = 0
        out.append(.integer(Int128(n)))
      }
      return .array(out)
    }
    return .object([
      ("relativeAccuracy", .number(LogBucketSketch.relativeAccuracy)),
      ("count", .integer(Int128(sketch.count))),
      ("sum", .string(sketch.sum.hexadecimal)),
      ("minimum", .number(sketch.minimum)),
      ("maximum", .number(sketch.maximum)),
      ("zeros", .integer(Int128(sketch.zeroCount))),
      ("positive", store(sketch.positive)),
      ("negative", store(sketch.negative)),
    ])
  }

  static func json(_ rates: RateSample) -> JSONWriter.Value {
    var text: PackedNumbers? = nil
    return json(rates, packing: &text)
  }

  /// A rate sample's JSON, its exact pairs packed into `packing` when there is one.
  static func json(_ rates: RateSample, packing: inout PackedNumbers?) -> JSONWriter.Value {
    if let pairs = rates.pairs {
      if packing != nil {
        // With their exact sums, which a reading takes as they are instead of summing every pair again.
        let packed = packing!.pack(pairs.flatMap { [$0.numerator, $0.denominator] }, pairs: true)
        return .object([("pairs", packed)] + zip(rateSumKeys, rates.sums).map { ($0, .string($1.hexadecimal)) })
      }
      return .array(pairs.sorted().map { .array([.number($0.numerator), .number($0.denominator)]) })
    }
    let sketch = rates.sketchedRates.flatMap { $0.count > 0 ? $0 : nil }
    return .object(
      [("payloads", .integer(Int128(rates.count)))]
        + zip(rateSumKeys, rates.sums).map { ($0, .string($1.hexadecimal)) }
        + [("rates", sketch.map(json) ?? .null)])
  }

  /// The numbers `reference` names in `packed`, each a measurement.
  private static func unpack(_ reference: String, from packed: PackedNumbers?, _ key: String)
    throws(PayloadDecodingError) -> [Double]
  {
    guard let packed, let values = packed.unpack(reference) else { throw notPacked(reference, key) }
    if let d = values.withUnsafeBufferPointer({ firstNonMeasurement(in: $0, { $0 }) }) { throw notAMeasurement(d, key) }
    return values
  }

  /// The pairs `reference` names in `packed`, each number a measurement.
  private static func unpackPairs(_ reference: String, from packed: PackedNumbers?, _ key: String)
    throws(PayloadDecodingError) -> [RateSample.Pair]
  {
    guard let packed, let pairs = packed.unpackPairs(reference) else { throw notPacked(reference, key) }
    let numerators = pairs.withUnsafeBufferPointer { firstNonMeasurement(in: $0, \.numerator) }
    let denominators = pairs.withUnsafeBufferPointer { firstNonMeasurement(in: $0, \.denominator) }
    if let d = numerators ?? denominators { throw notAMeasurement(d, key) }
    return pairs
  }

  /// The first of `values` (each's `number`) that is not a measurement; nil when all are. Every value
  /// is looked at without a branch each (the loop vectorizes: a kept merge's millions of values are
  /// checked in a fraction of the time a test and exit per value took), then the offender searched
  /// for only when there is one.
  @inline(__always)
  private static func firstNonMeasurement<Element>(
    in values: UnsafeBufferPointer<Element>, _ number: (Element) -> Double
  ) -> Double? {
    var outside: UInt8 = 0
    for value in values {
      let d = number(value)
      outside |= (d == 0) || (d >= smallestValue && d <= .greatestFiniteMagnitude) ? 0 : 1
    }
    guard outside != 0 else { return nil }
    return values.lazy.map(number).first { !isMeasurement($0) }
  }

  /// The failure of a reference that names no packed numbers.
  private static func notPacked(_ reference: String, _ key: String) -> PayloadDecodingError {
    PayloadDecodingError(keyPath: [key], reason: "'\(reference.prefix(40))' is not a reference to packed numbers")
  }

  /// The failure of a packed value `d` that is not a measurement.
  private static func notAMeasurement(_ d: Double, _ key: String) -> PayloadDecodingError {
    PayloadDecodingError(
      keyPath: [key],
      reason: d < 0 || !d.isFinite ? "value \(d) is not a measurement" : "value \(d) too small to be a measurement")
  }

  /// The members of a rate sample's exact sums, in ``RateSample/sums``' order.
  private static let rateSumKeys = [
    "numeratorSum", "denominatorSum", "numeratorSquares", "denominatorSquares", "products",
  ]

  static func sample(_ v: JSONValue, _ key: String, exactLimit: Int, packed: PackedNumbers? = nil)
    throws(PayloadDecodingError) -> ScalarSample
  {
    if v.kind == .array { return ScalarSample(try numbers(v, key), exactLimit: exactLimit) }
    if let reference = v.string {
      return ScalarSample(try unpack(reference, from: packed, key), exactLimit: exactLimit)
    }
    return ScalarSample(sketch: try sketch(v, key), exactLimit: exactLimit)
  }

  static func rates(_ v: JSONValue, _ key: String, exactLimit: Int, packed: PackedNumbers? = nil)
    throws(PayloadDecodingError) -> RateSample
  {
    func fail(_ reason: String) -> PayloadDecodingError { PayloadDecodingError(keyPath: [key], reason: reason) }
    // The exact sums an object holds beside its pairs or its sketch.
    func exactSums() -> [ExactSum] {
      rateSumKeys.compactMap { key in v.children.first { $0.key == key }?.string.flatMap(ExactSum.init(hexadecimal:)) }
    }
    if v.kind == .object, let reference = v.member("pairs")?.string {
      let sums = exactSums()
      guard sums.count == 5 else {
        throw fail("expected packed pairs and the exact sums \(rateSumKeys.joined(separator: ", "))")
      }
      return RateSample(
        pairs: try unpackPairs(reference, from: packed, key), sums: sums, exactLimit: exactLimit)
    }
    if v.kind == .array {
      var sample = RateSample(exactLimit: exactLimit)
      for pair in v.children {
        let values = try numbers(pair, key)
        guard values.count == 2 else { throw fail("expected [numerator, denominator] pairs") }
        sample.append(numerator: values[0], denominator: values[1])
      }
      return sample
    }
    let sums = exactSums()
    guard v.kind == .object, let payloadsMember = v.member("payloads"), sums.count == 5 else {
      throw fail("expected pairs, or payloads and the exact sums \(rateSumKeys.joined(separator: ", "))")
    }
    let payloads = try count(payloadsMember, "\(key).payloads")
    let rates = try v.member("rates").flatMap { r throws(PayloadDecodingError) in
      r.kind == .null ? nil : try sketch(r, "\(key).rates")
    }
    return RateSample(count: payloads, sums: sums, rates: rates, exactLimit: exactLimit)
  }

  private static func sketch(_ v: JSONValue, _ key: String) throws(PayloadDecodingError) -> LogBucketSketch {
    func fail(_ reason: String) -> PayloadDecodingError { PayloadDecodingError(keyPath: [key], reason: reason) }
    guard v.kind == .object else { throw fail("expected an array of values or a sketch") }
    guard v.member("relativeAccuracy")?.double == LogBucketSketch.relativeAccuracy else {
      throw fail("a sketch of another relative accuracy (this build reads \(LogBucketSketch.relativeAccuracy))")
    }
    func store(_ name: StaticString) throws(PayloadDecodingError) -> [(index: Int, count: Int)] {
      guard let s = v.member(name), s.kind == .array else { throw fail("\(name): expected an array") }
      let items = Array(s.children)
      guard let first = items.first else { return [] }
      guard let start = first.int64, abs(start) < 1 << 40 else { throw fail("\(name): expected a bucket index") }
      var out: [(index: Int, count: Int)] = []
      var index = Int(start)
      for item in items.dropFirst() {
        guard let n = item.int64, n != 0, abs(n) < 1 << 40 else { throw fail("\(name): expected counts") }
        if n > 0 { out.append((index, Int(n))) }
        index += n > 0 ? 1 : Int(-n)
      }
      return out
    }
    guard let countMember = v.member("count"), let zerosMember = v.member("zeros") else {
      throw fail("a sketch without its count and zeros")
    }
    let total = try Self.count(countMember, "\(key).count")
    let zeros = try Self.count(zerosMember, "\(key).zeros")
    guard
      let sum = v.member("sum")?.string.flatMap(ExactSum.init(hexadecimal:)),
      let minimum = v.member("minimum")?.double, let maximum = v.member("maximum")?.double,
      let sketch = LogBucketSketch(
        count: total, sum: sum, minimum: minimum, maximum: maximum, zeroCount: zeros,
        positive: try store("positive"), negative: try store("negative"))
    else { throw fail("a sketch whose count, sum, minimum, maximum, zeros and buckets do not agree") }
    return sketch
  }
}
