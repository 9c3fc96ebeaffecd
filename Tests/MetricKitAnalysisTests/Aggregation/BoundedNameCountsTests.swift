import PayloadSynthesis
import Testing

@testable import MetricKitAnalysis

/// Unknown names past the bound: the same names kept, and the same counts, in whatever order and
/// however split the inputs arrive.
@Suite("Bounded name counts")
struct BoundedNameCountsTests {
  @Test func theKeptNamesAndCountsDoNotDependOnOrderOrSplits() {
    var rng = SplitMix64(seed: 9)
    // 300 names, counted 1 to 5 times each, past a bound of 50.
    var events: [(String, Int)] = []
    for i in 0..<300 {
      for _ in 0..<Int.random(in: 1...5, using: &rng) {
        events.append(("name.\(i * 7919 % 1000)", Int.random(in: 1...3, using: &rng)))
      }
    }
    let total = events.reduce(0) { $0 + $1.1 }
    // What the bound keeps, derived by hand: the 50 byte-wise first names, whole; the rest summed.
    var all: [String: Int] = [:]
    for (name, n) in events { all[name, default: 0] += n }
    let first = all.keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }.prefix(50)
    var expected = Dictionary(uniqueKeysWithValues: first.map { ($0, all[$0]!) })
    expected["(others)"] = total - first.reduce(0) { $0 + all[$1]! }

    for _ in 0..<20 {
      events.shuffle(using: &rng)
      var one = BoundedNameCounts(limit: 50, othersName: "(others)")
      for (name, n) in events { one.add(name, n) }
      #expect(one.counts == expected)
      // Split in two, each bounded, then merged: the same.
      let cut = Int.random(in: 0...events.count, using: &rng)
      var a = BoundedNameCounts(limit: 50, othersName: "(others)")
      var b = BoundedNameCounts(limit: 50, othersName: "(others)")
      for (name, n) in events[..<cut] { a.add(name, n) }
      for (name, n) in events[cut...] { b.add(name, n) }
      for (name, n) in b.counts { a.add(name, n) }
      #expect(a.counts == expected)
    }
  }

  @Test func accountingMergedInAnyOrderListsTheSameUnknownKeys() {
    var parts: [InputAccounting] = []
    for p in 0..<12 {
      var accounting = InputAccounting()
      accounting.addUnknownKeys(Dictionary(uniqueKeysWithValues: (0..<400).map { ("k\(p)-\($0)", $0 % 3 + 1) }))
      parts.append(accounting)
    }
    var rng = SplitMix64(seed: 3)
    var merged: [[String: Int]] = []
    for _ in 0..<4 {
      var all = InputAccounting()
      for part in parts.shuffled(using: &rng) { all.merge(part) }
      #expect(all.unknownKeys.count == InputAccounting.unknownKeyNamesKept + 1)
      merged.append(all.unknownKeys)
    }
    #expect(merged.allSatisfy { $0 == merged[0] })
    let perPart = (0..<400).reduce(0) { $0 + $1 % 3 + 1 }
    #expect(merged[0].values.reduce(0, +) == 12 * perPart)
  }
}
