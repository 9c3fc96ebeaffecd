/// The formats a report can be written in.
public enum OutputFormat: String, Sendable, CaseIterable {
  /// An aligned table with units, for people.
  case text
  /// The JSON contract of `Docs/json.md`, schemaVersion 1.
  case json
  /// Markdown tables, for pull requests and wikis.
  case markdown
  /// One row per version and metric.
  case csv
}
