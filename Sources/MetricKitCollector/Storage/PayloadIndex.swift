import MetricKitAnalysis

/// The ids a store holds for one bundle, each with the day it was filed under: an open-addressing
/// table of 32-byte ids and 4-byte days, kept between 64% and 80% full (it grows by a quarter), so
/// that an id costs 36 bytes divided by the load: 45 to 56 bytes, at most 64 whatever the count.
///
/// An id is a SHA-256 digest: its first eight bytes are its hash, spread evenly by construction.
struct PayloadIndex: Sendable {
  private var ids: [PayloadID]
  private var days: [Int32]
  /// How many ids it holds.
  private(set) var count = 0

  /// The day a free slot holds.
  private static let free = Int32.min
  private static let placeholder = PayloadID(bytes: [UInt8](repeating: 0, count: 32))!

  init() {
    ids = []
    days = []
  }

  /// The bytes its table takes.
  var bytes: Int { ids.count * (MemoryLayout<PayloadID>.stride + MemoryLayout<Int32>.stride) }

  /// Whether it holds `id`.
  func contains(_ id: PayloadID) -> Bool {
    guard !ids.isEmpty else { return false }
    var slot = Self.home(of: id, in: ids.count)
    while days[slot] != Self.free {
      if ids[slot] == id { return true }
      slot = slot + 1 == ids.count ? 0 : slot + 1
    }
    return false
  }

  /// Adds `id`, filed under `day` (an id already held keeps its day).
  mutating func insert(_ id: PayloadID, day: CalendarDay) {
    if (count + 1) * 5 > ids.count * 4 { grow() }
    var slot = Self.home(of: id, in: ids.count)
    while days[slot] != Self.free {
      if ids[slot] == id { return }
      slot = slot + 1 == ids.count ? 0 : slot + 1
    }
    ids[slot] = id
    days[slot] = Int32(clamping: day.daysSinceEpoch)
    count += 1
  }

  /// Forgets every id filed under a day before `cutoff`.
  mutating func removeAll(before cutoff: CalendarDay) {
    let limit = Int32(clamping: cutoff.daysSinceEpoch)
    let kept = zip(ids, days).filter { $0.1 != Self.free && $0.1 >= limit }
    rebuild(capacity: Self.capacity(for: kept.count), kept)
  }

  private mutating func grow() {
    let held = zip(ids, days).filter { $0.1 != Self.free }
    rebuild(capacity: max(16, ids.count + ids.count / 4 + 1), held)
  }

  private mutating func rebuild(capacity: Int, _ entries: [(PayloadID, Int32)]) {
    ids = Array(repeating: Self.placeholder, count: capacity)
    days = Array(repeating: Self.free, count: capacity)
    count = 0
    for (id, day) in entries {
      var slot = Self.home(of: id, in: capacity)
      while days[slot] != Self.free { slot = slot + 1 == capacity ? 0 : slot + 1 }
      ids[slot] = id
      days[slot] = day
      count += 1
    }
  }

  /// The capacity that holds `count` ids at most 80% full (none for none).
  private static func capacity(for count: Int) -> Int { count == 0 ? 0 : max(16, (count * 5 + 3) / 4) }

  /// Where `id` is looked for first: its hash scaled to the table (no modulo, no power of two).
  private static func home(of id: PayloadID, in capacity: Int) -> Int {
    Int(id.prefix.multipliedFullWidth(by: UInt64(capacity)).high)
  }
}
