/// A statistic of a metric: what rules compare, trends and the report page draw, and exports and
/// snapshots record. One type for all of them; its text form (`mean`, `p90`, `p99.9`, `rate`, `value`,
/// `newSignature`) exists only in arguments, rule files and output.
public enum Statistic: Sendable, Hashable, CustomStringConvertible {
  /// The mean (of the merged histogram, or across payloads for scalar metrics and counters).
  case mean
  /// A percentile (of the merged histogram with a guaranteed bracket, or type 7 across payloads).
  case percentile(Percentile)
  /// A pooled rate (`hangRate`, `scrollHitchRate`, diagnostics per 1,000 payloads).
  case rate
  /// One value: a scalar metric's per-payload values (rules), a rate's value (trend points).
  case value
  /// Diagnostics: a signature with at least `minCount` occurrences in the candidate and none in the
  /// baseline.
  case newSignature

  /// Parses `mean`, `p50`, `p90`, `p99.9`, `rate`, `value`, `newSignature`.
  public init?(parsing text: String) {
    switch text {
    case "mean": self = .mean
    case "rate": self = .rate
    case "value": self = .value
    case "newSignature": self = .newSignature
    default:
      guard text.hasPrefix("p"), let p = Percentile(parsing: text) else { return nil }
      self = .percentile(p)
    }
  }

  /// The statistic's name as written in rule files and output.
  public var description: String {
    switch self {
    case .mean: "mean"
    case .percentile(let p): p.label
    case .rate: "rate"
    case .value: "value"
    case .newSignature: "newSignature"
    }
  }

  /// The percentile, for `.percentile`.
  public var percentile: Percentile? {
    if case .percentile(let p) = self { p } else { nil }
  }

  /// Whether a rule may compare this statistic of a metric of `kind`.
  public func isComparable(for kind: MetricKind) -> Bool {
    switch (kind, self) {
    case (.rate, .rate), (.histogram, .mean), (.histogram, .percentile), (.scalar, .mean), (.scalar, .value),
      (.scalar, .percentile), (.counter, .mean), (.counter, .value), (.counter, .percentile), (.diagnostic, .rate),
      (.diagnostic, .newSignature):
      true
    default: false
    }
  }

  /// Whether a trend point or chart can show this statistic of a metric of `kind`: the mean or a
  /// percentile of a distribution, the value of a rate.
  public func isPlottable(for kind: MetricKind) -> Bool {
    switch (kind, self) {
    case (.histogram, .mean), (.histogram, .percentile), (.scalar, .mean), (.scalar, .percentile), (.counter, .mean),
      (.counter, .percentile), (.rate, .value):
      true
    default: false
    }
  }
}
