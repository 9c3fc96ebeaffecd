/// Compares two event rates (diagnostics per payload) by the conditional test of two Poisson rates:
/// given the total count, the candidate's count is Binomial(total, nᶜ ÷ (nᵇ + nᶜ)) when both rates are
/// equal. Exact tails through GSL.
public struct RateComparisonTest: Sendable, Hashable {
  /// P(the candidate's count is at least this large | equal rates).
  public var pHigher: Double
  /// P(the candidate's count is at most this small | equal rates).
  public var pLower: Double

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
  }
}
