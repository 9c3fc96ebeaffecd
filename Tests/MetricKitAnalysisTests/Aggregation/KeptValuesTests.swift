import PayloadSynthesis
import Testing

@testable import MetricKitAnalysis

/// The values kept apart under a limit: whatever the order they come in, the byte-wise first ones are
/// kept, each value pushed out is named once, and a merge of parts keeps what one pass would.
@Suite("Kept values")
struct KeptValuesTests {
  /// The byte-wise first `limit` of `values`, sorted apart from the type under test.
  static func first<V: Hashable>(_ limit: Int, of values: [V], by order: (V, V) -> Bool) -> [V] {
    Array(Set(values).sorted(by: order).prefix(limit))
  }

  @Test func strataKeepTheFirstValuesOfAnyOrderAndSayWhichTheyPushOut() {
    var rng = SplitMix64(seed: 7)
    for _ in 0..<50 {
      let values = (0..<40).map { _ in
        ["m\(Int.random(in: 0..<30, using: &rng))", "\(Int.random(in: 0..<3, using: &rng))"]
      }
      let limit = Int.random(in: 1...8, using: &rng)
      let owner = VersionGroupOwner(version: "1", group: nil)
      var tracking = KeptValues<VersionGroupOwner, [String]>()
      var kept = Set<[String]>()
      for v in values where !kept.contains(v) {
        let (isKept, pushedOut) = tracking.admit(v, of: owner, limit: limit)
        if isKept { kept.insert(v) }
        for p in pushedOut { #expect(kept.remove(p) != nil) }
      }
      let expected = Self.first(limit, of: values) {
        $0.lexicographicallyPrecedes($1) { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }
      }
      #expect(kept == Set(expected) && tracking[owner] == expected)
    }
  }

  /// Groups split across parts (threads, shards, cache entries) and merged keep what one pass keeps,
  /// once the values beyond the limit are removed; those come largest first.
  @Test func groupsMergedFromPartsKeepWhatOnePassKeeps() {
    var rng = SplitMix64(seed: 11)
    for _ in 0..<50 {
      let values = (0..<60).map { _ in
        "é\(Int.random(in: 0..<40, using: &rng))" + (Bool.random(using: &rng) ? "Z" : "a")
      }
      let limit = Int.random(in: 1...10, using: &rng)
      let cut = Int.random(in: 0...values.count, using: &rng)
      var parts = [KeptValues<String, String>(), KeptValues<String, String>()]
      for (i, v) in values.enumerated() where !parts[i < cut ? 0 : 1]["v"].contains(v) {
        _ = parts[i < cut ? 0 : 1].admit(v, of: "v", limit: limit)
      }
      var merged = parts[0]
      merged.formUnion(parts[1]["v"], of: "v")
      let removed = merged.removeBeyond(limit, of: "v")
      let expected = Self.first(limit, of: values) { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }
      #expect(merged["v"] == expected)
      #expect(removed == Array(removed.sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }.reversed()))
      #expect(Set(removed).isDisjoint(with: expected) && Set(removed).isSubset(of: Set(values)))
    }
  }
}
