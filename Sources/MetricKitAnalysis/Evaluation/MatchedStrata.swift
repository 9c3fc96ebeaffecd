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
/// any other climbs on. What reaches the top (any value of every field) is one stratum of the sparse
/// strata, compared pooled: it holds only the strata that share a coarser stratum below the top with
/// the other version (the same device, its family, or its device and OS major); the others have no
/// counterpart and are left out.
///
/// Coverage is each version's payloads in matched strata over all of its payloads (the `totals`
/// given): those left out, past the strata an aggregate keeps apart (``ComparableStrata``), or in no
/// stratum at all (outside `--window overlap`) count against it.
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
  /// resolution they were left at), or the baseline's sparse strata with no counterpart at all.
  public var baselineOnlyStrata = 0
  /// Strata the candidate held enough of and the baseline too few, or with no counterpart at all.
  public var candidateOnlyStrata = 0
  /// What of the baseline was not compared.
  public var baselineLeftOut = LeftOutPayloads()
  /// What of the candidate was not compared.
  public var candidateLeftOut = LeftOutPayloads()
  /// The baseline's payloads left out that strata hold, merged: what a rule's statistic of them is
  /// read from.
  public var baselineLeftOutAggregate: VersionAggregate
  /// The candidate's.
  public var candidateLeftOutAggregate: VersionAggregate

  /// Matches the fine strata of two versions (by their values in `stratification`'s fields), and
  /// the diagnostics counted per fine stratum. `totals` are each version's payloads in all (its
  /// strata's sum when nil).
  public init(
    _ stratification: Stratification, baseline: [[String]: VersionAggregate], candidate: [[String]: VersionAggregate],
    baselineDiagnostics: [[String]: [DiagnosticKind: Int]] = [:],
    candidateDiagnostics: [[String]: [DiagnosticKind: Int]] = [:], totals: (baseline: Int, candidate: Int)? = nil
  ) {
    self.init(
      stratification,
      ComparableStrata(
        baseline: baseline, candidate: candidate, baselineDiagnostics: baselineDiagnostics,
        candidateDiagnostics: candidateDiagnostics), totals: totals)
  }

  /// Matches two versions' comparable strata; `totals` are each version's payloads in all (its
  /// strata's, kept and set aside, when nil).
  public init(
    _ stratification: Stratification, _ comparable: ComparableStrata, totals: (baseline: Int, candidate: Int)?
  ) {
    self.stratification = stratification
    let baseline = comparable.baseline
    let candidate = comparable.candidate
    let (baselineDiagnostics, candidateDiagnostics) = (comparable.baselineDiagnostics, comparable.candidateDiagnostics)
    let baselineVersion = comparable.baselineBeyondLimit.version
    let candidateVersion = comparable.candidateBeyondLimit.version
    let inStrata = (
      baseline.values.reduce(0) { $0 + $1.payloadCount }, candidate.values.reduce(0) { $0 + $1.payloadCount }
    )
    let beyond = (comparable.baselineBeyondLimit.payloadCount, comparable.candidateBeyondLimit.payloadCount)
    baselinePayloads = max(totals?.baseline ?? 0, inStrata.0 + beyond.0)
    candidatePayloads = max(totals?.candidate ?? 0, inStrata.1 + beyond.1)
    baselineLeftOut = LeftOutPayloads(beyondLimit: beyond.0, outsideStrata: baselinePayloads - inStrata.0 - beyond.0)
    candidateLeftOut = LeftOutPayloads(
      beyondLimit: beyond.1, outsideStrata: candidatePayloads - inStrata.1 - beyond.1)
    baselineLeftOutAggregate = comparable.baselineBeyondLimit
    candidateLeftOutAggregate = comparable.candidateBeyondLimit
    strata = []
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
    var unmatched: ([(values: [String], payloads: Int)], [(values: [String], payloads: Int)]) = ([], [])
    /// Sets aside one version's (`baselineSide`) payloads in a stratum as unmatched; `itsOwn` when
    /// the stratum is that version's alone (counted in ``baselineOnlyStrata`` or ``candidateOnlyStrata``),
    /// not the other's few payloads in it.
    func leaveOut(_ values: [String], _ parts: [[String]], baselineSide: Bool, itsOwn: Bool = true) {
      let side = baselineSide ? baseline : candidate
      let n = count(parts, side)
      if baselineSide {
        if itsOwn { baselineOnlyStrata += 1 }
        baselineLeftOut.unmatched += n
        baselineLeftOutAggregate.merge(merged(parts, side, version: baselineVersion))
        unmatched.0.append((values, n))
      } else {
        if itsOwn { candidateOnlyStrata += 1 }
        candidateLeftOut.unmatched += n
        candidateLeftOutAggregate.merge(merged(parts, side, version: candidateVersion))
        unmatched.1.append((values, n))
      }
    }
    let ladder = stratification.ladder
    for (step, resolution) in ladder.enumerated() {
      let top = step == ladder.count - 1
      if top {
        // The sparse strata left: only those that share a stratum below the top with the other
        // version are compared; the others have no counterpart at any resolution.
        let covered = Self.sharingBelowTop(pending, ladder: ladder, stratification) {
          (baseline[$0]?.payloadCount ?? 0 > 0, candidate[$0]?.payloadCount ?? 0 > 0)
        }
        for values in pending where !covered.contains(values) {
          if baseline[values]?.payloadCount ?? 0 > 0 { leaveOut(values, [values], baselineSide: true) }
          if candidate[values]?.payloadCount ?? 0 > 0 { leaveOut(values, [values], baselineSide: false) }
        }
        pending = pending.filter(covered.contains)
      }
      var byValues: [[String]: [[String]]] = [:]
      for values in pending { byValues[stratification.coarsened(values, to: resolution), default: []].append(values) }
      pending = []
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
        } else if (nb >= k && Self.lopsided(nb, of: inStrata.0, nc, of: inStrata.1)) || (top && nb > 0) {
          leaveOut(values, parts, baselineSide: true)
          if nc > 0 { leaveOut(values, parts, baselineSide: false, itsOwn: false) }
        } else if (nc >= k && Self.lopsided(nc, of: inStrata.1, nb, of: inStrata.0)) || (top && nc > 0) {
          leaveOut(values, parts, baselineSide: false)
          if nb > 0 { leaveOut(values, parts, baselineSide: true, itsOwn: false) }
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
    func largest(_ all: [(values: [String], payloads: Int)]) -> [(values: [String], payloads: Int)] {
      Array(
        all.sorted {
          ($0.payloads, $1.values.joined(separator: "\u{1}")) > ($1.payloads, $0.values.joined(separator: "\u{1}"))
        }
        .prefix(3))
    }
    baselineLeftOut.largest = largest(unmatched.0)
    candidateLeftOut.largest = largest(unmatched.1)
    shifts = Self.shifts(strata)
  }

  /// The sparse strata among `pending` that share a stratum below the top of `ladder` with the other
  /// version: a coarsened stratum, at some resolution, holding payloads of both. `holds` says which
  /// versions a fine stratum holds payloads of.
  static func sharingBelowTop(
    _ pending: [[String]], ladder: [[Int]], _ stratification: Stratification,
    holds: ([String]) -> (baseline: Bool, candidate: Bool)
  ) -> Set<[String]> {
    var covered = Set<[String]>()
    for resolution in ladder.dropLast() {
      var sides: [[String]: (baseline: Bool, candidate: Bool)] = [:]
      for values in pending {
        let (b, c) = holds(values)
        let key = stratification.coarsened(values, to: resolution)
        let held = sides[key] ?? (false, false)
        sides[key] = (held.baseline || b, held.candidate || c)
      }
      for values in pending {
        let held = sides[stratification.coarsened(values, to: resolution)]!
        if held.baseline && held.candidate { covered.insert(values) }
      }
    }
    return covered
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

  /// Whether the comparison is pooled in effect: the one stratum matched is the top's, sparse
  /// strata compared as one sample.
  public var isPooled: Bool { strata.count == 1 && strata[0].values.allSatisfy { $0 == Stratification.any } }

  /// Whether more of either version was left out than ``Stratification/maximumLeftOut``.
  public var leftOutTooMuch: Bool {
    stratification.leavesOutTooMuch(baselineCoverage: baselineCoverage, candidateCoverage: candidateCoverage)
  }

  /// The baseline's payloads in matched strata.
  public var matchedBaselinePayloads: Int { strata.reduce(0) { $0 + $1.baseline.payloadCount } }
  /// The candidate's.
  public var matchedCandidatePayloads: Int { strata.reduce(0) { $0 + $1.candidate.payloadCount } }
  /// The share of all the baseline's payloads the comparison used (1 without payloads).
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
