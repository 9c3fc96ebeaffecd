/// Which metrics a report shows: every metric by default, or those matching one of the patterns (an
/// exact identifier, or a prefix followed by `*`, e.g. `applicationLaunchMetrics.*`, `signpost:*`).
public struct MetricSelection: Sendable, Hashable {
  /// The patterns; empty selects everything.
  public var patterns: [String] { didSet { catalog = CatalogMask(patterns) } }

  /// Whether each metric of the catalog is selected, by its index in ``MetricCatalog``'s lists:
  /// aggregating a payload asks for each of its fifty-odd metrics, and matching the patterns every
  /// time cost more than decoding them.
  private var catalog: CatalogMask

  private struct CatalogMask: Sendable {
    var histograms: [Bool]
    var scalars: [Bool]
    var rates: [Bool]

    init(_ patterns: [String]) {
      let selection = { (metrics: [Metric]) in metrics.map { MetricSelection.matches(patterns, $0.id.rawValue) } }
      (histograms, scalars, rates) = (
        selection(MetricCatalog.histograms), selection(MetricCatalog.scalars), selection(MetricCatalog.rates)
      )
    }
  }

  /// Creates a selection.
  public init(_ patterns: [String] = []) {
    self.patterns = patterns
    catalog = CatalogMask(patterns)
  }

  public static func == (a: MetricSelection, b: MetricSelection) -> Bool { a.patterns == b.patterns }

  public func hash(into hasher: inout Hasher) { hasher.combine(patterns) }

  /// Whether the histogram metric at `index` in `MetricCatalog.histograms` is selected.
  func includes(histogramAt index: Int) -> Bool { catalog.histograms[index] }

  /// Whether the scalar metric at `index` in `MetricCatalog.scalars` is selected.
  func includes(scalarAt index: Int) -> Bool { catalog.scalars[index] }

  /// Whether the rate at `index` in `MetricCatalog.rates` is selected.
  func includes(rateAt index: Int) -> Bool { catalog.rates[index] }

  /// Selects exactly these metrics (none when empty).
  public init(metrics: [MetricID]) { self.init(metrics.isEmpty ? Self.none.patterns : metrics.map(\.rawValue)) }

  /// Selects no metric (an empty pattern list selects them all): a pattern no identifier has.
  public static let none = MetricSelection(["-"])

  /// Whether the metric `identifier` is selected.
  public func includes(_ identifier: String) -> Bool { Self.matches(patterns, identifier) }

  /// Whether `patterns` select the metric `identifier`.
  private static func matches(_ patterns: [String], _ identifier: String) -> Bool {
    patterns.isEmpty
      || patterns.contains { pattern in
        pattern.hasSuffix("*") ? identifier.hasPrefix(pattern.dropLast()) : identifier == pattern
      }
  }

  /// Whether the metric is selected.
  public func includes(_ id: MetricID) -> Bool { includes(id.rawValue) }

  /// The patterns that can never match a known metric, each with the closest ones that would (for
  /// usage errors).
  package var unknownPatterns: [UnknownMetricError] {
    let signpost = MetricID.signpostPrefix
    return patterns.compactMap { pattern in
      if pattern.hasSuffix("*") {
        let prefix = pattern.dropLast()
        let matches =
          MetricCatalog.fixed.contains { $0.id.rawValue.hasPrefix(prefix) }
          || signpost.hasPrefix(prefix) || prefix.hasPrefix(signpost)
        return matches ? nil : UnknownMetricError(text: pattern, closest: MetricCatalog.closest(toPrefix: pattern))
      }
      let known = MetricCatalog.id(pattern).map { $0.kind != .diagnostic } ?? false
      return known ? nil : UnknownMetricError(text: pattern, closest: MetricCatalog.closest(to: pattern))
    }
  }
}
