/// The strata two versions are compared within: their fine strata coarsened until each holds enough
/// payloads of both, each weighed by its share of the matched payloads of both versions (the common
/// mix both versions' statistics are standardized to).
///
/// Coarsening climbs ``Stratification``'s ladder one resolution at a time. At each, the strata not yet
/// matched are merged by their coarsened values; a merged stratum with at least
/// ``Stratification/minimumPayloads`` of each version is matched; one that holds that many of one
/// version, fewer of the other, and a share of the one's payloads at least ``lopsidedRatio`` times its
/// share of the other's is left out (a population one version has and the other hardly: merged into
/// its parent, it would tilt the parent's mix toward one version, the confounding matching removes);
/// any other climbs on. What reaches the top (any value of every field) is
/// matched when it holds both versions, else left out.
public struct MatchedStrata: Sendable {
  /// One matched stratum.
  public struct Stratum: Sendable {
    /// Its value of each field, coarsened (``Stratification/any`` for a field coarsened away).
    public var values: [String]
    /// The baseline's payloads in it.
    public var baseline: VersionAggregate
    /// The candidate's.
    public var candidate: VersionAggregate
    /// The baseline's diagnostics in it, by kind.
    public var baselineDiagnostics: [DiagnosticKind: Int] = [:]
    /// The candidate's.
    public var candidateDiagnostics: [DiagnosticKind: Int] = [:]
    /// Its weight in the common mix: its share of the matched payloads of both versions.
    public var weight: Double = 0
  }

  /// How the strata were made.
  public var stratification: Stratification
  /// The matched strata, heaviest first, then by values.
  public var strata: [Stratum]
  /// Each version's payloads in all, matched or not.
  public var baselinePayloads: Int
  /// The candidate's.
  public var candidatePayloads: Int
  /// Strata left out because the baseline held enough of them and the candidate too few (at the
  /// resolution they were left at).
  public var baselineOnlyStrata = 0
  /// Strata the candidate held enough of and the baseline too few.
  public var candidateOnlyStrata = 0

  /// Matches the fine strata of two versions (by their values in `stratification`'s fields), and
  /// the diagnostics counted per fine stratum.
  public init(
    _ stratification: Stratification, baseline: [[String]: VersionAggregate], candidate: [[String]: VersionAggregate],
    baselineDiagnostics: [[String]: [DiagnosticKind: Int]] = [:],
    candidateDiagnostics: [[String]: [DiagnosticKind: Int]] = [:]
  ) {
    self.stratification = stratification
    baselinePayloads = baseline.values.reduce(0) { $0 + $1.payloadCount }
    candidatePayloads = candidate.values.reduce(0) { $0 + $1.payloadCount }
    /// Fine strata, by values, with what each version holds in them.
    struct Pending {
      var values: [String]
      var parts: [[String]] = []
    }
    let k = stratification.minimumPayloads
    let fine = Set(baseline.keys).union(candidate.keys).union(baselineDiagnostics.keys).union(
      candidateDiagnostics.keys)
    var pending = fine.sorted(by: StratumCell.precedes)
    var matched: [Stratum] = []
    func count(_ parts: [[String]], _ side: [[String]: VersionAggregate]) -> Int {
      parts.reduce(0) { $0 + (side[$1]?.payloadCount ?? 0) }
    }
    func merged(_ parts: [[String]], _ side: [[String]: VersionAggregate], version: String) -> VersionAggregate {
      var aggregate = VersionAggregate(version: version)
      for part in parts { if let a = side[part] { aggregate.merge(a) } }
      return aggregate
    }
    func counts(_ parts: [[String]], _ side: [[String]: [DiagnosticKind: Int]]) -> [DiagnosticKind: Int] {
      var total: [DiagnosticKind: Int] = [:]
      for part in parts { total.merge(side[part] ?? [:], uniquingKeysWith: +) }
      return total
    }
    let baselineVersion = baseline.values.first?.version ?? ""
    let candidateVersion = candidate.values.first?.version ?? ""
    let ladder = stratification.ladder
    for (step, resolution) in ladder.enumerated() {
      var byValues: [[String]: [[String]]] = [:]
      for values in pending { byValues[stratification.coarsened(values, to: resolution), default: []].append(values) }
      pending = []
      let top = step == ladder.count - 1
      for values in byValues.keys.sorted(by: StratumCell.precedes) {
        let parts = byValues[values]!
        let (nb, nc) = (count(parts, baseline), count(parts, candidate))
        if (nb >= k && nc >= k) || (top && nb > 0 && nc > 0) {
          matched.append(
            Stratum(
              values: values, baseline: merged(parts, baseline, version: baselineVersion),
              candidate: merged(parts, candidate, version: candidateVersion),
              baselineDiagnostics: counts(parts, baselineDiagnostics),
              candidateDiagnostics: counts(parts, candidateDiagnostics)))
        } else if (nb >= k && Self.lopsided(nb, of: baselinePayloads, nc, of: candidatePayloads)) || (top && nb > 0) {
          baselineOnlyStrata += 1
        } else if (nc >= k && Self.lopsided(nc, of: candidatePayloads, nb, of: baselinePayloads)) || (top && nc > 0) {
          candidateOnlyStrata += 1
        } else if !top {
          pending += parts
        }
      }
    }
    let total = Double(matched.reduce(0) { $0 + $1.baseline.payloadCount + $1.candidate.payloadCount })
    for i in matched.indices {
      matched[i].weight = Double(matched[i].baseline.payloadCount + matched[i].candidate.payloadCount) / total
    }
    strata = matched.sorted {
      ($0.weight, $1.values.joined(separator: "\u{1}")) > ($1.weight, $0.values.joined(separator: "\u{1}"))
    }
    shifts = Self.shifts(strata)
  }

