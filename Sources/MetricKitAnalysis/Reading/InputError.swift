/// Why one input file (or one payload inside it) could not be used.
public struct InputError: Error, Sendable, Hashable, CustomStringConvertible {
  /// A sentence a person understands: what is wrong, where, with the offending text.
  public var reason: String

  /// Creates a failure with its reason.
  public init(reason: String) { self.reason = reason }

  public var description: String { reason }
}
