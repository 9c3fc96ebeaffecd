import Foundation

/// Compares the statistic a rate rule reports — the pooled rate R = Σx ÷ Σy (hang seconds per
/// foreground hour) — between two versions, each payload weighing as much as its exposure y counts in
/// R.
///
/// R is a ratio estimator; its variance by linearization (the delta method, as survey statistics
/// computes it for ratio means) is V = n ÷ (n − 1) · Σ(xᵢ − R·yᵢ)² ÷ (Σy)². The test works on
/// log(R꜀ ÷ R_b), whose standard error is √(V_b ÷ R_b² + V꜀ ÷ R꜀²), against Student's t with
/// Welch–Satterthwaite degrees of freedom, and the 95% interval of the relative change is
/// exp(log ratio ± t · se) − 1. It needs only five exact sums per side (Σx, Σy, Σx², Σy², Σxy), so it
/// is the same from merged shards and past the exact-value limit. When a side has no events at all
/// (R = 0) the test runs on R꜀ − R_b instead, and there is no relative interval.
///
/// A mean of per-payload values is the same estimator with every exposure 1
/// (``init(baselineValues:candidateValues:confidence:)``): the interval of a `mean` rule's change.
public struct PooledRateTest: Sendable, Hashable {
  /// R꜀ ÷ R_b; nil when the baseline rate is 0.
  public var ratio: Double?
  /// The t statistic (of log R꜀ − log R_b, or of R꜀ − R_b when a rate is 0).
  public var t: Double
  /// The Welch–Satterthwaite degrees of freedom.
  public var degreesOfFreedom: Double
  /// P(a statistic at least this large | equal rates): the candidate's rate is higher.
  public var pHigher: Double
  /// P(a statistic at most this small | equal rates): the candidate's rate is lower.
  public var pLower: Double
  /// The confidence interval of the relative change R꜀ ÷ R_b − 1; nil when a rate is 0.
  public var changeInterval: ClosedRange<Double>?

  /// One side's pooled rate, its variance, and its payload count.
  struct Side {
    var rate: Double
    var variance: Double
    var count: Double

    /// From n, Σx, Σy, Σx², Σy², Σxy.
    init?(count: Int, x: Double, y: Double, xx: Double, yy: Double, xy: Double) {
      let n = Double(count)
      guard count >= 2, y > 0, x >= 0 else { return nil }
      let r = x / y
      // Σ(x − R·y)² expanded; rounding can take a zero residual a hair below 0.
      let residual = xx - 2 * r * xy + r * r * yy
      rate = r
      variance = n / (n - 1) * max(0, residual) / (y * y)
      self.count = n
    }

    init?(_ sample: RateSample) {
      self.init(
        count: sample.count, x: sample.numeratorSum.value, y: sample.denominatorSum.value,
        xx: sample.numeratorSquares.value, yy: sample.denominatorSquares.value, xy: sample.products.value)
    }

    /// The mean of non-negative values as a rate of exposure 1 per value.
    init?(values sample: ScalarSample) {
      let (n, sums) = (Double(sample.count), sample.sums)
      self.init(count: sample.count, x: sums.values, y: n, xx: sums.squares, yy: n, xy: sums.values)
    }
  }

  /// Tests the candidate's pooled rate against the baseline's; at least two payloads with exposure
  /// per side.
  public init(baseline: RateSample, candidate: RateSample, confidence: Double = 0.95) throws(StatisticsError) {
    guard let b = Side(baseline), let c = Side(candidate) else { throw .empty }
    try self.init(b, c, confidence: confidence)
  }

  /// Compares the means of two samples of non-negative per-payload values (peak memory, exit counts…)
  /// as pooled rates of exposure 1: the interval of a `mean` rule's change.
  public init(baselineValues: ScalarSample, candidateValues: ScalarSample, confidence: Double = 0.95)
    throws(StatisticsError)
  {
    guard let b = Side(values: baselineValues), let c = Side(values: candidateValues) else { throw .empty }
    try self.init(b, c, confidence: confidence)
  }

