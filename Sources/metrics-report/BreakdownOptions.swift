import ArgumentParser
import MetricKitAnalysis

/// `--by KEY` and `--top N`, shared by summary, trend and compare.
struct BreakdownOptions: ParsableArguments {
  @Option(
    help: ArgumentHelp(
      "Break each version down by a metadata field: \(GroupingKey.names.joined(separator: ", ")) "
        + "(compare: each group compared on its own, all in one false-discovery family).",
      valueName: "key"))
  var by: String?

  @Option(help: "With --by, the groups kept per version (most payloads first); the rest are merged as (other).")
  var top: Int = SummaryOptions().top

  /// The grouping asked for, nil without --by.
  var key: GroupingKey? { by.flatMap(GroupingKey.init(parsing:)) }

  mutating func validate() throws {
    _ = try Self.key(by)
    if top < 1 { throw ValidationError("--top must be at least 1.") }
  }

  /// Parses a --by value; a usage error names the keys.
  static func key(_ text: String?) throws -> GroupingKey? {
    guard let text else { return nil }
    guard let key = GroupingKey(parsing: text) else {
      throw ValidationError("--by takes one of \(GroupingKey.names.joined(separator: ", ")), not '\(text)'.")
    }
    return key
  }
}
