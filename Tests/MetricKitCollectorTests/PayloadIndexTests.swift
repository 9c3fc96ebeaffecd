import MetricKitAnalysis
import PayloadSynthesis
import Testing

@testable import MetricKitCollector

/// The idempotency index: every id found, no other, and at most 64 bytes an id at every size past
/// its first table's.
@Suite("Payload index")
struct PayloadIndexTests {
  static func id(_ n: Int) -> PayloadID { PayloadID(of: Array("payload \(n)".utf8)) }

  @Test func everyIDIsFoundNoOtherAndAnIDCostsAtMost64Bytes() {
    var index = PayloadIndex()
    #expect(!index.contains(Self.id(0)) && index.bytes == 0)
    var worst = 0.0
    for n in 0..<60_000 {
      index.insert(Self.id(n), day: CalendarDay(daysSinceEpoch: 20_000 + n / 10_000))
      // A table starts at 16 slots: past a few dozen ids, the bound holds at every count.
      if n >= 64 { worst = max(worst, Double(index.bytes) / Double(index.count)) }
    }
    index.insert(Self.id(7), day: CalendarDay(daysSinceEpoch: 1))  // already held: no second entry
    #expect(index.count == 60_000)
    #expect(worst <= 64, "\(worst) bytes an id")
    #expect((0..<60_000).allSatisfy { index.contains(Self.id($0)) })
    #expect(!(60_000..<70_000).contains { index.contains(Self.id($0)) })
    // Retention forgets the days before the cutoff, and only those.
    index.removeAll(before: CalendarDay(daysSinceEpoch: 20_003))
    #expect(index.count == 30_000 && Double(index.bytes) / 30_000 <= 64)
    #expect(
      !(0..<30_000).contains { index.contains(Self.id($0)) }
        && (30_000..<60_000).allSatisfy { index.contains(Self.id($0)) })
    index.removeAll(before: CalendarDay(daysSinceEpoch: 30_000))
    #expect(index.count == 0 && index.bytes == 0 && !index.contains(Self.id(40_000)))
  }
}