  /// Compares the versions' standardized rates: each the strata's pooled rates weighed by the
  /// strata's common `weight`s (R = Σ w R_s ÷ Σ w, V = Σ w² V_s ÷ (Σ w)²: strata are independent),
  /// over the strata where both versions have two payloads with exposure.
  public init(
    standardized strata: [(weight: Double, baseline: RateSample, candidate: RateSample)], confidence: Double = 0.95
  ) throws(StatisticsError) {
    try self.init(
      standardized: strata.map { ($0.weight, Side($0.baseline), Side($0.candidate)) }, confidence: confidence)
  }

  /// Compares the standardized means of per-payload values: the means of each stratum, as
  /// ``init(baselineValues:candidateValues:confidence:)`` takes them, weighed as standardized rates are.
  public init(
    standardizedValues strata: [(weight: Double, baseline: ScalarSample, candidate: ScalarSample)],
    confidence: Double = 0.95
  ) throws(StatisticsError) {
    try self.init(
      standardized: strata.map { ($0.weight, Side(values: $0.baseline), Side(values: $0.candidate)) },
      confidence: confidence)
  }

  private init(standardized strata: [(Double, Side?, Side?)], confidence: Double) throws(StatisticsError) {
    let kept = strata.compactMap { w, b, c in b.flatMap { b in c.map { (w, b, $0) } } }.filter { $0.0 > 0 }
    let total = kept.reduce(0) { $0 + $1.0 }
    guard total > 0 else { throw .empty }
    func side(_ pick: ((Double, Side, Side)) -> Side) -> Side {
      var side = pick(kept[0])
      side.rate = kept.reduce(0) { $0 + $1.0 * pick($1).rate } / total
      side.variance = kept.reduce(0) { $0 + $1.0 * $1.0 * pick($1).variance } / (total * total)
      side.count = kept.reduce(0) { $0 + pick($1).count }
      return side
    }
    try self.init(side { $0.1 }, side { $0.2 }, confidence: confidence)
  }

  private init(_ b: Side, _ c: Side, confidence: Double) throws(StatisticsError) {
    guard b.rate.isFinite, c.rate.isFinite else { throw .invalidInput("non-finite rate") }
    let logScale = b.rate > 0 && c.rate > 0
    // Per side: the variance of the statistic's estimate (log R, or R).
    let vb = logScale ? b.variance / (b.rate * b.rate) : b.variance
    let vc = logScale ? c.variance / (c.rate * c.rate) : c.variance
    let difference = logScale ? log(c.rate / b.rate) : c.rate - b.rate
    ratio = b.rate > 0 ? c.rate / b.rate : nil
    let variance = vb + vc
    guard variance > 0 else {
      // No spread on either side: equal rates are no evidence; others are certain.
      t = difference == 0 ? 0 : difference > 0 ? .infinity : -.infinity
      degreesOfFreedom = b.count + c.count - 2
      pHigher = difference > 0 ? 0 : 1
      pLower = difference < 0 ? 0 : 1
      changeInterval = logScale ? (exp(difference) - 1)...(exp(difference) - 1) : nil
      return
    }
    let se = variance.squareRoot()
    let nu = variance * variance / (vb * vb / (b.count - 1) + vc * vc / (c.count - 1))
    t = difference / se
    degreesOfFreedom = nu
    pHigher = try GSL.studentUpperTail(t, degreesOfFreedom: nu)
    pLower = try GSL.studentUpperTail(-t, degreesOfFreedom: nu)
    if logScale {
      let half = try GSL.studentQuantile(1 - (1 - confidence) / 2, degreesOfFreedom: nu) * se
      changeInterval = (exp(difference - half) - 1)...(exp(difference + half) - 1)
    }
  }
}
