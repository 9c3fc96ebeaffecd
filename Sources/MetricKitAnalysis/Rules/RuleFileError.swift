/// A rule file that cannot be used: which file, which line, which key, and why.
public struct RuleFileError: Error, Sendable, Hashable, CustomStringConvertible {
  /// The file's path.
  public var file: String
  /// The 1-based line, when known.
  public var line: Int?
  /// The key path, e.g. `rules[2].maxIncrease`.
  public var key: String
  /// What is wrong, quoting the offending text.
  public var message: String

  public var description: String {
    let location = line.map { "\(file):\($0)" } ?? file
    return key.isEmpty ? "\(location): \(message)" : "\(location): \(key): \(message)"
  }
}
