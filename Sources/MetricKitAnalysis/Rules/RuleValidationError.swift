/// A rule that cannot be used, whether built in code or read from a file: which field and why.
public struct RuleValidationError: Error, Sendable, Hashable, CustomStringConvertible {
  /// The field: `metric`, `statistic`, `maxIncrease`, `maxIncreaseAbsolute`, `budget`, `minPayloads`,
  /// `minCount`, `alpha`, `rules`.
  public var field: String
  /// What is wrong, quoting the offending value.
  public var message: String

  /// Creates an error.
  public init(field: String, message: String) {
    self.field = field
    self.message = message
  }

  public var description: String { "\(field): \(message)" }
}
