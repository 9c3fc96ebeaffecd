/// Van Elteren's stratified Wilcoxon test (1960) that the candidate tends to be worse than the
/// baseline within strata: a rank sum per stratum (mid-ranks for ties), each stratum weighed by
/// 1 ÷ (its size + 1), the locally most powerful weights for a shift; a one-sided normal p-value from
/// `gsl_cdf_ugaussian_Q`.
///
/// In stratum s, with n baseline and m candidate values (N = n + m) and W the candidate's rank sum,
/// E[W] = m (N + 1) ÷ 2 and Var[W] = n m (N + 1) ÷ 12 − n m Σ(t³ − t) ÷ (12 N (N − 1)) over its tie
/// groups of size t; Z = Σ w (W − E[W]) ÷ √(Σ w² Var[W]). With one stratum it is the tie- and
/// continuity-corrected ``MannWhitneyTest``; a stratum lacking either version adds nothing.
public struct VanElterenTest: Sendable, Hashable {
  /// The standardized statistic (positive: the candidate ranks higher, in the direction tested).
  public var z: Double
  /// P(Z at least this large | no difference within any stratum).
  public var pValue: Double
  /// The strata that held both versions.
  public var strata: Int

  /// Tests whether the candidate tends to be larger (smaller, when `larger` is false) than the
  /// baseline within the strata: each a (baseline, candidate) pair of samples.
  public init(strata samples: [(baseline: ScalarSample, candidate: ScalarSample)], candidateLarger larger: Bool = true)
    throws(StatisticsError)
  {
    self = try Self.bothWays(strata: samples, candidateLarger: larger).test
  }

  /// The test both ways from one ranking of each stratum.
  static func bothWays(
    strata samples: [(baseline: ScalarSample, candidate: ScalarSample)], candidateLarger larger: Bool
  )
    throws(StatisticsError) -> (test: VanElterenTest, opposite: VanElterenTest)
  {
    var groups: [[(baseline: Int, candidate: Int)]] = []
    for (b, c) in samples where b.count > 0 && c.count > 0 {
      groups.append(try MannWhitneyTest.tieGroups(b, c))
    }
    guard !groups.isEmpty else { throw .empty }
    if groups.count == 1 {
      let test = try MannWhitneyTest(tieGroups: groups[0], candidateLarger: larger)
      let opposite = try MannWhitneyTest(tieGroups: groups[0], candidateLarger: !larger)
      return (
        VanElterenTest(z: test.z, pValue: test.pValue, strata: 1),
        VanElterenTest(z: opposite.z, pValue: opposite.pValue, strata: 1)
      )
    }
    var numerator = 0.0
    var variance = 0.0
    for stratum in groups {
      let n = Double(stratum.reduce(0) { $0 + $1.baseline })
      let m = Double(stratum.reduce(0) { $0 + $1.candidate })
      let total = n + m
      var rankSum = 0.0
      var tieTerm = 0.0
      var below = 0.0
      for group in stratum {
        let t = Double(group.baseline + group.candidate)
        rankSum += Double(group.candidate) * (below + (t + 1) / 2)
        tieTerm += t * t * t - t
        below += t
      }
      let weight = 1 / (total + 1)
      numerator += weight * (rankSum - m * (total + 1) / 2)
      variance += weight * weight * (n * m * (total + 1) / 12 - n * m * tieTerm / (12 * total * (total - 1)))
    }
    guard variance > 0 else {
      // Every value of every stratum tied: no evidence either way.
      let none = VanElterenTest(z: 0, pValue: 1, strata: groups.count)
      return (none, none)
    }
    let z = (larger ? numerator : -numerator) / variance.squareRoot()
    return (
      VanElterenTest(z: z, pValue: try GSL.standardNormalUpperTail(z), strata: groups.count),
      VanElterenTest(z: -z, pValue: try GSL.standardNormalUpperTail(-z), strata: groups.count)
    )
  }

  private init(z: Double, pValue: Double, strata: Int) {
    self.z = z
    self.pValue = pValue
    self.strata = strata
  }
}
