import Foundation
import PayloadSynthesis
import Testing

@testable import MetricKitAnalysis

/// The rejections listed: bounded, and the same whatever threads and order did the work.
@Suite("Rejection list")
struct RejectionListTests {
  @Test func theRejectionsKeptDoNotDependOnHowTheWorkWasSplit() {
    var rng = SplitMix64(seed: 99)
    let paths = (0..<40).map { "dump/file-\($0).ndjson" }
    let reasons = ["invalid JSON", "empty file", "at x: unknown unit \"eons\" in \"3 eons\"", "line 12 is too long"]
    let all = (0..<5_000).map { _ in
      Rejection(
        location: PayloadLocation(path: paths[Int(rng.next() % 40)], line: Int(rng.next() % 10_000)),
        reason: reasons[Int(rng.next() % 4)])
    }
    var whole = RejectionList(limit: 50, perFileLimit: 3)
    for r in all { whole.append(r) }
    for seed in 0..<20 {
      var split = SplitMix64(seed: UInt64(seed))
      var parts = (0..<(1 + Int(split.next() % 5))).map { _ in RejectionList(limit: 50, perFileLimit: 3) }
      for r in all.shuffled(using: &split) { parts[Int(split.next() % UInt64(parts.count))].append(r) }
      var merged = RejectionList(limit: 50, perFileLimit: 3)
      for part in parts.shuffled(using: &split) { merged.merge(part) }
      #expect(merged.listed == whole.listed, "seed \(seed)")
      #expect(merged.count == 5_000 && merged.countsByReason == whole.countsByReason)
    }
    // The kept ones are the canonically first, at most 3 per file, 50 in all.
    let expected = Dictionary(grouping: all.sorted(by: Rejection.canonicalOrder), by: \.location.path)
      .values.flatMap { $0.prefix(3) }.sorted(by: Rejection.canonicalOrder).prefix(50)
    #expect(whole.listed == Array(expected))
    // Lines 12 and 13 are one cause; omitted counts add up.
    #expect(RejectionList.reasonKey("line 12 is too long") == RejectionList.reasonKey("line 13 is too long"))
    #expect(whole.omitted.reduce(0) { $0 + $1.count } == 5_000 - 50)
  }
}
