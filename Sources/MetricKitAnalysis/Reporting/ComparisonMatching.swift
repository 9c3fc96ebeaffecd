/// How a comparison matched the whole versions: the strata, each version's coverage, the strata only
/// one version held, the common mix and the strata whose share moved most.
public struct ComparisonMatching: Sendable {
  /// The fields the strata were made of.
  public var dimensions: [GroupingKey]
  /// The fewest payloads of each version a stratum held before it was coarsened.
  public var minimumPayloads: Int
  /// The matched strata: values, each version's payloads, weight in the common mix; heaviest first.
  public var strata: [(values: [String], baselinePayloads: Int, candidatePayloads: Int, weight: Double)]
  /// Each version's payloads in all.
  public var baselinePayloads: Int
  /// The candidate's.
  public var candidatePayloads: Int
  /// The baseline's payloads in matched strata.
  public var matchedBaselinePayloads: Int
  /// The candidate's.
  public var matchedCandidatePayloads: Int
  /// Strata left out because the baseline held enough of them and the candidate too few.
  public var baselineOnlyStrata: Int
  /// Strata the candidate held enough of and the baseline too few.
  public var candidateOnlyStrata: Int
  /// The strata whose share moved most between the versions.
  public var shifts: [MixShift]
  /// What of the baseline was left out, and why (the rules' results carry the statistics of those
  /// payloads).
  public var baselineLeftOut: LeftOutPayloads
  /// The candidate's.
  public var candidateLeftOut: LeftOutPayloads
  /// Whether the one stratum matched is the sparse strata's, compared as one sample.
  public var isPooled: Bool
  /// ``Stratification/maximumLeftOut``.
  public var maximumLeftOut: Double
  /// Whether more of either version was left out than ``maximumLeftOut``.
  public var leftOutTooMuch: Bool {
    Stratification.leavesOutTooMuch(baselineCoverage, candidateCoverage, maximumLeftOut: maximumLeftOut)
  }

  /// The summary of matched strata.
  public init(_ matched: MatchedStrata) {
    dimensions = matched.stratification.dimensions
    minimumPayloads = matched.stratification.minimumPayloads
    strata = matched.strata.map { ($0.values, $0.baseline.payloadCount, $0.candidate.payloadCount, $0.weight) }
    baselinePayloads = matched.baselinePayloads
    candidatePayloads = matched.candidatePayloads
    matchedBaselinePayloads = matched.matchedBaselinePayloads
    matchedCandidatePayloads = matched.matchedCandidatePayloads
    baselineOnlyStrata = matched.baselineOnlyStrata
    candidateOnlyStrata = matched.candidateOnlyStrata
    shifts = matched.shifts
    baselineLeftOut = matched.baselineLeftOut
    candidateLeftOut = matched.candidateLeftOut
    isPooled = matched.isPooled
    maximumLeftOut = matched.stratification.maximumLeftOut
    baselineCoverage = matched.baselineCoverage
    candidateCoverage = matched.candidateCoverage
  }

  /// The share of the baseline's payloads compared.
  public var baselineCoverage: Double
  /// The candidate's.
  public var candidateCoverage: Double

  /// The fields in words: `devices and OS`.
  public var fieldsText: String { RuleMatching.fieldsText(dimensions) }
}
