import CMetricsJSON
import Foundation
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Counts the buffers a reader holds, so that tests can prove reading is bounded: however large the
/// dump, no more than a few buffers per thread exist at once.
final class BufferTracker: Sendable {
  private let live = Atomic<Int>(0)
  private let peak = Atomic<Int>(0)
  private let peakLargeBytes = Atomic<Int>(0)
  private let largeBytes = Atomic<Int>(0)

  /// Buffers alive now.
  var liveCount: Int { live.load(ordering: .relaxed) }
  /// The most buffers alive at once.
  var peakCount: Int { peak.load(ordering: .relaxed) }
  /// The most bytes held at once in buffers over `LargeBufferGate.threshold`.
  var peakLargeByteCount: Int { peakLargeBytes.load(ordering: .relaxed) }

  func allocated() {
    Self.raise(peak, to: live.add(1, ordering: .relaxed).newValue)
  }

  func released() { live.subtract(1, ordering: .relaxed) }

  func large(_ delta: Int) {
    Self.raise(peakLargeBytes, to: largeBytes.add(delta, ordering: .relaxed).newValue)
  }

  private static func raise(_ peak: borrowing Atomic<Int>, to now: Int) {
    var seen = peak.load(ordering: .relaxed)
    while now > seen {
      let (exchanged, original) = peak.compareExchange(expected: seen, desired: now, ordering: .relaxed)
      if exchanged { break }
      seen = original
    }
  }
}

/// Lets one thread at a time hold buffers larger than `threshold` (a big file read whole, a gzip file
/// inflating, a very long NDJSON line), so that peak memory is about one size limit plus a small
/// buffer per thread, not the number of threads times the limit. Re-entrant: the thread that holds
/// it may allocate more large buffers (a compressed file and its inflated bytes).
final class LargeBufferGate: @unchecked Sendable {
  /// Buffers up to this size are allocated freely.
  static let threshold = 16 << 20
  /// The gate every reader shares.
  static let shared = LargeBufferGate()

  private let condition = NSCondition()
  private var owner: pthread_t?
  private var holds = 0

  func enter() {
    condition.lock()
    let me = pthread_self()
    while let owner, pthread_equal(owner, me) == 0 { condition.wait() }
    owner = me
    holds += 1
    condition.unlock()
  }

  func leave() {
    condition.lock()
    holds -= 1
    if holds == 0 {
      owner = nil
      condition.broadcast()
    }
    condition.unlock()
  }
}

/// Bytes of input (a whole file, or a window of a streamed one) followed by zeroed padding that the
/// JSON parser may read past the end of any document inside it.
final class PaddedBuffer: @unchecked Sendable {
  /// The padding simdjson needs after the last byte of a document.
  static let padding = mr_json_padding()

  private var storage: UnsafeMutableRawPointer
  private let tracker: BufferTracker?
  /// Whether this buffer holds the large-buffer gate.
  private var holdsGate = false
  /// The room for meaningful bytes (the padding not included).
  private(set) var capacity: Int
  /// The number of meaningful bytes, at most `capacity`.
  private(set) var count: Int

  /// Allocates room for `capacity` bytes plus zeroed padding; `count` starts at `capacity`. The room
  /// is not cleared: it is there to be filled.
  /// - Throws: when the system has not that much memory to give (limits can be set very high).
  init(count capacity: Int, tracker: BufferTracker? = nil) throws(InputError) {
    // The gate is taken before the memory, so that waiting threads hold none.
    let large = capacity > LargeBufferGate.threshold
    if large { LargeBufferGate.shared.enter() }
    guard let memory = malloc(capacity + Self.padding) else {
      if large { LargeBufferGate.shared.leave() }
      throw InputError(reason: "out of memory: cannot allocate \(capacity) bytes")
    }
    self.capacity = capacity
    self.tracker = tracker
    count = capacity
    storage = memory
    holdsGate = large
    if large { tracker?.large(capacity) }
    (storage + capacity).initializeMemory(as: UInt8.self, repeating: 0, count: Self.padding)
    tracker?.allocated()
  }

  /// Copies `bytes` into a new padded buffer.
  convenience init(copying bytes: UnsafeRawBufferPointer, tracker: BufferTracker? = nil) throws(InputError) {
    try self.init(count: bytes.count, tracker: tracker)
    if let base = bytes.baseAddress, bytes.count > 0 {
      storage.copyMemory(from: base, byteCount: bytes.count)
    }
  }

  deinit {
    free(storage)
    tracker?.released()
    if holdsGate {
      tracker?.large(-capacity)
      LargeBufferGate.shared.leave()
    }
  }

  /// Makes room for `newCapacity` bytes, keeping the meaningful ones (in place where the allocator
  /// can, so growing a large buffer does not need twice its size).
  /// - Throws: when the system has not that much memory to give; the buffer is unchanged then.
  func grow(to newCapacity: Int) throws(InputError) {
    guard newCapacity > capacity else { return }
    let entering = newCapacity > LargeBufferGate.threshold && !holdsGate
    if entering { LargeBufferGate.shared.enter() }
    guard let memory = realloc(storage, newCapacity + Self.padding) else {
      if entering { LargeBufferGate.shared.leave() }
      throw InputError(reason: "out of memory: cannot grow a buffer to \(newCapacity) bytes")
    }
    storage = memory
    if entering {
      holdsGate = true
      tracker?.large(newCapacity)
    } else if holdsGate {
      tracker?.large(newCapacity - capacity)
    }
    capacity = newCapacity
    (storage + capacity).initializeMemory(as: UInt8.self, repeating: 0, count: Self.padding)
  }

  /// Sets how many bytes are meaningful.
  func setCount(_ n: Int) {
    precondition(n >= 0 && n <= capacity, "internal: buffer count out of range")
    count = n
  }

  /// The meaningful bytes; `padding` readable bytes follow them.
  var bytes: UnsafeRawBufferPointer { UnsafeRawBufferPointer(start: storage, count: count) }

  /// The whole room, for filling.
  var room: UnsafeMutableRawBufferPointer { UnsafeMutableRawBufferPointer(start: storage, count: capacity) }
}
