import Foundation

/// The events of a read as an `AsyncSequence` (``PayloadReader/events(paths:)``): a reader thread
/// fills a small buffer that the consumer drains; the thread waits while the buffer is full.
public struct PayloadEvents: AsyncSequence, Sendable {
  public typealias Element = ReadEvent

  let reader: PayloadReader
  let paths: [String]

  /// Starts reading when iteration starts.
  public func makeAsyncIterator() -> Iterator {
    let channel = Channel(capacity: 64)
    let reader = reader
    let paths = paths
    let thread = Thread {
      reader.read(paths: paths) { event in channel.send(event) }
      channel.finish()
    }
    thread.stackSize = 8 << 20
    thread.start()
    return Iterator(consumer: Consumer(channel: channel))
  }

  /// Hands out the events in file order.
  public struct Iterator: AsyncIteratorProtocol {
    let consumer: Consumer

    /// The next event; nil after the last.
    public mutating func next() async -> ReadEvent? { await consumer.channel.receive() }
  }

  /// Owned by the iterator alone (the reader thread holds the channel): when the consumer stops
  /// iterating, it goes, and tells the reader to stop waiting and drop what it still reads.
  final class Consumer: Sendable {
    let channel: Channel
    init(channel: Channel) { self.channel = channel }
    deinit { channel.cancel() }
  }

  /// A bounded hand-off between the reader thread and the async consumer.
  final class Channel: @unchecked Sendable {
    private let condition = NSCondition()
    private var buffer: [ReadEvent] = []
    private var head = 0
    private var finished = false
    private var cancelled = false
    private var waiting: CheckedContinuation<ReadEvent?, Never>?
    private let capacity: Int

    init(capacity: Int) { self.capacity = capacity }

    /// The consumer is gone: the reader thread no longer waits, and what it sends is dropped.
    func cancel() {
      condition.lock()
      cancelled = true
      buffer = []
      head = 0
      condition.broadcast()
      condition.unlock()
    }

    /// Called by the reader thread; waits while the buffer is full.
    func send(_ event: ReadEvent) {
      condition.lock()
      while buffer.count - head >= capacity && !cancelled { condition.wait() }
      if cancelled {
        condition.unlock()
        return
      }
      if let continuation = waiting {
        waiting = nil
        condition.unlock()
        continuation.resume(returning: event)
        return
      }
      buffer.append(event)
      condition.unlock()
    }

    func finish() {
      condition.lock()
      finished = true
      let continuation = waiting
      waiting = nil
      condition.unlock()
      continuation?.resume(returning: nil)
    }

    func receive() async -> ReadEvent? {
      await withCheckedContinuation { (continuation: CheckedContinuation<ReadEvent?, Never>) in
        condition.lock()
        if head < buffer.count {
          let event = buffer[head]
          head += 1
          if head > 1024 {
            buffer.removeFirst(head)
            head = 0
          }
          condition.broadcast()
          condition.unlock()
          continuation.resume(returning: event)
        } else if finished {
          condition.unlock()
          continuation.resume(returning: nil)
        } else {
          waiting = continuation
          condition.unlock()
        }
      }
    }
  }
}
