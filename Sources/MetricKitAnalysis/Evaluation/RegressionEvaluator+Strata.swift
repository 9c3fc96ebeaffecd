// Matched comparisons: a rule evaluated within strata. Per-payload rules by van Elteren's stratified
// rank test; rates by the standardized pooled-rate test; diagnostic rates by Mantel–Haenszel. The
// statistics reported are both versions' standardized to the strata's common mix; the pooled ones are
// kept beside them, so that a reader sees what the mix did.
extension RegressionEvaluator {
  /// A metric rule within strata; `candidate` is the whole candidate side (its budget is its own).
  func evaluate(
    _ rule: RegressionRule, _ strata: MatchedStrata, candidate: VersionAggregate,
    pooled: (PooledStatistics, PooledStatistics), standardized: (PooledStatistics, PooledStatistics)
  ) -> (RuleResult, (worse: Double, better: Double)?) {
    var samples = strata.strata.map {
      (baseline: Self.sample(rule, $0.baseline), candidate: Self.sample(rule, $0.candidate))
    }
    let nb = samples.reduce(0) { $0 + $1.baseline.count }
    let nc = samples.reduce(0) { $0 + $1.candidate.count }
    let pb = standardized.0[rule.metric, rule.statistic]
    let pc = standardized.1[rule.metric, rule.statistic]
    var result = RuleResult(
      rule: rule, baseline: pb?.value, candidate: pc?.value, baselineBounds: pb?.bounds,
      candidateBounds: pc?.bounds, baselinePayloads: nb, candidatePayloads: nc, test: nil, qValue: nil,
      improvementQValue: nil, verdict: .insufficientData, budgetExceeded: nil)
    result.matching = matching(
      strata, pooled: (pooled.0[rule.metric, rule.statistic]?.value, pooled.1[rule.metric, rule.statistic]?.value))
    // A budget is the candidate's own, whatever its mix: its pooled statistic over all its payloads.
    if rule.budget != nil, Self.sample(rule, candidate).count >= rule.minPayloads,
      let value = result.matching?.pooledCandidate
    {
      result.budgetExceeded = rule.breaksBudget(value)
    }
    guard result.matching?.coverageTooLow == false, nb >= rule.minPayloads, nc >= rule.minPayloads, pb != nil,
      pc != nil
    else { return (result, nil) }
    let lowerIsBetter = rule.polarity == .lowerIsBetter
    if Self.isStability(rule) {
      let parts = strata.strata.map { (Self.rates(rule, $0.baseline), Self.rates(rule, $0.candidate)) }
      let tested = Self.testStability(rule, parts, into: &result)
      return (result, tested)
    }
    if rule.metric.kind == .rate {
      let parts = strata.strata.map {
        (weight: $0.weight, baseline: Self.rates(rule, $0.baseline), candidate: Self.rates(rule, $0.candidate))
      }
      guard let test = try? PooledRateTest(standardized: parts) else { return (result, nil) }
      let (worse, better) = lowerIsBetter ? (test.pHigher, test.pLower) : (test.pLower, test.pHigher)
      result.rateTest = test
      result.pValue = worse
      result.changeInterval = test.changeInterval
      return (result, (worse, better))
    }
    // In order once: the rank test and the interval below each read every stratum's values sorted.
    samples = samples.map { ($0.baseline.ascending(), $0.candidate.ascending()) }
    guard let (test, opposite) = try? VanElterenTest.bothWays(strata: samples, candidateLarger: lowerIsBetter) else {
      return (result, nil)
    }
    result.stratifiedTest = test
    result.pValue = test.pValue
    let weighted = zip(strata.strata, samples).map {
      (weight: $0.weight, baseline: $1.baseline, candidate: $1.candidate)
    }
    if let interval = try? PooledRateTest(standardizedValues: weighted), let ratio = interval.ratio {
      result.changeInterval = Self.placed(
        interval.changeInterval, estimate: ratio - 1, around: result.change, multiplicative: true)
    }
    return (result, (test.pValue, opposite.pValue))
  }

  /// A diagnostic rate within strata: the Mantel–Haenszel test of the events over each stratum's
  /// metric payloads, the rates standardized to the common mix (`pooled` is the unmatched evaluation,
  /// kept when the diagnostics' own metadata does not fall in the matched strata).
  func evaluateDiagnostics(
    _ rule: RegressionRule, kind: DiagnosticKind,
    pooled pooledEvaluation: (RuleResult, (worse: Double, better: Double)?),
    events: (baseline: Int, candidate: Int), strata: MatchedStrata
  ) -> (RuleResult, (worse: Double, better: Double)?) {
    let (pooled, pooledTest) = pooledEvaluation
    var result = pooled
    result.pValue = nil
    result.changeInterval = nil
    result.matching = matching(strata, pooled: (pooled.baseline, pooled.candidate))
    let nb = strata.matchedBaselinePayloads
    let nc = strata.matchedCandidatePayloads
    func rate(_ events: (MatchedStrata.Stratum) -> Int, _ exposure: (MatchedStrata.Stratum) -> Int) -> Double {
      strata.strata.reduce(0) { $0 + $1.weight * 1000 * Double(events($1)) / Double(max(1, exposure($1))) }
    }
    guard pooled.baseline != nil, pooled.candidate != nil else { return (result, nil) }
    // Diagnostics are stratified by their own metadata: where most of a version's events fall in no
    // matched stratum (metadata the metric payloads do not share), the rate is compared pooled.
    func share(_ count: (MatchedStrata.Stratum) -> Int, of total: Int) -> Double {
      total > 0 ? Double(strata.strata.reduce(0) { $0 + count($1) }) / Double(total) : 1
    }
    let minimum = strata.stratification.minimumCoverage
    guard share({ $0.baselineDiagnostics[kind] ?? 0 }, of: events.baseline) >= minimum,
      share({ $0.candidateDiagnostics[kind] ?? 0 }, of: events.candidate) >= minimum
    else { return (pooled, pooledTest) }
    result.baseline = rate({ $0.baselineDiagnostics[kind] ?? 0 }, { $0.baseline.payloadCount })
    result.candidate = rate({ $0.candidateDiagnostics[kind] ?? 0 }, { $0.candidate.payloadCount })
    result.baselinePayloads = nb
    result.candidatePayloads = nc
    guard result.matching?.coverageTooLow == false, nb >= rule.minPayloads, nc >= rule.minPayloads,
      let test = try? MantelHaenszelRateTest(
        strata: strata.strata.map {
          (
            $0.baselineDiagnostics[kind] ?? 0, Double($0.baseline.payloadCount), $0.candidateDiagnostics[kind] ?? 0,
            Double($0.candidate.payloadCount)
          )
        })
    else {
      result.verdict = .insufficientData
      return (result, nil)
    }
    let (worse, better) = rule.polarity == .lowerIsBetter ? (test.pHigher, test.pLower) : (test.pLower, test.pHigher)
    result.stratifiedRateTest = test
    result.pValue = worse
    result.changeInterval = Self.placed(
      test.changeInterval, estimate: test.ratio.map { $0 - 1 }, around: result.change, multiplicative: true)
    return (result, (worse, better))
  }

