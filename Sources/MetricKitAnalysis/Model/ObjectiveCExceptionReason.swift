/// The Objective-C exception behind a crash (`objectiveCexceptionReason`).
public struct ObjectiveCExceptionReason: Sendable, Hashable {
  /// The message with its arguments composed.
  public var composedMessage: String?
  /// The format string.
  public var formatString: String?
  /// The format's arguments.
  public var arguments: [String] = []
  /// The exception's type, e.g. `NSException`.
  public var exceptionType: String?
  /// The exception's class name.
  public var className: String?
  /// The exception's name, e.g. `NSInvalidArgumentException`.
  public var exceptionName: String?

  /// Creates an empty reason.
  public init() {}
}
