/// Compares a candidate version against a baseline under a rule set.
///
/// The unit of evidence is one payload (one device-day): each histogram or scalar rule's statistic is
/// computed per payload and the two samples are compared by a one-sided Mann–Whitney U test; a rate
/// rule's pooled rate by ``PooledRateTest`` (each payload weighed by its exposure); diagnostic rates by
/// the exact Poisson test. The p-values of every rule are adjusted together by Benjamini–Hochberg. A
/// rule regresses when its q-value is below α and the change is past every threshold in the bad
/// direction: its point estimate, or with ``Decision/confident`` its whole confidence interval.
public struct RegressionEvaluator: Sendable {
  /// The rules.
  public var ruleSet: RuleSet
  /// The estimator of histogram means (must match how per-payload means were aggregated).
  public var estimator: MeanEstimator
  /// How a significant change becomes a verdict.
  public var decision: Decision
  /// How mass is spread inside buckets for the pooled percentiles and midpoint means reported (the
  /// per-payload statistics the tests compare are uniform, as snapshots record them).
  public var interpolation: Interpolation

  /// How the versions are matched: the strata compared within (device model and OS version by
  /// default; ``Stratification/none`` compares them as two pooled samples).
  public var stratification: Stratification

  /// Creates an evaluator.
  public init(
    ruleSet: RuleSet = .builtIn, estimator: MeanEstimator = .midpoint, decision: Decision = .significant,
    interpolation: Interpolation = .monotone, stratification: Stratification = .default
  ) {
    self.ruleSet = ruleSet
    self.estimator = estimator
    self.decision = decision
    self.interpolation = interpolation
    self.stratification = stratification
  }

  /// The per-payload percentiles the rules need recorded while aggregating.
  public var payloadPercentiles: [Percentile] {
    var set = Set<Percentile>()
    for rule in ruleSet.rules { if case .percentile(let p) = rule.statistic { set.insert(p) } }
    return set.sorted()
  }

  /// The histogram metrics whose per-payload statistics the rules need recorded.
  public var payloadStatistics: MetricSelection? {
    let metrics = ruleSet.rules.filter { Self.payloadStatistic(of: $0) != nil }.map(\.metric)
    return metrics.isEmpty ? nil : MetricSelection(metrics: metrics)
  }

  /// Whether a rule tests the per-payload means of a histogram metric.
  public var payloadMeans: Bool { ruleSet.rules.contains { Self.payloadStatistic(of: $0) == .mean } }

  /// Aggregation options that record what the rules need.
  public var aggregationOptions: AggregationOptions {
    var options = AggregationOptions(
      estimator: estimator, payloadStatistics: payloadStatistics, payloadPercentiles: payloadPercentiles)
    options.payloadMeans = payloadMeans
    if stratification.isStratified { options.stratification = stratification }
    return options
  }

  /// ``aggregationOptions`` that aggregate no metric but those the rules read: what a dump read for
  /// the gate alone needs. Every other metric's per-payload values (a dozen counters' and times' for
  /// every payload) would be aggregated, cached and merged for nothing.
  public var gateAggregationOptions: AggregationOptions {
    var options = aggregationOptions
    options.selection = MetricSelection(metrics: ruleSet.rules.map(\.metric))
    return options
  }

  /// Evaluates every rule, on up to `threads` threads; within `strata` when given, pooled otherwise.
  /// Diagnostic rules need the versions' diagnostics; without them they report `insufficient-data`.
  /// Rules on one group (`where:`) need the versions' groups, and are left to ``ComparisonReport/init(grouped:baseline:candidate:top:wholeVersions:baselineDiagnostics:candidateDiagnostics:evaluator:threads:)``.
  public func evaluate(
    baseline: VersionAggregate, candidate: VersionAggregate, baselineDiagnostics: DiagnosticAggregate? = nil,
    candidateDiagnostics: DiagnosticAggregate? = nil, statistics: (PooledStatistics, PooledStatistics)? = nil,
    strata: MatchedStrata? = nil, threads: Int = 1
  ) -> [RuleResult] {
    var pair = Pair(
      baseline: baseline, candidate: candidate, baselineDiagnostics: baselineDiagnostics,
      candidateDiagnostics: candidateDiagnostics, rules: ruleSet.rules.filter { $0.group == nil })
    pair.statistics = statistics
    pair.strata = strata
    return evaluate(pairs: [pair], threads: threads)[0]
  }