  /// The (at most three) matched strata whose share of each version's matched payloads moved most
  /// between the versions, largest move first.
  public private(set) var shifts: [MixShift] = []

  /// Whether a stratum holds `n` of one version's `total` payloads and so few of the other's (`m` of
  /// `otherTotal`) that it is that version's population: its share of the one at least
  /// ``lopsidedRatio`` times its share of the other.
  static func lopsided(_ n: Int, of total: Int, _ m: Int, of otherTotal: Int) -> Bool {
    guard total > 0, otherTotal > 0 else { return true }
    return Double(n) / Double(total) >= lopsidedRatio * Double(m) / Double(otherTotal)
  }

  /// How many times one version's share a stratum must hold of the other's to be left out as that
  /// version's alone.
  public static let lopsidedRatio = 4.0

  /// The baseline's payloads in matched strata.
  public var matchedBaselinePayloads: Int { strata.reduce(0) { $0 + $1.baseline.payloadCount } }
  /// The candidate's.
  public var matchedCandidatePayloads: Int { strata.reduce(0) { $0 + $1.candidate.payloadCount } }
  /// The share of the baseline's payloads the comparison used (1 without payloads).
  public var baselineCoverage: Double {
    baselinePayloads == 0 ? 1 : Double(matchedBaselinePayloads) / Double(baselinePayloads)
  }
  /// The candidate's.
  public var candidateCoverage: Double {
    candidatePayloads == 0 ? 1 : Double(matchedCandidatePayloads) / Double(candidatePayloads)
  }

  /// A stratum's label: its values with the fields coarsened away left out (`iPhone12,1 · iPhone OS
  /// 16.7`), `(the rest)` when every field was (the strata too sparse apart, merged at the top).
  public static func label(_ values: [String]) -> String {
    let shown = values.filter { $0 != Stratification.any }
    return shown.isEmpty ? "(the rest)" : shown.joined(separator: " · ")
  }

  /// The matched strata whose share of each version's matched payloads moved most between the
  /// versions, at most `count`, largest move first.
  static func shifts(_ strata: [Stratum], count: Int = 3) -> [MixShift] {
    let nb = Double(strata.reduce(0) { $0 + $1.baseline.payloadCount })
    let nc = Double(strata.reduce(0) { $0 + $1.candidate.payloadCount })
    guard nb > 0, nc > 0 else { return [] }
    let all = strata.map {
      MixShift(
        values: $0.values, baselineShare: Double($0.baseline.payloadCount) / nb,
        candidateShare: Double($0.candidate.payloadCount) / nc)
    }
    return Array(
      all.filter { $0.baselineShare != $0.candidateShare }.sorted {
        (abs($0.candidateShare - $0.baselineShare), $1.label) > (abs($1.candidateShare - $1.baselineShare), $0.label)
      }.prefix(count))
  }
}

/// How much of each version's matched payloads one stratum held.
public struct MixShift: Sendable, Hashable {
  /// The stratum's values.
  public var values: [String]
  /// Its share of the baseline's matched payloads.
  public var baselineShare: Double
  /// Its share of the candidate's.
  public var candidateShare: Double
  /// Its label (``MatchedStrata/label(_:)``).
  public var label: String { MatchedStrata.label(values) }
}
