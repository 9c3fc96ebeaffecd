// The exact-value budget: one bound on the per-payload values a snapshot keeps exactly, all samples
// together, so that a version with many signposts and percentiles (each sample under its own
// `exactValueLimit`) still writes a small file. Samples take the budget in a fixed order, those the
// gate's built-in rules test first; from the first sample that does not fit, every sample is a sketch.
//
// A sample's cost is min(its count, `exactValueLimit`): costs only grow as shards merge, so a sample
// sketched in a shard is sketched in the whole too, and merged shards still write the bytes of one pass.
extension VersionSnapshot {
  /// The default budget: 200,000 values, about 4 MB of JSON.
  public static let defaultExactValueBudget = 200_000

  /// The snapshot as written: the samples past the budget folded into sketches.
  func spendingExactValueBudget() -> VersionSnapshot {
    var copy = self
    var spent = 0
    var exhausted = false
    let limit = aggregate.exactValueLimit
    /// Whether a sample of `count` values stays exact.
    func fits(_ count: Int) -> Bool {
      if !exhausted {
        spent += min(count, limit)
        exhausted = spent > exactValueBudget
      }
      return !exhausted
    }
    func spend(_ a: inout VersionAggregate) {
      let tested = Self.testedFirst
      let histogramKeys = a.payloadStatistics.keys.sorted { $0.precedesBytewise($1) }
      // The samples the built-in rules test, then the rates, the scalars, and the other per-payload
      // statistics (signposts, other percentiles).
      var order: [(MetricID, Statistic)] = []
      for id in histogramKeys {
        for statistic in a.payloadStatistics[id]!.keys.sorted(by: { $0.description < $1.description }) {
          order.append((id, statistic))
        }
      }
      let first = order.filter { tested.contains(Tested(metric: $0.0, statistic: $0.1)) }
      let rest = order.filter { !tested.contains(Tested(metric: $0.0, statistic: $0.1)) }
      for (id, statistic) in first {
        let sample = a.payloadStatistics[id]![statistic]!
        if !fits(sample.count) { a.payloadStatistics[id]![statistic] = sample.asSketch }
      }
      for rate in MetricCatalog.rates {
        guard let sample = a.rate(rate.id), sample.count > 0 else { continue }
        if !fits(sample.count) { a.setRate(rate.id, sample.asSketch) }
      }
      for (id, sample) in a.scalars.sorted(by: { $0.key.precedesBytewise($1.key) }) where !fits(sample.count) {
        a.setScalar(id, sample.asSketch)
      }
      for (id, statistic) in rest {
        let sample = a.payloadStatistics[id]![statistic]!
        if !fits(sample.count) { a.payloadStatistics[id]![statistic] = sample.asSketch }
      }
    }
    spend(&copy.aggregate)
    for cell in strata.keys.sorted(by: StratumCell.precedes) { spend(&copy.strata[cell]!) }
    for key in series.keys.sorted(by: { ($0.start, $0.group ?? "") < ($1.start, $1.group ?? "") }) {
      spend(&copy.series[key]!)
    }
    if var d = copy.diagnostics {
      for path in [\DiagnosticAggregate.hangDurations, \.cpuTimes, \.writes, \.launchDurations]
      where d[keyPath: path].count > 0 {
        if !fits(d[keyPath: path].count) { d[keyPath: path] = d[keyPath: path].asSketch }
      }
      copy.diagnostics = d
    }
    return copy
  }

  private struct Tested: Hashable {
    var metric: MetricID
    var statistic: Statistic
  }

  /// The per-payload samples the built-in rules test.
  private static let testedFirst: Set<Tested> = Set(
    RuleSet.builtIn.rules.map { Tested(metric: $0.metric, statistic: $0.statistic) })
}

extension ScalarSample {
  /// The same values as a sketch.
  var asSketch: ScalarSample { sketch == nil ? ScalarSample(sketch: binned, exactLimit: exactLimit) : self }
}

extension RateSample {
  /// The same pairs with their per-payload rates as a sketch (the sums stay exact).
  var asSketch: RateSample {
    sketchedRates != nil
      ? self : RateSample(count: count, sums: sums, rates: perPayloadRates.binned, exactLimit: exactLimit)
  }
}
