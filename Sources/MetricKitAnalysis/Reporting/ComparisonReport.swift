/// The comparison of a candidate version against a baseline (`metrics-report compare`).
public struct ComparisonReport: Sendable {
  /// The JSON schema version.
  public static let schemaVersion = 1
  /// The baseline version.
  public var baseline: String
  /// The candidate version.
  public var candidate: String
  /// Payloads counted per side.
  public var baselinePayloads: Int
  /// The candidate's.
  public var candidatePayloads: Int
  /// What was read (the dump; a baseline snapshot's own accounting is in `baselineSnapshot`).
  public var inputs: InputAccounting
  /// The baseline snapshot's path and accounting, when the baseline came from one.
  public var baselineSnapshot: (path: String, inputs: InputAccounting)?
  /// The false-discovery rate used.
  public var alpha: Double
  /// How significant changes became verdicts.
  public var decision: Decision
  /// One result per rule, in rule order.
  public var results: [RuleResult]
  /// Apple's regression insights for the candidate beside the results, when Apple's responses were
  /// given (`compare --organizer`).
  public var organizer: OrganizerGate?
  /// How the whole versions were matched; nil for a pooled comparison.
  public var matching: ComparisonMatching?
  /// Why the comparison is pooled although matching was asked for (a side from a snapshot, which
  /// holds no strata); nil otherwise.
  public var unmatchedReason: String?
  /// The verdicts besides `regression` that fail the gate on an error rule (the rule file's
  /// `verdicts:`).
  public var failingVerdicts: Set<Verdict> = []

  /// Creates a report, its rules evaluated on up to `threads` threads; within `strata` when given
  /// (the sides' matched strata), pooled otherwise.
  public init(
    baseline: VersionAggregate, candidate: VersionAggregate, inputs: InputAccounting,
    baselineSnapshot: (path: String, inputs: InputAccounting)? = nil, baselineDiagnostics: DiagnosticAggregate? = nil,
    candidateDiagnostics: DiagnosticAggregate? = nil, evaluator: RegressionEvaluator,
    statistics: (PooledStatistics, PooledStatistics)? = nil, strata: MatchedStrata? = nil, threads: Int = 1
  ) {
    self.baseline = baseline.version
    self.candidate = candidate.version
    baselinePayloads = baseline.payloadCount
    candidatePayloads = candidate.payloadCount
    self.inputs = inputs
    self.baselineSnapshot = baselineSnapshot
    alpha = evaluator.ruleSet.alpha
    decision = evaluator.decision
    failingVerdicts = Self.failingVerdicts(evaluator.ruleSet)
    matching = strata.map(ComparisonMatching.init)
    results = evaluator.evaluate(
      baseline: baseline, candidate: candidate, baselineDiagnostics: baselineDiagnostics,
      candidateDiagnostics: candidateDiagnostics, statistics: statistics, strata: strata, threads: threads)
  }