  /// The pooled statistics the rules compare, of one side of a pair.
  public func statisticsRequests(_ rules: [RegressionRule]? = nil) -> [MetricID: Set<Statistic>] {
    PooledStatistics.requests((rules ?? ruleSet.rules).map { ($0.metric, $0.statistic) })
  }

  /// The pooled statistics of one side, as the rules compare them.
  public func statistics(_ aggregate: VersionAggregate, rules: [RegressionRule]? = nil) -> PooledStatistics {
    PooledStatistics(
      aggregate, requests: statisticsRequests(rules), estimator: estimator, interpolation: interpolation)
  }

  /// Two sides to compare under some of the rules: a version against another, or one group of each
  /// (`compare --by`).
  public struct Pair: Sendable {
    /// The baseline side.
    public var baseline: VersionAggregate
    /// The candidate side.
    public var candidate: VersionAggregate
    /// The baseline's diagnostics (for diagnostic rules).
    public var baselineDiagnostics: DiagnosticAggregate?
    /// The candidate's.
    public var candidateDiagnostics: DiagnosticAggregate?
    /// The rules evaluated on this pair; nil for all of the rule set's.
    public var rules: [RegressionRule]?
    /// The baseline's and candidate's pooled statistics, when already computed (with at least what
    /// the rules compare); nil: computed from the sides.
    public var statistics: (baseline: PooledStatistics, candidate: PooledStatistics)?
    /// The strata the sides are compared within; nil compares them pooled.
    public var strata: MatchedStrata?

    /// Creates a pair.
    public init(
      baseline: VersionAggregate, candidate: VersionAggregate, baselineDiagnostics: DiagnosticAggregate? = nil,
      candidateDiagnostics: DiagnosticAggregate? = nil, rules: [RegressionRule]? = nil
    ) {
      self.baseline = baseline
      self.candidate = candidate
      self.baselineDiagnostics = baselineDiagnostics
      self.candidateDiagnostics = candidateDiagnostics
      self.rules = rules
    }
  }

  /// One rule on one pair, before the adjustment: its result, and the p-values of its test (worse,
  /// better) when it ran one.
  private func evaluate(
    _ rule: RegressionRule, _ pair: Pair, _ statistics: (PooledStatistics, PooledStatistics),
    standardized: (PooledStatistics, PooledStatistics)?
  ) -> (RuleResult, (worse: Double, better: Double)?) {
    let (baseline, candidate) = (pair.baseline, pair.candidate)
    if let kind = rule.metric.diagnosticKind {
      var evaluated = evaluateDiagnostics(
        rule, kind: kind, baseline: (baseline, pair.baselineDiagnostics),
        candidate: (candidate, pair.candidateDiagnostics))
      if let strata = pair.strata, rule.statistic != .newSignature {
        let events = (pair.baselineDiagnostics?.counts[kind] ?? 0, pair.candidateDiagnostics?.counts[kind] ?? 0)
        evaluated = evaluateDiagnostics(rule, kind: kind, pooled: evaluated, events: events, strata: strata)
      }
      return evaluated
    }
    if Self.isStability(rule) {
      var (result, tested) = evaluateValues(rule, pair, statistics, standardized: standardized)
      result.crashEvidence = CrashEvidence(
        result, baseline: (baseline, pair.baselineDiagnostics), candidate: (candidate, pair.candidateDiagnostics))
      return (result, tested)
    }
    return evaluateValues(rule, pair, statistics, standardized: standardized)
  }

