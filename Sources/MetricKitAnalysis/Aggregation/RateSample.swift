/// A pooled rate Σ numerator ÷ Σ denominator over payloads (hang seconds per foreground hour), kept
/// per payload so that the sums are taken in one canonical order (the output does not depend on the
/// order files were read) and so that per-payload rates stay available.
public struct RateSample: Sendable, Hashable {
  /// One payload's numerator and denominator.
  public struct Pair: Sendable, Hashable, Comparable {
    /// E.g. hang seconds.
    public var numerator: Double
    /// E.g. foreground hours.
    public var denominator: Double

    public static func < (a: Pair, b: Pair) -> Bool { (a.numerator, a.denominator) < (b.numerator, b.denominator) }
  }

  /// The pairs, in any order.
  public private(set) var pairs: [Pair] = []

  /// Creates an empty sample.
  public init() {}

  /// Adds one payload.
  public mutating func append(numerator: Double, denominator: Double) {
    pairs.append(Pair(numerator: numerator, denominator: denominator))
  }

  /// Adds another sample's pairs.
  public mutating func merge(_ other: RateSample) { pairs.append(contentsOf: other.pairs) }

  /// The number of payloads.
  public var count: Int { pairs.count }

  /// Σ numerator ÷ Σ denominator; nil when the denominator sums to zero (never NaN).
  public var pooledRate: Double? {
    var numerator = 0.0
    var denominator = 0.0
    for pair in pairs.sorted() {
      numerator += pair.numerator
      denominator += pair.denominator
    }
    guard denominator > 0 else { return nil }
    let rate = numerator / denominator
    return rate.isFinite ? rate : nil
  }
}
