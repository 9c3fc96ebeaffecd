/// What matching did to one rule's comparison: the strata, the share of each version's payloads
/// compared, the pooled statistics beside the standardized ones, and where a change came from.
public struct RuleMatching: Sendable {
  /// The fields the strata were made of.
  public var dimensions: [GroupingKey]
  /// The matched strata.
  public var strata: Int
  /// The share of the baseline's payloads in matched strata.
  public var baselineCoverage: Double
  /// The candidate's.
  public var candidateCoverage: Double
  /// The baseline's statistic with its payloads pooled (no matching, no common mix).
  public var pooledBaseline: Double?
  /// The candidate's.
  public var pooledCandidate: Double?
  /// The strata whose share of each version's payloads moved most.
  public var shifts: [MixShift]
  /// For a regression or an inconclusive result: the strata that added most to the change in the bad
  /// direction, largest first.
  public var contributions: [StratumContribution] = []
  /// Whether too little of either version was matched to decide (below
  /// ``Stratification/minimumCoverage``).
  public var coverageTooLow = false
  /// ``Stratification/maximumLeftOut``.
  public var maximumLeftOut = Stratification.default.maximumLeftOut
  /// The rule's statistic over the baseline's payloads left out (those strata hold), when at least
  /// ``leftOutShown`` of the baseline was left out: how what was not compared differs.
  public var leftOutBaseline: Double?
  /// The candidate's.
  public var leftOutCandidate: Double?

  /// Whether more of either version was left out than ``maximumLeftOut``: an `unchanged` or
  /// `improvement` becomes `inconclusive`.
  public var leftOutTooMuch: Bool {
    Stratification.leavesOutTooMuch(baselineCoverage, candidateCoverage, maximumLeftOut: maximumLeftOut)
  }

  /// The share of a version left out past which its left-out payloads' statistic is computed.
  public static let leftOutShown = 0.1

  /// The pooled relative change: (candidate − baseline) ÷ |baseline|.
  public var pooledChange: Double? {
    guard let b = pooledBaseline, let c = pooledCandidate, b != 0 else { return nil }
    return (c - b) / abs(b)
  }

  /// The fields in words: `devices and OS`, `devices`, `regionFormat`.
  public var fieldsText: String { Self.fieldsText(dimensions) }

  /// Fields in words.
  static func fieldsText(_ dimensions: [GroupingKey]) -> String {
    let names = dimensions.map { key -> String in
      switch key {
      case .deviceType: "devices"
      case .osVersion, .osVersionMajor: "OS"
      default: key.description
      }
    }
    return names.count <= 1 ? names.joined() : names.dropLast().joined(separator: ", ") + " and " + names.last!
  }
}

/// One stratum's part in a change: the two versions' statistic in it, and its weighted contribution
/// to the standardized change.
public struct StratumContribution: Sendable, Hashable {
  /// The stratum's values.
  public var values: [String]
  /// Its weight in the common mix.
  public var weight: Double
  /// The baseline's statistic in it.
  public var baseline: Double
  /// The candidate's.
  public var candidate: Double
  /// weight × (candidate − baseline) ÷ |the standardized baseline|: its part of the relative change.
  public var contribution: Double
  /// Its label (``MatchedStrata/label(_:)``).
  public var label: String { MatchedStrata.label(values) }
}
