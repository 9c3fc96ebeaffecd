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

  /// The order rejections are reported in: by path (byte-wise), then array index, then line, then
  /// reason — independent of the order files were read in.
  public static func canonicalOrder(_ a: Rejection, _ b: Rejection) -> Bool {
    if a.location.path != b.location.path {
      return a.location.path.precedesBytewise(b.location.path)
    }
    if a.location.index != b.location.index { return (a.location.index ?? -1) < (b.location.index ?? -1) }
    if a.location.line != b.location.line { return (a.location.line ?? -1) < (b.location.line ?? -1) }
    return a.reason.precedesBytewise(b.reason)
  }
}
