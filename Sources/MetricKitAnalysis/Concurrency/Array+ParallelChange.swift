import Dispatch

extension Array where Element: Sendable {
  /// Changes each element in place with `body`, on up to `threads` threads, each thread taking the
  /// next element not yet taken, in the order of `order` (the indices, costliest first, for the
  /// threads to finish together; nil: in index order). An element held nowhere else is changed without
  /// a copy, where mapping into a new array would hold the old elements and the new together until
  /// the last was made.
  mutating func changeEach(threads: Int, order: [Int]? = nil, _ body: @Sendable (inout Element) -> Void) {
    let count = self.count
    let workers = Swift.max(1, Swift.min(threads, count))
    let next = NextItem()
    withUnsafeMutableBufferPointer { buffer in
      // Each index is taken by one worker only, and read after every worker has finished.
      nonisolated(unsafe) let elements = buffer
      DispatchQueue.concurrentPerform(iterations: workers) { _ in
        while let k = next.take(below: count) { body(&elements[order?[k] ?? k]) }
      }
    }
  }
}
