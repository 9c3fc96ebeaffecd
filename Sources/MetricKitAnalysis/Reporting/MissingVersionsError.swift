/// Versions a gate asked for that the dump holds neither metric payloads nor diagnostics of.
public struct MissingVersionsError: Error, Sendable, Equatable {
  /// The versions asked for and absent, baseline first.
  public var versions: [String]
  /// The versions the dump holds (``DumpAggregate/heldVersions``).
  public var counted: Set<String>
}
