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
  /// What of the baseline was left out, and why (its merged payloads dropped: the rules' results
  /// carry their statistics).
  public var baselineLeftOut: LeftOut
  /// The candidate's.
  public var candidateLeftOut: LeftOut
  /// Whether the one stratum matched is the sparse strata's, compared as one sample.
  public var isPooled: Bool
  /// Whether more of either version was left out than ``Stratification/maximumLeftOut``.
  public var leftOutTooMuch: Bool
  /// ``Stratification/maximumLeftOut``.
  public var maximumLeftOut: Double

  /// What of one version a matched comparison left out (``MatchedStrata/LeftOut`` without its payloads).
  public struct LeftOut: Sendable {
    /// Payloads in strata the other version lacks or hardly holds.
    public var unmatched: Int
    /// Payloads past the strata kept apart a version.
    public var beyondLimit: Int
    /// Payloads in no stratum (outside the window).
    public var outsideStrata: Int
    /// The largest unmatched strata.
    public var largest: [(values: [String], payloads: Int)]
    /// Every payload left out.
    public var payloads: Int { unmatched + beyondLimit + outsideStrata }

    init(_ leftOut: MatchedStrata.LeftOut) {
      unmatched = leftOut.unmatched
      beyondLimit = leftOut.beyondLimit
      outsideStrata = leftOut.outsideStrata
      largest = leftOut.largest
    }
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
    baselineLeftOut = LeftOut(matched.baselineLeftOut)
    candidateLeftOut = LeftOut(matched.candidateLeftOut)
    isPooled = matched.isPooled
    leftOutTooMuch = matched.leftOutTooMuch
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
