import Foundation

/// The Cochran–Mantel–Haenszel comparison of two versions' shares of event-free device-days within
/// strata (crash-free device-days).
///
/// In each stratum, a of the candidate's n₁ device-days and b of the baseline's n₀ are event-free
/// (N = n₀ + n₁, m = a + b). The test is conditional on each stratum's margins: under no change, a is
/// hypergeometric with mean n₁ m ÷ N and variance n₀ n₁ m (N − m) ÷ (N² (N − 1)), so
/// Z = Σ (a − E a) ÷ √Σ Var a, one-sided normal p-values. The common difference of shares is
/// Mantel–Haenszel's, Σ (a n₀ − b n₁) ÷ N over Σ n₀ n₁ ÷ N, and its 95% interval uses Sato's (1989)
/// variance, which holds for many sparse strata and for a few large ones alike.
public struct MantelHaenszelShareTest: Sendable, Hashable {
  /// The common difference of shares, candidate − baseline (a fraction: 0.005 is half a point).
  public var difference: Double
  /// The standardized statistic: positive when the candidate has more event-free days than the
  /// margins predict.
  public var z: Double
  /// P(this many event-free candidate days or more | equal shares within every stratum).
  public var pHigher: Double
  /// P(this few or fewer).
  public var pLower: Double
  /// The 95% interval of ``difference``.
  public var differenceInterval: ClosedRange<Double>

  /// Compares the strata's event-free device-days and device-days of each version.
  public init(
    strata: [(baselineEventFree: Double, baselineDays: Double, candidateEventFree: Double, candidateDays: Double)],
    confidence: Double = 0.95
  ) throws(StatisticsError) {
    var (observed, expected, variance) = (0.0, 0.0, 0.0)
    var (numerator, weights, p, q) = (0.0, 0.0, 0.0, 0.0)
    for stratum in strata {
      let (b, n0, a, n1) = (
        stratum.baselineEventFree, stratum.baselineDays, stratum.candidateEventFree, stratum.candidateDays
      )
      let n = n0 + n1
      guard n0 > 0, n1 > 0, n.isFinite, a >= 0, b >= 0, a <= n1, b <= n0 else { continue }
      let m = a + b
      observed += a
      expected += n1 * m / n
      if n > 1 { variance += n0 * n1 * m * (n - m) / (n * n * (n - 1)) }
      numerator += (a * n0 - b * n1) / n
      weights += n0 * n1 / n
      p += (n1 * n1 * b - n0 * n0 * a + n1 * n0 * (n0 - n1) / 2) / (n * n)
      q += (a * (n0 - b) + b * (n1 - a)) / (2 * n)
    }
    guard weights > 0 else { throw .empty }
    difference = numerator / weights
    if variance > 0 {
      z = (observed - expected) / variance.squareRoot()
      pHigher = try GSL.standardNormalUpperTail(z)
      pLower = try GSL.standardNormalUpperTail(-z)
    } else {
      // Every stratum all event-free (or all not) on both sides: no difference, and no evidence.
      z = 0
      (pHigher, pLower) = (1, 1)
    }
    let half =
      try GSL.standardNormalQuantile(1 - (1 - confidence) / 2)
      * (max(0, difference * p + q)).squareRoot() / weights
    differenceInterval = max(-1, difference - half)...min(1, difference + half)
  }
}
