/// Why rules on one group (`where:`) cannot be evaluated as asked.
public enum GroupingConflictError: Error, Sendable, Equatable {
  /// The rules name groups of several keys, where one comparison groups by one.
  case severalKeys([GroupingKey])
  /// The rules name groups of `rules`, but the comparison is grouped by `asked`.
  case otherKey(rules: GroupingKey, asked: GroupingKey)
  /// The rules name groups of `key`, but a version comes from a snapshot, which holds no groups.
  case groupsFromSnapshot(GroupingKey)
}
