#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A fixed set of object keys, matched against a member's name as integers: its length and its first
/// and last eight bytes, then (for names longer than 16 bytes, on a candidate only) the bytes between.
/// MetricKit's keys differ in those almost always, so finding a member's key among a section's costs
/// a few integer comparisons per key, not a byte loop each.
struct KeySet: Sendable {
  /// A key as matched.
  private struct Pattern: Sendable {
    var shape: JSONValue.KeyShape
    var bytes: [UInt8]
  }

  private let patterns: [Pattern]

  /// The keys, in the order `index(of:)` numbers them.
  init(_ keys: [StaticString]) {
    patterns = keys.map { key in
      let bytes = Array(UnsafeBufferPointer(start: key.utf8Start, count: key.utf8CodeUnitCount))
      return Pattern(shape: JSONValue.KeyShape(bytes), bytes: bytes)
    }
  }

  /// The number of keys.
  var count: Int { patterns.count }

  /// The position of the member's name among the keys, nil when it is none of them (or `value` is
  /// not an object member).
  @inline(__always)
  func index(of member: JSONValue) -> Int? {
    guard let shape = member.keyShape else { return nil }
    for i in patterns.indices where patterns[i].shape == shape {
      if shape.length <= 16
        || patterns[i].bytes.withUnsafeBytes({
          memcmp($0.baseAddress!, member.keyBytes.baseAddress!, shape.length) == 0
        })
      {
        return i
      }
    }
    return nil
  }
}

extension JSONValue {
  /// A member name's length and its first and last eight bytes (little-endian, zero-extended when
  /// shorter): for names of up to 16 bytes, the whole name.
  struct KeyShape: Equatable, Sendable {
    var length: Int
    var head: UInt64
    var tail: UInt64

    /// The shape of `bytes` (building key sets: byte by byte, reading nothing past the end).
    init(_ bytes: [UInt8]) {
      func word(_ range: Range<Int>) -> UInt64 {
        var w: UInt64 = 0
        for (shift, i) in range.enumerated() { w |= UInt64(bytes[i]) << (8 * UInt64(shift)) }
        return w
      }
      length = bytes.count
      head = word(0..<min(8, bytes.count))
      tail = bytes.count >= 8 ? word((bytes.count - 8)..<bytes.count) : head
    }

    init(length: Int, head: UInt64, tail: UInt64) {
      self.length = length
      self.head = head
      self.tail = tail
    }
  }

  /// The shape of this member's name, nil when the parent is not an object. Reads eight bytes from
  /// the name's start even when it is shorter: every string of simdjson's string buffer is followed
  /// by readable bytes (its terminator, the next string, or the buffer's `SIMDJSON_PADDING`).
  @inline(__always)
  var keyShape: KeyShape? {
    guard keyIndex >= 0 else { return nil }
    let bytes = keyBytes
    let n = bytes.count
    let raw = UnsafeRawPointer(bytes.baseAddress!)
    let first = UInt64(littleEndian: raw.loadUnaligned(as: UInt64.self))
    if n >= 8 {
      let last = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: n - 8, as: UInt64.self))
      return KeyShape(length: n, head: first, tail: last)
    }
    let head = first & ((1 &<< UInt64(8 * n)) &- 1)
    return KeyShape(length: n, head: head, tail: head)
  }
}
