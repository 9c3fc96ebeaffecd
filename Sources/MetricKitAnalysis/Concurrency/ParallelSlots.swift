import Dispatch

/// One result slot per unit of parallel work: each worker writes only its own slots, through a
/// pointer to the slots' storage (never through the array itself, whose uniqueness check and
/// exclusivity bookkeeping would be shared by every thread), and the slots are read after every
/// worker has finished (`DispatchQueue.concurrentPerform` returns only then), so no lock is needed
/// and the results come back in index order whatever the scheduling.
final class ParallelSlots<Value>: @unchecked Sendable {
  private let slots: UnsafeMutableBufferPointer<Value?>

  init(count: Int) {
    slots = .allocate(capacity: count)
    slots.initialize(repeating: nil)
  }

  deinit {
    slots.deinitialize()
    slots.deallocate()
  }

  func store(_ value: Value, at index: Int) { slots[index] = value }

  /// The stored values, in index order.
  var values: [Value] { slots.compactMap { $0 } }

  /// `body` of each index of `0..<count`, computed on up to `threads` threads (each worker taking the
  /// next index not yet taken: a long item does not hold up a worker's share of the others), returned
  /// in index order whatever the scheduling.
  static func map(count: Int, threads: Int, _ body: @Sendable (Int) -> Value) -> [Value] {
    map(count: count, threads: threads, state: {}, { i, _ in body(i) })
  }

  /// ``map(count:threads:_:)`` with one `State` a worker, made by `makeState` on the worker's thread
  /// and handed to each of its calls (a parser reused from index to index).
  static func map<State>(
    count: Int, threads: Int, state makeState: @Sendable () -> State, _ body: @Sendable (Int, inout State) -> Value
  ) -> [Value] {
    let slots = ParallelSlots(count: count)
    let workers = max(1, min(threads, count))
    let next = NextItem()
    DispatchQueue.concurrentPerform(iterations: workers) { _ in
      var state = makeState()
      while let i = next.take(below: count) { slots.store(body(i, &state), at: i) }
    }
    return slots.values
  }

  /// What each of up to `threads` workers (at most one an item of `count`) makes of the items it
  /// takes: `body` is given the worker's number and a function handing out the next item not yet
  /// taken (nil once all are); one value a worker, in the workers' order.
  static func perWorker(
    count: Int, threads: Int, _ body: @Sendable (_ worker: Int, _ next: () -> Int?) -> Value
  ) -> [Value] {
    let workers = max(1, min(threads, count))
    let slots = ParallelSlots(count: workers)
    let next = NextItem()
    DispatchQueue.concurrentPerform(iterations: workers) { worker in
      slots.store(body(worker, { next.take(below: count) }), at: worker)
    }
    return slots.values
  }
}