  /// What a rule's matching reports, before its contributions.
  private func matching(_ strata: MatchedStrata, pooled: (Double?, Double?)) -> RuleMatching {
    RuleMatching(
      dimensions: strata.stratification.dimensions, strata: strata.strata.count,
      baselineCoverage: strata.baselineCoverage, candidateCoverage: strata.candidateCoverage,
      pooledBaseline: pooled.0, pooledCandidate: pooled.1, shifts: strata.shifts,
      coverageTooLow: min(strata.baselineCoverage, strata.candidateCoverage) < strata.stratification.minimumCoverage,
      maximumLeftOut: strata.stratification.maximumLeftOut)
  }

  /// Each version's statistics over its payloads left out of `strata` (those strata hold), for the
  /// rules of a pair; nil for a version of which less than ``RuleMatching/leftOutShown`` was left out.
  func leftOutStatistics(_ strata: MatchedStrata, rules: [RegressionRule]?) -> (PooledStatistics?, PooledStatistics?) {
    func side(_ leftOut: VersionAggregate, coverage: Double) -> PooledStatistics? {
      guard 1 - coverage >= RuleMatching.leftOutShown, leftOut.payloadCount > 0 else { return nil }
      return statistics(leftOut, rules: rules)
    }
    return (
      side(strata.baselineLeftOutAggregate, coverage: strata.baselineCoverage),
      side(strata.candidateLeftOutAggregate, coverage: strata.candidateCoverage)
    )
  }

  /// The strata that moved a rule's statistic most in the bad direction: each stratum's statistic of
  /// both versions, weighed by its share of the mix, relative to the standardized baseline.
  func contributions(_ result: RuleResult, _ strata: MatchedStrata, count: Int = 3) -> [StratumContribution] {
    guard let reference = result.baseline, reference != 0 else { return [] }
    let rule = result.rule
    let requests = statisticsRequests([rule])
    var all: [StratumContribution] = []
    for stratum in strata.strata {
      let values: (Double?, Double?)
      if let kind = rule.metric.diagnosticKind {
        func rate(_ events: Int?, _ payloads: Int) -> Double? {
          payloads > 0 ? 1000 * Double(events ?? 0) / Double(payloads) : nil
        }
        values = (
          rate(stratum.baselineDiagnostics[kind], stratum.baseline.payloadCount),
          rate(stratum.candidateDiagnostics[kind], stratum.candidate.payloadCount)
        )
      } else {
        let b = PooledStatistics(
          stratum.baseline, requests: requests, estimator: estimator, interpolation: interpolation)
        let c = PooledStatistics(
          stratum.candidate, requests: requests, estimator: estimator, interpolation: interpolation)
        values = (b[rule.metric, rule.statistic]?.value, c[rule.metric, rule.statistic]?.value)
      }
      guard let b = values.0, let c = values.1 else { continue }
      all.append(
        StratumContribution(
          values: stratum.values, weight: stratum.weight, baseline: b, candidate: c,
          contribution: stratum.weight * (c - b) / abs(reference)))
    }
    let worse = rule.polarity == .lowerIsBetter ? 1.0 : -1.0
    return Array(
      all.filter { $0.contribution * worse > 0 }.sorted {
        ($0.contribution * worse, $1.label) > ($1.contribution * worse, $0.label)
      }.prefix(count))
  }

  /// An interval of a relative change around its own `estimate`, placed around the change reported
  /// (as a ratio when `multiplicative`), so that the reported change always lies inside it.
  static func placed(
    _ interval: ClosedRange<Double>?, estimate: Double?, around change: Double?, multiplicative: Bool
  ) -> ClosedRange<Double>? {
    guard let interval, let estimate, let change else { return interval }
    if multiplicative {
      guard estimate > -1, change > -1 else { return interval }
      let factor = (1 + change) / (1 + estimate)
      return ((1 + interval.lowerBound) * factor - 1)...((1 + interval.upperBound) * factor - 1)
    }
    return (interval.lowerBound + change - estimate)...(interval.upperBound + change - estimate)
  }
}
