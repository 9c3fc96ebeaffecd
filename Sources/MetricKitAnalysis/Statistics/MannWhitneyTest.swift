/// The one-sided Mann–Whitney U test that the candidate is worse than the baseline (SPEC §4):
/// tie-corrected, continuity-corrected normal approximation, p from `gsl_cdf_ugaussian_Q`.
public struct MannWhitneyTest: Sendable, Hashable {
  /// U of the candidate sample: the number of (baseline, candidate) pairs where the candidate is
  /// larger, ties counting one half.
  public var u: Double
  /// The standardized statistic, continuity-corrected.
  public var z: Double
  /// P(U at least this large | no difference).
  public var pValue: Double

  /// Tests whether `candidate` tends to be larger than `baseline` (or smaller, when `larger` is
  /// false). Both samples need at least one value.
  public init(baseline: [Double], candidate: [Double], candidateLarger larger: Bool = true) throws(StatisticsError) {
    let n1 = Double(baseline.count)
    let n2 = Double(candidate.count)
    guard n1 > 0, n2 > 0 else { throw .empty }
    guard baseline.allSatisfy(\.isFinite), candidate.allSatisfy(\.isFinite) else {
      throw .invalidInput("non-finite value")
    }
    // Mid-ranks over the pooled sample; tie groups feed the variance correction.
    var pooled = baseline.map { ($0, false) } + candidate.map { ($0, true) }
    pooled.sort { $0.0 < $1.0 }
    var candidateRanks = 0.0
    var tieTerm = 0.0
    var i = 0
    while i < pooled.count {
      var j = i
      while j + 1 < pooled.count && pooled[j + 1].0 == pooled[i].0 { j += 1 }
      let t = Double(j - i + 1)
      let midRank = Double(i + j) / 2 + 1
      for k in i...j where pooled[k].1 { candidateRanks += midRank }
      tieTerm += t * t * t - t
      i = j + 1
    }
    let uCandidate = candidateRanks - n2 * (n2 + 1) / 2
    let n = n1 + n2
    let mean = n1 * n2 / 2
    let variance = n1 * n2 / 12 * ((n + 1) - tieTerm / (n * (n - 1)))
    let directed = larger ? uCandidate : n1 * n2 - uCandidate
    u = directed
    guard variance > 0 else {
      // Every value tied: no evidence either way.
      z = 0
      pValue = 1
      return
    }
    z = (directed - mean - 0.5) / variance.squareRoot()
    pValue = try GSL.standardNormalUpperTail(z)
  }
}
