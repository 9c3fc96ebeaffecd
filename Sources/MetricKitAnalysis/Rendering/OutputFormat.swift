/// The formats a report can be written in.
public enum OutputFormat: String, Sendable, CaseIterable {
  /// An aligned table with units, for people.
  case text
  /// SPEC §5's JSON contract, schemaVersion 1.
  case json
  /// Markdown tables, for pull requests and wikis.
  case markdown
  /// One row per version and metric.
  case csv
}
