extension RuleSet {
  /// The key groups are compared by: `asked`, or the one key the rules' `where:` name; the rules must
  /// agree with `asked`, and need both versions from a dump (`fromSnapshot` false) to name one.
  public func grouping(asked: GroupingKey?, fromSnapshot: Bool) throws(GroupingConflictError) -> GroupingKey? {
    let targeted = Set(rules.compactMap { $0.group?.key })
    guard targeted.count <= 1 else {
      throw .severalKeys(targeted.sorted { $0.description < $1.description })
    }
    guard let key = targeted.first else { return asked }
    if let asked, asked != key { throw .otherKey(rules: key, asked: asked) }
    if fromSnapshot { throw .groupsFromSnapshot(key) }
    return key
  }
}
