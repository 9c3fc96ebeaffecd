import CMetricsJSON

/// A read-only view of one value inside a document parsed by `JSONParser`. It is valid only inside
/// the `parse` closure that produced it.
struct JSONValue {
  let nodes: UnsafeBufferPointer<mr_json_node>
  let index: Int

  /// The kinds of JSON value.
  enum Kind {
    case null, bool, integer, double, string, array, object
  }

  @inline(__always) var node: mr_json_node { nodes[index] }

  var kind: Kind {
    switch Int(node.kind) {
    case MR_JSON_NULL: .null
    case MR_JSON_FALSE, MR_JSON_TRUE: .bool
    case MR_JSON_INT64, MR_JSON_UINT64: .integer
    case MR_JSON_DOUBLE: .double
    case MR_JSON_STRING: .string
    case MR_JSON_ARRAY: .array
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

  /// The UTF-8 bytes of a string value.
  var stringBytes: UnsafeBufferPointer<UInt8>? {
    let n = node
    guard Int(n.kind) == MR_JSON_STRING, let p = n.string else { return nil }
    return UnsafeBufferPointer(
      start: UnsafeRawPointer(p).assumingMemoryBound(to: UInt8.self), count: Int(n.string_length))
  }

  /// A string value as a Swift string.
  var string: String? { stringBytes.map { String(decoding: $0, as: UTF8.self) } }

  /// An integer value; a double only when it is integral and in range.
  var int64: Int64? {
    let n = node
    switch Int(n.kind) {
    case MR_JSON_INT64: return n.number.int64
    case MR_JSON_UINT64: return n.number.uint64 <= UInt64(Int64.max) ? Int64(n.number.uint64) : nil
    case MR_JSON_DOUBLE:
      let d = n.number.float64
      return d == d.rounded() && abs(d) < 9.2e18 ? Int64(d) : nil
    default: return nil
    }
  }

  /// A numeric value as a double.
  var double: Double? {
    let n = node
    switch Int(n.kind) {
    case MR_JSON_INT64: return Double(n.number.int64)
    case MR_JSON_UINT64: return Double(n.number.uint64)
    case MR_JSON_DOUBLE: return n.number.float64
    default: return nil
    }
  }

  /// A boolean value.
  var bool: Bool? {
    switch Int(node.kind) {
    case MR_JSON_TRUE: true
    case MR_JSON_FALSE: false
    default: nil
    }
  }

  /// The number of elements or members of a container.
  var count: Int { Int(node.count) }

  /// The member name of this value when its parent is an object.
  var keyBytes: UnsafeBufferPointer<UInt8> {
    let n = node
    guard let p = n.key else { return UnsafeBufferPointer(start: nil, count: 0) }
    return UnsafeBufferPointer(
      start: UnsafeRawPointer(p).assumingMemoryBound(to: UInt8.self), count: Int(n.key_length))
  }

  /// The member name as a Swift string.
  var key: String { String(decoding: keyBytes, as: UTF8.self) }

  /// Whether the member name equals `name`, without making a string.
  @inline(__always)
  func keyEquals(_ name: StaticString) -> Bool {
    let n = node
    guard Int(n.key_length) == name.utf8CodeUnitCount, let p = n.key else { return false }
    return memcmp(p, name.utf8Start, name.utf8CodeUnitCount) == 0
  }

  /// The children of an array or object, in document order.
  var children: Children { Children(nodes: nodes, parent: index) }

  /// The member called `name`, if this is an object that has it.
  func member(_ name: StaticString) -> JSONValue? {
    guard Int(node.kind) == MR_JSON_OBJECT else { return nil }
    for child in children where child.keyEquals(name) { return child }
    return nil
  }

  /// The children of a container, walked by sibling links.
  struct Children: Sequence {
    let nodes: UnsafeBufferPointer<mr_json_node>
    let parent: Int

    struct Iterator: IteratorProtocol {
      let nodes: UnsafeBufferPointer<mr_json_node>
      var position: Int
      let end: Int
      mutating func next() -> JSONValue? {
        guard position < end else { return nil }
        let value = JSONValue(nodes: nodes, index: position)
        position = Int(nodes[position].end)
        return value
      }
    }

    func makeIterator() -> Iterator {
      let kind = Int(nodes[parent].kind)
      let isContainer = kind == MR_JSON_ARRAY || kind == MR_JSON_OBJECT
      return Iterator(nodes: nodes, position: parent + 1, end: isContainer ? Int(nodes[parent].end) : parent + 1)
    }
  }
}

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif
