/// A stability rate with its 95% interval, the events it counts and the exposure they are counted
/// over.
///
/// - Terminations per 1,000 hours (``RateCounting/events``): Garwood's exact Poisson interval,
///   [χ²(α/2; 2k) ÷ 2, χ²(1 − α/2; 2k + 2) ÷ 2] ÷ T, computed on the events and exposure scaled by their
///   dispersion φ (``EventDispersion``): k ÷ φ events over T ÷ φ, so that a count spread φ times as
///   much as Poisson's has an interval as wide as a count φ times smaller. With φ = 1 it is the exact
///   interval; with no event its lower end is 0.
/// - Crash-free device-days (``RateCounting/eventFreeDays``): Wilson's score interval of a binomial
///   share; device-days are the independent units, so nothing clusters.
public struct RateEstimate: Sendable, Hashable {
  /// What the rate counts.
  public var counting: RateCounting
  /// The rate: per 1,000 hours, or percent of device-days.
  public var value: Double
  /// Its 95% interval, in the same unit.
  public var interval: ClosedRange<Double>
  /// Terminations counted; for crash-free device-days, the device-days with a crash-class
  /// termination.
  public var events: Double
  /// Hours of foreground (or background) time; for crash-free device-days, device-days.
  public var exposure: Double
  /// The dispersion the interval was widened by (1 for a share).
  public var dispersion: Double

  /// An estimate from its parts, as computed before (a cache reading it back).
  init(
    counting: RateCounting, value: Double, interval: ClosedRange<Double>, events: Double, exposure: Double,
    dispersion: Double
  ) {
    self.counting = counting
    self.value = value
    self.interval = interval
    self.events = events
    self.exposure = exposure
    self.dispersion = dispersion
  }

  /// The estimate of the stability rate `metric` of `aggregate`: nil for a metric counting no events,
  /// or without exposure; throws when the interval cannot be computed.
  public init?(_ metric: MetricID, of aggregate: VersionAggregate, confidence: Double = 0.95) throws(StatisticsError) {
    guard let counting = metric.metric.counting, counting != .amount, let sample = aggregate.rate(metric),
      sample.pooledRate != nil
    else { return nil }
    try self.init(sample, counting: counting, confidence: confidence)
  }

  /// The estimate of a rate's sample; throws without exposure, or for a rate of amounts.
  public init(_ sample: RateSample, counting: RateCounting, confidence: Double = 0.95) throws(StatisticsError) {
    let (x, y) = (sample.numeratorSum.value, sample.denominatorSum.value)
    guard y > 0, x >= 0, x.isFinite, y.isFinite else { throw .empty }
    self.counting = counting
    let alpha = 1 - confidence
    switch counting {
    case .amount:
      throw .invalidInput("a rate of amounts has no event count")
    case .events:
      let phi = EventDispersion.of([sample])
      let (k, t) = (x / phi, y / phi)
      let low = k == 0 ? 0 : try GSL.chiSquareQuantile(alpha / 2, degreesOfFreedom: 2 * k) / 2 / t
      let high = try GSL.chiSquareQuantile(1 - alpha / 2, degreesOfFreedom: 2 * k + 2) / 2 / t
      value = x / y
      interval = low...high
      events = x
      exposure = y * 1000
      dispersion = phi
    case .eventFreeDays:
      // Each device-day is 100 (no crash) or 0 over 1.
      let n = y
      let p = min(1, x / 100 / n)
      let z = try GSL.standardNormalQuantile(1 - alpha / 2)
      let z2n = z * z / n
      let centre = (p + z2n / 2) / (1 + z2n)
      let half = z / (1 + z2n) * (p * (1 - p) / n + z2n / (4 * n)).squareRoot()
      value = x / y  // as the pooled rate is: each device-day 100 or 0 over 1
      interval = (100 * max(0, centre - half))...(100 * min(1, centre + half))
      events = n - x / 100
      exposure = n
      dispersion = 1
    }
  }
}
