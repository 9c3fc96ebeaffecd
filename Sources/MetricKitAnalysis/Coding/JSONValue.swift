import CMetricsJSON

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A read-only view of one value inside a document parsed by `JSONParser`, walking simdjson's tape
/// in place (see `mr_json.h` for the format). It is valid only inside the `parse` closure that
/// produced it.
struct JSONValue {
  let tape: UnsafePointer<UInt64>
  let strings: UnsafePointer<UInt8>
  /// The tape index of the value.
  let index: Int
  /// The tape index of the member name when the parent is an object, else -1.
  let keyIndex: Int

  /// The kinds of JSON value.
  enum Kind {
    case null, bool, integer, double, string, array, object
  }

  @inline(__always) private var word: UInt64 { tape[index] }
  @inline(__always) private var type: UInt8 { UInt8(truncatingIfNeeded: word >> 56) }
  @inline(__always) private var payload: UInt64 { word & 0x00FF_FFFF_FFFF_FFFF }

  var kind: Kind {
    switch Int(type) {
    case MR_TAPE_NULL: .null
    case MR_TAPE_TRUE, MR_TAPE_FALSE: .bool
    case MR_TAPE_INT64, MR_TAPE_UINT64: .integer
    case MR_TAPE_DOUBLE: .double
    case MR_TAPE_STRING: .string
    case MR_TAPE_START_ARRAY: .array
    default: .object
    }
  }

  /// A short name of the kind, for error messages.
  var kindName: String {
    switch kind {
    case .null: "null"
    case .bool: "a boolean"
    case .integer, .double: "a number"
    case .string: "a string"
    case .array: "an array"
    case .object: "an object"
    }
  }

  /// The bytes of the string whose tape word is at `i` (any string of this value's document).
  @inline(__always)
  func stringBytes(at i: Int) -> UnsafeBufferPointer<UInt8> {
    let offset = Int(tape[i] & 0x00FF_FFFF_FFFF_FFFF)
    let length = UnsafeRawPointer(strings + offset).loadUnaligned(as: UInt32.self)
    return UnsafeBufferPointer(start: strings + offset + 4, count: Int(UInt32(littleEndian: length)))
  }

  /// The UTF-8 bytes of a string value.
  var stringBytes: UnsafeBufferPointer<UInt8>? {
    Int(type) == MR_TAPE_STRING ? stringBytes(at: index) : nil
  }

  /// A string value as a Swift string.
  var string: String? { stringBytes.map { String(decoding: $0, as: UTF8.self) } }

  /// The 64 bits after a number's tape word.
  @inline(__always) private var numberBits: UInt64 { tape[index + 1] }

  /// An integer value; a double only when it is integral and in range.
  var int64: Int64? {
    switch Int(type) {
    case MR_TAPE_INT64: return Int64(bitPattern: numberBits)
    case MR_TAPE_UINT64: return numberBits <= UInt64(Int64.max) ? Int64(numberBits) : nil
    case MR_TAPE_DOUBLE:
      let d = Double(bitPattern: numberBits)
      return d == d.rounded() && abs(d) < 9.2e18 ? Int64(d) : nil
    default: return nil
    }
  }

  /// A non-negative integer value, including those beyond `Int64.max`.
  var uint64: UInt64? {
    switch Int(type) {
    case MR_TAPE_UINT64: return numberBits
    case MR_TAPE_INT64: return Int64(bitPattern: numberBits) >= 0 ? numberBits : nil
    default: return nil
    }
  }

  /// A numeric value as a double.
  var double: Double? {
    switch Int(type) {
    case MR_TAPE_INT64: return Double(Int64(bitPattern: numberBits))
    case MR_TAPE_UINT64: return Double(numberBits)
    case MR_TAPE_DOUBLE: return Double(bitPattern: numberBits)
    default: return nil
    }
  }

  /// A boolean value.
  var bool: Bool? {
    switch Int(type) {
    case MR_TAPE_TRUE: true
    case MR_TAPE_FALSE: false
    default: nil
    }
  }

  /// The index one past this value on the tape.
  @inline(__always) var end: Int {
    switch Int(type) {
    case MR_TAPE_START_ARRAY, MR_TAPE_START_OBJECT: Int(UInt32(truncatingIfNeeded: word))
    case MR_TAPE_INT64, MR_TAPE_UINT64, MR_TAPE_DOUBLE: index + 2
    default: index + 1
    }
  }

  /// The number of elements or members of a container.
  var count: Int {
    let t = Int(type)
    guard t == MR_TAPE_START_ARRAY || t == MR_TAPE_START_OBJECT else { return 0 }
    let scoped = Int((word >> 32) & 0xFF_FFFF)
    return scoped < 0xFF_FFFF ? scoped : children.reduce(0) { n, _ in n + 1 }  // saturated: count them
  }

  /// The member name of this value when its parent is an object.
  var keyBytes: UnsafeBufferPointer<UInt8> {
    keyIndex >= 0 ? stringBytes(at: keyIndex) : UnsafeBufferPointer(start: nil, count: 0)
  }

  /// The member name as a Swift string.
  var key: String { String(decoding: keyBytes, as: UTF8.self) }

  /// The member name as a non-negative decimal index (`"10"`), without making a string; nil when it
  /// is not one.
  var keyIndexValue: Int? {
    let bytes = keyBytes
    guard !bytes.isEmpty, bytes.count <= 18 else { return nil }
    var n = 0
    for b in bytes {
      let d = b &- 0x30
      guard d < 10 else { return nil }
      n = n * 10 + Int(d)
    }
    return n
  }

  /// Whether the member name equals `name`, without making a string.
  @inline(__always)
  func keyEquals(_ name: StaticString) -> Bool {
    guard keyIndex >= 0 else { return false }
    let key = stringBytes(at: keyIndex)
    let count = name.utf8CodeUnitCount
    guard key.count == count else { return false }
    // Keys are short: a byte loop beats a call to memcmp, and most mismatches end at the first byte.
    let expected = name.utf8Start
    for i in 0..<count where key[i] != expected[i] { return false }
    return true
  }

  /// The children of an array or object, in document order.
  var children: Children { Children(value: self) }

  /// The member called `name`, if this is an object that has it.
  func member(_ name: StaticString) -> JSONValue? {
    guard Int(type) == MR_TAPE_START_OBJECT else { return nil }
    for child in children where child.keyEquals(name) { return child }
    return nil
  }

  /// The children of a container, walked along the tape.
  struct Children: Sequence {
    let value: JSONValue

    struct Iterator: IteratorProtocol {
      let tape: UnsafePointer<UInt64>
      let strings: UnsafePointer<UInt8>
      var position: Int
      let end: Int
      let isObject: Bool

      mutating func next() -> JSONValue? {
        guard position < end else { return nil }
        let child: JSONValue
        if isObject {
          child = JSONValue(tape: tape, strings: strings, index: position + 1, keyIndex: position)
        } else {
          child = JSONValue(tape: tape, strings: strings, index: position, keyIndex: -1)
        }
        position = child.end
        return child
      }
    }

    func makeIterator() -> Iterator {
      let t = Int(value.type)
      guard t == MR_TAPE_START_ARRAY || t == MR_TAPE_START_OBJECT else {
        return Iterator(tape: value.tape, strings: value.strings, position: 0, end: 0, isObject: false)
      }
      // The close word sits just before the index the open word points past.
      return Iterator(
        tape: value.tape, strings: value.strings, position: value.index + 1, end: value.end - 1,
        isObject: t == MR_TAPE_START_OBJECT)
    }
  }
}
