/// Per owner, the values aggregated apart under a limit, ascending in the byte-wise order that decides
/// which are kept: whether a new value is kept, and which kept one it pushes out, is a binary search
/// rather than a scan of every kept value. `--by` groups (owned by a version) and matched strata (owned
/// by a version and group) keep their byte-wise first values with it.
struct KeptValues<Owner: Hashable & Sendable, Value: KeptValue>: Sendable {
  /// The kept values of each owner, ascending.
  private var kept: [Owner: [Value]] = [:]

  /// No value kept.
  init() {}

  /// The values of `pairs`, each kept by its owner (the limit is applied later, by ``removeBeyond(_:of:)``).
  init(_ pairs: some Sequence<(owner: Owner, value: Value)>) {
    for (owner, value) in pairs { kept[owner, default: []].append(value) }
    for owner in kept.keys { kept[owner]!.sort(by: Value.keptBefore) }
  }

  /// The owners that keep values.
  var owners: Dictionary<Owner, [Value]>.Keys { kept.keys }

  /// What becomes of a value its owner does not keep yet, given the owner keeps at most `limit`: kept,
  /// with the values it pushes past the limit (the largest first), or not kept.
  mutating func admit(_ value: Value, of owner: Owner, limit: Int) -> (isKept: Bool, pushedOut: [Value]) {
    if let values = kept[owner], values.count >= limit, let largest = values.last, !Value.keptBefore(value, largest) {
      return (false, [])
    }
    let index = kept[owner, default: []].partitioningIndex { !Value.keptBefore($0, value) }
    kept[owner, default: []].insert(value, at: index)
    return (true, removeBeyond(limit, of: owner))
  }

  /// Keeps the values `owner`'s counterpart in another part keeps too (the limit is applied later).
  mutating func formUnion(_ values: some Sequence<Value>, of owner: Owner) {
    kept[owner] = Set(kept[owner, default: []]).union(values).sorted(by: Value.keptBefore)
  }

  /// The values `owner` keeps.
  subscript(owner: Owner) -> [Value] { kept[owner, default: []] }

  /// Removes `owner`'s values beyond its first `limit` and returns them, the largest first.
  mutating func removeBeyond(_ limit: Int, of owner: Owner) -> [Value] {
    var pushedOut: [Value] = []
    while (kept[owner]?.count ?? 0) > limit { pushedOut.append(kept[owner]!.removeLast()) }
    return pushedOut
  }
}

/// A value kept apart under a limit, with the byte-wise order that decides which are kept.
protocol KeptValue: Hashable, Sendable {
  /// Whether `a` is kept before `b`.
  static func keptBefore(_ a: Self, _ b: Self) -> Bool
}

/// A `--by` group's value.
extension String: KeptValue {
  static func keptBefore(_ a: String, _ b: String) -> Bool { a.precedesBytewise(b) }
}

/// A stratum's values, dimension by dimension.
extension Array: KeptValue where Element == String {
  static func keptBefore(_ a: [String], _ b: [String]) -> Bool { StratumCell.precedes(a, b) }
}
