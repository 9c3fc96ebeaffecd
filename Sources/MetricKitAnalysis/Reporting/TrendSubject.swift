/// What a trend series follows: a metric, or adoption (payloads per version per interval and their
/// shares).
public enum TrendSubject: Sendable, Hashable, CustomStringConvertible {
  /// Payloads per version per interval, and each version's share of the interval.
  case adoption
  /// A metric's statistics.
  case metric(MetricID)

  /// Parses `payloads` (or its alias `adoption`) and metric identifiers; nil for anything else.
  public init?(parsing text: String) {
    if Self.isAdoption(text) {
      self = .adoption
    } else if let id = MetricCatalog.id(text) {
      self = .metric(id)
    } else {
      return nil
    }
  }

  /// Whether `text` asks for adoption: `payloads`, or its alias `adoption`.
  package static func isAdoption(_ text: String) -> Bool { text == "payloads" || text == "adoption" }

  /// The metric, nil for adoption.
  public var metric: MetricID? {
    if case .metric(let id) = self { id } else { nil }
  }

  /// `payloads` for adoption, the metric's identifier otherwise.
  public var description: String { metric?.rawValue ?? "payloads" }

  /// The unit of the values: `payloads`, or the metric's canonical unit.
  public var unit: String { metric?.metric.unit.symbol ?? "payloads" }
}
