/// Two versions' fine strata as a matched comparison may use them: only strata whose payloads both
/// versions hold in full.
///
/// An aggregate keeps each version's byte-wise first strata apart (up to its limit) and folds the
/// payloads of the others into one stratum whose every value is `(other)`. That stratum is no
/// population: it holds whatever fell past the limit, and a version with more strata folds
/// different ones than a version with fewer. So a version that folded knows its strata only up to
/// the last one it kept; past that, a stratum's payloads may be in its `(other)`. The strata both
/// versions hold in full are those up to the earliest such last stratum (of every version, and of the
/// diagnostics' counts, that folded): those are kept, the same for both versions; every payload
/// past them, `(other)`'s among them, is set aside as ``baselineBeyondLimit`` and
/// ``candidateBeyondLimit`` (left out, counted against coverage, never compared).
public struct ComparableStrata: Sendable {
  /// The baseline's strata, by their values: none `(other)`, none past the cut.
  public private(set) var baseline: [[String]: VersionAggregate] = [:]
  /// The candidate's.
  public private(set) var candidate: [[String]: VersionAggregate] = [:]
  /// The baseline's diagnostics counted per stratum, cut as the strata are.
  public private(set) var baselineDiagnostics: [[String]: [DiagnosticKind: Int]] = [:]
  /// The candidate's.
  public private(set) var candidateDiagnostics: [[String]: [DiagnosticKind: Int]] = [:]
  /// The baseline's payloads in strata past the cut, merged.
  public private(set) var baselineBeyondLimit: VersionAggregate
  /// The candidate's.
  public private(set) var candidateBeyondLimit: VersionAggregate

  /// Nothing: to merge parts (the groups of a version) into.
  public init(baselineVersion: String, candidateVersion: String) {
    baselineBeyondLimit = VersionAggregate(version: baselineVersion)
    candidateBeyondLimit = VersionAggregate(version: candidateVersion)
  }

  /// The strata of both versions, each map possibly holding its `(other)` stratum, cut to those
  /// every map holds in full.
  public init(
    baseline: [[String]: VersionAggregate], candidate: [[String]: VersionAggregate],
    baselineDiagnostics: [[String]: [DiagnosticKind: Int]] = [:],
    candidateDiagnostics: [[String]: [DiagnosticKind: Int]] = [:]
  ) {
    self.init(
      baselineVersion: baseline.values.first?.version ?? "", candidateVersion: candidate.values.first?.version ?? "")
    self.baseline = baseline
    self.candidate = candidate
    self.baselineDiagnostics = baselineDiagnostics
    self.candidateDiagnostics = candidateDiagnostics
    restrict(
      to: Self.cut(
        [
          Array(baseline.keys), Array(candidate.keys), Array(baselineDiagnostics.keys),
          Array(candidateDiagnostics.keys),
        ]
      ))
  }

  /// Adds the strata of a disjoint part of both versions (another group), each part cut on its own.
  public mutating func merge(_ other: ComparableStrata) {
    baseline.merge(other.baseline)
    candidate.merge(other.candidate)
    for (values, counts) in other.baselineDiagnostics {
      baselineDiagnostics[values, default: [:]].merge(counts, uniquingKeysWith: +)
    }
    for (values, counts) in other.candidateDiagnostics {
      candidateDiagnostics[values, default: [:]].merge(counts, uniquingKeysWith: +)
    }
    baselineBeyondLimit.merge(other.baselineBeyondLimit)
    candidateBeyondLimit.merge(other.candidateBeyondLimit)
  }

  /// Adds both versions' diagnostics counted per stratum (they are not grouped), and cuts the strata
  /// further when the diagnostics' counts folded earlier.
  public mutating func addDiagnostics(
    baseline: [[String]: [DiagnosticKind: Int]], candidate: [[String]: [DiagnosticKind: Int]]
  ) {
    baselineDiagnostics = baseline
    candidateDiagnostics = candidate
    restrict(to: Self.cut([Array(baseline.keys), Array(candidate.keys)]))
  }

  /// The last stratum every one of `keySets` holds in full: of each set holding `(other)`, its last
  /// stratum kept apart (none kept: the empty values, before every stratum); nil when none folded.
  static func cut(_ keySets: [[[String]]]) -> [String]? {
    var cut: [String]?
    for keys in keySets where keys.contains(where: isOther) {
      let last = keys.filter { !isOther($0) }.max(by: StratumCell.precedes) ?? []
      if cut.map({ StratumCell.precedes(last, $0) }) ?? true { cut = last }
    }
    return cut
  }

  /// Whether `values` name the stratum of what fell past the limit.
  static func isOther(_ values: [String]) -> Bool { values.allSatisfy { $0 == GroupingKey.other } }

  /// Whether `values` lie past `cut` (or are `(other)`).
  private static func isBeyond(_ values: [String], _ cut: [String]?) -> Bool {
    isOther(values) || cut.map { StratumCell.precedes($0, values) } ?? false
  }

  /// Sets aside every stratum past `cut`, and `(other)`.
  private mutating func restrict(to cut: [String]?) {
    for values in baseline.keys where Self.isBeyond(values, cut) {
      baselineBeyondLimit.merge(baseline.removeValue(forKey: values)!)
    }
    for values in candidate.keys where Self.isBeyond(values, cut) {
      candidateBeyondLimit.merge(candidate.removeValue(forKey: values)!)
    }
    baselineDiagnostics = baselineDiagnostics.filter { !Self.isBeyond($0.key, cut) }
    candidateDiagnostics = candidateDiagnostics.filter { !Self.isBeyond($0.key, cut) }
  }
}
