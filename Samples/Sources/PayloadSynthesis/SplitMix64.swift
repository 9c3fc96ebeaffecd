import Foundation

/// A small, fast, deterministic random number generator (SplitMix64): the same seed gives the same
/// dump on every machine and every run.
public struct SplitMix64: RandomNumberGenerator, Sendable {
  private var state: UInt64

  /// Creates a generator from a seed.
  public init(seed: UInt64) { state = seed }

  public mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }

  /// A uniform double in [0, 1).
  public mutating func unit() -> Double { Double(next() >> 11) * 0x1p-53 }

  /// An index drawn in proportion to `weights`.
  public mutating func index(weightedBy weights: [Double]) -> Int {
    var u = unit() * weights.reduce(0, +)
    for (i, w) in weights.enumerated() {
      u -= w
      if u < 0 { return i }
    }
    return weights.count - 1
  }

  /// A standard normal draw (Box–Muller).
  public mutating func normal() -> Double {
    let u = max(unit(), 0x1p-53)
    let v = unit()
    return (-2 * Foundation.log(u)).squareRoot() * Foundation.cos(2 * Double.pi * v)
  }

  /// A log-normal draw with the given median and shape σ.
  public mutating func logNormal(median: Double, sigma: Double) -> Double {
    median * Foundation.exp(sigma * normal())
  }
}
