/// What of one version a matched comparison did not compare, and why: payload counts by reason and
/// the largest strata left out as unmatched.
public struct LeftOutPayloads: Sendable {
  /// Payloads in strata the other version holds too few of at every resolution, or so few that the
  /// stratum is this version's population alone.
  public var unmatched = 0
  /// Payloads in strata past those the aggregate kept apart (``ComparableStrata``).
  public var beyondLimit = 0
  /// Payloads in no stratum: outside the days the strata were read for (`--window overlap`).
  public var outsideStrata = 0
  /// The largest strata left out as unmatched, at the resolution they were left at: at most three,
  /// most payloads first.
  public var largest: [(values: [String], payloads: Int)] = []

  /// Every payload left out.
  public var payloads: Int { unmatched + beyondLimit + outsideStrata }
}
