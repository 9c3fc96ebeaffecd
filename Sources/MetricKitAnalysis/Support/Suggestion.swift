/// The known names closest to a mistyped one, for "did you mean" in usage errors: options and
/// metrics.
package enum Suggestion {
  /// The names of `candidates` closest to `text`, at most `limit`: those the fewest edits from it,
  /// when that is a few (up to a third of its length, ignoring case); otherwise those that contain its
  /// last dotted part (four letters or more). Empty when nothing is close.
  package static func closest(to text: String, among candidates: some Sequence<String>, limit: Int = 3) -> [String] {
    let typed = Array(text.lowercased().unicodeScalars)
    guard !typed.isEmpty else { return [] }
    let last = text.split(separator: ".").last.map { $0.lowercased() } ?? ""
    let allowed = max(1, typed.count / 3)
    var near: [(distance: Int, name: String)] = []
    var containing: [String] = []
    for name in candidates {
      let lowered = name.lowercased()
      let distance = editDistance(typed, Array(lowered.unicodeScalars), atMost: allowed)
      if let distance {
        near.append((distance, name))
      } else if last.count >= 4, lowered.contains(last) {
        containing.append(name)
      }
    }
    // The nearest only: a name one edit away beats those three away.
    let nearest = near.map(\.distance).min()
    let best = near.filter { $0.distance == nearest }.map(\.name).sorted()
    return Array((best.isEmpty ? containing : best).prefix(limit))
  }

  /// The optimal string alignment distance between `a` and `b` (insertions, deletions,
  /// substitutions and swaps of two neighbours, each one edit); nil when it exceeds `bound`.
  static func editDistance(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar], atMost bound: Int) -> Int? {
    guard abs(a.count - b.count) <= bound else { return nil }
    if a.isEmpty || b.isEmpty { return max(a.count, b.count) }
    var before = [Int](repeating: 0, count: b.count + 1)
    var previous = Array(0...b.count)
    var current = [Int](repeating: 0, count: b.count + 1)
    for i in 1...a.count {
      current[0] = i
      var rowBest = i
      for j in 1...b.count {
        let cost = a[i - 1] == b[j - 1] ? 0 : 1
        var value = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
        if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] { value = min(value, before[j - 2] + 1) }
        current[j] = value
        rowBest = min(rowBest, value)
      }
      if rowBest > bound { return nil }
      (before, previous, current) = (previous, current, before)
    }
    return previous[b.count] <= bound ? previous[b.count] : nil
  }
}