  /// A rule on a metric's values (not a diagnostic's): within strata when the pair has them.
  private func evaluateValues(
    _ rule: RegressionRule, _ pair: Pair, _ statistics: (PooledStatistics, PooledStatistics),
    standardized: (PooledStatistics, PooledStatistics)?
  ) -> (RuleResult, (worse: Double, better: Double)?) {
    let (baseline, candidate) = (pair.baseline, pair.candidate)
    if let strata = pair.strata, let standardized {
      return evaluate(rule, strata, candidate: candidate, pooled: statistics, standardized: standardized)
    }
    var tested: (worse: Double, better: Double)?
    let b = Self.sample(rule, baseline)
    let c = Self.sample(rule, candidate)
    let pb = statistics.0[rule.metric, rule.statistic]
    let pc = statistics.1[rule.metric, rule.statistic]
    var result = RuleResult(
      rule: rule, baseline: pb?.value, candidate: pc?.value, baselineBounds: pb?.bounds,
      candidateBounds: pc?.bounds, baselinePayloads: b.count, candidatePayloads: c.count, test: nil, qValue: nil,
      improvementQValue: nil, verdict: .insufficientData, budgetExceeded: nil)
    if c.count >= rule.minPayloads, rule.budget != nil, let value = pc?.value {
      result.budgetExceeded = rule.breaksBudget(value)
    }
    if b.count >= rule.minPayloads, c.count >= rule.minPayloads, let pb, pc != nil {
      let lowerIsBetter = rule.polarity == .lowerIsBetter
      if Self.isStability(rule) {
        tested = Self.testStability(rule, [(Self.rates(rule, baseline), Self.rates(rule, candidate))], into: &result)
      } else if rule.metric.kind == .rate {
        if let test = try? PooledRateTest(
          baseline: Self.rates(rule, baseline), candidate: Self.rates(rule, candidate))
        {
          let (worse, better) = lowerIsBetter ? (test.pHigher, test.pLower) : (test.pLower, test.pHigher)
          result.rateTest = test
          result.pValue = worse
          result.changeInterval = test.changeInterval
          tested = (worse, better)
        }
      } else {
        // In order once: the rank test and the interval each read the values sorted.
        let (b, c) = (b.ascending(), c.ascending())
        if let (test, opposite) = try? MannWhitneyTest.bothWays(
          baseline: b, candidate: c, candidateLarger: lowerIsBetter)
        {
          result.test = test
          result.pValue = test.pValue
          result.changeInterval = Self.changeInterval(rule, b, c, reference: pb.value, change: result.change)
          tested = (test.pValue, opposite.pValue)
        }
      }
    }
    return (result, tested)
  }

