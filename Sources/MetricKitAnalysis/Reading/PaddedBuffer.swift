import CMetricsJSON

/// The bytes of one input file (decompressed), followed by zeroed padding that the JSON parser may
/// read past the end of any document inside it.
final class PaddedBuffer: @unchecked Sendable {
  /// The padding simdjson needs after the last byte of a document.
  static let padding = mr_json_padding()

  private let storage: UnsafeMutableRawBufferPointer
  /// The number of meaningful bytes (the padding not included).
  let count: Int

  /// Allocates room for `count` bytes plus padding, all zeroed.
  init(count: Int) {
    self.count = count
    storage = .allocate(byteCount: count + Self.padding, alignment: 64)
    storage.initializeMemory(as: UInt8.self, repeating: 0)
  }

  /// Copies `bytes` into a new padded buffer.
  convenience init(copying bytes: UnsafeRawBufferPointer) {
    self.init(count: bytes.count)
    if let base = bytes.baseAddress, bytes.count > 0 {
      storage.baseAddress?.copyMemory(from: base, byteCount: bytes.count)
    }
  }

  deinit { storage.deallocate() }

  /// The meaningful bytes; `padding` readable bytes follow them.
  var bytes: UnsafeRawBufferPointer { UnsafeRawBufferPointer(rebasing: storage[0..<count]) }

  /// Writable access to the meaningful bytes, for the file reader.
  var mutableBytes: UnsafeMutableRawBufferPointer {
    UnsafeMutableRawBufferPointer(rebasing: storage[0..<count])
  }
}
