/// One result slot per unit of parallel work: each worker writes only its own slots, and the slots
/// are read after every worker has finished (`DispatchQueue.concurrentPerform` returns only then), so
/// no lock is needed and the results come back in index order whatever the scheduling.
final class ParallelSlots<Value>: @unchecked Sendable {
  private var slots: [Value?]

  init(count: Int) { slots = Array(repeating: nil, count: count) }

  func store(_ value: Value, at index: Int) { slots[index] = value }

  /// The stored values, in index order.
  var values: [Value] { slots.compactMap { $0 } }
}
