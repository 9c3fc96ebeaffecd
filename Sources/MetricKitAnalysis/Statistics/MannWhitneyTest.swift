/// The one-sided Mann–Whitney U test that the candidate is worse than the baseline:
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
    try self.init(tieGroups: Self.tieGroups(baseline, candidate), candidateLarger: larger)
  }

  /// The tie groups of the pooled sample, ascending: each sample sorted, then merged.
  static func tieGroups(_ baseline: [Double], _ candidate: [Double]) throws(StatisticsError)
    -> [(baseline: Int, candidate: Int)]
  {
    try tieGroups(ascending: baseline.sortedAscending(), candidate.sortedAscending())
  }

  /// The tie groups of two samples each in ascending order, merged; a non-finite value throws.
  static func tieGroups(ascending b: [Double], _ c: [Double]) throws(StatisticsError)
    -> [(baseline: Int, candidate: Int)]
  {
    var groups: [(baseline: Int, candidate: Int)] = []
    var (i, j) = (0, 0)
    while i < b.count || j < c.count {
      let value = j == c.count || (i < b.count && b[i] < c[j]) ? b[i] : c[j]
      // Every value is taken here or counted as equal to one taken here: checking these checks all
      // (and a NaN, equal to nothing, is taken here before it could stall the merge).
      guard value.isFinite else { throw .invalidInput("non-finite value") }
      var group = (baseline: 0, candidate: 0)
      while i < b.count && b[i] == value {
        group.baseline += 1
        i += 1
      }
      while j < c.count && c[j] == value {
        group.candidate += 1
        j += 1
      }
      groups.append(group)
    }
    return groups
  }

  /// The test both ways from one pooling of the samples: that the candidate tends to be larger when
  /// `larger` (smaller otherwise), and the opposite.
  static func bothWays(baseline: ScalarSample, candidate: ScalarSample, candidateLarger larger: Bool)
    throws(StatisticsError) -> (test: MannWhitneyTest, opposite: MannWhitneyTest)
  {
    let groups = try tieGroups(baseline, candidate)
    return (
      try MannWhitneyTest(tieGroups: groups, candidateLarger: larger),
      try MannWhitneyTest(tieGroups: groups, candidateLarger: !larger)
    )
  }

  /// The same test on two samples: on their values while both are exact, otherwise on the buckets of
  /// their sketches (values in one bucket tie), which is how a sample past its exact limit is tested.
  public init(baseline: ScalarSample, candidate: ScalarSample, candidateLarger larger: Bool = true)
    throws(StatisticsError)
  {
    try self.init(tieGroups: Self.tieGroups(baseline, candidate), candidateLarger: larger)
  }

  /// The tie groups of two samples: of their values while both are exact, else of their sketches'
  /// buckets.
  static func tieGroups(_ baseline: ScalarSample, _ candidate: ScalarSample) throws(StatisticsError)
    -> [(baseline: Int, candidate: Int)]
  {
    if let b = baseline.ascendingExactValues, let c = candidate.ascendingExactValues {
      return try tieGroups(ascending: b, c)
    }
    let b = baseline.binned.bins
    let c = candidate.binned.bins
    // Merge the two ascending bucket lists; equal buckets have equal representatives.
    var groups: [(baseline: Int, candidate: Int)] = []
    var (i, j) = (0, 0)
    while i < b.count || j < c.count {
      if j == c.count || (i < b.count && b[i].value < c[j].value) {
        groups.append((b[i].count, 0))
        i += 1
      } else if i == b.count || c[j].value < b[i].value {
        groups.append((0, c[j].count))
        j += 1
      } else {
        groups.append((b[i].count, c[j].count))
        i += 1
        j += 1
      }
    }
    return groups
  }

  /// The test from the pooled sample's tie groups in ascending order of value: how many baseline and
  /// candidate values each group of equal values holds.
  init(tieGroups groups: [(baseline: Int, candidate: Int)], candidateLarger larger: Bool) throws(StatisticsError) {
    let n1 = Double(groups.reduce(0) { $0 + $1.baseline })
    let n2 = Double(groups.reduce(0) { $0 + $1.candidate })
    guard n1 > 0, n2 > 0 else { throw .empty }
    // Mid-ranks; tie groups feed the variance correction.
    var candidateRanks = 0.0
    var tieTerm = 0.0
    var below = 0.0
    for group in groups {
      let t = Double(group.baseline + group.candidate)
      let midRank = below + (t + 1) / 2
      candidateRanks += Double(group.candidate) * midRank
      tieTerm += t * t * t - t
      below += t
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
