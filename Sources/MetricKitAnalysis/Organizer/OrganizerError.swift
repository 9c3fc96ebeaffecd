/// Why a saved App Store Connect response could not be read: the file, the key path inside it, and
/// what is wrong there, with the offending text.
public struct OrganizerError: Error, Sendable, Hashable, CustomStringConvertible {
  /// The file, as given.
  public var path: String
  /// The keys from the response's root to the offending value, e.g.
  /// `["productData[0]", "metricCategories[0]", "metrics[0]", "datasets[1]", "points[2]", "value"]`.
  public var keyPath: [String]
  /// What is wrong, with the offending text where there is one.
  public var reason: String

  /// Creates an error.
  public init(path: String, keyPath: [String], reason: String) {
    self.path = path
    self.keyPath = keyPath
    self.reason = reason
  }

  public var description: String {
    keyPath.isEmpty ? "\(path): \(reason)" : "\(path): at \(keyPath.joined(separator: ".")): \(reason)"
  }
}
