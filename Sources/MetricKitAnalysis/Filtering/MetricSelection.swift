/// Which metrics a report shows: every metric by default, or those matching one of the patterns (an
/// exact identifier, or a prefix followed by `*`, e.g. `applicationLaunchMetrics.*`, `signpost:*`).
public struct MetricSelection: Sendable, Hashable {
  /// The patterns; empty selects everything.
  public var patterns: [String]

  /// Creates a selection.
  public init(_ patterns: [String] = []) { self.patterns = patterns }

  /// Selects exactly these metrics (none when empty).
  public init(metrics: [MetricID]) { self.patterns = metrics.isEmpty ? Self.none.patterns : metrics.map(\.rawValue) }

  /// Selects no metric (an empty pattern list selects them all): a pattern no identifier has.
  public static let none = MetricSelection(["-"])

  /// Whether the metric `identifier` is selected.
  public func includes(_ identifier: String) -> Bool {
    patterns.isEmpty
      || patterns.contains { pattern in
        pattern.hasSuffix("*") ? identifier.hasPrefix(pattern.dropLast()) : identifier == pattern
      }
  }

  /// Whether the metric is selected.
  public func includes(_ id: MetricID) -> Bool { includes(id.rawValue) }

  /// Patterns that can never match a known metric (for usage errors).
  package var unknownPatterns: [String] {
    let signpost = MetricID.signpostPrefix
    return patterns.filter { pattern in
      if pattern.hasSuffix("*") {
        let prefix = pattern.dropLast()
        return
          !(MetricCatalog.fixed.contains { $0.id.rawValue.hasPrefix(prefix) }
          || signpost.hasPrefix(prefix) || prefix.hasPrefix(signpost))
      }
      return MetricCatalog.id(pattern).map { $0.kind == .diagnostic } ?? true
    }
  }
}
