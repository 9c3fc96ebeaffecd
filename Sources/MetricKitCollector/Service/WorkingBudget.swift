import Synchronization

/// The bytes being inflated and decoded at once, against one limit.
final class WorkingBudget: Sendable {
  private let used = Atomic<Int>(0)
  let limit: Int

  init(limit: Int) { self.limit = limit }

  /// Takes `bytes` of the budget; false (and nothing taken) when that would pass the limit. A request
  /// alone is always let through, whatever its size, so that the limit never refuses every request.
  func reserve(_ bytes: Int) -> Bool {
    var current = used.load(ordering: .relaxed)
    while true {
      if current > 0 && current + bytes > limit { return false }
      let (exchanged, original) = used.compareExchange(
        expected: current, desired: current + bytes, ordering: .acquiringAndReleasing)
      if exchanged { return true }
      current = original
    }
  }

  func release(_ bytes: Int) { used.subtract(bytes, ordering: .acquiringAndReleasing) }
}
