/// Why a payload could not be decoded: where (the key path inside the payload), what, and the
/// offending text.
public struct PayloadDecodingError: Error, Sendable, Hashable, CustomStringConvertible {
  /// The keys from the payload's root to the offending value, e.g.
  /// `["applicationLaunchMetrics", "histogrammedTimeToFirstDrawKey", "histogramValue", "3", "bucketStart"]`.
  public var keyPath: [String]
  /// What is wrong, including the offending text where there is one.
  public var reason: String

  /// Creates an error at `keyPath`.
  public init(keyPath: [String], reason: String) {
    self.keyPath = keyPath
    self.reason = reason
  }

  /// The key path written with dots, or an empty string at the root.
  public var keyPathText: String { keyPath.joined(separator: ".") }

  public var description: String {
    keyPath.isEmpty ? reason : "at \(keyPathText): \(reason)"
  }

  /// The same error, one level deeper in the key path.
  func nested(under key: String) -> PayloadDecodingError {
    var copy = self
    copy.keyPath.insert(key, at: 0)
    return copy
  }
}
