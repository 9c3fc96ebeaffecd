import CMetricsJSON
import Synchronization

/// Counts the buffers a reader holds, so that tests can prove reading is bounded: however large the
/// dump, no more than a few buffers per thread exist at once.
final class BufferTracker: Sendable {
  private let live = Atomic<Int>(0)
  private let peak = Atomic<Int>(0)

  /// Buffers alive now.
  var liveCount: Int { live.load(ordering: .relaxed) }
  /// The most buffers alive at once.
  var peakCount: Int { peak.load(ordering: .relaxed) }

  func allocated() {
    let now = live.add(1, ordering: .relaxed).newValue
    var seen = peak.load(ordering: .relaxed)
    while now > seen {
      let (exchanged, original) = peak.compareExchange(expected: seen, desired: now, ordering: .relaxed)
      if exchanged { break }
      seen = original
    }
  }

  func released() { live.subtract(1, ordering: .relaxed) }
}

/// Bytes of input (a whole file, or a window of a streamed one) followed by zeroed padding that the
/// JSON parser may read past the end of any document inside it.
final class PaddedBuffer: @unchecked Sendable {
  /// The padding simdjson needs after the last byte of a document.
  static let padding = mr_json_padding()

  private let storage: UnsafeMutableRawBufferPointer
  private let tracker: BufferTracker?
  /// The room for meaningful bytes (the padding not included).
  let capacity: Int
  /// The number of meaningful bytes, at most `capacity`; the bytes after them up to the padding's
  /// end are kept zero by `setCount`.
  private(set) var count: Int

  /// Allocates room for `capacity` bytes plus padding, all zeroed; `count` starts at `capacity`.
  init(count capacity: Int, tracker: BufferTracker? = nil) {
    self.capacity = capacity
    self.tracker = tracker
    count = capacity
    storage = .allocate(byteCount: capacity + Self.padding, alignment: 64)
    storage.initializeMemory(as: UInt8.self, repeating: 0)
    tracker?.allocated()
  }

  /// Copies `bytes` into a new padded buffer.
  convenience init(copying bytes: UnsafeRawBufferPointer, tracker: BufferTracker? = nil) {
    self.init(count: bytes.count, tracker: tracker)
    if let base = bytes.baseAddress, bytes.count > 0 {
      storage.baseAddress?.copyMemory(from: base, byteCount: bytes.count)
    }
  }

  deinit {
    storage.deallocate()
    tracker?.released()
  }
  /// Sets how many bytes are meaningful, zeroing what follows so the padding stays clean.
  func setCount(_ n: Int) {
    precondition(n >= 0 && n <= capacity, "internal: buffer count out of range")
    if n < count {
      UnsafeMutableRawBufferPointer(rebasing: storage[n..<count]).initializeMemory(as: UInt8.self, repeating: 0)
    }
    count = n
  }

  /// The meaningful bytes; `padding` readable bytes follow them.
  var bytes: UnsafeRawBufferPointer { UnsafeRawBufferPointer(rebasing: storage[0..<count]) }

  /// The whole room, for filling.
  var room: UnsafeMutableRawBufferPointer { UnsafeMutableRawBufferPointer(rebasing: storage[0..<capacity]) }
}