  /// Evaluates several pairs, with the p-values of every pair's tests adjusted together by
  /// Benjamini–Hochberg: more groups make more tests, not more false alarms. One result list per pair.
  /// The rules are evaluated on up to `threads` threads (each into its own slot, read back in order:
  /// the result does not depend on scheduling); the adjustment follows, on this one.
  public func evaluate(pairs: [Pair], threads: Int = 1) -> [[RuleResult]] {
    // Each side's pooled statistics once, whatever number of rules read them.
    let sides = ParallelSlots<PooledStatistics>.map(count: 2 * pairs.count, threads: threads) { i in
      let pair = pairs[i / 2]
      if let computed = pair.statistics { return i % 2 == 0 ? computed.baseline : computed.candidate }
      return statistics(i % 2 == 0 ? pair.baseline : pair.candidate, rules: pair.rules)
    }
    // With strata, each side's statistics standardized to the pair's common mix too.
    let standardized = ParallelSlots<PooledStatistics?>.map(count: 2 * pairs.count, threads: threads) { i in
      guard let strata = pairs[i / 2].strata else { return nil }
      let parts = strata.strata.map { (weight: $0.weight, aggregate: i % 2 == 0 ? $0.baseline : $0.candidate) }
      return PooledStatistics(
        standardized: parts, requests: statisticsRequests(pairs[i / 2].rules), estimator: estimator,
        interpolation: interpolation)
    }
    // What matching left out, where much was: its statistics, to show how it differs.
    let leftOut = ParallelSlots<(PooledStatistics?, PooledStatistics?)>.map(count: pairs.count, threads: threads) {
      guard let strata = pairs[$0].strata else { return (nil, nil) }
      return leftOutStatistics(strata, rules: pairs[$0].rules)
    }
    let jobs = pairs.indices.flatMap { n in (pairs[n].rules ?? ruleSet.rules).map { (pair: n, rule: $0) } }
    let evaluated = ParallelSlots<(RuleResult, (worse: Double, better: Double)?)>.map(
      count: jobs.count, threads: threads
    ) { i in
      let n = jobs[i].pair
      let matched = standardized[2 * n].flatMap { b in standardized[2 * n + 1].map { (b, $0) } }
      return evaluate(jobs[i].rule, pairs[n], (sides[2 * n], sides[2 * n + 1]), standardized: matched)
    }
    var results: [[RuleResult]] = pairs.map { _ in [] }
    // The tests adjusted together: (pair, result index, p worse, p better).
    var tested: [(Int, Int, Double, Double)] = []
    for (job, (result, p)) in zip(jobs, evaluated) {
      var result = result
      if result.matching != nil, job.rule.metric.kind != .diagnostic {
        let (metric, statistic) = (job.rule.metric, job.rule.statistic)
        result.matching?.leftOutBaseline = leftOut[job.pair].0?[metric, statistic]?.value
        result.matching?.leftOutCandidate = leftOut[job.pair].1?[metric, statistic]?.value
      }
      if let p { tested.append((job.pair, results[job.pair].count, p.worse, p.better)) }
      results[job.pair].append(result)
    }
    let q = BenjaminiHochberg.adjust(tested.map(\.2))
    let qBetter = BenjaminiHochberg.adjust(tested.map(\.3))
    for (k, (n, index, _, _)) in tested.enumerated() {
      var result = results[n][index]
      result.qValue = q[k]
      result.improvementQValue = qBetter[k]
      if result.baseline != nil, result.candidate != nil {
        if q[k] < ruleSet.alpha && result.pastThresholds(worse: true, decision: decision) {
          result.verdict = .regression
        } else if qBetter[k] < ruleSet.alpha && result.pastThresholds(worse: false, decision: decision) {
          result.verdict = .improvement
        } else if result.intervalIsInconclusive {
          result.verdict = .inconclusive
        } else {
          result.verdict = .unchanged
        }
        // Too much of a version was left out of the matched comparison for what was compared to
        // clear it; a regression found in what was compared stands.
        if result.matching?.leftOutTooMuch == true && (result.verdict == .unchanged || result.verdict == .improvement) {
          result.verdict = .inconclusive
        }
      }
      if let strata = pairs[n].strata, result.verdict == .regression || result.verdict == .inconclusive {
        let found = contributions(result, strata)
        result.matching?.contributions = found
      }
      results[n][index] = result
    }
    return results
  }

  /// The 95% interval of the relative change of a per-payload rule, from the per-payload values: the
  /// ratio of means for a `mean` (the mean as a pooled rate of exposure 1), Hodges–Lehmann's for a
  /// percentile. The rule reports the change of the pooled statistic (the merged histogram's), which
  /// need not equal the interval's own estimate (the mean of per-payload means, the median pairwise
  /// shift): the interval keeps its margins around its estimate and is placed around `change`, as a
  /// ratio when it is one, so the reported change always lies inside it.
  static func changeInterval(
    _ rule: RegressionRule, _ b: ScalarSample, _ c: ScalarSample, reference: Double, change: Double?
  ) -> ClosedRange<Double>? {
    var interval: ClosedRange<Double>?
    var estimate: Double?
    var multiplicative = true
    if case .percentile = rule.statistic {
      let hl = try? HodgesLehmannInterval(baseline: b, candidate: c)
      interval = hl?.relativeChange(reference: reference)
      estimate = hl?.relativeEstimate(reference: reference)
      multiplicative = hl?.logarithmic ?? false
    } else {
      let test = try? PooledRateTest(baselineValues: b, candidateValues: c)
      interval = test?.changeInterval
      estimate = test?.ratio.map { $0 - 1 }
    }
    return placed(interval, estimate: estimate, around: change, multiplicative: multiplicative)
  }

