import Synchronization

/// The shared counter threads take work items from: each index below the limit is taken once.
final class NextItem: Sendable {
  private let counter = Atomic<Int>(0)

  func take(below limit: Int) -> Int? {
    let index = counter.add(1, ordering: .relaxed).oldValue
    return index < limit ? index : nil
  }
}
