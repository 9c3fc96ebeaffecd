extension ComparisonReport {
  /// One side of a gate: a version of the dump, or a version's snapshot.
  public enum Side: Sendable {
    /// The version of this name in the dump.
    case dump(version: String)
    /// A snapshot, read from `path`.
    case snapshot(VersionSnapshot, path: String)
  }

  /// The comparison a gate makes of `baseline` and `candidate`, each from `aggregate` (read with the
  /// evaluator's aggregation options) or a snapshot. Both from the dump and `grouping` given, group by
  /// group as ``init(grouped:baseline:candidate:top:wholeVersions:baselineDiagnostics:candidateDiagnostics:evaluator:threads:)``
  /// compares them; otherwise the whole versions, the snapshots' accounting beside the dump's.
  public init(
    gate evaluator: RegressionEvaluator, aggregate: DumpAggregate, baseline: Side, candidate: Side,
    grouping: GroupingKey?, wholeVersions: Bool, top: Int, threads: Int = 1
  ) throws(MissingVersionsError) {
    func side(_ side: Side) -> (aggregate: VersionAggregate?, diagnostics: DiagnosticAggregate?) {
      switch side {
      case .dump(let version): (aggregate.comparedVersion(version), aggregate.diagnostics[version])
      case .snapshot(let snapshot, _):
        (snapshot.aggregate, snapshot.diagnostics ?? aggregate.diagnostics[snapshot.aggregate.version])
      }
    }
    let (b, c) = (side(baseline), side(candidate))
    guard let baselineAggregate = b.aggregate, let candidateAggregate = c.aggregate else {
      let absent = [(baseline, b.aggregate), (candidate, c.aggregate)].compactMap { side, found in
        if case .dump(let version) = side, found == nil { version } else { nil }
      }
      throw MissingVersionsError(versions: absent, counted: aggregate.heldVersions)
    }
    if grouping != nil || evaluator.stratification.isStratified, case .dump(let baselineVersion) = baseline,
      case .dump(let candidateVersion) = candidate
    {
      self.init(
        grouped: aggregate, baseline: baselineVersion, candidate: candidateVersion, top: top,
        wholeVersions: wholeVersions || grouping == nil, baselineDiagnostics: b.diagnostics,
        candidateDiagnostics: c.diagnostics, evaluator: evaluator, threads: threads)
      if matching == nil, evaluator.stratification.isStratified {
        unmatchedReason = "the dump was read without strata"
      }
      return
    }
    var inputs = aggregate.inputs
    if case .snapshot(let snapshot, _) = candidate { inputs.merge(snapshot.inputs) }
    var baselineSnapshot: (path: String, inputs: InputAccounting)?
    if case .snapshot(let snapshot, let path) = baseline { baselineSnapshot = (path, snapshot.inputs) }
    // Each side's strata, from the dump or its snapshot, when taken with the evaluator's fields.
    let fields = evaluator.stratification.dimensions
    func strata(_ side: Side) -> (
      metrics: [[String]: VersionAggregate], diagnostics: [[String]: [DiagnosticKind: Int]]
    )? {
      switch side {
      case .dump(let version):
        aggregate.strataDimensions == fields
          ? (aggregate.strata(of: version), aggregate.diagnosticStrata(of: version)) : nil
      case .snapshot(let snapshot, _):
        snapshot.strataDimensions == fields ? (snapshot.strata, snapshot.diagnosticStrata) : nil
      }
    }
    var matched: MatchedStrata?
    if evaluator.stratification.isStratified, let bs = strata(baseline), let cs = strata(candidate) {
      matched = MatchedStrata(
        evaluator.stratification, baseline: bs.metrics, candidate: cs.metrics, baselineDiagnostics: bs.diagnostics,
        candidateDiagnostics: cs.diagnostics, totals: (baselineAggregate.payloadCount, candidateAggregate.payloadCount))
    }
    self.init(
      baseline: baselineAggregate, candidate: candidateAggregate, inputs: inputs, baselineSnapshot: baselineSnapshot,
      baselineDiagnostics: b.diagnostics, candidateDiagnostics: c.diagnostics, evaluator: evaluator,
      strata: matched, threads: threads)
    if evaluator.stratification.isStratified && matched == nil {
      unmatchedReason = "a snapshot holds no strata of \(evaluator.stratification): the versions are compared pooled"
    }
  }
}
