/// The one group a rule applies to (`where: {state: checkout}` in a rule file): a value of a grouping
/// key. Such a rule compares that group of the baseline with that group of the candidate, and no
/// other group or whole version.
public struct GroupFilter: Sendable, Hashable, CustomStringConvertible {
  /// The grouping key (`state`, `state:com.example.tabs`, `deviceType`…).
  public var key: GroupingKey
  /// The group's value (`checkout`, `iPhone15,3`).
  public var value: String

  /// Creates a filter.
  public init(key: GroupingKey, value: String) {
    self.key = key
    self.value = value
  }

  /// `state:com.example.tabs = checkout`.
  public var description: String { "\(key) = \(value)" }
}
