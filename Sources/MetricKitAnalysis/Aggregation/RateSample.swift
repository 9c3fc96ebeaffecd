/// A pooled rate Σ numerator ÷ Σ denominator over payloads (hang seconds per foreground hour).
///
/// The sums are ``ExactSum``s, so the rate does not depend on the order files were read or shards
/// merged; with the sums of squares and products they are all ``PooledRateTest`` needs. Up to ``exactLimit`` payloads each payload's pair is kept too (the per-payload rates of
/// the rank test); past it the per-payload rates are kept as a ``LogBucketSketch`` instead, like
/// ``ScalarSample``.
public struct RateSample: Sendable, Hashable {
  /// One payload's numerator and denominator.
  public struct Pair: Sendable, Hashable, Comparable {
    /// E.g. hang seconds.
    public var numerator: Double
    /// E.g. foreground hours.
    public var denominator: Double

    public static func < (a: Pair, b: Pair) -> Bool { (a.numerator, a.denominator) < (b.numerator, b.denominator) }
  }

  /// The pairs, in any order, while there are at most ``exactLimit``; nil after.
  public private(set) var pairs: [Pair]? = []
  /// The per-payload rates of payloads with a positive denominator, once the pairs are not kept.
  private var rateSketch: LogBucketSketch?
  /// The number of payloads.
  public private(set) var count = 0
  /// Σ numerator, exactly.
  public private(set) var numeratorSum = ExactSum()
  /// Σ denominator, exactly.
  public private(set) var denominatorSum = ExactSum()
  /// Σ numerator², exactly.
  public private(set) var numeratorSquares = ExactSum()
  /// Σ denominator², exactly.
  public private(set) var denominatorSquares = ExactSum()
  /// Σ numerator × denominator, exactly.
  public private(set) var products = ExactSum()
  /// The most payloads whose pairs are kept.
  public private(set) var exactLimit: Int

  /// Creates an empty sample.
  public init(exactLimit: Int = ScalarSample.defaultExactLimit) { self.exactLimit = max(0, exactLimit) }

  /// Creates a sample past its exact limit from its parts (reading snapshots): Σx, Σy, Σx², Σy², Σxy.
  init(count: Int, sums: [ExactSum], rates: LogBucketSketch?, exactLimit: Int) {
    self.init(exactLimit: exactLimit)
    self.count = count
    (numeratorSum, denominatorSum, numeratorSquares, denominatorSquares, products) = (
      sums[0], sums[1], sums[2], sums[3], sums[4]
    )
    pairs = nil
    rateSketch = rates ?? LogBucketSketch()
  }

  /// Creates a sample of `pairs` whose exact sums Σx, Σy, Σx², Σy², Σxy are known (reading a cache,
  /// which keeps them beside the pairs): the sums are taken as given, not summed again pair by pair.
  /// Past `exactLimit` pairs they are folded.
  init(pairs: [Pair], sums: [ExactSum], exactLimit: Int) {
    self.init(exactLimit: exactLimit)
    count = pairs.count
    (numeratorSum, denominatorSum, numeratorSquares, denominatorSquares, products) = (
      sums[0], sums[1], sums[2], sums[3], sums[4]
    )
    self.pairs = pairs
    if count > self.exactLimit { fold() }
  }

  /// Adds one payload.
  public mutating func append(numerator: Double, denominator: Double) {
    count += 1
    // A zero numerator adds nothing to its three sums (most device-days terminate no way at all).
    if numerator != 0 {
      numeratorSum.add(numerator)
      numeratorSquares.add(numerator * numerator)
      products.add(numerator * denominator)
    }
    denominatorSum.add(denominator)
    denominatorSquares.add(denominator * denominator)
    if pairs != nil {
      pairs!.append(Pair(numerator: numerator, denominator: denominator))
      if count > exactLimit { fold() }
    } else if denominator > 0 {
      rateSketch!.add(numerator / denominator)
    }
  }

  /// Adds another sample's payloads. The result keeps the smaller of the two limits.
  public mutating func merge(_ other: RateSample) {
    exactLimit = min(exactLimit, other.exactLimit)
    count += other.count
    for keyPath in Self.sumKeyPaths { self[keyPath: keyPath].add(other[keyPath: keyPath]) }
    if pairs != nil, let theirs = other.pairs {
      // In place, or taken as they are into an empty sample: a kept merge's millions of pairs are not
      // copied for a day's few.
      if pairs!.isEmpty { pairs = theirs } else { pairs!.append(contentsOf: theirs) }
      if count > exactLimit { fold() }
    } else {
      var sketch = perPayloadRates.binned
      sketch.merge(other.perPayloadRates.binned)
      (pairs, rateSketch) = (nil, sketch)
    }
  }

  /// Each payload's rate (payloads with a positive denominator): exact values, or a sketch past the
  /// limit.
  public var perPayloadRates: ScalarSample {
    if let rateSketch { return ScalarSample(sketch: rateSketch, exactLimit: exactLimit) }
    return ScalarSample(
      (pairs ?? []).filter { $0.denominator > 0 }.map { $0.numerator / $0.denominator }, exactLimit: .max)
  }

  /// Σx, Σy, Σx², Σy², Σxy.
  public var sums: [ExactSum] { Self.sumKeyPaths.map { self[keyPath: $0] } }

  private static var sumKeyPaths: [WritableKeyPath<RateSample, ExactSum>] {
    [\.numeratorSum, \.denominatorSum, \.numeratorSquares, \.denominatorSquares, \.products]
  }

  /// The per-payload rates as a sketch, once the pairs are not kept (for snapshots).
  var sketchedRates: LogBucketSketch? { rateSketch }

  /// Σ numerator ÷ Σ denominator; nil when the denominator sums to zero (never NaN).
  public var pooledRate: Double? {
    let denominator = denominatorSum.value
    guard denominator > 0 else { return nil }
    let rate = numeratorSum.value / denominator
    return rate.isFinite ? rate : nil
  }

  /// Replaces the pairs with a sketch of their rates.
  private mutating func fold() {
    var sketch = LogBucketSketch()
    for pair in pairs ?? [] where pair.denominator > 0 { sketch.add(pair.numerator / pair.denominator) }
    rateSketch = sketch
    pairs = nil
  }
}
