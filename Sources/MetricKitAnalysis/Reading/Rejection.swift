/// An input that could not be used: a file (unreadable, not JSON) or one payload inside a file.
public struct Rejection: Sendable, Hashable, CustomStringConvertible {
  /// Where: the file, and the array index or NDJSON line when only one payload of it was bad.
  public var location: PayloadLocation
  /// Why, with the key path and offending text where there are some.
  public var reason: String

  /// Creates a rejection.
  public init(location: PayloadLocation, reason: String) {
    self.location = location
    self.reason = reason
  }

  public var description: String { "\(location): \(reason)" }
}
