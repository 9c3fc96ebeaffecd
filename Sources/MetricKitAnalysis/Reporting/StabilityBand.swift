/// Where a stability number stops being good and where it becomes bad, as Android vitals' bad-behaviour
/// thresholds do (a user-perceived crash rate above 1.09% of daily users is bad): a team sets its own.
///
/// A band reads its metric's polarity: for crash-free device-days (higher is better) a value below
/// `warning` needs attention and one below `bad` is bad; for a termination rate (lower is better) the
/// value above them is.
public struct StabilityBand: Sendable, Hashable {
  /// How a value stands against a band.
  public enum Standing: String, Sendable, Hashable {
    /// On the good side of the warning threshold.
    case good
    /// Past the warning threshold, not past the bad one.
    case warning
    /// Past the bad threshold.
    case bad
  }

  /// The stability rate the band applies to.
  public let metric: MetricID
  /// Past this value a number needs attention.
  public let warning: Double
  /// Past this value a number is bad.
  public let bad: Double

  /// The band of `metric`; throws unless `metric` is a stability rate and `bad` lies past `warning` in
  /// the metric's worse direction (or equals it).
  public init(metric: MetricID, warning: Double, bad: Double) throws(StabilityBandError) {
    guard let definition = MetricCatalog.stability.first(where: { $0.id == metric }) else {
      throw .notAStabilityRate(metric.rawValue)
    }
    guard warning.isFinite, bad.isFinite else { throw .notANumber(metric.rawValue) }
    let ordered = definition.polarity == .higherIsBetter ? bad <= warning : bad >= warning
    guard ordered else { throw .misordered(metric: metric.rawValue, warning: warning, bad: bad) }
    self.init(checked: metric, warning: warning, bad: bad)
  }

  /// A band from its argument, `metric=warning:bad`: `crashFreeDeviceDays=99.5:98.91`,
  /// `terminationRate=20:40`.
  public init(argument: String) throws(StabilityBandError) {
    let parts = argument.split(separator: "=", maxSplits: 1)
    let values = parts.count == 2 ? parts[1].split(separator: ":", omittingEmptySubsequences: false) : []
    guard parts.count == 2, values.count == 2, let warning = Double(values[0]), let bad = Double(values[1]) else {
      throw .malformed(argument)
    }
    let metric: MetricID
    do { metric = try MetricID(String(parts[0])) } catch { throw .notAStabilityRate(String(parts[0])) }
    try self.init(metric: metric, warning: warning, bad: bad)
  }

  /// The bands a page uses unless told otherwise: crash-free device-days need attention below 99.5% and
  /// are bad below 98.91% (Android vitals' 1.09%). Termination rates depend on the app: no default.
  public static let defaults: [StabilityBand] = [
    StabilityBand(checked: .crashFreeDeviceDays, warning: 99.5, bad: 98.91)
  ]

  /// A band whose thresholds are known to be in order.
  private init(checked metric: MetricID, warning: Double, bad: Double) {
    self.metric = metric
    self.warning = warning
    self.bad = bad
  }

  /// How `value` stands against the band.
  public func standing(_ value: Double) -> Standing {
    let higherIsBetter = metric.metric.polarity == .higherIsBetter
    func past(_ threshold: Double) -> Bool { higherIsBetter ? value < threshold : value > threshold }
    return past(bad) ? .bad : past(warning) ? .warning : .good
  }
}

/// Why a stability band was refused.
public enum StabilityBandError: Error, Sendable, Equatable, CustomStringConvertible {
  /// Not `metric=warning:bad` with two numbers.
  case malformed(String)
  /// The metric is not a stability rate.
  case notAStabilityRate(String)
  /// A threshold is not finite.
  case notANumber(String)
  /// `bad` lies on the better side of `warning`.
  case misordered(metric: String, warning: Double, bad: Double)

  public var description: String {
    switch self {
    case .malformed(let text):
      "'\(text)' is not a band: give metric=warning:bad, e.g. crashFreeDeviceDays=99.5:98.91"
    case .notAStabilityRate(let name):
      "'\(name)' is not a stability rate: give crashFreeDeviceDays, terminationRate or one of its kinds"
    case .notANumber(let name):
      "the band of \(name) needs finite thresholds"
    case .misordered(let metric, let warning, let bad):
      "the band of \(metric) has its bad threshold \(NumberFormatting.text(bad)) on the better side of its warning "
        + "threshold \(NumberFormatting.text(warning))"
    }
  }
}