  /// A diagnostic rule: a rate per 1,000 payloads (tested by the conditional Poisson-rate test and
  /// adjusted with the others), or new signatures (no test: a signature is new or it is not).
  private func evaluateDiagnostics(
    _ rule: RegressionRule, kind: DiagnosticKind, baseline: (VersionAggregate, DiagnosticAggregate?),
    candidate: (VersionAggregate, DiagnosticAggregate?)
  ) -> (RuleResult, (worse: Double, better: Double)?) {
    // A rate's exposure is the version's metric payloads (a diagnostic payload exists only when
    // something went wrong, so it measures no exposure): without them, the rate is insufficient data.
    // A new signature needs none: its sides are counted in metric payloads when the dump has them,
    // else in diagnostic payloads.
    func payloads(_ side: (VersionAggregate, DiagnosticAggregate?)) -> Int {
      guard rule.statistic == .newSignature, side.0.payloadCount == 0 else { return side.0.payloadCount }
      return side.1?.payloadCount ?? 0
    }
    let nb = payloads(baseline)
    let nc = payloads(candidate)
    let xb = baseline.1?.counts[kind] ?? 0
    let xc = candidate.1?.counts[kind] ?? 0
    var result = RuleResult(
      rule: rule, baseline: nil, candidate: nil, baselineBounds: nil, candidateBounds: nil, baselinePayloads: nb,
      candidatePayloads: nc, test: nil, qValue: nil, improvementQValue: nil, verdict: .insufficientData,
      budgetExceeded: nil)
    // Without diagnostics on either side there is nothing to compare (the dump holds none).
    guard let bd = baseline.1, let cd = candidate.1, nb >= rule.minPayloads, nc >= rule.minPayloads else {
      return (result, nil)
    }
    switch rule.statistic {
    case .newSignature:
      let known = Set(bd.groups.keys)
      result.newSignatures = cd.groups.values
        .filter { $0.kind == kind && $0.count >= rule.minCount && !known.contains($0.signature.identifier) }
        .sorted { ($0.count, $1.signature.identifier) > ($1.count, $0.signature.identifier) }
      result.baseline = 0
      result.candidate = Double(result.newSignatures.count)
      result.verdict = result.newSignatures.isEmpty ? .unchanged : .regression
      return (result, nil)
    default:
      result.baseline = 1000 * Double(xb) / Double(nb)
      result.candidate = 1000 * Double(xc) / Double(nc)
      if rule.budget != nil, let value = result.candidate { result.budgetExceeded = rule.breaksBudget(value) }
      guard
        let test = try? RateComparisonTest(
          baselineCount: xb, baselineExposure: nb, candidateCount: xc, candidateExposure: nc)
      else { return (result, nil) }
      let worse = rule.polarity == .lowerIsBetter ? test.pHigher : test.pLower
      let better = rule.polarity == .lowerIsBetter ? test.pLower : test.pHigher
      result.pValue = worse
      result.changeInterval = test.changeInterval
      return (result, (worse, better))
    }
  }

  /// The per-payload statistic a rule on a histogram metric tests, as `VersionAggregate` records it:
  /// its percentile, or the mean for any other statistic; nil for a rule on another kind of metric.
  static func payloadStatistic(of rule: RegressionRule) -> Statistic? {
    guard rule.metric.kind == .histogram else { return nil }
    return rule.statistic.percentile != nil ? rule.statistic : .mean
  }

  /// The per-payload values a rule tests.
  static func sample(_ rule: RegressionRule, _ aggregate: VersionAggregate) -> ScalarSample {
    switch rule.metric.kind {
    case .histogram:
      guard let statistic = payloadStatistic(of: rule) else { return ScalarSample() }
      return aggregate.payloadSample(rule.metric, statistic) ?? ScalarSample()
    case .scalar, .counter:
      return aggregate.scalar(rule.metric) ?? ScalarSample()
    case .rate:
      return rates(rule, aggregate).perPayloadRates
    case .diagnostic:
      return ScalarSample()
    }
  }

  /// A rate rule's per-payload numerators and denominators.
  static func rates(_ rule: RegressionRule, _ aggregate: VersionAggregate) -> RateSample {
    aggregate.rate(rule.metric) ?? RateSample()
  }
}
