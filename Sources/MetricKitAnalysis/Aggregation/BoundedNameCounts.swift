/// Counts by name, of at most `limit` names: past that, the byte-wise first `limit` names are kept,
/// whatever order the names come in, and the counts of the others are added together under
/// ``othersName``. So the names kept, and every count, are the same however the inputs were split,
/// merged or scheduled: a run's output does not change from run to run.
///
/// A name kept is counted in full (a name among the first `limit` is never turned away), so only the
/// names past the bound are summed; memory is `limit` names whatever the input holds.
struct BoundedNameCounts: Sendable {
  /// The counts, of at most ``limit`` names besides ``othersName``.
  private(set) var counts: [String: Int] = [:]
  /// The most names kept.
  let limit: Int
  /// The name the counts of names past the bound are added under.
  let othersName: String
  /// The kept names, byte-wise sorted (the last is the one turned out when a smaller one comes).
  private var kept: [String] = []

  /// Empty counts.
  init(limit: Int, othersName: String) {
    self.limit = max(0, limit)
    self.othersName = othersName
  }

  /// `counts` (an earlier run's), bounded as if added one by one.
  init(_ counts: [String: Int], limit: Int, othersName: String) {
    self.init(limit: limit, othersName: othersName)
    for (name, n) in counts { add(name, n) }
  }

  /// Adds `n` to `name`'s count.
  mutating func add(_ name: String, _ n: Int) {
    if name == othersName || counts[name] != nil {
      counts[name, default: 0] += n
      return
    }
    let place = insertionPoint(of: name)
    if kept.count < limit {
      kept.insert(name, at: place)
      counts[name] = n
    } else if place < kept.count {
      // A name before the last kept one: it is kept, the last is turned out.
      let out = kept.removeLast()
      counts[othersName, default: 0] += counts.removeValue(forKey: out) ?? 0
      kept.insert(name, at: place)
      counts[name] = n
    } else {
      counts[othersName, default: 0] += n
    }
  }

  /// Where `name` goes in `kept`, by binary search.
  private func insertionPoint(of name: String) -> Int {
    var low = 0
    var high = kept.count
    while low < high {
      let mid = (low + high) / 2
      if kept[mid].precedesBytewise(name) { low = mid + 1 } else { high = mid }
    }
    return low
  }
}
