/// One group of one version (`--by`): the version and the key's value.
public struct VersionGroup: Sendable, Hashable {
  /// The app version.
  public var version: String
  /// The group's value of the grouping key, e.g. `iPhone15,3`.
  public var value: String

  /// Creates a group.
  public init(version: String, value: String) {
    self.version = version
    self.value = value
  }
}
