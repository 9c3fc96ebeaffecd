/// Which statistic of a metric a rule compares.
public enum RuleStatistic: Sendable, Hashable, CustomStringConvertible {
  /// The mean (of the merged histogram, or across payloads for scalar metrics).
  case mean
  /// A percentile (of the merged histogram, or type 7 across payloads for scalar metrics).
  case percentile(Percentile)
  /// A pooled rate (`hangRate`, `scrollHitchRate`).
  case rate
  /// A scalar metric's mean across payloads (the per-payload value is what is tested).
  case value
  /// Diagnostics: a signature with at least `minCount` occurrences in the candidate and none in the
  /// baseline.
  case newSignature

  /// Parses `mean`, `p50`, `p90`, `p99.9`, `rate`, `value`.
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

  /// The statistic's name as written in rule files and reports.
  public var description: String {
    switch self {
    case .mean: "mean"
    case .percentile(let p): p.label
    case .rate: "rate"
    case .value: "value"
    case .newSignature: "newSignature"
    }
  }
}
