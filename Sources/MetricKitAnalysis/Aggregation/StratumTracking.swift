/// Per version and group, the values of the strata kept apart, byte-wise ascending: what deciding
/// whether a new stratum is kept asks (how many its owner keeps, and the largest), answered without a
/// scan of every cell.
struct StratumTracking: Sendable {
  /// The kept values of each owner, byte-wise ascending.
  private var kept: [VersionGroupOwner: [[String]]] = [:]

  /// No stratum kept.
  init() {}

  /// The strata kept apart among `cells`' keys.
  init<Value>(_ cells: [StratumCell: Value]) {
    for cell in cells.keys where !cell.isOther { kept[cell.owner, default: []].append(cell.values) }
    for owner in kept.keys { kept[owner]!.sort(by: StratumCell.precedes) }
  }

  /// What becomes of a stratum not yet kept, given its owner keeps at most `limit`: kept (with the
  /// values of the largest kept one it pushes out, if any), or not kept.
  mutating func admit(_ cell: StratumCell, limit: Int) -> (isKept: Bool, pushedOut: [String]?) {
    var values = kept[cell.owner, default: []]
    if values.count >= limit, let largest = values.last, !StratumCell.precedes(cell.values, largest) {
      return (false, nil)
    }
    values.insert(cell.values, at: values.partitioningIndex { !StratumCell.precedes($0, cell.values) })
    let pushedOut = values.count > limit ? values.removeLast() : nil
    kept[cell.owner] = values
    return (true, pushedOut)
  }
}
