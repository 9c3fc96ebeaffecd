/// Compares two event rates (diagnostics per payload) by the conditional test of two Poisson rates:
/// given the total count, the candidate's count is Binomial(total, nᶜ ÷ (nᵇ + nᶜ)) when both rates are
/// equal. Exact tails through GSL.
public struct RateComparisonTest: Sendable, Hashable {
  /// P(the candidate's count is at least this large | equal rates).
  public var pHigher: Double
  /// P(the candidate's count is at most this small | equal rates).
  public var pLower: Double
  /// The exact (Clopper–Pearson) 95% interval of the relative change of the rate, (x꜀ ÷ n꜀) ÷ (x_b ÷ n_b)
  /// − 1, from the interval of the binomial share x꜀ ÷ (x_b + x꜀); nil when the baseline had no event
  /// (the change is then unbounded).
  public var changeInterval: ClosedRange<Double>?

  /// Tests `candidateCount` events over `candidateExposure` against `baselineCount` over
  /// `baselineExposure`.
  public init(baselineCount: Int, baselineExposure: Int, candidateCount: Int, candidateExposure: Int)
    throws(StatisticsError)
  {
    guard baselineExposure > 0, candidateExposure > 0, baselineCount >= 0, candidateCount >= 0 else { throw .empty }
    let total = baselineCount + candidateCount
    let share = Double(candidateExposure) / Double(baselineExposure + candidateExposure)
    pHigher = try GSL.binomialUpperTail(candidateCount, p: share, n: total)
    pLower = try GSL.binomialLowerTail(candidateCount, p: share, n: total)
    guard baselineCount > 0 else { return }
    let (x, y) = (Double(candidateCount), Double(baselineCount))
    let low = x == 0 ? 0 : try GSL.betaQuantile(0.025, a: x, b: y + 1)
    let high = try GSL.betaQuantile(0.975, a: x + 1, b: y)
    // A share π of the events is a rate ratio π ÷ (1 − π) · n_b ÷ n꜀.
    let exposure = Double(baselineExposure) / Double(candidateExposure)
    func change(_ share: Double) -> Double { share / (1 - share) * exposure - 1 }
    guard high < 1 else { return }
    changeInterval = change(low)...change(high)
  }
}
