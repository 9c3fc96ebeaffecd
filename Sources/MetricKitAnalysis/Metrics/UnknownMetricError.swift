/// A text that names no metric of the catalog.
public struct UnknownMetricError: Error, Sendable, Hashable, CustomStringConvertible {
  /// The text, as given.
  public var text: String
  /// The closest known identifiers (at most three), best first.
  public var closest: [String]

  package init(text: String, closest: [String]) {
    (self.text, self.closest) = (text, closest)
  }

  public var description: String {
    let hint = closest.isEmpty ? "" : "; did you mean \(closest.map { "'\($0)'" }.joined(separator: " or "))?"
    return "unknown metric '\(text)'\(hint) (known: the identifiers of MetricCatalog, "
      + "signpost:<category>/<name>, diagnostics.<kind>; `metrics-report rules --print-defaults` shows some)"
  }
}
