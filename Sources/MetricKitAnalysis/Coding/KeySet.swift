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
    var shape: JSONValue.StringShape
    var bytes: [UInt8]
  }

  private let patterns: [Pattern]

  /// The keys, in the order `index(of:)` numbers them.
  init(_ keys: [StaticString]) {
    patterns = keys.map { key in
      let bytes = Array(UnsafeBufferPointer(start: key.utf8Start, count: key.utf8CodeUnitCount))
      return Pattern(shape: JSONValue.StringShape(bytes), bytes: bytes)
    }
  }

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
  /// A string's length and its first and last eight bytes (little-endian, zero-extended when
  /// shorter): for strings of up to 16 bytes, the whole string, compared as three integers. Member
  /// names are matched by it (``KeySet``), measurement strings cached by it (``MeasurementCache``).
  struct StringShape: Equatable, Sendable {
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

    /// The shape of a string of a parsed document, read as unaligned words straight from its bytes
    /// (copying them out first stalls on store forwarding). Reads eight bytes from the start even of
    /// a shorter string: every string of simdjson's string buffer is followed by readable bytes (its
    /// terminator, the next string, or the buffer's `SIMDJSON_PADDING` beyond the most its strings
    /// can take).
    @inline(__always)
    init(documentString bytes: UnsafeBufferPointer<UInt8>) {
      let n = bytes.count
      let raw = UnsafeRawPointer(bytes.baseAddress!)
      let first = UInt64(littleEndian: raw.loadUnaligned(as: UInt64.self))
      length = n
      if n >= 8 {
        head = first
        tail = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: n - 8, as: UInt64.self))
      } else {
        head = first & ((1 &<< UInt64(8 * n)) &- 1)
        tail = head
      }
    }
  }

  /// The shape of this member's name, nil when the parent is not an object.
  @inline(__always)
  var keyShape: StringShape? {
    keyIndex >= 0 ? StringShape(documentString: keyBytes) : nil
  }
}