  /// Compares each group of the two versions on its own (`compare --by`): the metric rules per group,
  /// the groups with the most payloads (both versions together) first and those beyond `top` merged
  /// into `(other)`; the diagnostic rules on the whole versions (diagnostics are not grouped). With
  /// `wholeVersions`, the metric rules compare the whole versions instead, and only the rules on one
  /// group (`where:`) read the groups. A rule on one group compares that group alone, whether or not it
  /// is among the `top`. Every test enters one Benjamini–Hochberg family.
  public init(
    grouped aggregate: DumpAggregate, baseline: String, candidate: String, top: Int, wholeVersions: Bool = false,
    baselineDiagnostics: DiagnosticAggregate? = nil, candidateDiagnostics: DiagnosticAggregate? = nil,
    evaluator: RegressionEvaluator, threads: Int = 1
  ) {
    let b = aggregate.versions[baseline] ?? VersionAggregate(version: baseline)
    let c = aggregate.versions[candidate] ?? VersionAggregate(version: candidate)
    self.baseline = baseline
    self.candidate = candidate
    baselinePayloads = b.payloadCount
    candidatePayloads = c.payloadCount
    inputs = aggregate.inputs
    alpha = evaluator.ruleSet.alpha
    decision = evaluator.decision
    failingVerdicts = Self.failingVerdicts(evaluator.ruleSet)
    let key = aggregate.grouping?.description ?? ""
    // Groups ranked by their payloads in both versions, then by value.
    var sizes: [String: Int] = [:]
    for version in [baseline, candidate] {
      for g in aggregate.groups(of: version) { sizes[g.value, default: 0] += g.aggregate.payloadCount }
    }
    let ranked = GroupingKey.ranked(sizes)
    func side(_ version: String, _ values: ArraySlice<String>) -> VersionAggregate {
      var merged = VersionAggregate(version: version)
      for value in values {
        if let part = aggregate.groups[VersionGroup(version: version, value: value)] { merged.merge(part) }
      }
      return merged
    }
    // With strata in the aggregate, every pair is compared within them: a group's strata are those of
    // its payloads; the whole versions', all of theirs.
    let stratified =
      evaluator.stratification.isStratified && aggregate.strataDimensions == evaluator.stratification.dimensions
    func strata(_ values: ArraySlice<String>?, diagnostics: Bool = false) -> MatchedStrata? {
      guard stratified else { return nil }
      func payloads(_ version: String, _ values: ArraySlice<String>) -> Int {
        values.reduce(0) { $0 + (aggregate.groups[VersionGroup(version: version, value: $1)]?.payloadCount ?? 0) }
      }
      let totals = values.map { (payloads(baseline, $0), payloads(candidate, $0)) }
      return MatchedStrata(
        evaluator.stratification,
        aggregate.comparableStrata(baseline, candidate, groups: values.map(Set.init), diagnostics: diagnostics),
        totals: totals ?? (b.payloadCount, c.payloadCount))
    }
    // The whole versions' strata, made once: the summary's, and those of every whole-version pair.
    let whole = strata(nil, diagnostics: true)
    matching = whole.map(ComparisonMatching.init)
    var labels: [String?] = []
    var pairs: [RegressionEvaluator.Pair] = []
    let metricRules = evaluator.ruleSet.rules.filter { $0.metric.kind != .diagnostic && $0.group == nil }
    let diagnosticRules = evaluator.ruleSet.rules.filter { $0.metric.kind == .diagnostic }
    // The rules on one group, by the group's value (rules on another key's groups compare nothing here).
    var targeted: [String: [RegressionRule]] = [:]
    for rule in evaluator.ruleSet.rules {
      if let g = rule.group, g.key == aggregate.grouping { targeted[g.value, default: []].append(rule) }
    }
    func pair(_ values: ArraySlice<String>?, rules: [RegressionRule]) -> RegressionEvaluator.Pair {
      var pair = RegressionEvaluator.Pair(
        baseline: values.map { side(baseline, $0) } ?? b, candidate: values.map { side(candidate, $0) } ?? c,
        rules: rules)
      pair.strata = values.map { strata($0) } ?? whole
      return pair
    }
    if wholeVersions && aggregate.grouping == nil {
      // No groups: one pair of every rule, in the rule set's order.
      results = evaluator.evaluate(
        baseline: b, candidate: c, baselineDiagnostics: baselineDiagnostics, candidateDiagnostics: candidateDiagnostics,
        strata: whole, threads: threads)
      return
    }
    if wholeVersions {
      labels.append(nil)
      pairs.append(pair(nil, rules: metricRules))
    } else {
      for value in ranked.prefix(max(0, top)) {
        labels.append(value)
        pairs.append(pair([value], rules: metricRules + (targeted.removeValue(forKey: value) ?? [])))
      }
      if ranked.count > top {
        labels.append(GroupingKey.other)
        pairs.append(pair(ranked.dropFirst(top), rules: metricRules))
      }
    }
    for value in targeted.keys.sorted(by: { $0.precedesBytewise($1) }) {
      labels.append(value)
      pairs.append(pair([value], rules: targeted[value]!))
    }
    if !diagnosticRules.isEmpty {
      var diagnosticPair = RegressionEvaluator.Pair(
        baseline: b, candidate: c, baselineDiagnostics: baselineDiagnostics,
        candidateDiagnostics: candidateDiagnostics, rules: diagnosticRules)
      diagnosticPair.strata = whole
      pairs.append(diagnosticPair)
    }
    let evaluated = evaluator.evaluate(pairs: pairs, threads: threads)
    results =
      zip(labels, evaluated).flatMap { label, results in
        results.map { r in
          var r = r
          r.by = label.map { (key, $0) }
          return r
        }
      } + (diagnosticRules.isEmpty ? [] : evaluated[evaluated.count - 1])
  }

  /// Whether the gate fails: some error-severity rule regressed or broke its budget (or ended in a
  /// verdict the rule file fails on).
  public var gateFails: Bool {
    results.contains { $0.failsGate(failingVerdicts: failingVerdicts) } || organizer?.failsGate == true
  }

  /// The verdicts a rule set fails the gate on besides `regression`.
  static func failingVerdicts(_ rules: RuleSet) -> Set<Verdict> {
    Set(
      [rules.failsOnInconclusive ? .inconclusive : nil, rules.failsOnInsufficientData ? .insufficientData : nil]
        .compactMap { $0 })
  }

  /// The results that fail the gate.
  public var failingResults: [RuleResult] { results.filter { $0.failsGate(failingVerdicts: failingVerdicts) } }

  /// Error-severity rules that had data enough to be decided (not `insufficient-data`).
  public var evaluatedErrorRules: Int {
    results.filter { $0.rule.severity == .error && $0.verdict != .insufficientData }.count
  }

  /// Whether the rules hold any error-severity rule. Without one (a rule file that only warns, as a
  /// gate is piloted) the gate cannot fail and passes, its warnings reported.
  public var hasErrorRules: Bool { results.contains { $0.rule.severity == .error } }

  /// Whether nothing was tested: there are error-severity rules and none had data enough, so a pass
  /// would mean nothing.
  public var nothingEvaluated: Bool { !gateFails && hasErrorRules && evaluatedErrorRules == 0 }

  /// `pass`, `fail`, or `not-evaluated` (no error rule had data enough).
  public var gate: String { gateFails ? "fail" : nothingEvaluated ? "not-evaluated" : "pass" }
}
